package format

import (
	"math"
	"strings"
	"testing"

	"github.com/scoutkit/scout"
)

func text(s string) scout.SQLiteValue { return scout.SQLiteValue{Type: "text", Text: s} }

func TestRenderTable(t *testing.T) {
	long := strings.Repeat("x", 60)
	cases := []struct {
		cols   []string
		rows   [][]scout.SQLiteValue
		want   string
		reason string
	}{
		{[]string{"a"}, nil, "(no rows)", "empty"},
		{[]string{"n", "b", "f", "s", "t"}, [][]scout.SQLiteValue{{{Type: "null"}, {Type: "blob", Size: 3}, {Type: "real", Real: 2.5}, {Type: "text", Text: "x\ty"}, {Type: "text", Size: 1 << 20}}},
			"| n    | b         | f   | s   | t            |\n| ---- | --------- | --- | --- | ------------ |\n| NULL | <BLOB 3B> | 2.5 | x y | <TEXT 1.0MB> |", "value kinds, tab as space"},
		{[]string{"long"}, [][]scout.SQLiteValue{{text(long)}}, "| long                                     |\n| ---------------------------------------- |\n| " + strings.Repeat("x", 39) + "… |", "a column is at most 40 wide"},
		{[]string{"a", "b", "c", "d"}, [][]scout.SQLiteValue{{text(long), text(long), text(long), text(long)}}, "", "four wide columns fit in 120"},
		{[]string{"é"}, [][]scout.SQLiteValue{{text("ü")}}, "| é |\n| - |\n| ü |", "widths count characters"},
		{[]string{"a", "b"}, [][]scout.SQLiteValue{{}, {text("x"), text("y"), text("z")}}, "| a | b |\n| - | - |\n|   |   |\n| x | y |",
			"a row shorter than the columns (a host's result) has empty cells, a longer one's extra values are not shown"},
	}
	for _, c := range cases {
		got := table(c.cols, c.rows)
		if c.want != "" && got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.reason, got, c.want)
		}
		for _, l := range strings.Split(got, "\n") {
			if n := len([]rune(l)); n > maxWidth {
				t.Errorf("%s: line of %d characters: %s", c.reason, n, l)
			}
		}
	}
}

func TestFormatFloat(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{4999999.5, "4999999.5"},                // decimal below 1e21, not 4.9999995e+06
		{5e6, "5000000"},                        // integral: no fraction
		{0.1, "0.1"},                            // shortest form that reads back
		{-2.5, "-2.5"},                          // sign kept
		{1e-6, "0.000001"},                      // the smallest decimal one
		{1.5e-7, "1.5e-7"},                      // exponent without leading zero
		{1e21, "1e+21"},                         // the first exponent one
		{1.2345e300, "1.2345e+300"},             // large exponent
		{math.Inf(-1), "-Infinity"},             // as JavaScript writes it
		{1.2345678e20, "123456780000000000000"}, // below 1e21: decimal
	} {
		if got := formatFloat(c.f); got != c.want {
			t.Errorf("formatFloat(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

// TestRenderShortRows: rows a host built or decoded with fewer values
// than columns render with empty values, in every view, not a panic.
func TestRenderShortRows(t *testing.T) {
	many := make([]string, 40) // too many columns for a table: records
	for i := range many {
		many[i] = "c"
	}
	tests := []struct {
		name string
		view *scout.SQLiteView
		want string
	}{
		{"row lookup", &scout.SQLiteView{Rows: &scout.SQLiteRows{Table: "t", Key: "1", Columns: []string{"a", "b"}, Rows: [][]scout.SQLiteValue{{text("x")}}}}, "a: x\nb: "},
		{"query rows", &scout.SQLiteView{Rows: &scout.SQLiteRows{Columns: many[:2:2], Rows: [][]scout.SQLiteValue{nil}}}, "|   |   |"},
		{"schema samples", &scout.SQLiteView{Schema: &scout.SQLiteSchema{Columns: []scout.SQLiteColumn{{Name: "a"}}, Samples: [][]scout.SQLiteValue{{}}}}, "Sample rows:\n| a |\n| - |\n|   |"},
		{"many columns", &scout.SQLiteView{Rows: &scout.SQLiteRows{Columns: many, Rows: [][]scout.SQLiteValue{{text("x")}}}}, "-- row 1 --\nc: x\nc:"},
	}
	for _, tt := range tests {
		var b strings.Builder
		writeSQLite(&b, tt.view)
		if !strings.Contains(b.String(), tt.want) {
			t.Errorf("%s: got\n%s\nwant it to hold\n%s", tt.name, b.String(), tt.want)
		}
	}
}
