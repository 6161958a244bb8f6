package convert

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
)

// xlsxBook is an opened workbook: its sheets and what their cells refer
// to (shared strings, number formats, the date system).
type xlsxBook struct {
	p        *pkg
	partCap  int64 // the most bytes inflated from one part (maxPart)
	sheets   []xlsxSheet
	sst      xlsxStrings
	xfs      []uint32       // number format id of each cell format (cellXfs)
	codes    map[int]string // custom number format codes by id
	date1904 bool
}

type xlsxSheet struct {
	name string
	part string // the worksheet part
}

// xlsxStrings is the shared string table, kept as one string and the end
// offset of each item (a workbook may hold millions of short items). The
// text is at most partCap bytes (decoding XML never makes text longer), so
// the offsets fit in 32 bits. The table is read as far as the cells ask
// for: items past the last one a cell names are never decoded.
type xlsxStrings struct {
	text strings.Builder
	ends []uint32
	x    *xlsxPart // the part, read on; nil once read to its end (or none)
	rc   io.Closer
}

func (s *xlsxStrings) len() int { return len(s.ends) }

// fill reads the table up to item i, or to its end when i < 0 or the
// table is shorter.
func (s *xlsxStrings) fill(i int) error {
	for s.x != nil && (i < 0 || len(s.ends) <= i) {
		tok, err := s.x.next()
		if err == nil {
			if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "si" {
				var t string
				if _, t, err = s.x.cellText(e); err == nil {
					s.add(unescapeOOXML(t))
				}
			}
		}
		if err != nil {
			s.close()
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
	return nil
}

func (s *xlsxStrings) close() {
	if s.rc != nil {
		s.rc.Close()
	}
	s.x, s.rc = nil, nil
}

func (s *xlsxStrings) at(i int) string {
	start := uint32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.text.String()[start:s.ends[i]]
}

func (s *xlsxStrings) add(v string) {
	s.text.WriteString(v)
	s.ends = append(s.ends, uint32(s.text.Len()))
}

type xlsxRel struct{ id, typ, target string }

// load reads the workbook part (found through the package relationships,
// xl/workbook.xml if they name none), its relationships, the shared
// strings and the cell formats.
func (b *xlsxBook) load() error {
	root, err := b.rels("")
	if err != nil {
		return err
	}
	wb := "xl/workbook.xml"
	if r, ok := relOfType(root, "/officeDocument"); ok {
		wb = r.target
	}
	var ids []string
	err = b.walkPart(wb, func(x *xlsxPart, e xml.StartElement) error {
		switch e.Name.Local {
		case "workbookPr":
			v := attr(e, "date1904")
			b.date1904 = v == "1" || v == "true"
		case "sheet":
			name := attr(e, "name")
			if strings.TrimSpace(name) == "" {
				name = fmt.Sprintf("(sheet %d, without a name)", len(b.sheets)+1)
			}
			b.sheets = append(b.sheets, xlsxSheet{name: name})
			ids = append(ids, attr(e, "id"))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(b.sheets) == 0 {
		return fmt.Errorf("%s lists no sheets", wb)
	}
	rels, err := b.rels(wb)
	if err != nil {
		return err
	}
	byID := map[string]string{}
	for _, r := range rels {
		byID[r.id] = r.target
	}
	for i, id := range ids {
		part, ok := byID[id]
		if !ok {
			return fmt.Errorf("sheet %q: its relationship %q is not in %s", clip(b.sheets[i].name), clip(id), relsPart(wb))
		}
		b.sheets[i].part = part
	}
	if r, ok := relOfType(rels, "/sharedStrings"); ok {
		if err := b.loadStrings(r.target); err != nil {
			return err
		}
	}
	if r, ok := relOfType(rels, "/styles"); ok {
		return b.loadStyles(r.target)
	}
	return nil
}

// loadStrings opens the shared string table, which fill reads.
func (b *xlsxBook) loadStrings(part string) error {
	x, rc, err := b.openPart(part)
	if err != nil {
		return err
	}
	b.sst.x, b.sst.rc = x, rc
	return nil
}

// loadStyles reads the number format of each cell format and the custom
// number format codes.
func (b *xlsxBook) loadStyles(part string) error {
	b.codes = map[int]string{}
	return b.walkPart(part, func(x *xlsxPart, e xml.StartElement) error {
		switch e.Name.Local {
		case "numFmt":
			if id, err := strconv.Atoi(attr(e, "numFmtId")); err == nil && id >= 0 && id <= xlsxMaxFormatID {
				b.codes[id] = attr(e, "formatCode")
			}
		case "cellXfs": // not cellStyleXfs, whose xf elements are the named styles
			return x.walk(func(x *xlsxPart, e xml.StartElement) error {
				if e.Name.Local == "xf" {
					id, _ := strconv.ParseUint(attr(e, "numFmtId"), 10, 32)
					b.xfs = append(b.xfs, uint32(id))
				}
				return nil
			})
		}
		return nil
	})
}

// errSheetFull stops reading a sheet that holds MaxOutput bytes of text.
var errSheetFull = errors.New("sheet full")

// sheetRows reads the cells of a worksheet part row by row: rows by their
// r attribute (the next row when it is missing), cells by their reference
// (the next column when it is missing); a cell given twice keeps its last
// value. Rows between are empty, unless the sheet is sparse. Only cells
// with a value are held.
func (b *xlsxBook) sheetRows(part string) (sheetTable, error) {
	var s xlsxSheetCells
	row, col := 0, 0 // the current row (from 1), the next cell's column (from 0)
	size := 0        // the table's size so far, as fitRows counts it
	grow := func(n int) {
		size += n
		if b.p.markup != nil {
			b.p.markup.shown += int64(n)
		}
	}
	cells := func(x *xlsxPart, e xml.StartElement) error {
		switch e.Name.Local {
		case "row":
			n, err := rowNumber(attr(e, "r"), row+1)
			if err != nil {
				return err
			}
			row, col = n, 0
			if row > s.n {
				grow(2 * (row - s.n))
				s.n = row
			}
		case "c":
			if row == 0 {
				return errors.New("a cell outside a row")
			}
			if ref := attr(e, "r"); ref != "" {
				c, err := cellRef(ref)
				if err != nil {
					return err
				}
				col = c
			} else if col >= xlsxMaxCols {
				return fmt.Errorf("row %d has more than %d cells", row, xlsxMaxCols)
			}
			v, inline, err := x.cellText(e)
			if err != nil {
				return err
			}
			v, err = b.cellValue(attr(e, "t"), attr(e, "s"), v, inline)
			if err != nil {
				return fmt.Errorf("cell %s%d: %w", columnName(col), row, err)
			}
			if v != "" {
				r := s.row(row)
				if col >= r.width {
					grow(3 * (col + 1 - r.width))
					r.width = col + 1
				}
				if k := len(r.cells); k > 0 && r.cells[k-1].col >= col {
					if s.mixed == nil {
						s.mixed = map[*sheetRow]bool{}
					}
					s.mixed[r] = true
				}
				r.cells = append(r.cells, sheetCell{col, v})
				grow(len(strings.TrimSpace(v)))
			}
			col++
		}
		if size > outputCap {
			return errSheetFull
		}
		return nil
	}
	err := b.walkPart(part, func(x *xlsxPart, e xml.StartElement) error {
		if e.Name.Local == "sheetData" {
			return x.walk(cells)
		}
		return nil
	})
	if err == errSheetFull {
		err = nil
	}
	return s.table(), err
}

// xlsxSheetCells gathers the cells of a sheet, row by row.
type xlsxSheetCells struct {
	rows  []*sheetRow
	nums  []int              // the number of each row
	index map[int]int        // row number -> index in rows, once a row came out of order
	mixed map[*sheetRow]bool // rows whose cells came out of order
	n     int                // rows, with the empty ones (the highest row number)
}

// row returns the row numbered num, added if it is new.
func (s *xlsxSheetCells) row(num int) *sheetRow {
	k := len(s.nums)
	switch {
	case k > 0 && s.nums[k-1] == num:
		return s.rows[k-1]
	case k > 0 && s.nums[k-1] > num && s.index == nil:
		s.index = make(map[int]int, k)
		for i, n := range s.nums {
			s.index[n] = i
		}
	}
	if i, ok := s.index[num]; ok {
		return s.rows[i]
	}
	if s.index != nil {
		s.index[num] = k
	}
	r := &sheetRow{}
	s.rows, s.nums = append(s.rows, r), append(s.nums, num)
	return r
}

// table lays the rows out in order, each row's cells in column order
// (the last of a column's values), and leaves out the empty rows when the
// grid would hold more than xlsDenseCells cells, as the XLS reader does,
// so that a few cells far apart do not turn into a wall of empty rows.
func (s *xlsxSheetCells) table() sheetTable {
	for r := range s.mixed {
		slices.SortStableFunc(r.cells, func(a, b sheetCell) int { return a.col - b.col })
		cells := r.cells[:0]
		for i, c := range r.cells {
			if i+1 == len(r.cells) || r.cells[i+1].col != c.col {
				cells = append(cells, c)
			}
		}
		r.cells = cells
	}
	order := make([]int, len(s.rows))
	for i := range order {
		order[i] = i
	}
	if s.index != nil {
		slices.SortFunc(order, func(a, b int) int { return s.nums[a] - s.nums[b] })
	}
	t := sheetTable{rows: make([]sheetRow, len(s.rows)), at: make([]int, len(s.rows)), n: s.n}
	width := 0
	for i, k := range order {
		t.rows[i], t.at[i] = *s.rows[k], s.nums[k]-1
		width = max(width, t.rows[i].width)
	}
	if s.n*width > xlsDenseCells {
		t.at, t.n = nil, len(t.rows)
	}
	return t
}

// rels reads the relationships of a part ("" for the package's own);
// targets are resolved to part names unless external.
func (b *xlsxBook) rels(part string) ([]xlsxRel, error) {
	name := relsPart(part)
	if !b.p.has(name) {
		return nil, nil
	}
	dir := path.Dir(part)
	if dir == "." {
		dir = ""
	} else {
		dir += "/"
	}
	var out []xlsxRel
	err := b.walkPart(name, func(x *xlsxPart, e xml.StartElement) error {
		if e.Name.Local == "Relationship" {
			t := attr(e, "Target")
			if attr(e, "TargetMode") != "External" {
				t = resolvePart(dir, t)
			}
			out = append(out, xlsxRel{attr(e, "Id"), attr(e, "Type"), t})
		}
		return nil
	})
	return out, err
}

// relsPart names the relationships part of a part.
func relsPart(part string) string {
	dir, file := path.Split(part)
	return dir + "_rels/" + file + ".rels"
}

// relOfType returns the first relationship whose type ends with suffix
// (transitional and strict OOXML differ in the types' prefix).
func relOfType(rels []xlsxRel, suffix string) (xlsxRel, bool) {
	for _, r := range rels {
		if strings.HasSuffix(r.typ, suffix) {
			return r, true
		}
	}
	return xlsxRel{}, false
}

// xlsxPart streams the XML tokens of one part, checking the context, the
// markup bound (and maxInflate) and the depth of nesting as it goes.
type xlsxPart struct {
	b     *xlsxBook
	name  string
	d     *xml.Decoder
	depth int
	n     int
}

// walkPart calls fn for each start element of a part, in document order.
func (b *xlsxBook) walkPart(name string, fn func(x *xlsxPart, e xml.StartElement) error) error {
	x, rc, err := b.openPart(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	return x.walk(fn)
}

// openPart opens a part to read its tokens.
func (b *xlsxBook) openPart(name string) (*xlsxPart, io.Closer, error) {
	rc, err := b.p.openCapped(name, b.partCap)
	if err != nil {
		return nil, nil, err
	}
	return &xlsxPart{b: b, name: name, d: newDecoder(rc)}, rc, nil
}

// walk calls fn for each start element up to the end of the element
// being read (the end of the part at the top); fn may read on through x,
// but not past the end of the element it was given.
func (x *xlsxPart) walk(fn func(x *xlsxPart, e xml.StartElement) error) error {
	base := x.depth
	for {
		tok, err := x.next()
		if err == io.EOF && base == 0 {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := fn(x, t); err != nil {
				return err
			}
		case xml.EndElement:
			if x.depth < base {
				return nil
			}
		}
	}
}

// cellText reads the rest of element e (a cell, a shared string item) and
// returns the text of its <v> and that of its <t> elements outside
// phonetic runs (<rPh>).
func (x *xlsxPart) cellText(e xml.StartElement) (v, t string, err error) {
	var vb, tb strings.Builder
	var in *strings.Builder // the text being read, if any
	phonetic := 0
	for base := x.depth; x.depth >= base; {
		tok, err := x.next()
		if err != nil {
			return "", "", err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			switch tok.Name.Local {
			case "v":
				in = &vb
			case "t":
				if phonetic == 0 {
					in = &tb
				}
			case "rPh":
				phonetic++
			}
		case xml.EndElement:
			switch tok.Name.Local {
			case "v", "t":
				in = nil
			case "rPh":
				phonetic--
			}
		case xml.CharData:
			if in != nil {
				in.Write(tok)
			}
		}
	}
	return vb.String(), tb.String(), nil
}

// next returns the part's next token, io.EOF at its end.
func (x *xlsxPart) next() (xml.Token, error) {
	if x.n++; x.n%4096 == 0 {
		if err := x.b.p.ctx.Err(); err != nil {
			return nil, err
		}
	}
	tok, err := x.d.RawToken() // local names are enough; no namespace translation, no HTML auto-closing
	if err == io.EOF {
		if x.depth > 0 {
			return nil, fmt.Errorf("part %s ends inside an element", x.name)
		}
		return nil, io.EOF
	}
	if err != nil {
		var stop *markupStop
		if errors.As(err, &stop) {
			return nil, stop
		}
		return nil, x.b.p.partErr(x.name, err)
	}
	switch tok.(type) {
	case xml.StartElement:
		if x.depth++; x.depth > xlsxMaxDepth {
			return nil, fmt.Errorf("part %s nests elements more than %d deep", x.name, xlsxMaxDepth)
		}
	case xml.EndElement:
		x.depth = max(x.depth-1, 0) // a stray end tag at the top closes nothing
	}
	return tok, nil
}
