package scout_test

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestInputRules: Read, Search and Find read a path string by one set of
// rules, over a MapFS and a real directory: the input rules (a trailing
// newline, surrounding blanks, file://, ~) apply in all three, a path that
// exists as written is that path, '\' is a name's byte (paths are
// slash-separated), and a missing path that holds a '\' whose '/' reading
// exists says so in all three. A path is either found as the same file by
// all three or refused by all three with the same code.
func TestInputRules(t *testing.T) {
	m := fstest.MapFS{
		"a.txt":       {Data: []byte("a\n")},
		"dir/b.txt":   {Data: []byte("b\n")},
		`lit\x.txt`:   {Data: []byte("lit\n")},
		"~":           {Data: []byte("tilde\n")},
		"sub/~/c.txt": {Data: []byte("c\n")},
	}
	ctx := context.Background()
	for _, tr := range testfs.Trees(t, m) {
		t.Run(tr.Name, func(t *testing.T) {
			home := tr.Root // "~/a.txt" is the root's a.txt in the directory
			if home == "" {
				home = "/home/nobody"
			}
			t.Setenv("HOME", home)
			ws := scout.Workspace{FS: tr.FS, Root: tr.Root}
			osOnly := func(want string) string { // found only where absolute paths have a place
				if tr.Root == "" {
					return ""
				}
				return want
			}
			tests := []struct {
				in   string
				want string     // the file found; "" when refused
				code scout.Code // when refused
				msg  string     // in the error, when refused
			}{
				{"a.txt\n", "a.txt", "", ""},
				{" a.txt\t", "a.txt", "", ""},
				{`"a.txt"`, "a.txt", "", ""},
				{"./dir//b.txt", "dir/b.txt", "", ""},
				{"dir/../a.txt", "a.txt", "", ""},
				{"file://" + tr.Root + "/a.txt", osOnly("a.txt"), scout.CodeAccessDenied, "absolute path"},
				{"~/a.txt", osOnly("a.txt"), scout.CodeAccessDenied, "absolute path"},
				{"~", "~", "", ""},                     // as written, not the home directory
				{"sub/~/c.txt", "sub/~/c.txt", "", ""}, // only a leading ~ is home
				{`lit\x.txt`, `lit\x.txt`, "", ""},     // '\' is a name's byte
				{`dir\b.txt`, "", scout.CodeNotFound, `paths are separated by '/', not '\': did you mean 'dir/b.txt'?`},
				{`dir\b.txt` + "\n", "", scout.CodeNotFound, `did you mean 'dir/b.txt'?`},
				{`nope\b.txt`, "", scout.CodeNotFound, "not found"},
			}
			for _, tt := range tests {
				t.Run(strings.ReplaceAll(tt.in, "/", "|"), func(t *testing.T) {
					check := func(tool string, got string, err error) {
						t.Helper()
						if tt.want != "" {
							require.NoError(t, err, tool)
							assert.Equal(t, tt.want, got, tool)
							return
						}
						require.Error(t, err, tool)
						assert.Equal(t, tt.code, scout.CodeOf(err), "%s: %v", tool, err)
						assert.Contains(t, err.Error(), tt.msg, tool)
						if !strings.Contains(tt.msg, "did you mean") {
							assert.NotContains(t, err.Error(), "did you mean", tool)
						}
					}
					r, err := (&scout.Reader{Workspace: ws}).Read(ctx, scout.ReadRequest{Path: tt.in})
					got := ""
					if err == nil {
						got = r.Path
					}
					check("Read", got, err)
					s, err := (&scout.Searcher{Workspace: ws}).Search(ctx, scout.SearchRequest{Paths: []string{tt.in}})
					if got = ""; err == nil && assert.Len(t, s.Files, 1, "Search") {
						got = s.Files[0].Path
					}
					check("Search", got, err)
					f, err := (&scout.Finder{Workspace: ws}).Find(ctx, scout.FindRequest{Patterns: []string{tt.in}})
					if got = ""; err == nil && assert.Len(t, f.Entries, 1, "Find") {
						got = f.Entries[0].Path
					}
					check("Find", got, err)
				})
			}

			// A directory as Find's Base, a search's path and a read.
			for _, in := range []string{"dir\n", " dir/ ", "./dir"} {
				f, err := (&scout.Finder{Workspace: ws}).Find(ctx, scout.FindRequest{Base: in})
				require.NoError(t, err, "Find Base %q", in)
				assert.Equal(t, []string{"dir/b.txt"}, paths(f), "Find Base %q", in)
				s, err := (&scout.Searcher{Workspace: ws}).Search(ctx, scout.SearchRequest{Paths: []string{in}})
				require.NoError(t, err, "Search %q", in)
				assert.Equal(t, 1, s.TotalFiles, "Search %q", in)
				r, err := (&scout.Reader{Workspace: ws}).Read(ctx, scout.ReadRequest{Path: in})
				require.NoError(t, err, "Read %q", in)
				assert.Equal(t, "dir", r.Path, "Read %q", in)
			}
			_, err := (&scout.Finder{Workspace: ws}).Find(ctx, scout.FindRequest{Base: `sub\~`})
			assert.Equal(t, scout.CodeNotFound, scout.CodeOf(err))
			assert.ErrorContains(t, err, `Path not found: sub\~; paths are separated by '/', not '\': did you mean 'sub/~'?`)
			_, err = (&scout.Searcher{Workspace: ws}).Search(ctx, scout.SearchRequest{Paths: []string{`dir\b.txt:1-2`}})
			assert.Equal(t, scout.CodeNotFound, scout.CodeOf(err))
			assert.ErrorContains(t, err, `did you mean 'dir/b.txt'?`)
		})
	}
}

// TestFindURLNotFound: Find's not-found error names a URL as the caller
// gave it ("https://", not the cleaned "https:/"), its password hidden, as
// Base and as a pattern alike.
func TestFindURLNotFound(t *testing.T) {
	for name, ws := range workspaces(t, findFixture()) {
		for _, req := range []scout.FindRequest{
			{Base: "https://u:secret@example.com/x"},
			{Patterns: []string{"https://u:secret@example.com/x"}},
		} {
			_, err := (&scout.Finder{Workspace: ws}).Find(context.Background(), req)
			assert.Equal(t, scout.CodeNotFound, scout.CodeOf(err), name)
			assert.EqualError(t, err, "Path not found: https://u:xxxxx@example.com/x", "%s %+v", name, req)
		}
	}
}

// TestFindBaseGlob: a Base is a directory taken as written; one that holds
// a glob character and does not exist says to give the glob as a pattern.
func TestFindBaseGlob(t *testing.T) {
	for name, ws := range workspaces(t, findFixture()) {
		_, err := (&scout.Finder{Workspace: ws}).Find(context.Background(), scout.FindRequest{Base: "internal/*"})
		assert.Equal(t, scout.CodeNotFound, scout.CodeOf(err), name)
		assert.EqualError(t, err, "Path not found: internal/*; Base is a directory, taken as written, not a glob: give the directory as Base and the glob as a pattern", name)
	}
}

// unlistable is a MapFS whose root cannot be listed, through neither
// ReadDirFS (which it hides) nor its opened directory.
type unlistable struct{ m fstest.MapFS }

func (u unlistable) Open(name string) (fs.File, error) {
	f, err := u.m.Open(name)
	if err != nil || name != "." {
		return f, err
	}
	return unlistableDir{f}, nil
}

type unlistableDir struct{ fs.File }

func (unlistableDir) ReadDir(int) ([]fs.DirEntry, error) { return nil, errors.New("device error") }

// TestRootUnlistable: a search or a find whose root cannot be listed fails
// with an error worded as the others are ("Cannot list '.': ..."), and
// the code of the failure.
func TestRootUnlistable(t *testing.T) {
	ws := scout.Workspace{FS: unlistable{fstest.MapFS{"a.txt": {Data: []byte("a\n")}}}}
	_, err := (&scout.Searcher{Workspace: ws}).Search(context.Background(), scout.SearchRequest{Pattern: "a"})
	assert.EqualError(t, err, "Cannot list '.': device error")
	assert.Equal(t, scout.CodeInternal, scout.CodeOf(err))
	_, err = (&scout.Finder{Workspace: ws}).Find(context.Background(), scout.FindRequest{})
	assert.EqualError(t, err, "Cannot list '.': device error")
	assert.Equal(t, scout.CodeInternal, scout.CodeOf(err))
}
