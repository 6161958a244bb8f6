package scout_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostTree is a small tree for the host-misuse tests.
var hostTree = fstest.MapFS{
	"a.go":  {Data: []byte("package a\n\nfunc A() {}\n")},
	"d.pdf": {Data: []byte("%PDF-1.4 not really\n")},
}

// TestNilContext checks that a nil ctx is a CodeInvalidParam error that
// says what to pass, in every call, instead of a panic.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	ws := scout.Workspace{FS: hostTree}
	calls := map[string]func() error{
		"Read": func() error {
			_, err := (&scout.Reader{Workspace: ws}).Read(nilCtx, scout.ReadRequest{Path: "a.go"})
			return err
		},
		"Search": func() error {
			_, err := (&scout.Searcher{Workspace: ws}).Search(nilCtx, scout.SearchRequest{Pattern: "a"})
			return err
		},
		"StreamFunc": func() error {
			_, err := (&scout.Searcher{Workspace: ws}).StreamFunc(nilCtx, scout.SearchRequest{Pattern: "a"}, func(*scout.FileMatch) bool { return true })
			return err
		},
		"Stream": func() error {
			var last error
			for _, err := range (&scout.Searcher{Workspace: ws}).Stream(nilCtx, scout.SearchRequest{Pattern: "a"}) {
				last = err
			}
			return last
		},
		"Find": func() error {
			_, err := (&scout.Finder{Workspace: ws}).Find(nilCtx, scout.FindRequest{})
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			err := call()
			if !errors.Is(err, scout.CodeInvalidParam) || !strings.Contains(err.Error(), "nil context.Context: pass context.Background()") {
				t.Fatalf("err = %v, want INVALID_PARAM naming the nil context", err)
			}
		})
	}
}

// TestNilReceiver checks that a nil *Searcher, *Reader or *Finder works as
// its zero value (the current directory) instead of panicking.
func TestNilReceiver(t *testing.T) {
	ctx := context.Background()
	var (
		s *scout.Searcher
		r *scout.Reader
		f *scout.Finder
	)
	if _, err := s.Search(ctx, scout.SearchRequest{Pattern: "package scout", Paths: []string{"doc.go"}}); err != nil {
		t.Errorf("Search: %v", err)
	}
	if _, err := s.StreamFunc(ctx, scout.SearchRequest{Pattern: "package scout", Paths: []string{"doc.go"}}, nil); err != nil {
		t.Errorf("StreamFunc: %v", err)
	}
	if res, err := r.Read(ctx, scout.ReadRequest{Path: "doc.go:1"}); err != nil || res.Path != "doc.go" {
		t.Errorf("Read: %v", err)
	}
	if res, err := f.Find(ctx, scout.FindRequest{Patterns: []string{"doc.go"}}); err != nil || len(res.Entries) != 1 {
		t.Errorf("Find: %v", err)
	}
}

// TestStreamFuncNilFn checks that a nil callback counts the search.
func TestStreamFuncNilFn(t *testing.T) {
	s := scout.Searcher{Workspace: scout.Workspace{FS: hostTree}}
	res, err := s.StreamFunc(context.Background(), scout.SearchRequest{Pattern: "func"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalFiles != 1 || res.TotalMatchLines != 1 {
		t.Fatalf("totals = %d files, %d lines; want 1, 1", res.TotalFiles, res.TotalMatchLines)
	}
}

// badFetcher answers as a broken host fetcher may.
type badFetcher struct{ resp *scout.FetchResponse }

func (f badFetcher) Fetch(context.Context, string) (*scout.FetchResponse, error) { return f.resp, nil }

// TestHostFetcherBadAnswer checks that a host fetcher's nil response
// without an error, or a response without a status, fails the read with an
// error that names the host's mistake instead of a panic or "HTTP 0".
func TestHostFetcherBadAnswer(t *testing.T) {
	for _, tc := range []struct {
		name string
		resp *scout.FetchResponse
		want string
	}{
		{"nil response", nil, "the host's Fetcher returned neither a response nor an error"},
		{"status 0", &scout.FetchResponse{Body: []byte("x")}, "the host's Fetcher returned the HTTP status 0: it must set FetchResponse.Status"},
		{"status 1000", &scout.FetchResponse{Status: 1000, Body: []byte("x")}, "HTTP status 1000"},
	} {
		for _, path := range []string{"https://example.com/x", "https://example.com/x:raw"} {
			t.Run(tc.name+" "+path, func(t *testing.T) {
				r := scout.Reader{Workspace: scout.Workspace{FS: hostTree}, Fetcher: badFetcher{tc.resp}}
				_, err := r.Read(context.Background(), scout.ReadRequest{Path: path})
				if !errors.Is(err, scout.CodeInternal) || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want INTERNAL_ERROR containing %q", err, tc.want)
				}
			})
		}
	}
}

// TestNilResolver checks that a nil Resolver in a Resolvers map is
// ignored, as if its scheme were not there: skill:// is then unsupported,
// and omp:// keeps the built-in documentation.
func TestNilResolver(t *testing.T) {
	ctx := context.Background()
	ws := scout.Workspace{FS: hostTree}
	res := map[string]scout.Resolver{"skill": nil, "omp": nil}
	r := scout.Reader{Workspace: ws, Resolvers: res}
	s := scout.Searcher{Workspace: ws, Resolvers: res}
	f := scout.Finder{Workspace: ws, Resolvers: res}
	errsOf := map[string]error{}
	_, errsOf["Read"] = r.Read(ctx, scout.ReadRequest{Path: "skill://x"})
	_, errsOf["Search"] = s.Search(ctx, scout.SearchRequest{Pattern: "x", Paths: []string{"skill://x"}})
	_, errsOf["Find"] = f.Find(ctx, scout.FindRequest{Patterns: []string{"skill://x"}})
	for name, err := range errsOf {
		if !errors.Is(err, scout.CodeUnsupported) {
			t.Errorf("%s skill://x: err = %v, want UNSUPPORTED", name, err)
		}
	}
	if out, err := r.Read(ctx, scout.ReadRequest{Path: "omp://"}); err != nil || len(out.Blocks) == 0 {
		t.Errorf("Read omp://: %v, want the built-in listing", err)
	}
}

// textConverter converts every document to its fixed text.
type textConverter string

func (c textConverter) Convert(context.Context, io.ReaderAt, int64) (string, error) {
	return string(c), nil
}

// TestConverterKeys checks that Converters take an extension with or
// without its dot, in any case, and that a nil Converter leaves the
// built-in one.
func TestConverterKeys(t *testing.T) {
	for _, tc := range []struct {
		name string
		conv map[string]scout.Converter
		want string // the text read; "" for the built-in's error
	}{
		{"dot", map[string]scout.Converter{".pdf": textConverter("host text")}, "host text"},
		{"no dot", map[string]scout.Converter{"pdf": textConverter("host text")}, "host text"},
		{"upper, no dot", map[string]scout.Converter{"PDF": textConverter("host text")}, "host text"},
		{"nil", map[string]scout.Converter{".pdf": nil}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := scout.Reader{Workspace: scout.Workspace{FS: hostTree}, Converters: tc.conv}
			res, err := r.Read(context.Background(), scout.ReadRequest{Path: "d.pdf"})
			if tc.want == "" {
				// The built-in converter refuses the fake PDF.
				if !errors.Is(err, scout.CodeUnsupported) || strings.Contains(err.Error(), "nil pointer") {
					t.Fatalf("err = %v, want the built-in converter's UNSUPPORTED error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := blockText(res); got != tc.want+"\n" {
				t.Fatalf("text = %q, want %q", got, tc.want)
			}
		})
	}
}

// mapResolver resolves the URLs it holds; any other is not found.
type mapResolver map[string]*scout.Resource

func (m mapResolver) Resolve(_ context.Context, u string) (*scout.Resource, error) {
	if r, ok := m[u]; ok {
		return r, nil
	}
	return nil, &scout.Error{Code: scout.CodeNotFound, Message: "no resource " + u}
}

// TestSearchResourceMissingBackingFile: a resource whose backing file does
// not exist is searched in its text, as Read shows it, or without text is
// a NOT_FOUND error naming the URL and the file (it was an INTERNAL_ERROR
// "open nope: file does not exist").
func TestSearchResourceMissingBackingFile(t *testing.T) {
	res := mapResolver{
		"skill://gone":     {SourcePath: "gone.md"},
		"skill://goneText": {SourcePath: "gone.md", Text: "deploy steps\n"},
	}
	s := scout.Searcher{Workspace: scout.Workspace{FS: hostTree}, Resolvers: map[string]scout.Resolver{"skill": res}}
	ctx := context.Background()
	_, err := s.Search(ctx, scout.SearchRequest{Pattern: "deploy", Paths: []string{"skill://gone"}})
	if !errors.Is(err, scout.CodeNotFound) || err.Error() != "Cannot search skill://gone: its backing file 'gone.md' does not exist" {
		t.Errorf("skill://gone: err = %v (%s), want NOT_FOUND naming the backing file", err, scout.CodeOf(err))
	}
	out, err := s.Search(ctx, scout.SearchRequest{Pattern: "deploy", Paths: []string{"skill://goneText"}})
	if err != nil {
		t.Fatalf("skill://goneText: %v", err)
	}
	if len(out.Files) != 1 || out.Files[0].Path != "skill://goneText" || out.Files[0].MatchLines != 1 {
		t.Fatalf("skill://goneText: files %+v, want its text's match", out.Files)
	}
}

// answerOps is a FindOperations whose Glob answers the same paths to any
// pattern, and whose Stat (with stat set) answers as stat says.
type answerOps struct {
	answer []string
	stat   func(p string) (fs.FileInfo, error)
}

func (o answerOps) Exists(context.Context, string) (bool, error) { return true, nil }

func (o answerOps) Glob(context.Context, string, string, scout.GlobOptions) ([]string, error) {
	return o.answer, nil
}

type answerStatOps struct{ answerOps }

func (o answerStatOps) Stat(_ context.Context, p string) (fs.FileInfo, error) { return o.stat(p) }

// TestFindOperationsBadAnswer checks that the paths a host's Glob answers
// are checked: one that is empty, holds a NUL byte, is absolute or climbs
// out of the directory asked about fails the find with an INTERNAL_ERROR
// that names the host's mistake (it was listed cleaned, as another entry
// below the base), and one answered twice is listed once.
func TestFindOperationsBadAnswer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer []string
		want   string // in the error; "" for no error
		paths  []string
	}{
		{"outside", []string{"a.go", "../x.go"}, `a path outside the directory it was asked about, '../x.go', for the pattern's directory 'src'`, nil},
		{"outside after a name", []string{"a/../../x.go"}, "a path outside the directory", nil},
		{"absolute", []string{"/etc/passwd"}, "an absolute path, '/etc/passwd'", nil},
		{"drive", []string{`C:\x.go`}, "an absolute path", nil},
		{"empty", []string{""}, "an empty path, ''", nil},
		{"NUL", []string{"a\x00.go"}, "a path with a NUL byte", nil},
		{"duplicates", []string{"a.go", "./a.go", "b.go", "a.go/", "b.go"}, "", []string{"src/a.go", "src/b.go"}},
		{"inside after a climb", []string{"x/../a.go"}, "", []string{"src/a.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := scout.Finder{Operations: answerOps{answer: tc.answer}}
			res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"src/*.go"}, Order: scout.ByPath})
			if tc.want == "" {
				require.NoError(t, err)
				var got []string
				for _, e := range res.Entries {
					got = append(got, e.Path)
				}
				assert.Equal(t, tc.paths, got)
				assert.Equal(t, len(tc.paths), res.Matched)
				return
			}
			if !errors.Is(err, scout.CodeInternal) || !strings.Contains(err.Error(), "The host's FindOperations.Glob answered "+tc.want) {
				t.Fatalf("err = %v, want INTERNAL_ERROR naming the host's answer %q", err, tc.want)
			}
		})
	}
}

// TestFindStaterNoInfo checks that a host Stat that returns neither file
// information nor an error is the host's mistake, an INTERNAL_ERROR: it
// made a named file an empty directory, and panicked for a globbed one.
func TestFindStaterNoInfo(t *testing.T) {
	ops := answerStatOps{answerOps{answer: []string{"a.go"}, stat: func(string) (fs.FileInfo, error) { return nil, nil }}}
	f := scout.Finder{Operations: ops}
	for _, p := range []string{"src/a.go", "src/*.go"} {
		_, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{p}})
		if !errors.Is(err, scout.CodeInternal) || !strings.Contains(err.Error(), "The host's FindStater.Stat returned neither file information nor an error for 'src") {
			t.Errorf("%s: err = %v, want INTERNAL_ERROR naming the host's Stat", p, err)
		}
	}
}
