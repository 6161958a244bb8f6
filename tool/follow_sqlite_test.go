//go:build cgo && unix

package tool

import (
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/testfs"
)

// sqliteRow is a data row of a table page's text: "| 12 | ... |".
var sqliteRow = regexp.MustCompile(`(?m)^\| (\d+) +\|`)

// TestFollowReadSQLitePages follows the hints of table pages ("append
// :t?limit=N&offset=M to the database path to continue") from the table's
// sample rows and from pages with limit, order (on a column of few values:
// most rows tie) and where, over random tables: each page goes on from the
// last, no row is shown twice or left out, and the rows joined are those
// a naive filter and sort of the table gives.
func TestFollowReadSQLitePages(t *testing.T) {
	for seed := range int64(4) {
		r := rand.New(rand.NewSource(seed))
		n := 1 + r.Intn(400)
		groups := 1 + r.Intn(4)
		type row struct{ id, g int }
		rows := make([]row, n)
		var values []string
		for i := range rows {
			rows[i] = row{i + 1, r.Intn(groups)}
			values = append(values, fmt.Sprintf("(%d, %d, 'v%d')", rows[i].id, rows[i].g, i))
		}
		db := testDatabase(t,
			"CREATE TABLE t(id INTEGER PRIMARY KEY, g INTEGER, v TEXT)",
			"INSERT INTO t VALUES "+strings.Join(values, ","),
			// An index on g: a sort by g may walk it, or a sorter.
			"CREATE TABLE u(id INTEGER PRIMARY KEY, g INTEGER, v TEXT)",
			"INSERT INTO u SELECT * FROM t",
			"CREATE INDEX ug ON u(g)")
		// ids are the ids of the rows keep keeps, in rowid order, or by g
		// (descending with desc) when order is set.
		ids := func(keep func(row) bool, order, desc bool) []int {
			sel := slices.Clone(rows)
			sel = slices.DeleteFunc(sel, func(x row) bool { return !keep(x) })
			slices.SortStableFunc(sel, func(a, b row) int {
				switch {
				case !order:
					return 0
				case desc:
					return b.g - a.g
				}
				return a.g - b.g
			})
			out := make([]int, len(sel))
			for i, x := range sel {
				out[i] = x.id
			}
			return out
		}
		all := func(row) bool { return true }
		for _, tr := range testfs.Trees(t, fstest.MapFS{"d/db.sqlite": {Data: db}}) {
			c := Config{FS: tr.FS, Root: tr.Root}
			limit := 1 + r.Intn(30)
			tests := []struct {
				start string
				want  []int // ids in order; nil means every id in rowid order
				order bool  // rows tie on g: the order of the ids within a group is free
			}{
				{start: ":t"},
				{start: fmt.Sprintf(":t?limit=%d", limit)},
				{start: fmt.Sprintf(":t?limit=%d&offset=%d", limit, r.Intn(n))},
				{start: fmt.Sprintf(":t?where=g = 1 OR id < 5&limit=%d", limit), want: ids(func(x row) bool { return x.g == 1 || x.id < 5 }, false, false)},
				{start: fmt.Sprintf(":t?order=g&limit=%d", limit), want: ids(all, true, false), order: true},
				{start: fmt.Sprintf(":t?order=g:desc&limit=%d", limit), want: ids(all, true, true), order: true},
				{start: fmt.Sprintf(":u?order=g&limit=%d", limit), want: ids(all, true, false), order: true},
			}
			for _, tc := range tests {
				t.Run(fmt.Sprintf("seed%d/%s/%s", seed, tr.Name, tc.start), func(t *testing.T) {
					base := "d/db.sqlite"
					want := tc.want
					if want == nil {
						want = ids(all, false, false)
					}
					if i := strings.Index(tc.start, "offset="); i >= 0 {
						off, _ := strconv.Atoi(tc.start[i+len("offset="):])
						want = want[min(off, len(want)):]
					}
					var got []int
					for _, pg := range followRead(t, c, base, base+tc.start) {
						for _, m := range sqliteRow.FindAllStringSubmatch(pg.text, -1) {
							id, _ := strconv.Atoi(m[1])
							got = append(got, id)
						}
					}
					if tc.order {
						// Within a group of equal g, any order is right,
						// as long as each row comes once.
						g := map[int]int{}
						for _, x := range rows {
							g[x.id] = x.g
						}
						key := func(ids []int) []string {
							out := make([]string, len(ids))
							for i, id := range ids {
								out[i] = strconv.Itoa(g[id])
							}
							return out
						}
						if !slices.Equal(key(got), key(want)) {
							t.Errorf("rows not in order of g:\n got %v\nwant %v", key(got), key(want))
						}
						got, want = slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
					}
					if !slices.Equal(got, want) {
						t.Errorf("pages joined: %d rows, want %d\n got %v\nwant %v", len(got), len(want), got, want)
					}
				})
			}
		}
	}
}

// TestFollowReadSQLiteTableList follows the hint of a database's table
// list, 500 tables a read, over databases of up to three lists' worth of
// tables: every table is listed once, in order.
func TestFollowReadSQLiteTableList(t *testing.T) {
	for _, n := range []int{499, 500, 501, 1000, 1001, 1234} {
		stmts := make([]string, n)
		want := make([]string, n)
		for i := range stmts {
			want[i] = fmt.Sprintf("t%04d", i)
			stmts[i] = "CREATE TABLE " + want[i] + "(id INTEGER PRIMARY KEY)"
		}
		// One transaction: a statement each would sync the file each time.
		c := Config{FS: fstest.MapFS{"db.sqlite": {Data: testDatabase(t, "BEGIN; "+strings.Join(stmts, "; ")+"; COMMIT")}}}
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			var got []string
			name := regexp.MustCompile(`(?m)^(?:\| )?(t\d{4})\b`)
			for _, pg := range followRead(t, c, "db.sqlite", "db.sqlite") {
				for _, m := range name.FindAllStringSubmatch(pg.text, -1) {
					got = append(got, m[1])
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("tables listed: %d, want %d (last %v)", len(got), n, got[max(0, len(got)-2):])
			}
		})
	}
}

// readOnHint is the hint of a row's value cut at 16,384 characters.
var readOnHint = regexp.MustCompile(`(?s)… \[\d+ more characters; append (\?q=.+?) to the database path to read on\]`)

// TestFollowReadSQLiteValue follows the "read on" hints of a row's long
// text values, in a table keyed by an INTEGER PRIMARY KEY, by a text key
// and by rowid: the parts joined are the value, whole, each character
// once.
func TestFollowReadSQLiteValue(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var b strings.Builder
	for b.Len() < 70_000 {
		b.WriteString(fmt.Sprintf("w%d é ", r.Intn(1000)))
	}
	long := b.String()
	db := testDatabase(t,
		"CREATE TABLE a(id INTEGER PRIMARY KEY, v TEXT)", "INSERT INTO a VALUES (7, '"+long+"')",
		"CREATE TABLE b(k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID", "INSERT INTO b VALUES ('it''s', '"+long[:50_000]+"')",
		"CREATE TABLE c(v TEXT, w TEXT)", "INSERT INTO c VALUES ('"+long[:40_000]+"', 'x')")
	c := Config{FS: fstest.MapFS{"db.sqlite": {Data: db}}}
	for _, tc := range []struct{ path, want string }{
		{"db.sqlite:a:7", long},
		{"db.sqlite:b:it's", long[:50_000]},
		{"db.sqlite:c:1", long[:40_000]},
	} {
		t.Run(tc.path, func(t *testing.T) {
			var got strings.Builder
			p := tc.path
			for step := 0; ; step++ {
				if step > 20 {
					t.Fatalf("no end after %d reads", step)
				}
				env := followCall(t, c, Pi, "read", map[string]any{"path": p})
				// The value is the text after "v: " up to its cut mark.
				_, v, ok := strings.Cut(env.Text, "v: ")
				if !ok {
					t.Fatalf("%s: no value v:\n%.300s", p, env.Text)
				}
				v, _, _ = strings.Cut(v, "\nw: ")
				m := readOnHint.FindStringSubmatch(v)
				if m != nil {
					v = v[:len(v)-len(m[0])]
				}
				got.WriteString(v)
				if m == nil {
					break
				}
				p = "db.sqlite" + m[1]
			}
			if got.String() != tc.want {
				t.Errorf("the parts joined: %d bytes, want %d\n got %.200q…", got.Len(), len(tc.want), got.String())
			}
		})
	}
}
