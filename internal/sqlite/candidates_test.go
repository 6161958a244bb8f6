package sqlite

import "testing"

func FuzzCandidates(f *testing.F) {
	for _, s := range []string{"a.db", "a.DB:t:1", "x.sqlite3?q=SELECT 'b.db'", "İ.db", "a.db3:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		prev := len(p) + 1
		for _, c := range Candidates(p) {
			if !HasExt(c.DB) || len(c.DB) >= prev || c.DB+c.Selector != p {
				t.Fatalf("%q: bad candidate %+v", p, c)
			}
			prev = len(c.DB)
		}
	})
}
