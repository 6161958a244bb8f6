package scout_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/docs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ompDocs returns Scout's embedded documentation as omp:// URLs, in path
// order, with their contents.
func ompDocs(t *testing.T) (urls []string, text map[string]string) {
	t.Helper()
	text = map[string]string{}
	err := fs.WalkDir(docs.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(docs.FS(), name)
		urls = append(urls, "omp://"+name)
		text["omp://"+name] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(urls) < 2 || text["omp://README.md"] == "" {
		t.Fatalf("embedded documentation: %v", urls)
	}
	return urls, text
}

// below returns the URLs that start with prefix.
func below(urls []string, prefix string) []string {
	var out []string
	for _, u := range urls {
		if strings.HasPrefix(u, prefix) {
			out = append(out, u)
		}
	}
	return out
}

// ompWorkspaces are workspaces with a README.md and a docs/ of their own,
// as a MapFS and as a real directory: omp:// must never read them.
func ompWorkspaces(t *testing.T) map[string]scout.Workspace {
	m := fstest.MapFS{
		"README.md":     {Data: []byte("# Workspace readme: Scout must not show this\n")},
		"docs/tools.md": {Data: []byte("workspace tools\n")},
	}
	return workspaces(t, m)
}

// failed reports whether a call failed as expected (code is not ""), and
// fails the test when it failed otherwise or did not fail as expected.
func failed(t *testing.T, err error, code scout.Code, msg string) bool {
	t.Helper()
	if code == "" {
		if err != nil {
			t.Fatal(err)
		}
		return false
	}
	if scout.CodeOf(err) != code || !strings.Contains(err.Error(), msg) {
		t.Fatalf("err = %v (%s), want %s containing %q", err, scout.CodeOf(err), code, msg)
	}
	return true
}

// blockText joins the lines a read shows.
func blockText(res *scout.ReadResult) string {
	var b strings.Builder
	for _, bl := range res.Blocks {
		for _, l := range bl.Lines {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// TestReadOMP reads the embedded documentation through omp:// with the
// zero Reader's resolvers: omp:// is built in.
func TestReadOMP(t *testing.T) {
	urls, text := ompDocs(t)
	inDocs := below(urls, "omp://docs/")
	firstLines := strings.SplitAfter(text["omp://README.md"], "\n")
	tests := []struct {
		reason, path, want string
		code               scout.Code
	}{
		{"omp:// lists every document", "omp://", strings.Join(urls, "\n") + "\n", ""},
		{"a directory lists the documents below it", "omp://docs", strings.Join(inDocs, "\n") + "\n", ""},
		{"a document is the embedded file, whole", "omp://docs/tools.md", text["omp://docs/tools.md"], ""},
		{"a document below docs/", inDocs[0], text[inDocs[0]], ""},
		{"a line selector pages the document", "omp://README.md:3-3:raw", firstLines[2], ""},
		{"a missing document lists those that exist", "omp://nope.md", "Available: " + strings.Join(urls, ", "), scout.CodeNotFound},
		{"a name cannot climb", "omp://docs/../../go.mod", "use a document name such as omp://README.md", scout.CodeInvalidParam},
	}
	for wsName, ws := range ompWorkspaces(t) {
		r := scout.Reader{Workspace: ws}
		for _, tt := range tests {
			t.Run(wsName+"/"+tt.reason, func(t *testing.T) {
				res, err := r.Read(context.Background(), scout.ReadRequest{Path: tt.path})
				if failed(t, err, tt.code, tt.want) {
					return
				}
				if got := blockText(res); got != tt.want || !res.Immutable || res.Tag != "" || res.Source != "resource" {
					t.Errorf("read %s: immutable %v, tag %q, source %q, text:\n%s\nwant:\n%s", tt.path, res.Immutable, res.Tag, res.Source, got, tt.want)
				}
			})
		}
	}
}

// TestReadOMPBudget: a document over the read's byte budget (the README)
// ends where the budget does, on a whole line, and says where to go on.
func TestReadOMPBudget(t *testing.T) {
	_, text := ompDocs(t)
	readme := text["omp://README.md"]
	if len(readme) <= 50<<10 {
		t.Skipf("the README (%d bytes) fits the 50 KiB budget", len(readme))
	}
	r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{}}}
	res, err := r.Read(context.Background(), scout.ReadRequest{Path: "omp://README.md"})
	require.NoError(t, err)
	got := blockText(res)
	assert.Equal(t, scout.TruncBytes, res.Truncated)
	assert.True(t, strings.HasPrefix(readme, got), "the page is not the README's start")
	assert.Equal(t, strings.Count(got, "\n")+1, res.Next, "the next line to read")
}

// TestReadOMPHostResolver checks that a host's omp resolver replaces the
// built-in documentation.
func TestReadOMPHostResolver(t *testing.T) {
	r := scout.Reader{
		Workspace: scout.Workspace{FS: fstest.MapFS{}},
		Resolvers: map[string]scout.Resolver{"omp": hostDocs{}},
	}
	res, err := r.Read(context.Background(), scout.ReadRequest{Path: "omp://README.md"})
	if err != nil || blockText(res) != "host docs for omp://README.md\n" {
		t.Fatalf("got %+v, %v", res, err)
	}
}

type hostDocs struct{}

func (hostDocs) Resolve(_ context.Context, url string) (*scout.Resource, error) {
	return &scout.Resource{Text: "host docs for " + url + "\n", Immutable: true}, nil
}
