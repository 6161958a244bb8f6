package scout

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/scoutkit/scout/internal/selector"
	"github.com/scoutkit/scout/internal/sqlite"
)

// SQLiteView is a read of a SQLite database (ReadResult.SQLite). The
// database alone ("app.db") lists its Tables; a table ("app.db:users")
// gives its Schema; one row by key ("app.db:users:42"), a page of a
// table's rows ("app.db:users?limit=20&offset=40") and a query of the
// caller's own ("app.db?q=SELECT ...") give Rows.
type SQLiteView struct {
	// Tables are the database's tables with their row counts, sorted by
	// name without regard to case, at most 500 of TotalTables (Next then
	// lists more); nil for a database without tables and in the other
	// views.
	Tables      []SQLiteTable `json:"tables,omitempty"`
	TotalTables int           `json:"total_tables,omitempty"`
	// Schema is the table read with "app.db:table".
	Schema *SQLiteSchema `json:"schema,omitempty"`
	// Rows are the rows of a row lookup, a page or a query.
	Rows *SQLiteRows `json:"rows,omitempty"`
	// Next is the selector that continues the view, to append to the
	// database path as the read named it ("app.db" of "app.db:users", or
	// ReadResult.SuffixResolution.To when a suffix match found it):
	// ":users?limit=20&offset=5", "?q=SELECT ...". "" when nothing
	// follows, or when no selector reaches it (a query's rows past the 500
	// shown: add LIMIT and OFFSET to the query).
	Next string `json:"next,omitempty"`
}

// SQLiteTable is a table and its row count.
type SQLiteTable struct {
	Name string `json:"name"` // as the database spells it
	// Rows is the number of rows: exact, or a sqlite_stat1 estimate when
	// RowsEstimated (tables with statistics above 50,000 rows), or a lower
	// bound when RowsAtLeast (counting stops at 50,000).
	Rows          int64 `json:"rows"`
	RowsEstimated bool  `json:"rows_estimated,omitempty"`
	RowsAtLeast   bool  `json:"rows_at_least,omitempty"`
	// Error says why the rows could not be counted (a virtual table whose
	// module is missing, say); Rows is then 0.
	Error string `json:"error,omitempty"`
}

// SQLiteSchema is a table's definition and its first rows.
type SQLiteSchema struct {
	Table SQLiteTable `json:"table"` // the table, as the database spells it, and its row count
	// SQL is the table's CREATE statement (a view's CREATE VIEW); "" when
	// the database has none.
	SQL     string         `json:"sql,omitempty"`
	Columns []SQLiteColumn `json:"columns"`
	// Samples are the table's first 5 rows, values in the order of
	// Columns; Next pages on.
	Samples [][]SQLiteValue `json:"samples"`
}

// SQLiteColumn is a column of a table, as SELECT * gives them.
type SQLiteColumn struct {
	Name string `json:"name"`           // as the database spells it
	Type string `json:"type,omitempty"` // the declared type; "" when none
	// PrimaryKey is the column's 1-based position in the primary key; 0
	// when it is not part of it.
	PrimaryKey int    `json:"primary_key,omitempty"`
	NotNull    bool   `json:"not_null,omitempty"`
	Default    string `json:"default,omitempty"` // the default's SQL text; "" when none
	Generated  bool   `json:"generated,omitempty"`
}

// SQLiteRows are rows read from a database: one row looked up by key
// (Key set), a page of a table (Table set, Key ""), or the rows of a
// query (Table "").
type SQLiteRows struct {
	// Table is the table read, as the database spells it; "" for a query.
	Table string `json:"table,omitempty"`
	// Key is a row lookup's key as given; Rows then holds its row, or none
	// when no row has that key.
	Key string `json:"key,omitempty"`
	// Columns name the values of each row. A query's are named as SQLite
	// names them in a subquery (a repeated name gets ":1", ":2").
	Columns []string        `json:"columns"`
	Rows    [][]SQLiteValue `json:"rows"`
	// Offset and Limit are a page's: the rows skipped before the first,
	// and the most shown. LimitLowered reports a limit asked above 500,
	// lowered to it.
	Offset       int  `json:"offset,omitempty"`
	Limit        int  `json:"limit,omitempty"`
	LimitLowered bool `json:"limit_lowered,omitempty"`
	// More reports that more rows follow than Rows holds (SQLiteView.Next
	// pages on when a selector can).
	More bool `json:"more,omitempty"`
}

// SQLiteValue is one value of a row, by its SQLite storage class. Large
// values are not loaded whole: their size stands for them.
type SQLiteValue struct {
	// Type is SQLite's storage class: "null", "integer" (Int), "real"
	// (Real), "text" (Text) or "blob" (Size).
	Type string  `json:"type"`
	Int  int64   `json:"int,omitempty"`
	Real float64 `json:"real,omitempty"`
	Text string  `json:"text,omitempty"`
	// Size is the length in bytes of a value that was not loaded: every
	// BLOB, and a text over its column's share of the 16 MiB a row may
	// load (Text is then ""). 0 for a loaded value.
	Size int64 `json:"size,omitempty"`
	// Rest counts the characters after Text of a long text that a row
	// lookup shows the first 16,384 characters of, and Next is the
	// selector (to append to the database path) that reads them; 0 and ""
	// when the text is whole.
	Rest int    `json:"rest,omitempty"`
	Next string `json:"next,omitempty"`
}

// MarshalJSON writes v as a JSON object. A REAL that JSON numbers cannot
// hold is written as a string: "Infinity", "-Infinity" or "NaN".
func (v SQLiteValue) MarshalJSON() ([]byte, error) {
	type plain SQLiteValue
	if !math.IsInf(v.Real, 0) && !math.IsNaN(v.Real) {
		return json.Marshal(plain(v))
	}
	return json.Marshal(struct {
		plain
		Real string `json:"real"`
	}{plain(v), specialFloat(v.Real)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (v *SQLiteValue) UnmarshalJSON(b []byte) error {
	type plain SQLiteValue
	var in struct {
		plain
		Real json.RawMessage `json:"real"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*v = SQLiteValue(in.plain)
	if len(in.Real) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(in.Real, &s) == nil {
		switch s {
		case "Infinity":
			v.Real = math.Inf(1)
		case "-Infinity":
			v.Real = math.Inf(-1)
		default:
			v.Real = math.NaN()
		}
		return nil
	}
	return json.Unmarshal(in.Real, &v.Real)
}

// specialFloat names an infinite or NaN float as JavaScript does.
func specialFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return "NaN"
}

// exportSQLite converts a database read.
func exportSQLite(r *sqlite.Result) *SQLiteView {
	v := &SQLiteView{Next: r.Next}
	switch r.Kind {
	case selector.DBList:
		v.TotalTables = r.TotalTables
		for _, t := range r.Tables {
			v.Tables = append(v.Tables, exportTable(t.Name, t.Count, t.Err))
		}
	case selector.DBSchema:
		s := &SQLiteSchema{Table: exportTable(r.Table, r.Count, ""), SQL: r.SQL, Columns: []SQLiteColumn{}, Samples: exportRows(r.Rows, nil)}
		for _, c := range r.Schema {
			s.Columns = append(s.Columns, SQLiteColumn{Name: c.Name, Type: c.Type, PrimaryKey: c.PK, NotNull: c.NotNull, Default: c.Default, Generated: c.Generated})
		}
		v.Schema = s
	default:
		v.Rows = &SQLiteRows{Table: r.Table, Key: r.Key, Columns: r.Columns, Rows: exportRows(r.Rows, r.Cuts),
			Offset: r.Offset, Limit: r.Limit, LimitLowered: r.Clamped, More: r.More}
		if v.Rows.Columns == nil {
			v.Rows.Columns = []string{}
		}
	}
	return v
}

func exportTable(name string, c sqlite.Count, err string) SQLiteTable {
	return SQLiteTable{Name: name, Rows: c.N, RowsEstimated: c.Estimated, RowsAtLeast: c.AtLeast, Error: err}
}

// exportRows converts rows; cuts are a row lookup's cut texts by column.
func exportRows(rows [][]any, cuts map[int]sqlite.Cut) [][]SQLiteValue {
	out := make([][]SQLiteValue, len(rows))
	for i, row := range rows {
		out[i] = make([]SQLiteValue, len(row))
		for j, x := range row {
			out[i][j] = exportValue(x)
			if c, ok := cuts[j]; ok {
				out[i][j].Rest, out[i][j].Next = c.Rest, c.Next
			}
		}
	}
	return out
}

// exportValue converts a value of the engine: nil, int64, float64,
// string, []byte or sqlite.Sized.
func exportValue(x any) SQLiteValue {
	switch x := x.(type) {
	case nil:
		return SQLiteValue{Type: "null"}
	case int64:
		return SQLiteValue{Type: "integer", Int: x}
	case float64:
		return SQLiteValue{Type: "real", Real: x}
	case string:
		return SQLiteValue{Type: "text", Text: x}
	case []byte:
		return SQLiteValue{Type: "blob", Size: int64(len(x))}
	case sqlite.Sized:
		return SQLiteValue{Type: x.Type, Size: x.Bytes}
	}
	return SQLiteValue{Type: "text", Text: fmt.Sprint(x)} // not given by the engine
}
