package find

import (
	"context"
	"fmt"
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

// TestPrunedWalk: a walk does not enter directories where the patterns
// cannot match, and finds what a walk of every directory finds (a brace
// union of the patterns and **/no-such-name matches the same paths and
// prunes nothing).
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
				got, err := Run(context.Background(), fsys, tr.Root, req)
				require.NoError(t, err)
				ref := req
				ref.Patterns = []string{"{" + patterns[0]}
				for _, p := range patterns[1:] {
					ref.Patterns[0] += "," + p
				}
				ref.Patterns[0] += ",**/no-such-name}"
				want, err := Run(context.Background(), fsys, tr.Root, ref)
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
