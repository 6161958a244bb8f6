package format

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/pitext"
)

// The rendering caps of pi's tables.
const (
	maxWidth       = 120 // a table line, borders included
	maxColumnWidth = 40  // one column
	// minColumnWidth is the narrowest a column is shrunk to; a table whose
	// columns cannot all keep it within maxWidth is shown row by row.
	minColumnWidth = 3
)

// writeSQLite renders a database read as pi does: the table list, a
// schema with its sample rows, a row as "column: value" lines, or rows as
// an ASCII table, each with its notice.
func writeSQLite(b *strings.Builder, v *scout.SQLiteView) {
	switch {
	case v.Schema != nil:
		s := v.Schema
		if s.SQL != "" {
			b.WriteString(s.SQL + "\n\n")
		}
		cols := make([]string, len(s.Columns))
		for i, c := range s.Columns {
			cols[i] = c.Name
		}
		b.WriteString("Sample rows:\n" + table(cols, s.Samples))
		if rest := s.Table.Rows - int64(len(s.Samples)); rest > 0 {
			more := s.Table
			more.Rows = rest
			fmt.Fprintf(b, "\n\n[%s more rows; append %s to the database path to continue]", count(more), v.Next)
		}
	case v.Rows != nil && v.Rows.Key != "":
		writeRow(b, v.Rows)
	case v.Rows != nil:
		r := v.Rows
		b.WriteString(table(r.Columns, r.Rows))
		var notes []string
		switch {
		case r.Table == "" && r.More && v.Next != "":
			notes = append(notes, fmt.Sprintf("Showing %d rows; more rows follow. Append %s to the database path to continue", len(r.Rows), v.Next))
		case r.Table == "" && r.More:
			notes = append(notes, fmt.Sprintf("Showing the first %d rows; add LIMIT and OFFSET to the query to page through the rest", len(r.Rows)))
		case r.Table == "":
		case r.More:
			if r.LimitLowered {
				notes = append(notes, fmt.Sprintf("limit lowered to %d, the maximum", r.Limit))
			}
			notes = append(notes, fmt.Sprintf("Showing rows %d-%d; more rows match. Append %s to the database path to continue", r.Offset+1, r.Offset+len(r.Rows), v.Next))
		default:
			if r.LimitLowered {
				notes = append(notes, fmt.Sprintf("limit lowered to %d, the maximum", r.Limit))
			}
			if len(r.Rows) == 0 && r.Offset > 0 {
				notes = append(notes, fmt.Sprintf("No rows at offset %d; use a smaller offset", r.Offset))
			}
		}
		b.WriteString(pitext.Notice(notes...))
	case len(v.Tables) == 0:
		b.WriteString("(no tables)")
	default:
		for i, t := range v.Tables {
			if i > 0 {
				b.WriteByte('\n')
			}
			if t.Error != "" {
				fmt.Fprintf(b, "%s (rows unknown: %s)", fname.Quote(t.Name), t.Error)
			} else {
				fmt.Fprintf(b, "%s (%s rows)", fname.Quote(t.Name), count(t))
			}
		}
		if v.TotalTables > len(v.Tables) {
			fmt.Fprintf(b, "\n\n[Showing %d of %d tables. Append %s to the database path to list more]", len(v.Tables), v.TotalTables, v.Next)
		}
	}
}

// writeRow renders a row lookup: "column: value" lines, a long text cut
// with how to read on.
func writeRow(b *strings.Builder, r *scout.SQLiteRows) {
	if len(r.Rows) == 0 {
		fmt.Fprintf(b, "No row found in table '%s' for key '%s'.", errs.Echo(r.Table), errs.Echo(r.Key))
		return
	}
	for i, c := range r.Columns {
		if i > 0 {
			b.WriteByte('\n')
		}
		v := at(r.Rows[0], i)
		b.WriteString(fname.Quote(c) + ": " + cell(r.Rows[0], i))
		if v.Rest > 0 {
			fmt.Fprintf(b, "… [%d more characters; append %s to the database path to read on]", v.Rest, v.Next)
		}
	}
}

// count renders a row count as pi does: "6", "~60000", "50000+".
func count(t scout.SQLiteTable) string {
	s := strconv.FormatInt(t.Rows, 10)
	switch {
	case t.RowsEstimated:
		return "~" + s
	case t.RowsAtLeast:
		return s + "+"
	}
	return s
}

// table draws rows as pi's ASCII table:
//
//	| id | name  |
//	| -- | ----- |
//	| 1  | alice |
//
// Each column is as wide as its widest cell, clamped to 1..40, and the
// widest column shrinks until the line fits in 120; a cell that does not
// fit ends in "…". "(no rows)" stands for an empty result. A result with
// so many columns that they cannot keep 3 characters each is shown as
// records ("-- row 1 --" then "column: value" lines) instead.
func table(cols []string, rows [][]scout.SQLiteValue) string {
	if len(rows) == 0 {
		return "(no rows)"
	}
	if len(cols)*(minColumnWidth+3)+1 > maxWidth {
		return records(cols, rows)
	}
	cells := make([][]string, len(rows))
	widths := make([]int, len(cols))
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = fname.Quote(c)
		widths[i] = utf8.RuneCountInString(names[i])
	}
	for r, row := range rows {
		cells[r] = make([]string, len(cols))
		for i := range cols {
			cells[r][i] = flat(cell(row, i))
			widths[i] = max(widths[i], utf8.RuneCountInString(cells[r][i]))
		}
	}
	total := 1
	for i := range widths {
		widths[i] = min(max(widths[i], 1), maxColumnWidth)
		total += widths[i] + 3
	}
	for total > maxWidth {
		wide := 0
		for i := range widths {
			if widths[i] > widths[wide] {
				wide = i
			}
		}
		widths[wide]--
		total--
	}
	var sb strings.Builder
	line := func(vals []string) {
		sb.WriteString("|")
		for i, v := range vals {
			sb.WriteString(" " + fit(v, widths[i]) + " |")
		}
		sb.WriteByte('\n')
	}
	line(names)
	dashes := make([]string, len(cols))
	for i, w := range widths {
		dashes[i] = strings.Repeat("-", w)
	}
	line(dashes)
	for _, row := range cells {
		line(row)
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// records shows rows one column per line, each line within maxWidth.
func records(cols []string, rows [][]scout.SQLiteValue) string {
	var sb strings.Builder
	for r, row := range rows {
		if r > 0 {
			sb.WriteByte('\n')
		}
		fmt.Fprintf(&sb, "-- row %d --", r+1)
		for i, c := range cols {
			l := fname.Quote(c) + ": " + flat(cell(row, i))
			if utf8.RuneCountInString(l) > maxWidth {
				l = fit(l, maxWidth)
			}
			sb.WriteString("\n" + strings.TrimRight(l, " "))
		}
	}
	return sb.String()
}

// fit cuts s to width runes, ending in "…" when cut, and pads it.
func fit(s string, width int) string {
	n := utf8.RuneCountInString(s)
	if n > width {
		cut := 0
		for i := range s {
			if cut == width-1 {
				return s[:i] + "…"
			}
			cut++
		}
	}
	return s + strings.Repeat(" ", width-n)
}

// flat puts a value on one line: tabs become spaces, line breaks a literal
// "\n".
func flat(s string) string {
	if !strings.ContainsAny(s, "\t\r\n") {
		return s
	}
	return strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\n`, "\t", " ").Replace(s)
}

// at returns value i of a row, the zero value when the row is shorter
// than its columns (a result built or decoded by a host).
func at(row []scout.SQLiteValue, i int) scout.SQLiteValue {
	if i < len(row) {
		return row[i]
	}
	return scout.SQLiteValue{}
}

// cell renders value i of a row: "" when the row has no value i.
func cell(row []scout.SQLiteValue, i int) string {
	if i < len(row) {
		return value(row[i])
	}
	return ""
}

// value renders one SQLite value: NULL, a number, text, "<BLOB 1.0KB>",
// or "<TEXT 80.0MB>" for a text too large to load.
func value(v scout.SQLiteValue) string {
	switch v.Type {
	case "null":
		return "NULL"
	case "integer":
		return strconv.FormatInt(v.Int, 10)
	case "real":
		return formatFloat(v.Real)
	case "text":
		if v.Text == "" && v.Size > 0 {
			return "<TEXT " + dirtree.FormatBytes(v.Size) + ">"
		}
		return v.Text
	}
	return "<" + strings.ToUpper(v.Type) + " " + dirtree.FormatBytes(v.Size) + ">"
}

// formatFloat writes a REAL as JavaScript would: integral values without a
// fraction, others in the shortest form that reads back the same, in
// decimal notation from 1e-6 up to 1e21 and in exponent notation (without
// leading zeros in the exponent) outside it.
func formatFloat(f float64) string {
	if f > -1e18 && f < 1e18 && f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	switch a := math.Abs(f); {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	case a >= 1e-6 && a < 1e21:
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
	return mant + "e" + exp[:1] + strings.TrimLeft(exp[1:], "0")
}
