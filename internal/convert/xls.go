package convert

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"
)

// BIFF8 record types (MS-XLS 2.3).
const (
	xlsBOF         = 0x0809
	xlsEOF         = 0x000A
	xlsBoundSheet  = 0x0085
	xlsSST         = 0x00FC
	xlsContinue    = 0x003C
	xlsFilePass    = 0x002F
	xlsFormat      = 0x041E
	xlsXF          = 0x00E0
	xlsDateMode    = 0x0022
	xlsLabelSST    = 0x00FD
	xlsNumber      = 0x0203
	xlsRK          = 0x027E
	xlsMulRK       = 0x00BD
	xlsLabel       = 0x0204
	xlsRString     = 0x00D6
	xlsBoolErr     = 0x0205
	xlsFormula     = 0x0006
	xlsStringRec   = 0x0207
	xlsMaxRow      = 0x10000
	xlsMaxCol      = 0x100
	xlsDenseCells  = 1 << 20 // beyond this many grid cells, empty rows are left out
	xlsMaxSSTCount = 1 << 22
)

// convertXLS renders each worksheet of an Excel 97-2003 (BIFF8) workbook
// like convertXLSX: "## Name" and a markdown table whose header is the
// first row. Numbers, dates (by their cell format), booleans, errors,
// shared and inline strings and cached formula results are shown.
//
// The reader is our own: it walks the Workbook stream record by record and
// never trusts a count or size it has not checked against the bytes
// present (the Go XLS library grate allocates whatever a file announces
// and was crashed by 30 KB inputs under fuzzing).
func convertXLS(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	if c, ok := mislabelled(r, size); ok {
		return c(ctx, r, size)
	}
	streams, err := oleStreams(r, size, "Workbook", "Book")
	if err != nil {
		return "", malformed("XLS", err)
	}
	wb := streams["Workbook"]
	if wb == nil {
		if streams["Book"] != nil {
			return "", malformed("XLS", errors.New("workbooks of Excel 5/95 (BIFF5) are not supported"))
		}
		return "", malformed("XLS", errors.New("no Workbook stream"))
	}
	b := &xlsBook{recs: xlsRecords(wb), formats: map[uint16]string{}}
	if err := b.globals(); err != nil {
		return "", err
	}
	var out text
	for _, s := range b.sheets {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		writeSheet(&out, s.name, b.sheetRows(s.pos))
		if out.full() {
			break
		}
	}
	if len(b.sheets) == 0 {
		return "", malformed("XLS", errors.New("no worksheets"))
	}
	return out.result()
}

type xlsRec struct {
	typ  uint16
	off  int // offset of the record header in the stream
	data []byte
}

// xlsRecords splits a stream into records; a record cut short by the end
// of the stream keeps what is there.
func xlsRecords(b []byte) []xlsRec {
	var out []xlsRec
	le := binary.LittleEndian
	for off := 0; off+4 <= len(b); {
		n := int(le.Uint16(b[off+2:]))
		end := min(off+4+n, len(b))
		out = append(out, xlsRec{typ: le.Uint16(b[off:]), off: off, data: b[off+4 : end]})
		off = end
	}
	return out
}

type xlsSheet struct {
	name string
	pos  int // stream offset of the sheet's BOF
}

type xlsBook struct {
	recs     []xlsRec
	sheets   []xlsSheet
	sst      []string
	formats  map[uint16]string // custom number formats by id
	xfs      []uint16          // number format id of each cell format
	date1904 bool
}

// globals reads the workbook globals: sheets, shared strings, formats.
func (b *xlsBook) globals() error {
	le := binary.LittleEndian
	for i, rec := range b.recs {
		d := rec.data
		switch rec.typ {
		case xlsEOF:
			return nil
		case xlsFilePass:
			return malformed("XLS", errors.New("the workbook is encrypted"))
		case xlsBoundSheet:
			if len(d) < 8 || d[5] != 0 { // not a worksheet (chart, macro sheet)
				continue
			}
			name, _ := xlsString(d[6:], 1)
			b.sheets = append(b.sheets, xlsSheet{name: name, pos: int(le.Uint32(d))})
		case xlsSST:
			chunks := [][]byte{d}
			for _, c := range b.recs[i+1:] {
				if c.typ != xlsContinue {
					break
				}
				chunks = append(chunks, c.data)
			}
			b.sst = parseSST(chunks)
		case xlsFormat:
			if len(d) >= 2 {
				s, _ := xlsString(d[2:], 2)
				b.formats[le.Uint16(d)] = s
			}
		case xlsXF:
			if len(d) >= 4 {
				b.xfs = append(b.xfs, le.Uint16(d[2:]))
			}
		case xlsDateMode:
			b.date1904 = len(d) >= 2 && le.Uint16(d) == 1
		}
	}
	return nil
}

// sheetRows reads the cells of the sheet whose BOF is at pos.
func (b *xlsBook) sheetRows(pos int) sheetTable {
	start, ok := slices.BinarySearchFunc(b.recs, pos, func(r xlsRec, p int) int { return r.off - p })
	if !ok || b.recs[start].typ != xlsBOF {
		return sheetTable{}
	}
	le := binary.LittleEndian
	cells := map[[2]int]string{}
	maxRow, maxCol := -1, -1
	put := func(row, col int, v string) {
		if row >= xlsMaxRow || col >= xlsMaxCol || v == "" {
			return
		}
		cells[[2]int{row, col}] = v
		maxRow, maxCol = max(maxRow, row), max(maxCol, col)
	}
	pending := [2]int{-1, -1} // formula cell waiting for its STRING record
	depth := 0                // nested BOF/EOF (embedded charts)
	size := 0
	for _, rec := range b.recs[start+1:] {
		d := rec.data
		if size > outputCap {
			break
		}
		switch rec.typ {
		case xlsBOF:
			depth++
			continue
		case xlsEOF:
			if depth == 0 {
				return sheetOf(cells, maxRow, maxCol)
			}
			depth--
			continue
		}
		if depth > 0 || len(d) < 6 {
			continue
		}
		row, col, xf := int(le.Uint16(d)), int(le.Uint16(d[2:])), le.Uint16(d[4:])
		v := ""
		switch rec.typ {
		case xlsLabelSST:
			if len(d) >= 10 {
				if k := int(le.Uint32(d[6:])); k < len(b.sst) {
					v = b.sst[k]
				}
			}
		case xlsLabel, xlsRString:
			v, _ = xlsString(d[6:], 2)
		case xlsNumber:
			if len(d) >= 14 {
				v = b.number(math.Float64frombits(le.Uint64(d[6:])), xf)
			}
		case xlsRK:
			if len(d) >= 10 {
				v = b.number(rkValue(le.Uint32(d[6:])), xf)
			}
		case xlsMulRK:
			for k := 0; 6+6*k+6 <= len(d); k++ {
				e := d[4+6*k:]
				put(row, col+k, b.number(rkValue(le.Uint32(e[2:])), le.Uint16(e)))
			}
		case xlsBoolErr:
			if len(d) >= 8 {
				v = boolErr(d[6], d[7])
			}
		case xlsFormula:
			if len(d) >= 14 {
				val := d[6:14]
				if le.Uint16(val[6:]) != 0xFFFF {
					v = b.number(math.Float64frombits(le.Uint64(val)), xf)
				} else {
					switch val[0] {
					case 0:
						pending = [2]int{row, col}
					case 1:
						v = boolErr(val[2], 0)
					case 2:
						v = boolErr(val[2], 1)
					}
				}
			}
		case xlsStringRec:
			if pending[0] >= 0 {
				s, _ := xlsString(d, 2)
				put(pending[0], pending[1], s)
				pending = [2]int{-1, -1}
			}
			continue
		default:
			continue
		}
		size += len(v) + 3
		put(row, col, v)
	}
	return sheetOf(cells, maxRow, maxCol)
}

// sheetOf lays the cells out in rows, each as wide as the widest; a
// sparse sheet whose grid would be huge keeps only the rows that hold
// something. Only the cells are held: a slot for each column of each row
// took 4 KiB a row, 256 MiB for a cell at column IV of every row.
func sheetOf(cells map[[2]int]string, maxRow, maxCol int) sheetTable {
	if maxRow < 0 {
		return sheetTable{}
	}
	byRow := map[int][]sheetCell{}
	for k, v := range cells {
		byRow[k[0]] = append(byRow[k[0]], sheetCell{k[1], v})
	}
	t := sheetTable{rows: make([]sheetRow, 0, len(byRow)), at: make([]int, 0, len(byRow)), n: maxRow + 1}
	for _, r := range slices.Sorted(maps.Keys(byRow)) {
		row := byRow[r]
		slices.SortFunc(row, func(a, b sheetCell) int { return a.col - b.col })
		t.rows, t.at = append(t.rows, sheetRow{width: maxCol + 1, cells: row}), append(t.at, r)
	}
	if (maxRow+1)*(maxCol+1) > xlsDenseCells {
		t.at, t.n = nil, len(t.rows)
	}
	return t
}

// xlsString decodes an XLUnicodeString (lenBytes 2) or a
// ShortXLUnicodeString (lenBytes 1): length, flags, characters.
func xlsString(d []byte, lenBytes int) (string, int) {
	if len(d) < lenBytes+1 {
		return "", len(d)
	}
	n := int(d[0])
	if lenBytes == 2 {
		n = int(binary.LittleEndian.Uint16(d))
	}
	wide := d[lenBytes]&1 != 0
	d = d[lenBytes+1:]
	if wide {
		n = min(n, len(d)/2)
		u := make([]uint16, n)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(d[2*i:])
		}
		return string(utf16.Decode(u)), lenBytes + 1 + 2*n
	}
	n = min(n, len(d))
	s, _ := charmap.ISO8859_1.NewDecoder().Bytes(d[:n])
	return string(s), lenBytes + 1 + n
}

// sstReader reads the shared string table across its CONTINUE records.
type sstReader struct {
	chunks [][]byte
	c, off int
}

func (r *sstReader) left() bool {
	for r.c < len(r.chunks) && r.off >= len(r.chunks[r.c]) {
		r.c, r.off = r.c+1, 0
	}
	return r.c < len(r.chunks)
}

// bytes returns the next n bytes, crossing chunks; fewer at the end.
func (r *sstReader) bytes(n int) []byte {
	var out []byte
	for len(out) < n && r.left() {
		ch := r.chunks[r.c]
		k := min(n-len(out), len(ch)-r.off)
		out = append(out, ch[r.off:r.off+k]...)
		r.off += k
	}
	return out
}

// parseSST decodes the shared strings. Character data that crosses into a
// CONTINUE record starts there with a new flags byte (8- or 16-bit).
func parseSST(chunks [][]byte) []string {
	le := binary.LittleEndian
	if len(chunks[0]) < 8 {
		return nil
	}
	count := min(int(le.Uint32(chunks[0][4:])), xlsMaxSSTCount)
	r := &sstReader{chunks: chunks, off: 8}
	var out []string
	for len(out) < count && r.left() {
		h := r.bytes(3)
		if len(h) < 3 {
			break
		}
		n, flags := int(le.Uint16(h)), h[2]
		runs, ext := 0, 0
		if flags&0x8 != 0 {
			runs = int(le.Uint16(append(r.bytes(2), 0, 0)))
		}
		if flags&0x4 != 0 {
			ext = int(le.Uint32(append(r.bytes(4), 0, 0, 0, 0)))
		}
		wide := flags&1 != 0
		u := make([]uint16, 0, min(n, 1<<16))
		for len(u) < n && r.left() {
			if r.off == 0 && r.c > 0 && len(u) > 0 {
				// Continuing into a new record: a fresh flags byte.
				wide = r.bytes(1)[0]&1 != 0
				continue
			}
			if wide {
				b := r.bytes(2)
				if len(b) < 2 {
					break
				}
				u = append(u, le.Uint16(b))
			} else {
				u = append(u, uint16(r.bytes(1)[0]))
			}
		}
		out = append(out, string(utf16.Decode(u)))
		r.bytes(4*runs + ext)
	}
	return out
}

// rkValue decodes an RK number.
func rkValue(rk uint32) float64 {
	var v float64
	if rk&2 != 0 {
		v = float64(int32(rk) >> 2)
	} else {
		v = math.Float64frombits(uint64(rk&^3) << 32)
	}
	if rk&1 != 0 {
		v /= 100
	}
	return v
}

// xlsError returns the text of an error value's code.
func xlsError(v byte) (string, bool) {
	switch v {
	case 0x00:
		return "#NULL!", true
	case 0x07:
		return "#DIV/0!", true
	case 0x0F:
		return "#VALUE!", true
	case 0x17:
		return "#REF!", true
	case 0x1D:
		return "#NAME?", true
	case 0x24:
		return "#NUM!", true
	case 0x2A:
		return "#N/A", true
	}
	return "", false
}

func boolErr(v, isErr byte) string {
	if isErr != 0 {
		if s, ok := xlsError(v); ok {
			return s
		}
		return "#ERROR"
	}
	if v != 0 {
		return "TRUE"
	}
	return "FALSE"
}

// number formats v by the number format of cell format xf.
func (b *xlsBook) number(v float64, xf uint16) string {
	fmtID := uint16(0)
	if int(xf) < len(b.xfs) {
		fmtID = b.xfs[xf]
	}
	return formatNumber(v, int(fmtID), b.formats[fmtID], b.date1904)
}

// formatNumber formats a cell's number v by its number format, given as a
// built-in format id and, for custom formats, the format code ("" for
// none): dates and times as ISO dates of the 1900 or the 1904 date system,
// percentages with %, other numbers plainly, rounded to the 15 significant
// digits that Excel keeps. Both spreadsheet readers (XLS and XLSX) use it.
func formatNumber(v float64, fmtID int, code string, date1904 bool) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "#NUM!"
	}
	switch {
	case isDateFormat(fmtID, code) && v >= 0 && v < 2958466:
		return serialDate(v, date1904)
	case fmtID == 9 || fmtID == 10 || strings.Contains(code, "%"):
		return plainNumber(v*100) + "%"
	}
	return plainNumber(v)
}

// plainNumber writes v rounded to 15 significant digits, without an
// exponent unless it is very large or very small.
func plainNumber(v float64) string {
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 15, 64), 64)
	if a := math.Abs(v); v == 0 || (a >= 1e-6 && a < 1e15) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// isDateFormat reports a built-in date/time format (the East Asian ones
// included) or a custom format with date or time letters outside quotes
// and brackets.
func isDateFormat(id int, code string) bool {
	if (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58) {
		return true
	}
	quoted, bracket := false, false
	for _, c := range strings.ToLower(code) {
		switch {
		case c == '"':
			quoted = !quoted
		case c == '[':
			bracket = true
		case c == ']':
			bracket = false
		case !quoted && !bracket && strings.ContainsRune("ymdhs", c):
			return true
		}
	}
	return false
}

// serialDate converts a serial date of the 1900 or the 1904 date system.
func serialDate(v float64, date1904 bool) string {
	base := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	if date1904 {
		base = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	} else if v < 61 {
		base = base.AddDate(0, 0, 1) // Excel's phantom 29 February 1900
	}
	days := math.Floor(v)
	t := base.AddDate(0, 0, int(days)).Add(time.Duration(math.Round((v-days)*86400)) * time.Second)
	switch {
	case v == days:
		return t.Format("2006-01-02")
	case days == 0:
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04:05")
}
