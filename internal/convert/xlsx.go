package convert

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
)

// Limits of the XLSX reader.
const (
	xlsxMaxRows     = 1 << 20   // Excel's last row, 1,048,576
	xlsxMaxCols     = 1 << 14   // Excel's last column, XFD (16,384)
	xlsxMaxFormatID = 1<<16 - 1 // custom number formats with larger ids are ignored
	xlsxMaxDepth    = 256       // deepest XML nesting accepted in a part
	xlsxMaxSheets   = 10000     // sheets read; the rest are counted in a closing note
)

// convertXLSX renders each sheet of an Office Open XML workbook, in the
// workbook's order, as "## Name" and a markdown table whose header is the
// sheet's first row; a sheet without values is "(empty sheet)". Cells show
// shared and inline strings (rich text runs joined, phonetic guides left
// out), numbers formatted like convertXLS formats them (dates and times by
// their cell's number format, in the 1900 or the 1904 date system),
// TRUE/FALSE, error values and the cached results of formulas. Cells are
// placed by their references; missing cells are empty.
//
// The reader is our own (encoding/xml over package archive's zip reader):
// every part is capped at maxPart inflated bytes, the workbook at
// maxInflate and the markup bound, worksheets are streamed row by row, reading stops once
// the sheets hold MaxOutput bytes of text or after xlsxMaxSheets sheets (a
// closing note counts the others), and a reference or index that points
// outside the workbook is an error naming the cell.
//
// An encrypted workbook is an OLE compound file: it is reported as
// encrypted. An Excel 97-2003 workbook saved as .xlsx is read as XLS.
func convertXLSX(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	if isOLE(r, size) {
		if s, err := oleStreams(r, size, "EncryptionInfo"); err == nil && s["EncryptionInfo"] != nil {
			return "", malformed("XLSX", errors.New("the workbook is encrypted: save it without a password to read it"))
		}
		return convertXLS(ctx, r, size)
	}
	p, err := openPkg(ctx, "XLSX", r, size)
	if err != nil {
		return "", err
	}
	p.markup = &markup{}
	b := &xlsxBook{p: p, partCap: maxPart}
	defer b.sst.close()
	if err := b.load(); err != nil {
		if asPartial(err) == nil {
			return "", xlsxErr("", err)
		}
		return stopped(&text{}, err)
	}
	var out text
	for i, s := range b.sheets {
		if i == xlsxMaxSheets {
			res, _ := out.result()
			return res, &errs.Partial{Reason: fmt.Sprintf("%d more sheets not shown: at most %d are read", len(b.sheets)-i, xlsxMaxSheets)}
		}
		rows, err := b.sheetRows(s.part)
		if err != nil {
			if asPartial(err) == nil {
				return "", xlsxErr(fmt.Sprintf("sheet %q: ", clip(s.name)), err)
			}
			if rows.shown() > 0 {
				writeSheet(&out, s.name, rows)
			}
			return stopped(&out, err)
		}
		writeSheet(&out, s.name, rows)
		if out.full() {
			break
		}
	}
	return out.result()
}

// isOLE reports a file that starts as an OLE compound file.
func isOLE(r io.ReaderAt, size int64) bool {
	head := make([]byte, len(oleMagic))
	if size < int64(len(head)) {
		return false
	}
	n, _ := r.ReadAt(head, 0)
	return string(head[:n]) == oleMagic
}

// xlsxErr reports a malformed workbook, the message starting with where;
// errors that are not about the document (cancelation) and size limits
// pass through.
func xlsxErr(where string, err error) error {
	var e *errs.Error
	switch {
	case errors.As(err, &e) && e.Code == errs.Unsupported && e.Err != nil:
		err = e.Err
	case errs.CodeOf(err) != errs.Internal:
		return err
	}
	return malformed("XLSX", fmt.Errorf("%s%w", where, err))
}

// sheetTable is a sheet laid out as a table: the rows that hold cells, in
// order, and the table row of each; the rows between are empty. Only the
// cells are held, so that a row with cells at A and XFD is two cells, not
// 16,384 (it was 177 MiB of heap for 16 MiB of text).
type sheetTable struct {
	rows []sheetRow
	at   []int // the table row (from 0) of each row; nil: the rows follow each other
	n    int   // rows in the table
}

// sheetRow is a row's cells that are not empty, in column order, and its
// width: the columns up to its last cell.
type sheetRow struct {
	width int
	cells []sheetCell
}

type sheetCell struct {
	col int
	v   string
}

// denseTable is the table of rows given cell by cell, "" for an empty
// cell.
func denseTable(rows [][]string) sheetTable {
	t := sheetTable{rows: make([]sheetRow, len(rows)), n: len(rows)}
	for i, r := range rows {
		t.rows[i].width = len(r)
		for c, v := range r {
			if v != "" {
				t.rows[i].cells = append(t.rows[i].cells, sheetCell{c, v})
			}
		}
	}
	return t
}

// each calls fn for each of the first n rows of the table while it
// returns true.
func (t sheetTable) each(n int, fn func(r sheetRow) bool) {
	j := 0
	for i := range n {
		r := sheetRow{}
		switch {
		case t.at == nil:
			r = t.rows[i]
		case j < len(t.rows) && t.at[j] == i:
			r = t.rows[j]
			j++
		}
		if !fn(r) {
			return
		}
	}
}

// width returns the width of the widest of the first n rows.
func (t sheetTable) width(n int) int {
	w := 0
	t.each(n, func(r sheetRow) bool { w = max(w, r.width); return true })
	return w
}

// shown returns the rows of the table but the blank ones at its end.
func (t sheetTable) shown() int {
	for j := len(t.rows) - 1; j >= 0; j-- {
		if t.rows[j].blank() {
			continue
		}
		if t.at == nil {
			return j + 1
		}
		return t.at[j] + 1
	}
	return 0
}

// blank reports a row whose cells are all white space.
func (r sheetRow) blank() bool {
	for _, c := range r.cells {
		if strings.TrimSpace(c.v) != "" {
			return false
		}
	}
	return true
}

// writeSheet writes "## name" and the rows as a markdown table, leaving out
// empty rows at the end; an empty sheet is shown as "(empty sheet)". Rows
// beyond what fits in MaxOutput are left out but for one, so that the
// output goes past MaxOutput and Safe notes the cut.
func writeSheet(out *text, name string, t sheetTable) {
	n := t.shown()
	out.WriteString("## " + name + "\n\n")
	if n == 0 {
		out.WriteString("(empty sheet)\n\n")
		return
	}
	room := outputCap - out.Len()
	fit, size := fitRows(t, n, room)
	out.grow(size)
	writeTable(out, t, fit, room)
	out.WriteString("\n")
}

// fitRows returns how many of the first n rows make a markdown table of at
// most budget bytes, and the row that goes past it, and the size of the
// table of those rows but its header's separator.
func fitRows(t sheetTable, n, budget int) (fit, size int) {
	width := t.width(n)
	t.each(n, func(r sheetRow) bool {
		size += 2 + 3*width // "|" and "\n"; " " and " |" around each cell
		for _, c := range r.cells {
			size += len(strings.TrimSpace(c.v))
		}
		fit++
		return size <= budget
	})
	return fit, size
}

// writeTable writes the first n rows as a markdown table (mdTable): the
// first row as the header, each row as wide as the widest, stopping after
// the row that passes limit bytes.
func writeTable(out *text, t sheetTable, n, limit int) {
	width := t.width(n)
	if width == 0 {
		return
	}
	size, i := 0, 0
	write := func(s string) {
		out.WriteString(s)
		size += len(s)
	}
	t.each(n, func(r sheetRow) bool {
		if i++; i == 2 {
			write("|" + strings.Repeat(" --- |", width) + "\n")
		}
		if i > 1 && size > limit {
			return false
		}
		write("|")
		j := 0
		for col := range width {
			if j < len(r.cells) && r.cells[j].col == col {
				write(" ")
				write(mdCell(r.cells[j].v))
				write(" |")
				j++
			} else {
				write("  |")
			}
		}
		write("\n")
		return true
	})
	if i == 1 {
		write("|" + strings.Repeat(" --- |", width) + "\n")
	}
}

// cellValue renders a cell from its type (the t attribute), its cell
// format index (s), the text of its <v> and of its inline string.
func (b *xlsxBook) cellValue(typ, style, v, inline string) (string, error) {
	switch typ {
	case "s":
		if strings.TrimSpace(v) == "" {
			return "", nil
		}
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || i < 0 {
			i = -1
		}
		if err := b.sst.fill(i); err != nil {
			return "", err
		}
		if i < 0 || i >= b.sst.len() {
			return "", fmt.Errorf("shared string %q does not exist (the workbook has %d)", clip(v), b.sst.len())
		}
		return b.sst.at(i), nil
	case "inlineStr":
		return unescapeOOXML(inline), nil
	case "str":
		return unescapeOOXML(v), nil
	case "b":
		switch strings.TrimSpace(v) {
		case "1":
			return "TRUE", nil
		case "0":
			return "FALSE", nil
		}
		return v, nil
	case "e", "d": // an error value; an ISO 8601 date
		return v, nil
	}
	if v == "" {
		return unescapeOOXML(inline), nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return v, nil
	}
	id := 0 // General
	if style != "" {
		if i, err := strconv.Atoi(style); err == nil && i >= 0 && i < len(b.xfs) {
			id = int(b.xfs[i])
		}
	}
	return formatNumber(f, id, b.codes[id], b.date1904), nil
}

// unescapeOOXML decodes the _xHHHH_ escapes OOXML writes for characters
// that XML cannot hold (_x000D_ is a carriage return; _x005F_ escapes an
// underscore).
func unescapeOOXML(s string) string {
	if !strings.Contains(s, "_x") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if i+7 <= len(s) && s[i] == '_' && s[i+1] == 'x' && s[i+6] == '_' {
			if n, err := strconv.ParseUint(s[i+2:i+6], 16, 16); err == nil {
				b.WriteRune(rune(n))
				i += 7
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// cellRef returns the 0-based column of a cell reference such as "C7".
func cellRef(ref string) (int, error) {
	col, i := 0, 0
	for ; i < len(ref); i++ {
		c := ref[i] | 0x20 // lower case
		if c < 'a' || c > 'z' {
			break
		}
		col = col*26 + int(c-'a') + 1
		if col > xlsxMaxCols {
			return 0, fmt.Errorf("cell %q lies beyond the last column XFD", clip(ref))
		}
	}
	if i == 0 || i == len(ref) || !isDigits(ref[i:]) {
		return 0, fmt.Errorf("bad cell reference %q (want a column and a row, like C7)", clip(ref))
	}
	return col - 1, nil
}

// columnName returns the letters of a 0-based column: 0 is A, 27 is AB.
func columnName(col int) string {
	var b []byte
	for col++; col > 0; col = (col - 1) / 26 {
		b = append([]byte{byte('A' + (col-1)%26)}, b...)
	}
	return string(b)
}

// rowNumber returns a row's number from its r attribute, or next when it
// has none.
func rowNumber(r string, next int) (int, error) {
	if r == "" {
		if next > xlsxMaxRows {
			return 0, fmt.Errorf("more than %d rows", xlsxMaxRows)
		}
		return next, nil
	}
	n, err := strconv.Atoi(r)
	if err != nil || !isDigits(r) || n < 1 || n > xlsxMaxRows {
		return 0, fmt.Errorf("bad row number %q (want 1 to %d)", clip(r), xlsxMaxRows)
	}
	return n, nil
}

// clip shortens a value quoted in an error message to 40 bytes and "...".
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	return cutUTF8(s, 40) + "..."
}

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
