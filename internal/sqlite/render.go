package sqlite

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/dirtree"
)

// The rendering caps of pi's tables.
const (
	MaxWidth       = 120 // a table line, borders included
	MaxColumnWidth = 40  // one column
	// minColumnWidth is the narrowest a column is shrunk to; a table whose
	// columns cannot all keep it within MaxWidth is shown row by row.
	minColumnWidth = 3
)

// renderTable draws rows as pi's ASCII table:
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
func renderTable(cols []string, rows [][]any) string {
	if len(rows) == 0 {
		return "(no rows)"
	}
	if len(cols)*(minColumnWidth+3)+1 > MaxWidth {
		return renderRecords(cols, rows)
	}
	cells := make([][]string, len(rows))
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = utf8.RuneCountInString(flat(c))
	}
	for r, row := range rows {
		cells[r] = make([]string, len(cols))
		for i := range cols {
			cells[r][i] = flat(value(row[i]))
			widths[i] = max(widths[i], utf8.RuneCountInString(cells[r][i]))
		}
	}
	total := 1
	for i := range widths {
		widths[i] = min(max(widths[i], 1), MaxColumnWidth)
		total += widths[i] + 3
	}
	for total > MaxWidth {
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
	line(cols)
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

// renderRecords shows rows one column per line, each line within MaxWidth.
func renderRecords(cols []string, rows [][]any) string {
	var sb strings.Builder
	for r, row := range rows {
		if r > 0 {
			sb.WriteByte('\n')
		}
		fmt.Fprintf(&sb, "-- row %d --", r+1)
		for i, c := range cols {
			l := flat(c) + ": " + flat(value(row[i]))
			if utf8.RuneCountInString(l) > MaxWidth {
				l = fit(l, MaxWidth)
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

// value renders one SQLite value: NULL, a number, text, "<BLOB 1.0KB>", or
// "<TEXT 80.0MB>" for a text too large to load.
func value(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return "<BLOB " + dirtree.FormatBytes(int64(len(v))) + ">"
	case Sized:
		return "<" + strings.ToUpper(v.Type) + " " + dirtree.FormatBytes(v.Bytes) + ">"
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return formatFloat(v)
	case bool:
		if v {
			return "1"
		}
		return "0"
	case time.Time:
		return v.Format("2006-01-02 15:04:05.999999999Z07:00")
	}
	return fmt.Sprint(v)
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
