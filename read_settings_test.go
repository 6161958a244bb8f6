package scout_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/pitext"
	"github.com/scoutkit/scout/internal/testfs"
)

// suffixMatch turns on the suffix match of a missing path.
func suffixMatch(r *scout.Reader) { r.SuffixMatch = true }

// piPrune prunes the pi read tool's directories from listings.
func piPrune(r *scout.Reader) { r.PruneDirs = pitext.ReadPruneDirs }

// TestReaderHostSettings checks Reader.PruneDirs and Reader.SuffixMatch,
// on and off, for each kind of path a read resolves (a file, a file with
// a selector, an archive, a notebook, a document), over MapFS and a
// directory.
func TestReaderHostSettings(t *testing.T) {
	notebook := `{"nbformat":4,"cells":[{"cell_type":"markdown","source":"# nb"}]}`
	files := map[string][]byte{
		"README.md":              []byte("# hi\n"),
		"src/deep/x.go":          []byte("package deep\n\nfunc X() {}\n"),
		"src/a/dup.go":           []byte("package a\n"),
		"src/b/dup.go":           []byte("package b\n"),
		"build/out.txt":          []byte("built\n"),
		"sub/build/y.txt":        []byte("y\n"),
		"sub/keep.txt":           []byte("k\n"),
		"node_modules/m/i.js":    []byte("m\n"),
		"node_modules/m/only.js": []byte("only\n"),
		".git/HEAD":              []byte("ref: refs/heads/main\n"),
		".git/config":            []byte("[core]\n"),
		"pkg/dist/a.zip":         testfs.Zip(testfs.Member{Name: "top.txt", Body: "top\n"}),
		"nb/n.ipynb":             []byte(notebook),
		"docs/d.pdf":             []byte("hello pdf"),
	}
	both := func(r *scout.Reader) { piPrune(r); suffixMatch(r) }
	converter := func(r *scout.Reader) { r.Converters = map[string]scout.Converter{".pdf": upper{}} }
	withConverter := func(set func(*scout.Reader)) func(*scout.Reader) {
		return func(r *scout.Reader) { converter(r); set(r) }
	}
	type want struct {
		kind     scout.ReadKind
		path     string
		suffix   *scout.SuffixResolution
		skipped  []scout.SkippedPath // a listing's skipped paths
		listed   []string            // entries a listing shows
		unlisted []string            // entries a listing leaves out
		code     scout.Code          // the error's code; "" for none
	}
	ignored := func(paths ...string) []scout.SkippedPath {
		out := make([]scout.SkippedPath, len(paths))
		for i, p := range paths {
			out[i] = scout.SkippedPath{Path: p, Reason: scout.SkipIgnored}
		}
		return out
	}
	tests := []struct {
		name  string
		path  string
		setup func(*scout.Reader)
		want  want
	}{
		// PruneDirs.
		{"listing, nil prunes .git only", ".", nil, want{kind: scout.ReadKindDirectory, path: ".",
			skipped: ignored(".git/"), listed: []string{"build", "build/out.txt", "node_modules", "sub/build", "sub/keep.txt"}, unlisted: []string{".git"}}},
		{"listing, pi's list", ".", piPrune, want{kind: scout.ReadKindDirectory, path: ".",
			skipped:  ignored(".git/", "build/", "node_modules/", "pkg/dist/", "sub/build/"),
			listed:   []string{"README.md", "src", "sub", "sub/keep.txt", "pkg"},
			unlisted: []string{".git", "build", "build/out.txt", "node_modules", "pkg/dist", "sub/build"}}},
		{"listing, one name", ".", func(r *scout.Reader) { r.PruneDirs = []string{"build"} }, want{kind: scout.ReadKindDirectory, path: ".",
			skipped: ignored(".git/", "build/", "sub/build/"), listed: []string{"node_modules", "sub/keep.txt"}, unlisted: []string{"build", "sub/build"}}},
		{"a pruned directory read by name is listed", "build", piPrune, want{kind: scout.ReadKindDirectory, path: "build",
			listed: []string{"build/out.txt"}}},
		{"a pruned directory read by name, prune off", "node_modules", nil, want{kind: scout.ReadKindDirectory, path: "node_modules",
			listed: []string{"node_modules/m", "node_modules/m/only.js"}}},

		// SuffixMatch.
		{"missing file, off", "deep/x.go", nil, want{code: scout.CodeNotFound}},
		{"missing file, on", "deep/x.go", suffixMatch, want{kind: scout.ReadKindText, path: "src/deep/x.go",
			suffix: &scout.SuffixResolution{From: "deep/x.go", To: "src/deep/x.go"}}},
		{"missing file with a selector, off", "x.go:1-2", nil, want{code: scout.CodeNotFound}},
		{"missing file with a selector, on", "x.go:1-2", suffixMatch, want{kind: scout.ReadKindText, path: "src/deep/x.go",
			suffix: &scout.SuffixResolution{From: "x.go", To: "src/deep/x.go"}}},
		{"missing directory, on", "deep", suffixMatch, want{kind: scout.ReadKindDirectory, path: "src/deep",
			suffix: &scout.SuffixResolution{From: "deep", To: "src/deep"}, listed: []string{"x.go"}}},
		{"two matches, on", "dup.go", suffixMatch, want{code: scout.CodeNotFound}},
		{"partial segment, on", "eep/x.go", suffixMatch, want{code: scout.CodeNotFound}},
		{"node_modules not searched unless named, on", "only.js", suffixMatch, want{code: scout.CodeNotFound}},
		{"node_modules searched when named, on", "node_modules/m/only.js", both, want{kind: scout.ReadKindText, path: "node_modules/m/only.js"}},
		{".git never searched, on", "HEAD", suffixMatch, want{code: scout.CodeNotFound}},
		{"existing path, on", "README.md", suffixMatch, want{kind: scout.ReadKindText, path: "README.md"}},
		{"archive member, off", "dist/a.zip:top.txt", nil, want{code: scout.CodeNotFound}},
		{"archive member, on", "dist/a.zip:top.txt", suffixMatch, want{kind: scout.ReadKindText, path: "pkg/dist/a.zip:top.txt",
			suffix: &scout.SuffixResolution{From: "dist/a.zip", To: "pkg/dist/a.zip"}}},
		{"archive listing, on", "a.zip", suffixMatch, want{kind: scout.ReadKindArchive, path: "pkg/dist/a.zip",
			suffix: &scout.SuffixResolution{From: "a.zip", To: "pkg/dist/a.zip"}, listed: []string{"top.txt"}}},
		{"notebook, off", "n.ipynb", nil, want{code: scout.CodeNotFound}},
		{"notebook, on", "n.ipynb", suffixMatch, want{kind: scout.ReadKindText, path: "nb/n.ipynb",
			suffix: &scout.SuffixResolution{From: "n.ipynb", To: "nb/n.ipynb"}}},
		{"document, off", "d.pdf", converter, want{code: scout.CodeNotFound}},
		{"document, on", "d.pdf", withConverter(suffixMatch), want{kind: scout.ReadKindText, path: "docs/d.pdf",
			suffix: &scout.SuffixResolution{From: "d.pdf", To: "docs/d.pdf"}}},
	}
	m := mapFS(files)
	dir := testfs.WriteDir(t, m)
	for _, tt := range tests {
		for _, mode := range []string{"mapfs", "dir"} {
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				r := scout.Reader{Now: func() time.Time { return goldenNow }}
				if mode == "mapfs" {
					r.FS = m
				} else {
					r.Root = dir
				}
				if tt.setup != nil {
					tt.setup(&r)
				}
				res, err := r.Read(context.Background(), scout.ReadRequest{Path: tt.path})
				if tt.want.code != "" {
					var se *scout.Error
					require.True(t, errors.As(err, &se), "want a %s error, got %v", tt.want.code, err)
					assert.Equal(t, tt.want.code, se.Code, se.Message)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, tt.want.kind, res.Kind)
				assert.Equal(t, tt.want.path, res.Path)
				assert.Equal(t, tt.want.suffix, res.SuffixResolution)
				if res.Kind != scout.ReadKindDirectory {
					return
				}
				assert.Equal(t, tt.want.skipped, res.SkippedPaths)
				if len(tt.want.skipped) > 0 {
					assert.Equal(t, map[scout.SkipReason]int{scout.SkipIgnored: len(tt.want.skipped)}, res.Skipped)
				}
				var listed []string
				for _, e := range res.Entries {
					listed = append(listed, e.Path)
				}
				for _, p := range tt.want.listed {
					assert.Contains(t, listed, relTo(tt.want.path, p))
				}
				for _, p := range tt.want.unlisted {
					assert.NotContains(t, listed, p)
				}
			})
		}
	}
}

// relTo returns p relative to the listed directory dir ("." or a
// directory p is under).
func relTo(dir, p string) string {
	if dir == "." || len(p) <= len(dir) || p[:len(dir)+1] != dir+"/" {
		return p
	}
	return p[len(dir)+1:]
}
