package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/selector"
)

// The caps of the views.
const (
	MaxTables     = 500    // tables a List shows
	SampleRows    = 5      // rows shown under a Schema
	MaxRawRows    = 500    // rows a Raw query shows
	EstimateAbove = 50_000 // a sqlite_stat1 estimate above this is shown as "~N rows"
	ProbeCap      = 50_000 // rows counted at most, as pi counts them; more shows as "50000+ rows"
	MaxValueChars = 16_384 // characters of one value a Row shows
	// MaxValueBytes caps the size of one value (text or BLOB) a read makes
	// SQLite hold: a query computing a larger one fails with TOO_LARGE.
	MaxValueBytes = 16 << 20
	// MaxRowBytes bounds the text and BLOB bytes one row loads: a value
	// over its column's share (MaxRowBytes divided among the columns, at
	// least 1 KiB) is not loaded but shown as its size, "<TEXT 20.0MB>",
	// in every view and in a query's rows.
	MaxRowBytes = 16 << 20
)

// maxResultBytes bounds the text and blob bytes one read loads (16 MiB):
// rows stop after the row that passes it, as if the limit had been reached.
// A variable so that tests can lower it.
var maxResultBytes = 16 << 20

// share is the most bytes a value of a row of ncols columns loads.
func share(ncols int) int64 {
	return min(max(MaxRowBytes/int64(max(ncols, 1)), 1<<10), MaxValueBytes)
}

// queryTimeout bounds one read of a database, however long ctx allows, so
// that an endless query (a recursive CTE without a stop) ends. A variable
// so that tests can lower it.
var queryTimeout = 30 * time.Second

// Result is one read of a database, as typed values.
type Result struct {
	// Kind is the view that was read.
	Kind selector.DBKind
	// Tables are the tables a List shows (at most MaxTables) and
	// TotalTables how many there are.
	Tables      []Table
	TotalTables int
	// Table is the table read, as the database spells it (Schema, Row,
	// Query); SQL is its CREATE statement and Schema its columns (Schema).
	Table  string
	SQL    string
	Schema []Column
	// Columns and Rows are the rows shown (Schema samples, Row, Query,
	// Raw). A value is nil (NULL), int64, float64, string, []byte (only
	// from a statement that is not a SELECT), or Sized for a value not
	// loaded. A Raw SELECT's columns are named as SQLite names them in a
	// subquery (a repeated name gets ":1", ":2").
	Columns []string
	Rows    [][]any
	// Cuts are a Row's texts cut to MaxValueChars characters, by column
	// index; nil when none was cut.
	Cuts map[int]Cut
	// Count is the table's row count (Schema).
	Count Count
	// Key is the key of a Row as given.
	Key string
	// Offset and Limit are the page of a Query; Clamped reports a limit
	// lowered to selector.DBMaxLimit.
	Offset, Limit int
	Clamped       bool
	// More reports that more rows exist than Rows holds.
	More bool
	// Next is the selector that continues the output, to append to the
	// database path (":t?limit=20&offset=20"); "" when there is nothing
	// more or no selector reaches it.
	Next string
}

// Column is a column of a table.
type Column struct {
	Name      string
	Type      string // as declared; "" when none
	PK        int    // 1-based position in the primary key; 0 when not in it
	NotNull   bool
	Default   string // the default's SQL text; "" when none
	Generated bool
}

// Cut is the rest of a text a Row shows the first MaxValueChars
// characters of: how many characters follow, and the selector that reads
// them.
type Cut struct {
	Rest int
	Next string
}

// Table is one entry of a List.
type Table struct {
	Name  string
	Count Count
	// Err is why the rows could not be counted (a virtual table whose
	// module is missing, say); "" when Count is valid.
	Err string
}

// Count is a row count: exact, a sqlite_stat1 estimate, or a lower bound
// when counting stopped at ProbeCap.
type Count struct {
	N         int64
	Estimated bool // N comes from sqlite_stat1
	AtLeast   bool // there are more than N rows
}

func (d *db) read(ctx context.Context, sel selector.DB) (*Result, error) {
	var res *Result
	var err error
	switch sel.Kind {
	case selector.DBList:
		res, err = d.list(ctx)
	case selector.DBSchema:
		res, err = d.schema(ctx, sel)
	case selector.DBRow:
		res, err = d.row(ctx, sel)
	case selector.DBQuery:
		res, err = d.page(ctx, sel)
	default:
		if m := readOnSQL().FindStringSubmatch(sel.SQL); m != nil {
			res, err = d.readOnValue(ctx, sel.SQL, m)
		} else {
			res, err = d.raw(ctx, sel)
		}
	}
	if err != nil {
		return nil, err
	}
	res.Kind = sel.Kind
	return res, nil
}

func (d *db) list(ctx context.Context) (*Result, error) {
	names, err := d.strings(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name COLLATE NOCASE, name`)
	if err != nil {
		return nil, err
	}
	res := &Result{TotalTables: len(names)}
	for _, name := range names[:min(len(names), MaxTables)] {
		t := Table{Name: name}
		t.Count, err = d.count(ctx, name)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			t.Err = err.Error()
		}
		res.Tables = append(res.Tables, t)
	}
	if len(names) > MaxTables {
		// Without a limit of its own, the query's result pages on (see
		// rawNext), 500 names a read.
		q := fmt.Sprintf(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%%' ESCAPE '\' ORDER BY name COLLATE NOCASE, name LIMIT -1 OFFSET %d`, MaxTables)
		res.Next = selector.DB{Kind: selector.DBRaw, SQL: q}.String()
	}
	return res, nil
}

// count counts the rows of table: a sqlite_stat1 estimate when one above
// EstimateAbove exists, otherwise an exact count up to ProbeCap.
func (d *db) count(ctx context.Context, table string) (Count, error) {
	if d.hasStat == nil {
		stat, err := d.strings(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_stat1'`)
		if err != nil {
			return Count{}, err
		}
		has := len(stat) > 0
		d.hasStat = &has
	}
	if *d.hasStat {
		stats, err := d.strings(ctx, `SELECT stat FROM sqlite_stat1 WHERE tbl = ?`, table)
		if err != nil {
			return Count{}, err
		}
		var est int64
		for _, s := range stats {
			first, _, _ := strings.Cut(s, " ")
			if n, err := strconv.ParseInt(first, 10, 64); err == nil && n > est {
				est = n
			}
		}
		if est > EstimateAbove {
			return Count{N: est, Estimated: true}, nil
		}
	}
	var n int64
	q := fmt.Sprintf("SELECT count(*) FROM (SELECT 1 FROM %s LIMIT %d)", quote(table), ProbeCap+1)
	if err := d.conn.QueryRowContext(ctx, q).Scan(&n); err != nil {
		return Count{}, err
	}
	if n > ProbeCap {
		return Count{N: ProbeCap, AtLeast: true}, nil
	}
	return Count{N: n}, nil
}

// table finds name among the tables and views, exactly or else without
// regard to case, and returns its stored name, CREATE statement and
// columns.
//
// A CREATE statement over MaxValueBytes, which SQLite refuses to load, is
// returned as "" and its size in bytes as sqlBytes; sqlBytes is 0
// otherwise. Only the schema view shows the statement.
func (d *db) table(ctx context.Context, name string) (stored, sqlText string, cols []Column, sqlBytes int64, err error) {
	row := d.conn.QueryRowContext(ctx, `SELECT name, CASE WHEN octet_length(sql) > ? THEN '' ELSE coalesce(sql, '') END, coalesce(octet_length(sql), 0) FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE ORDER BY name = ? DESC LIMIT 1`, MaxValueBytes, name, name)
	if err := row.Scan(&stored, &sqlText, &sqlBytes); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return "", "", nil, 0, errs.New(errs.NotFound, "SQLite table '%s' not found; read the database path alone to list its tables", errs.Echo(name))
		}
		return "", "", nil, 0, err
	}
	if sqlBytes <= MaxValueBytes {
		sqlBytes = 0
	}
	// The columns SELECT * gives: table_info leaves out generated columns.
	rows, err := d.conn.QueryContext(ctx, `SELECT name, type, pk, "notnull", coalesce(dflt_value, ''), hidden FROM pragma_table_xinfo(?) WHERE hidden <> 1`, stored)
	if err != nil {
		return "", "", nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var c Column
		var hidden int
		if err := rows.Scan(&c.Name, &c.Type, &c.PK, &c.NotNull, &c.Default, &hidden); err != nil {
			return "", "", nil, 0, err
		}
		c.Generated = hidden == 2 || hidden == 3 // a VIRTUAL or STORED generated column
		cols = append(cols, c)
	}
	return stored, sqlText, cols, sqlBytes, rows.Err()
}

func (d *db) schema(ctx context.Context, sel selector.DB) (*Result, error) {
	name, sqlText, cols, sqlBytes, err := d.table(ctx, sel.Table)
	if err != nil {
		return nil, err
	}
	if sqlBytes > 0 {
		return nil, errs.New(errs.TooLarge, "SQLite table '%s' is created by a statement of %s, over Scout's %d MiB cap for a value, so its schema is not shown; append :%s?limit=5 to the database path to read its rows", errs.Echo(name), dirtree.FormatBytes(sqlBytes), MaxValueBytes>>20, errs.Echo(name))
	}
	res := &Result{Table: name, SQL: sqlText, Schema: cols}
	res.Columns, res.Rows, _, err = d.tableRows(ctx, name, cols, " LIMIT "+strconv.Itoa(SampleRows), nil, SampleRows)
	if err != nil {
		return nil, err
	}
	if res.Count, err = d.count(ctx, name); err != nil {
		return nil, err
	}
	if res.Count.N > int64(len(res.Rows)) {
		res.More = true
		res.Next = selector.DB{Kind: selector.DBQuery, Table: name, Limit: selector.DBDefaultLimit, Offset: len(res.Rows)}.String()
	}
	return res, nil
}

func (d *db) row(ctx context.Context, sel selector.DB) (*Result, error) {
	name, _, cols, _, err := d.table(ctx, sel.Table)
	if err != nil {
		return nil, err
	}
	var pks []Column
	for _, c := range cols {
		if c.PK > 0 {
			pks = append(pks, c)
		}
	}
	keyCol, arg := "rowid", any(nil)
	if len(pks) == 1 {
		keyCol, arg = quote(pks[0].Name), coerce(sel.Key, pks[0].Type)
	} else {
		r, err := d.conn.QueryContext(ctx, "SELECT rowid FROM "+quote(name)+" LIMIT 0")
		if err != nil {
			return nil, errs.New(errs.InvalidParam, "Table '%s' has no single-column primary key and no rowid, so a single key cannot name a row; use :%s?where=... instead", errs.Echo(name), errs.Echo(name))
		}
		r.Close()
		n, err := strconv.ParseInt(sel.Key, 10, 64)
		if err != nil {
			return nil, errs.New(errs.InvalidParam, "Table '%s' has no single-column primary key, so rows are looked up by rowid, a whole number; '%s' is not one. Use :%s?where=... to filter", errs.Echo(name), errs.Echo(sel.Key), errs.Echo(name))
		}
		arg = n
	}
	res := &Result{Table: name, Key: sel.Key}
	res.Columns, res.Rows, _, err = d.tableRows(ctx, name, cols, " WHERE "+keyCol+" = ? LIMIT 1", []any{arg}, 1)
	if err != nil || len(res.Rows) == 0 {
		return res, err
	}
	row := res.Rows[0]
	// the texts too large to load with the row: their heads alone, then
	// their lengths
	var big []int
	var sizes []int64
	for i, v := range row {
		if v, ok := v.(Sized); ok && v.Type == "text" && v.Bytes <= MaxValueBytes {
			big, sizes = append(big, i), append(sizes, v.Bytes)
		}
	}
	heads, chars, err := d.heads(ctx, name, keyCol, arg, res.Columns, big, sizes)
	if err != nil {
		return nil, err
	}
	for i, c := range res.Columns {
		head, rest := "", 0
		switch v := row[i].(type) {
		case Sized:
			h, ok := heads[i]
			if !ok {
				continue // shown as its size
			}
			head, rest = h, chars[i]-utf8.RuneCountInString(h)
		case string:
			head, rest = cutRunes(v, MaxValueChars)
		default:
			continue
		}
		row[i] = head
		if rest > 0 {
			if res.Cuts == nil {
				res.Cuts = map[int]Cut{}
			}
			res.Cuts[i] = Cut{Rest: rest, Next: readOn(c, name, keyCol, arg)}
		}
	}
	return res, nil
}

// The most one query of heads reads: columns, two result columns each,
// within SQLite's default cap of 2,000 result columns; and bytes of the
// values, each of which SQLite holds twice (its head and its length each
// load it whole) until the query's row is read.
const (
	headsPerQuery = 500
	headsBytes    = 16 << 20
)

// heads returns the first MaxValueChars characters of the columns cols[i]
// of the row keyCol = arg of table, for each i of idx, and their lengths
// in characters, in as few queries as the bounds above allow; sizes are the
// values' sizes in bytes. A query for each head and each length read the
// row's overflow pages from its start to the value each time, so a row of
// 1,000 texts of 100 KB took 2,000 queries and over 30 s. The heads stop
// after the query whose heads pass maxResultBytes in all, as rows stop:
// the columns left have none, and are shown as their sizes.
func (d *db) heads(ctx context.Context, table, keyCol string, arg any, cols []string, idx []int, sizes []int64) (map[int]string, map[int]int, error) {
	heads, chars := map[int]string{}, map[int]int{}
	from := fmt.Sprintf(" FROM %s WHERE %s = ?", quote(table), keyCol)
	for total := 0; len(idx) > 0 && total <= maxResultBytes; {
		n, held := 1, 2*sizes[0]
		for n < min(len(idx), headsPerQuery) && held+2*sizes[n] <= headsBytes {
			held += 2 * sizes[n]
			n++
		}
		batch := idx[:n]
		idx, sizes = idx[n:], sizes[n:]
		list := make([]string, 0, 2*len(batch))
		for _, i := range batch {
			list = append(list, fmt.Sprintf("substr(%s, 1, %d)", quote(cols[i]), MaxValueChars), "length("+quote(cols[i])+")")
		}
		dest := make([]any, 2*len(batch))
		hs, ns := make([]string, len(batch)), make([]int, len(batch))
		for j := range batch {
			dest[2*j], dest[2*j+1] = &hs[j], &ns[j]
		}
		if err := d.conn.QueryRowContext(ctx, "SELECT "+strings.Join(list, ", ")+from, arg).Scan(dest...); err != nil {
			return nil, nil, err
		}
		for j, i := range batch {
			heads[i], chars[i] = hs[j], ns[j]
			total += len(hs[j])
		}
	}
	return heads, chars, nil
}

// readOn is the selector that reads on after the first MaxValueChars
// characters of column c of the row keyCol = arg of table.
func readOn(c, table, keyCol string, arg any) string {
	return readOnAt(quote(c), quote(table), keyCol, literal(arg), MaxValueChars+1)
}

// readOnAt is the selector that reads MaxValueChars characters from
// character from (1 for the first) of the quoted column c of the row
// keyCol = key (an SQL literal) of the quoted table. Read, its query is
// recognised (readOnSQL) and shown as a row is (readOnValue), so that it
// reads on in turn.
func readOnAt(c, table, keyCol, key string, from int) string {
	return selector.DB{Kind: selector.DBRaw, SQL: fmt.Sprintf("SELECT substr(%s, %d, %d) FROM %s WHERE %s = %s", c, from, MaxValueChars, table, keyCol, key)}.String()
}

// readOnSQL matches the query of readOnAt: the column, the first
// character, the count, the table, the key column and the key. It is
// compiled on first use, not when the program starts.
var readOnSQL = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^SELECT substr\(("(?:[^"]|"")+"), (\d+), (\d+)\) FROM ("(?:[^"]|"")+") WHERE ("(?:[^"]|"")+"|rowid) = (.+)$`)
})

// readOnValue reads the query of readOnAt (stmt, matched as m) as a row
// of one column, the part of the value it selects, cut (Cuts) with the
// selector that reads on when the value goes on past it; a table would
// cut the part to a cell's 40 characters.
func (d *db) readOnValue(ctx context.Context, stmt string, m []string) (*Result, error) {
	length := fmt.Sprintf("SELECT length(%s) FROM %s WHERE %s = %s", m[1], m[4], m[5], m[6])
	for _, q := range []string{stmt, length} {
		if _, err := d.inspect(q, nil, false); err != nil {
			return nil, err
		}
	}
	unquote := func(s string) string { return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`) }
	res := &Result{Table: unquote(m[4]), Key: m[6], Columns: []string{unquote(m[1])}}
	var part sql.NullString
	var chars sql.NullInt64
	if err := d.conn.QueryRowContext(ctx, stmt).Scan(&part); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return res, nil
		}
		return nil, err
	}
	if err := d.conn.QueryRowContext(ctx, length).Scan(&chars); err != nil {
		return nil, err
	}
	from, _ := strconv.Atoi(m[2])
	shown := utf8.RuneCountInString(part.String)
	res.Rows = [][]any{{part.String}}
	if !part.Valid {
		res.Rows = [][]any{{nil}} // the value is NULL now
	}
	if rest := int(chars.Int64) - (from - 1) - shown; rest > 0 && shown > 0 {
		res.Cuts = map[int]Cut{0: {Rest: rest, Next: readOnAt(m[1], m[4], m[5], m[6], from+shown)}}
	}
	return res, nil
}

// cutRunes returns the first n characters of s and how many follow.
func cutRunes(s string, n int) (string, int) {
	if len(s) <= n {
		return s, 0
	}
	seen := 0
	for i := range s {
		if seen == n {
			return s[:i], utf8.RuneCountInString(s[i:])
		}
		seen++
	}
	return s, 0
}

// literal writes a key as an SQL literal.
func literal(v any) string {
	switch v := v.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return "'" + strings.ReplaceAll(fmt.Sprint(v), "'", "''") + "'"
}

// coerce converts a key to the type the column's declared affinity
// expects, so that an INTEGER or REAL key compares as a number.
func coerce(key, typ string) any {
	t := strings.ToUpper(typ)
	switch {
	case strings.Contains(t, "INT"):
		if n, err := strconv.ParseInt(key, 10, 64); err == nil {
			return n
		}
	case strings.Contains(t, "REAL"), strings.Contains(t, "FLOA"), strings.Contains(t, "DOUB"):
		if f, err := strconv.ParseFloat(key, 64); err == nil {
			return f
		}
	}
	return key
}

func (d *db) page(ctx context.Context, sel selector.DB) (*Result, error) {
	name, _, cols, _, err := d.table(ctx, sel.Table)
	if err != nil {
		return nil, err
	}
	sel.Table = name
	var q string
	if sel.Where != "" {
		q += " WHERE (" + sel.Where + "\n)"
	}
	if sel.Order != "" {
		col, ok := findColumn(cols, sel.Order)
		if !ok {
			names := make([]string, len(cols))
			for i, c := range cols {
				names[i] = c.Name
			}
			return nil, errs.New(errs.InvalidParam, "order column '%s' does not exist in table '%s'; its columns are %s", errs.Echo(sel.Order), errs.Echo(name), errs.Echo(strings.Join(names, ", ")))
		}
		sel.Order = col
		q += " ORDER BY " + quote(col)
		if sel.Desc {
			q += " DESC"
		}
	}
	q += " LIMIT ? OFFSET ?"
	res := &Result{Table: name}
	res.Columns, res.Rows, res.More, err = d.tableRows(ctx, name, cols, q, []any{int64(sel.Limit + 1), int64(sel.Offset)}, sel.Limit)
	if err != nil {
		return nil, err
	}
	res.Offset, res.Limit, res.Clamped = sel.Offset, sel.Limit, sel.Clamped
	if res.More {
		next := sel
		next.Offset += len(res.Rows)
		next.Clamped = false
		res.Next = next.String()
	}
	return res, nil
}

// findColumn returns the stored name of the column name, matched exactly
// or else without regard to case.
func findColumn(cols []Column, name string) (string, bool) {
	for _, c := range cols {
		if c.Name == name {
			return c.Name, true
		}
	}
	for _, c := range cols {
		if strings.EqualFold(c.Name, name) {
			return c.Name, true
		}
	}
	return "", false
}

func (d *db) raw(ctx context.Context, sel selector.DB) (*Result, error) {
	stmt := sel.SQL
	st, err := d.inspect(stmt, nil, true)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	if st.cols != nil {
		// a SELECT: its values bounded as the table views bound them,
		// under the names SQLite gives its columns as a subquery
		refs := make([]string, len(st.cols))
		for i, c := range st.cols {
			refs[i] = quote(c)
		}
		res.Columns = st.cols
		res.Rows, res.More, err = d.sizedRows(ctx, refs, "(\n"+stmt+"\n)", nil, MaxRawRows)
	} else {
		res.Columns, res.Rows, res.More, err = d.scan(ctx, stmt, nil, MaxRawRows)
	}
	if err != nil {
		return nil, err
	}
	if res.More && st.cols != nil {
		res.Next = rawNext(stmt, len(res.Rows))
	}
	return res, nil
}

// openOffset is a query's closing "LIMIT -1 OFFSET n": no limit of its
// own, so that a result cut at MaxRawRows pages on by its offset. It is
// compiled on first use.
var openOffset = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)^(.*\S)\s+LIMIT\s+-1\s+OFFSET\s+(\d+)\s*$`)
})

// rawNext is the selector that continues a SELECT whose result showed
// shown rows and had more: the same query with its closing "LIMIT -1
// OFFSET n" moved on by shown (as the table list's Next ends); "" for
// any other query, which the caller pages with a LIMIT and OFFSET of
// their own.
func rawNext(stmt string, shown int) string {
	m := openOffset().FindStringSubmatch(stmt)
	if m == nil {
		return ""
	}
	off, err := strconv.Atoi(m[2])
	if err != nil {
		return ""
	}
	return selector.DB{Kind: selector.DBRaw, SQL: m[1] + " LIMIT -1 OFFSET " + strconv.Itoa(off+shown)}.String()
}

// rows runs a read-only statement with args and returns its columns and
// at most max rows, fewer once maxResultBytes of values are loaded; more
// reports that another row followed.
func (d *db) rows(ctx context.Context, q string, args []any, max int) (cols []string, out [][]any, more bool, err error) {
	if _, err := d.inspect(q, args, false); err != nil {
		return nil, nil, false, err
	}
	return d.scan(ctx, q, args, max)
}

// scan is rows for a statement already inspected.
func (d *db) scan(ctx context.Context, q string, args []any, max int) (cols []string, out [][]any, more bool, err error) {
	loaded := 0
	r, err := d.conn.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, false, err
	}
	defer r.Close()
	if cols, err = r.Columns(); err != nil {
		return nil, nil, false, err
	}
	for r.Next() {
		if len(out) == max {
			more = true
			break
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := r.Scan(ptrs...); err != nil {
			return nil, nil, false, err
		}
		for i, v := range vals {
			vals[i] = storageClass(v)
		}
		out = append(out, vals)
		for _, v := range vals {
			switch v := v.(type) {
			case string:
				loaded += len(v)
			case []byte:
				loaded += len(v)
			}
		}
		if loaded > maxResultBytes && len(out) < max {
			more = r.Next()
			break
		}
	}
	return cols, out, more, r.Err()
}

// storageClass returns v as a value of one of SQLite's storage classes:
// the driver gives a column declared BOOLEAN as a bool and one declared
// DATE, DATETIME or TIMESTAMP as a time.Time.
func storageClass(v any) any {
	switch v := v.(type) {
	case bool:
		if v {
			return int64(1)
		}
		return int64(0)
	case time.Time:
		return v.Format("2006-01-02 15:04:05.999999999Z07:00")
	}
	return v
}

// Sized stands for a value that is not loaded: every BLOB of the views
// and of a SELECT's rows, and every text over its column's share of
// MaxRowBytes. Type is its storage class, "blob" or "text".
type Sized struct {
	Type  string
	Bytes int64
}

// sizedRows runs "SELECT refs FROM from" (from may go on with WHERE, ORDER
// BY, LIMIT) and returns at most max rows of the values refs name, as rows
// does, except that a BLOB, and a text over its share of MaxRowBytes, comes
// as Sized: typeof and octet_length read their size without loading them,
// so that rows of large values are shown in little memory.
func (d *db) sizedRows(ctx context.Context, refs []string, from string, args []any, max int) (out [][]any, more bool, err error) {
	// One result column per value, so that a table of as many columns as
	// SQLite allows can be read, without an alias (an alias named as a
	// column would take that column's place in ORDER BY): the value, or,
	// when it is not loaded, a BLOB naming its storage class and size, such
	// as "b1048576" (a value loaded is never a BLOB).
	limit := share(len(refs))
	list := make([]string, 0, len(refs))
	for _, c := range refs {
		big := fmt.Sprintf("typeof(%s) = 'blob' OR octet_length(%s) > %d", c, c, limit)
		list = append(list, "CASE WHEN "+big+" THEN CAST(substr(typeof("+c+"), 1, 1) || octet_length("+c+") AS BLOB) ELSE "+c+" END")
	}
	_, out, more, err = d.rows(ctx, "SELECT "+strings.Join(list, ", ")+" FROM "+from, args, max)
	if err != nil {
		return nil, false, err
	}
	for _, row := range out {
		for j, v := range row {
			if b, ok := v.([]byte); ok {
				row[j] = sized(b)
			}
		}
	}
	return out, more, nil
}

// sized decodes sizedRows' BLOB for a value not loaded: the first letter of
// its storage class, then its size in bytes.
func sized(b []byte) Sized {
	n, _ := strconv.ParseInt(string(b[min(len(b), 1):]), 10, 64)
	kind := "text"
	if len(b) > 0 && b[0] == 'b' {
		kind = "blob"
	}
	return Sized{Type: kind, Bytes: n}
}

// tableRows is sizedRows for "SELECT * FROM name" followed by rest (WHERE,
// ORDER BY, LIMIT), with the columns that SELECT * gives; cols are the
// table's columns as table gives them.
func (d *db) tableRows(ctx context.Context, name string, cols []Column, rest string, args []any, max int) (names []string, out [][]any, more bool, err error) {
	refs := make([]string, len(cols))
	for i, col := range cols {
		names = append(names, col.Name)
		refs[i] = quote(col.Name)
	}
	out, more, err = d.sizedRows(ctx, refs, quote(name)+rest, args, max)
	if err != nil {
		return nil, nil, false, err
	}
	return names, out, more, nil
}

// strings runs a query whose first column is text and returns it.
func (d *db) strings(ctx context.Context, q string, args ...any) ([]string, error) {
	r, err := d.conn.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []string
	for r.Next() {
		var s string
		if err := r.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, r.Err()
}

// quote quotes an SQL identifier.
func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// selectLike reports whether q starts, after space and comments, with
// SELECT, WITH or VALUES, so that it can be used as a subquery.
func selectLike(q string) bool {
	for {
		q = strings.TrimLeft(q, " \t\r\n\f")
		switch {
		case strings.HasPrefix(q, "--"):
			nl := strings.IndexByte(q, '\n')
			if nl < 0 {
				return false
			}
			q = q[nl+1:]
		case strings.HasPrefix(q, "/*"):
			end := strings.Index(q, "*/")
			if end < 0 {
				return false
			}
			q = q[end+2:]
		default:
			word := strings.ToUpper(q[:min(len(q), 6)])
			return strings.HasPrefix(word, "SELECT") || strings.HasPrefix(word, "WITH") || strings.HasPrefix(word, "VALUES")
		}
	}
}
