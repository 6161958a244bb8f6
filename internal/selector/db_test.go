package selector

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/errs"
)

func TestParseDB(t *testing.T) {
	cases := []struct {
		in     string
		want   DB
		err    string
		reason string
	}{
		{"", DB{Kind: DBList}, "", "database alone"},
		{":users", DB{Kind: DBSchema, Table: "users"}, "", "table"},
		{"users", DB{Kind: DBSchema, Table: "users"}, "", "leading ':' is optional"},
		{":users:42", DB{Kind: DBRow, Table: "users", Key: "42"}, "", "row"},
		{":users:a:b", DB{Kind: DBRow, Table: "users", Key: "a:b"}, "", "a key may hold ':'"},
		{":users?limit=5", DB{Kind: DBQuery, Table: "users", Limit: 5}, "", "limit"},
		{":users?limit=900", DB{Kind: DBQuery, Table: "users", Limit: 500, Clamped: true}, "", "limit lowered to the maximum"},
		{":users?offset=10&order=name:DESC", DB{Kind: DBQuery, Table: "users", Limit: 20, Offset: 10, Order: "name", Desc: true}, "", "offset and order, default limit"},
		{":users?order=name:asc", DB{Kind: DBQuery, Table: "users", Limit: 20, Order: "name"}, "", "ascending"},
		{":users?limit=3&where=a & 1 AND b LIKE '%ab%'", DB{Kind: DBQuery, Table: "users", Limit: 3, Where: "a & 1 AND b LIKE '%ab%'"}, "", "where takes the rest, '&' and '%' as written"},
		{":users?where=a&b=1&limit=5&order=id", DB{Kind: DBQuery, Table: "users", Limit: 5, Order: "id", Where: "a&b=1"}, "", "where ends before a known parameter"},
		{":users?where=a=1&where=b=2", DB{}, "given twice", "two wheres"},
		{":users?where=a='x&limit=5'&limit=2", DB{Kind: DBQuery, Table: "users", Limit: 2, Where: "a='x&limit=5'"}, "", "an '&' inside quotes is part of the condition"},
		{":users?where", DB{}, "where is empty", "where without '='"},
		{":users?limit=5&", DB{Kind: DBQuery, Table: "users", Limit: 5}, "", "a trailing '&'"},
		{":users?where=a+1>2", DB{Kind: DBQuery, Table: "users", Limit: 20, Where: "a+1>2"}, "", "'+' is not a space"},
		{"?q=SELECT 1", DB{Kind: DBRaw, SQL: "SELECT 1"}, "", "raw query"},
		{"?q=SELECT a?b", DB{Kind: DBRaw, SQL: "SELECT a?b"}, "", "'?' inside q"},
		{"?q=", DB{}, "q is empty", "empty q"},
		{"?q= ;", DB{}, "q is empty", "nothing before the ';' (ran as an empty query, and String gave ?q= that does not parse)"},
		{"?q=SELECT 1; -- done", DB{Kind: DBRaw, SQL: "SELECT 1"}, "", "a final ';' and comments are dropped"},
		{"?q=SELECT 1; SELECT 2", DB{}, "more than one statement", "one statement per read"},
		{"?q=SELECT 1 & 3", DB{Kind: DBRaw, SQL: "SELECT 1 & 3"}, "", "q takes the rest, '&' included"},
		{"?limit=3&q=SELECT 1", DB{}, "takes only q", "q must come first"},
		{"?q=SELECT 1&limit=3", DB{}, "q cannot be combined with other query parameters", "q takes no other parameter after it either"},
		{"?limit=3", DB{}, "takes only q", "limit without a table"},
		{":users?q=SELECT 1", DB{}, "q cannot be combined with a table", "q with a table"},
		{":users:1?limit=2", DB{}, "takes no query parameters", "row with parameters"},
		{":users:", DB{}, "row key is empty", "empty key"},
		{"::", DB{}, "table name is empty", "empty table"},
		{":users?limit=0", DB{}, "limit must be a whole number from 1 to 500", "zero limit"},
		{":users?limit=x", DB{}, "limit must be", "bad limit"},
		{":users?offset=-1", DB{}, "offset must be", "negative offset"},
		{":users?order=name:up", DB{}, "order must be", "bad direction"},
		{":users?order=", DB{}, "order names no column", "empty order"},
		{":users?sort=name", DB{}, "Unknown query parameter 'sort'", "unknown key"},
		{":users?limit=1&limit=2", DB{}, "given twice", "repeated key"},
		{":users?where=1; DROP TABLE users", DB{}, "may not contain ';'", "where is validated"},
		{"?q=SELECT '" + strings.Repeat("a", MaxBytes-len("?q=SELECT ''")) + "'", DB{Kind: DBRaw, SQL: "SELECT '" + strings.Repeat("a", MaxBytes-len("?q=SELECT ''")) + "'"}, "", "a query of 64 KiB"},
		{"?q=SELECT '" + strings.Repeat("a", MaxBytes-len("?q=SELECT '")) + "'", DB{}, "over the limit of 65536", "a query of 64 KiB + 1"},
	}
	for _, c := range cases {
		got, err := ParseDB(c.in)
		if c.err != "" {
			if errs.CodeOf(err) != errs.InvalidParam || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseDB(%q) (%s): err %v, want INVALID_PARAM containing %q", c.in, c.reason, err, c.err)
			}
			continue
		}
		if assert.NoError(t, err, "ParseDB(%q) (%s)", c.in, c.reason) {
			assert.Equal(t, c.want, got, "ParseDB(%q) (%s)", c.in, c.reason)
		}
	}
}

func TestDBRoundTrip(t *testing.T) {
	sels := []DB{
		{Kind: DBList},
		{Kind: DBSchema, Table: "t"},
		{Kind: DBRow, Table: "t", Key: "k:1"},
		{Kind: DBQuery, Table: "t", Limit: 7, Offset: 14, Order: "c", Desc: true, Where: "a & 1 = 0 AND b LIKE '%x%'"},
		{Kind: DBRaw, SQL: "SELECT '&limit=5' || '%25'"},
	}
	for _, s := range sels {
		got, err := ParseDB(s.String())
		if assert.NoError(t, err, "round trip via %q", s.String()) {
			assert.Equal(t, s, got, "round trip via %q", s.String())
		}
	}
}

func TestValidateWhere(t *testing.T) {
	cases := []struct {
		w      string
		ok     bool
		reason string
	}{
		{"age > 30 AND name LIKE 'A%'", true, "plain condition"},
		{"name = 'it''s; -- not a comment /* nor this */ UNION'", true, "everything inside a string is data"},
		{`"limit" = 5`, true, "a quoted identifier may be a keyword"},
		{"[order] = 1 OR `offset` = 2", true, "other identifier quotes"},
		{"id IN (1, 2, (3))", true, "balanced parentheses"},
		{"replace(name, 'a', 'b') = 'x'", true, "functions are fine"},
		{"unionized = 1 AND limits = 2", true, "keywords only as whole words"},
		{"", false, "empty"},
		{"   ", false, "blank"},
		{"1; DROP TABLE t", false, "semicolon"},
		{"1 -- rest", false, "line comment"},
		{"1 /* c */", false, "block comment"},
		{"1 UNION SELECT * FROM secrets", false, "UNION"},
		{"1 union all select 1", false, "lower-case keyword"},
		{"1 LIMIT 1", false, "LIMIT"},
		{"1 OFFSET 1", false, "OFFSET"},
		{"1 INTERSECT SELECT 1", false, "INTERSECT"},
		{"1 EXCEPT SELECT 1", false, "EXCEPT"},
		{"1 ORDER BY 1", false, "ORDER"},
		{"1 GROUP BY a", false, "GROUP"},
		{"1) OR (1", false, "closes a parenthesis it did not open"},
		{"1) OR 1=1 --", false, "escaping the parentheses with a comment"},
		{"1)", false, "unbalanced ')'"},
		{"(1", false, "unbalanced '('"},
		{"name = 'open", false, "unclosed string"},
		{`"open = 1`, false, "unclosed identifier"},
		{"a = 1\x00", false, "NUL"},
		{"1 ATTACH 'x' AS y", false, "ATTACH"},
		{"PRAGMA x", false, "PRAGMA"},
	}
	for _, c := range cases {
		err := ValidateWhere(c.w)
		if (err == nil) != c.ok {
			t.Errorf("ValidateWhere(%q) (%s) = %v", c.w, c.reason, err)
		}
		if err != nil && errs.CodeOf(err) != errs.InvalidParam {
			t.Errorf("ValidateWhere(%q): code %s", c.w, errs.CodeOf(err))
		}
	}
}

func TestFirstStatement(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
		reason   string
	}{
		{"SELECT 1", "SELECT 1", true, "one statement"},
		{"SELECT 1;", "SELECT 1", true, "trailing ';'"},
		{"SELECT 1; -- done\n /* c */ ", "SELECT 1", true, "trailing comments"},
		{"SELECT ';'; ", "SELECT ';'", true, "';' in a string"},
		{"SELECT 1; SELECT 2", "", false, "two statements"},
		{"SELECT 1;;", "SELECT 1", true, "doubled ';'"},
		{"SELECT 1; 'x'", "", false, "a string after ';'"},
		{"SELECT 1 -- c; SELECT 2", "SELECT 1 -- c; SELECT 2", true, "';' inside a line comment"},
	}
	for _, c := range cases {
		got, ok := firstStatement(c.in)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("firstStatement(%q) (%s) = %q, %v", c.in, c.reason, got, ok)
		}
	}
}

func FuzzValidateWhere(f *testing.F) {
	for _, s := range []string{"a = 1", "name = 'x''y'", "1) OR (1", `"a" = [b]`, "x IN (SELECT 1)", "a -- b", "'", "1;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, w string) {
		if ValidateWhere(w) != nil {
			return
		}
		// an accepted condition stays one statement inside WHERE (...)
		q := "SELECT * FROM t WHERE (" + w + "\n) LIMIT 1"
		if _, ok := firstStatement(q); !ok {
			t.Fatalf("accepted %q, which ends the statement", w)
		}
		if strings.ContainsRune(w, 0) {
			t.Fatalf("accepted a NUL in %q", w)
		}
	})
}

func FuzzParseDB(f *testing.F) {
	for _, s := range []string{"", ":t", ":t:1", ":t?limit=5&order=a:desc&where=a>1", "?q=SELECT 1", ":t?where=a & 1 = '%25'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseDB(s)
		if err != nil {
			if errs.CodeOf(err) != errs.InvalidParam {
				t.Fatalf("code %s for %q", errs.CodeOf(err), s)
			}
			return
		}
		if sel.Kind == DBQuery && (sel.Limit < 1 || sel.Limit > DBMaxLimit || sel.Offset < 0) {
			t.Fatalf("limits out of range: %+v", sel)
		}
		// hints are built with String: what parses must parse again alike
		again, err := ParseDB(sel.String())
		sel.Clamped = false
		require.NoError(t, err, "%q -> %q", s, sel.String())
		require.Equal(t, sel, again, "%q -> %q", s, sel.String())
	})
}
