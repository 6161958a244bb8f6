package selector

import (
	"strconv"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
)

// DBKind is what a database selector asks for.
type DBKind uint8

// The kinds of database selector.
const (
	DBList   DBKind = iota // db: the tables with row counts
	DBSchema               // db:t: CREATE statement and sample rows
	DBRow                  // db:t:key: one row by primary key or rowid
	DBQuery                // db:t?limit=&offset=&order=&where=: a page of rows
	DBRaw                  // db?q=SELECT ...: a query of the caller's own
)

// The limits of a DBQuery selector.
const (
	DBDefaultLimit = 20  // rows of a page when limit is not given
	DBMaxLimit     = 500 // the largest limit; larger ones are lowered to it
)

// DB is a parsed database selector: what follows the database path
// ("app.db:users?limit=5").
type DB struct {
	Kind   DBKind
	Table  string // DBSchema, DBRow, DBQuery
	Key    string // DBRow
	Limit  int    // DBQuery: 1..DBMaxLimit
	Offset int    // DBQuery: >= 0
	Order  string // DBQuery: column to sort by; "" means table order
	Desc   bool   // DBQuery: sort descending
	Where  string // DBQuery: a validated SQL condition; "" means none
	SQL    string // DBRaw: the statement, without a final ';'

	// Clamped reports that the requested limit was above DBMaxLimit.
	Clamped bool
}

// ParseDB parses what follows a database path:
//
//	""                         DBList
//	"t"                        DBSchema
//	"t:key"                    DBRow
//	"t?limit=&offset=&order=col[:asc|desc]&where=COND"   DBQuery
//	"?q=SELECT ..."            DBRaw (one statement)
//
// A leading ':' is ignored, so both "db:t" and "db" + ":t" work. Values are
// taken exactly as written: nothing is percent-decoded and '+' stays '+'.
// In q and where, an '&' is part of the SQL unless limit=, offset=, order=
// or where= follows it outside quotes; q cannot be combined with those.
// Every error is INVALID_PARAM and says how to write the selector.
//
// s is at most MaxBytes long; a longer one is an INVALID_PARAM error.
func ParseDB(s string) (DB, error) {
	if len(s) > MaxBytes {
		return DB{}, errs.New(errs.InvalidParam, "Database selector '%s' is too long: %d bytes, over the limit of %d. Shorten the query or the condition.", errs.Echo(s), len(s), MaxBytes)
	}
	s = strings.TrimPrefix(s, ":")
	head, query, hasQuery := strings.Cut(s, "?")
	if head == "" {
		if !hasQuery {
			return DB{Kind: DBList}, nil
		}
		q, ok := strings.CutPrefix(query, "q=")
		if !ok {
			return DB{}, errs.New(errs.InvalidParam, "A query on the database itself takes only q: use db?q=SELECT ... (or db:table?limit=20 for a table's rows)")
		}
		if nextParam(q) >= 0 {
			return DB{}, errs.New(errs.InvalidParam, "q cannot be combined with other query parameters; write LIMIT, OFFSET, ORDER BY and WHERE into the SQL")
		}
		stmt, ok := firstStatement(q)
		if !ok {
			return DB{}, errs.New(errs.InvalidParam, "q holds more than one statement; run one statement per read")
		}
		if strings.TrimSpace(stmt) == "" { // "", or nothing before a ';'
			return DB{}, errs.New(errs.InvalidParam, "q is empty: use db?q=SELECT ...")
		}
		return DB{Kind: DBRaw, SQL: stmt}, nil
	}
	table, key, hasKey := strings.Cut(head, ":")
	if table == "" {
		return DB{}, errs.New(errs.InvalidParam, "The table name is empty in ':%s'", errs.Echo(s))
	}
	if hasKey {
		if hasQuery {
			return DB{}, errs.New(errs.InvalidParam, "A row lookup (:%s:%s) takes no query parameters; use :%s?where=... to filter rows", errs.Echo(table), errs.Echo(key), errs.Echo(table))
		}
		if key == "" {
			return DB{}, errs.New(errs.InvalidParam, "The row key is empty in ':%s'; use :%s:KEY", errs.Echo(s), errs.Echo(table))
		}
		return DB{Kind: DBRow, Table: table, Key: key}, nil
	}
	if !hasQuery {
		return DB{Kind: DBSchema, Table: table}, nil
	}
	params, err := parseParams(query)
	if err != nil {
		return DB{}, err
	}
	sel := DB{Kind: DBQuery, Table: table, Limit: DBDefaultLimit}
	for k, v := range params {
		switch k {
		case "limit":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return DB{}, errs.New(errs.InvalidParam, "limit must be a whole number from 1 to %d, not '%s'", DBMaxLimit, errs.Echo(v))
			}
			if n > DBMaxLimit {
				n, sel.Clamped = DBMaxLimit, true
			}
			sel.Limit = n
		case "offset":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return DB{}, errs.New(errs.InvalidParam, "offset must be a whole number of 0 or more, not '%s'", errs.Echo(v))
			}
			sel.Offset = n
		case "order":
			col, dir, _ := strings.Cut(v, ":")
			switch strings.ToLower(dir) {
			case "", "asc":
			case "desc":
				sel.Desc = true
			default:
				return DB{}, errs.New(errs.InvalidParam, "order must be COLUMN, COLUMN:asc or COLUMN:desc, not '%s'", errs.Echo(v))
			}
			if col == "" {
				return DB{}, errs.New(errs.InvalidParam, "order names no column; use order=COLUMN or order=COLUMN:desc")
			}
			sel.Order = col
		case "where":
			if err := ValidateWhere(v); err != nil {
				return DB{}, err
			}
			sel.Where = v
		case "q":
			return DB{}, errs.New(errs.InvalidParam, "q cannot be combined with a table; use db?q=SELECT ... on the database path alone")
		default:
			return DB{}, errs.New(errs.InvalidParam, "Unknown query parameter '%s'; a table query takes limit, offset, order and where", errs.Echo(k))
		}
	}
	return sel, nil
}

// parseParams splits "a=1&b=2" into a map, rejecting a repeated key. In a
// where value, an '&' is part of the condition unless limit=, offset=,
// order= or where= follows it.
func parseParams(q string) (map[string]string, error) {
	out := map[string]string{}
	for q != "" {
		var part string
		if len(q) >= len("where=") && strings.EqualFold(q[:len("where=")], "where=") {
			part, q = q, ""
			if i := nextParam(part[len("where="):]); i >= 0 {
				part, q = part[:len("where=")+i], part[len("where=")+i+1:]
			}
		} else {
			part, q, _ = strings.Cut(q, "&")
		}
		k, v, _ := strings.Cut(part, "=")
		k = strings.ToLower(k)
		if k == "" && v == "" {
			continue
		}
		if _, dup := out[k]; dup {
			return nil, errs.New(errs.InvalidParam, "Query parameter '%s' is given twice", errs.Echo(k))
		}
		out[k] = v
	}
	return out, nil
}

// nextParam returns the index of the first "&limit=", "&offset=",
// "&order=" or "&where=" outside quotes in a where or q value (a parameter
// written after it), or -1.
func nextParam(v string) int {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\'', '"', '`', '[':
			if end := closeQuote(v, i); end > 0 {
				i = end - 1 // an '&' inside a quoted string or name is SQL
			}
		case '&':
			for _, p := range []string{"limit=", "offset=", "order=", "where="} {
				if len(v)-i-1 >= len(p) && strings.EqualFold(v[i+1:i+1+len(p)], p) {
					return i
				}
			}
		}
	}
	return -1
}

// String writes the selector back in the form ParseDB reads, starting
// with ':' or '?' ("" for DBList), so it can be appended to a database path.
func (s DB) String() string {
	switch s.Kind {
	case DBSchema:
		return ":" + s.Table
	case DBRow:
		return ":" + s.Table + ":" + s.Key
	case DBQuery:
		var b strings.Builder
		b.WriteString(":" + s.Table + "?limit=" + strconv.Itoa(s.Limit))
		if s.Offset > 0 {
			b.WriteString("&offset=" + strconv.Itoa(s.Offset))
		}
		if s.Order != "" {
			b.WriteString("&order=" + s.Order)
			if s.Desc {
				b.WriteString(":desc")
			}
		}
		if s.Where != "" {
			b.WriteString("&where=" + s.Where)
		}
		return b.String()
	case DBRaw:
		return "?q=" + s.SQL
	}
	return ""
}

// forbidden reports the keywords a where condition may not hold outside
// quotes: they would end the condition and change the query around it.
func forbidden(word string) bool {
	switch word {
	case "LIMIT", "OFFSET", "UNION", "INTERSECT", "EXCEPT",
		"ATTACH", "DETACH", "PRAGMA", "ORDER", "GROUP",
		"HAVING", "WINDOW", "VACUUM", "INSERT", "UPDATE",
		"DELETE", "DROP", "CREATE", "ALTER":
		return true
	}
	return false
}

// ValidateWhere checks a where condition before it is put in
// "SELECT ... WHERE (cond)": no ';', no comments, no NUL, balanced quotes
// and parentheses, and none of LIMIT, OFFSET, UNION, INTERSECT, EXCEPT,
// ATTACH, DETACH, PRAGMA (nor ORDER, GROUP, HAVING, WINDOW or a writing
// statement keyword) outside quotes. The database is opened read-only in
// any case; this keeps the condition a condition.
func ValidateWhere(w string) error {
	bad := func(why string) error {
		return errs.New(errs.InvalidParam, "where %s; give one SQL condition such as where=age > 30 AND name LIKE 'A%%' (order and limit have their own parameters)", why)
	}
	if strings.TrimSpace(w) == "" {
		return bad("is empty")
	}
	if strings.IndexByte(w, 0) >= 0 {
		return bad("holds a NUL byte")
	}
	depth := 0
	for i := 0; i < len(w); {
		c := w[i]
		switch {
		case c == '\'' || c == '"' || c == '`' || c == '[':
			end := closeQuote(w, i)
			if end < 0 {
				return bad("has an unclosed quote")
			}
			i = end
			continue
		case c == ';':
			return bad("may not contain ';'")
		case c == '-' && i+1 < len(w) && w[i+1] == '-', c == '/' && i+1 < len(w) && w[i+1] == '*':
			return bad("may not contain comments")
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth < 0 {
				return bad("has an unbalanced ')'")
			}
		case isWordByte(c):
			j := i
			for j < len(w) && isWordByte(w[j]) {
				j++
			}
			if word := strings.ToUpper(w[i:j]); forbidden(word) {
				return bad("may not contain " + word)
			}
			i = j
			continue
		}
		i++
	}
	if depth != 0 {
		return bad("has an unbalanced '('")
	}
	return nil
}

// closeQuote returns the index just past the quoted token starting at i,
// or -1 when it is not closed. A doubled quote character inside is an
// escaped one; '[' closes with ']'.
func closeQuote(s string, i int) int {
	q := s[i]
	if q == '[' {
		q = ']'
	}
	for j := i + 1; j < len(s); j++ {
		if s[j] != q {
			continue
		}
		if q != ']' && j+1 < len(s) && s[j+1] == q {
			j++
			continue
		}
		return j + 1
	}
	return -1
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

// firstStatement returns sql without a final ';' and whatever space and
// comments follow it. ok is false when another statement follows.
func firstStatement(sql string) (stmt string, ok bool) {
	end := -1 // index of the ';' that ends the statement
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '\'' || c == '"' || c == '`' || c == '[':
			if end >= 0 {
				return "", false
			}
			j := closeQuote(sql, i)
			if j < 0 {
				return sql, true // SQLite reports the unclosed quote
			}
			i = j
			continue
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			nl := strings.IndexByte(sql[i:], '\n')
			if nl < 0 {
				i = len(sql)
				continue
			}
			i += nl + 1
			continue
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				i = len(sql)
				continue
			}
			i += j + 4
			continue
		case c == ';':
			if end < 0 {
				end = i
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
		default:
			if end >= 0 {
				return "", false
			}
		}
		i++
	}
	if end >= 0 {
		return sql[:end], true
	}
	return sql, true
}
