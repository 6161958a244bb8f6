package find

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/testfs"
)

func TestReaches(t *testing.T) {
	tests := []struct {
		globs []string
		want  []reach
	}{
		{[]string{"src/cmd/*.go"}, []reach{{"src/cmd", 2}}},
		{[]string{"a/b.go"}, []reach{{"a", 1}}},
		{[]string{"src/**"}, []reach{{"src", -1}}},
		{[]string{"src/*/x.go"}, []reach{{"src", 2}}},
		{[]string{"./src//a/*.go"}, []reach{{"src/a", 4}}},
		{[]string{"src/{a,b/c}/x"}, []reach{{"src", 3}}},
		{[]string{"src/*.go", "lib/**/*.go"}, []reach{{"src", 1}, {"lib", -1}}},
		{[]string{"*.go"}, []reach{{"", 0}}},
		{[]string{"x.go"}, []reach{{"", 0}}},
		{[]string{"*/*.go"}, []reach{{"", 1}}},
		{[]string{"{src,lib}/*.go"}, []reach{{"", 1}}},
		{[]string{"**/x.go"}, nil},
		{[]string{"src/*.go", "**/*.md"}, nil},
		{[]string{"../x/*.go"}, nil},
		{[]string{`src/x\,y/*.go`}, []reach{{"src", 2}}},
		{[]string{"a/b,c/d"}, []reach{{"", 2}}},
		{[]string{"a/,**"}, nil},
		{[]string{"src/*.{ts,tsx}"}, []reach{{"src", 1}}},
		{[]string{"x/{p", "q}/y/z/w"}, nil},
		{[]string{"x/a[", "b/*]/c/d"}, nil}, // the class closes in the next item: "x/a[,b/*]/c/d"
		{[]string{"a/[{]/b"}, []reach{{"a", 2}}},
		{nil, nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, reaches(tt.globs), "%q", tt.globs)
	}
	sc := &scope{under: []reach{{"src/cmd", 2}, {"lib", -1}, {"", 0}}}
	for rel, want := range map[string]bool{"src": true, "src/cmd": true, "src/cmd/x": false, "lib/a/b": true,
		"src/other": false, "srcx": false, "src/cmdx": false, "docs": false, "libx": false} {
		assert.Equal(t, want, sc.enters(rel), "enters(%q)", rel)
	}
	sc = &scope{under: []reach{{"", 1}}}
	assert.True(t, sc.enters("a"))
	assert.False(t, sc.enters("a/b"))
}

// walkScope runs req's walk as Run does, pruning or not.
func walkScope(fsys fs.FS, root string, req Request, prune bool) (*Result, error) {
	f := finder{fsys: fsys, root: root}
	sc, err := f.resolveScope(context.Background(), req)
	if err != nil {
		return nil, err
	}
	if !prune {
		sc.under = nil
	}
	res := &Result{}
	if sc.exact == nil {
		err = f.walk(context.Background(), sc, req, res)
	}
	return res, err
}

// TestPrunedWalk: a walk does not enter directories where the patterns
// cannot match, and finds what a walk of every directory finds.
// Over a MapFS and a temporary directory.
func TestPrunedWalk(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 6 {
		for j := range 5 {
			m[fmt.Sprintf("d%d/s%d/f.py", i, j)] = &fstest.MapFile{Data: []byte("x")}
			m[fmt.Sprintf("d%d/s%d/deep/g.py", i, j)] = &fstest.MapFile{Data: []byte("x")}
		}
		m[fmt.Sprintf("d%d/top.py", i)] = &fstest.MapFile{Data: []byte("x")}
	}
	m["d1/.hidden/h.py"] = &fstest.MapFile{Data: []byte("x")}
	m["d1/node_modules/n.py"] = &fstest.MapFile{Data: []byte("x")}
	m["x,y]/a.py"] = &fstest.MapFile{Data: []byte("x")}
	for _, tr := range testfs.Trees(t, m) {
		fsys := tr.FS
		if fsys == nil {
			r, err := os.OpenRoot(tr.Root)
			require.NoError(t, err)
			defer r.Close()
			fsys = r.FS()
		}
		for _, patterns := range [][]string{
			{"d1/*.py"},
			{"d1/**/*.py"},
			{"d1/s2/*"},
			{"d1/*/deep/*.py"},
			{"d1/s3/f.py"},
			{"d2/**", "d4/s1/*.py"},
			{"d1/node_modules/*.py"},
			{"d1/.hidden/*.py"},
			{"**/deep/*.py"},
			{"*.py"},
			{"*/*.py"},
			{"*/*/deep/*.py"},
			{"{d1,d3}/*/f.py"},
		} {
			for _, walk := range []struct {
				base       string
				maxVisited int // with one, the walk is in path order on one goroutine
			}{{".", 0}, {".", 100000}, {"d1", 0}, {"d1", 100000}} {
				base := walk.base
				req := Request{Patterns: patterns, Base: base, Kind: Any, Limit: -1, PruneDirs: []string{"node_modules"}, MaxVisited: walk.maxVisited}
				got, err := walkScope(fsys, tr.Root, req, true)
				require.NoError(t, err)
				want, err := walkScope(fsys, tr.Root, req, false)
				require.NoError(t, err)
				assert.Equal(t, want.Entries, got.Entries, "%s %q below %s", tr.Name, patterns, base)
				assert.LessOrEqual(t, got.Visited, want.Visited, "%s %q below %s", tr.Name, patterns, base)
				if base == "." && patterns[0] != "**/deep/*.py" && patterns[0] != "*/*/deep/*.py" {
					assert.Less(t, got.Visited, want.Visited, "%s %q: the walk entered directories where nothing can match", tr.Name, patterns)
				}
			}
		}
	}
}

// TestPrunedWalkQuoted: several patterns under a common base are joined
// with their bases quoted (a name may hold ',' or ']'); the walk still
// enters such a directory.
func TestPrunedWalkQuoted(t *testing.T) {
	m := fstest.MapFS{
		"x,y]/a.py":   {Data: []byte("x")},
		"d2/b.py":     {Data: []byte("x")},
		"d3/c/d/e.py": {Data: []byte("x")},
	}
	res, err := Run(context.Background(), m, "", Request{Patterns: []string{"x,y]/*.py", "d2/*.py"}, Kind: Any, Limit: -1})
	require.NoError(t, err)
	var got []string
	for _, e := range res.Entries {
		got = append(got, e.Path)
	}
	assert.ElementsMatch(t, []string{"x,y]/a.py", "d2/b.py"}, got)
}

// FuzzPrunedWalk: for any pattern, a walk that prunes finds what one that
// does not finds, below a base and as pi find's paths with another pattern
// beside it.
func FuzzPrunedWalk(f *testing.F) {
	m := fstest.MapFS{}
	for _, p := range []string{"a/b/c.go", "a/b.go", "a,b/c.go", "x]/y.go", "{a}/z.go", "a b/c d.go", "é/ü.go",
		".h/a.go", "a/.h/b.go", "d/e/f/g/h.go", "d/e.go", "a.go", "ab/c.go", "a/bc/d.go", "a*b/c.go", "q?/r.go",
		"[b]/c.go", "a{b,c}/d.go", `a\b/c.go`, "a/b/c/d/e/f.go", "..a/b.go", "a/b}/c.go", "-/!/x.go"} {
		m[p] = &fstest.MapFile{Data: []byte("x")}
	}
	for _, s := range []string{"a/*.go", "a/**", "*/*.go", "{a,d}/*/*.go", "a,b/*.go", "x]/*", "d/e/*/g/*.go", "*.go",
		"a/b/c.go", "./a/../d/*", "a/[bc]*/*.go", "é/*", "**/h.go", "a*b/*", `a\,b/*`, "a b/*", "{a/b,d/e}/*.go",
		"\\[b\\]/*", "a{b,c}/*", "a/b/c/**/f.go", "a/b}/*", "..a/*", "-/!/*", "[[:punct:]]/*/*", "a/{b,bc}/*/*"} {
		f.Add(s, "d/*.go")
	}
	f.Fuzz(func(t *testing.T, p, q string) {
		if len(p) > 64 || len(q) > 64 {
			return
		}
		for _, req := range []Request{
			{Patterns: []string{p}, Base: ".", Kind: Any, Limit: -1, Hidden: true},
			{Patterns: []string{p, q}, Kind: Any, Limit: -1, Hidden: true},
			{Patterns: []string{p, q}, Kind: Files, Limit: -1, Recursive: true},
			{Patterns: []string{p}, Kind: Dirs, Limit: -1, Hidden: true},
			{Patterns: []string{p}, Kind: Any, Limit: -1, Recursive: true},
			{Patterns: []string{q, p}, Base: "a", Kind: Dirs, Limit: -1, MaxVisited: 1000},
			{Patterns: []string{p, q}, Base: ".", Kind: Any, Limit: -1, Hidden: true},
		} {
			got, err := walkScope(m, "", req, true)
			if err != nil {
				continue // a bad pattern for this request's shape; the others still run
			}
			want, err := walkScope(m, "", req, false)
			require.NoError(t, err)
			require.Equal(t, want.Entries, got.Entries, "%q", req.Patterns)
			require.LessOrEqual(t, got.Visited, want.Visited, "%q", req.Patterns)
		}
	})
}
