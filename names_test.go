package scout_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestQuotedNamesGoAPI passes the quoted form of a name that is not
// printable UTF-8, as text shows it, to Read, Search and Find: each reads
// it back, its '*' taken literally, and the results keep the exact bytes.
func TestQuotedNamesGoAPI(t *testing.T) {
	const name = "a\n*1|fake"
	m := fstest.MapFS{
		name:         {Data: []byte("hello\n")},
		"a\nX1|fake": {Data: []byte("hello\n")}, // the glob a\n*1|fake would match it too
		"d\t/f.go":   {Data: []byte("hello\n")},
	}
	ctx := context.Background()
	for _, tr := range testfs.Trees(t, m) {
		ws := scout.Workspace{FS: tr.FS, Root: tr.Root}
		t.Run(tr.Name, func(t *testing.T) {
			r, err := (&scout.Reader{Workspace: ws}).Read(ctx, scout.ReadRequest{Path: `"a\n*1|fake"`})
			if err != nil || r.Path != name {
				t.Fatalf("Read: %v, %+v; want the path %q", err, r, name)
			}
			s, err := (&scout.Searcher{Workspace: ws}).Search(ctx, scout.SearchRequest{Pattern: "hello", Paths: []string{`"a\n*1|fake"`}})
			if err != nil || len(s.Files) != 1 || s.Files[0].Path != name {
				t.Fatalf("Search: %v, %+v; want the one file %q", err, s, name)
			}
			s, err = (&scout.Searcher{Workspace: ws}).Search(ctx, scout.SearchRequest{Pattern: "hello", Paths: []string{`"d\t"`}})
			if err != nil || len(s.Files) != 1 || s.Files[0].Path != "d\t/f.go" {
				t.Fatalf("Search of a quoted directory: %v, %+v", err, s)
			}
			f, err := (&scout.Finder{Workspace: ws}).Find(ctx, scout.FindRequest{Patterns: []string{`"a\n*1|fake"`}})
			if err != nil || len(f.Entries) != 1 || f.Entries[0].Path != name {
				t.Fatalf("Find: %v, %+v; want the one entry %q", err, f, name)
			}
			f, err = (&scout.Finder{Workspace: ws}).Find(ctx, scout.FindRequest{Base: `"d\t"`, Patterns: []string{"*.go"}})
			if err != nil || len(f.Entries) != 1 || f.Entries[0].Path != "d\t/f.go" {
				t.Fatalf("Find below a quoted Base: %v, %+v", err, f)
			}
		})
	}
}
