package scout_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/scoutkit/scout"
)

// ompMatches is the reference: the number of lines of each document that
// match re, for the documents with a match.
func ompMatches(urls []string, text map[string]string, re *regexp.Regexp) map[string]int {
	out := map[string]int{}
	for _, u := range urls {
		for _, l := range strings.Split(strings.TrimSuffix(text[u], "\n"), "\n") {
			if re.MatchString(l) {
				out[u]++
			}
		}
	}
	return out
}

// TestSearchOMP searches the embedded documentation through omp:// with
// the zero Searcher's resolvers: omp:// is built in and stands for every
// document; the workspace's own README.md is not part of it.
func TestSearchOMP(t *testing.T) {
	urls, text := ompDocs(t)
	inDocs := below(urls, "omp://docs/")
	const pattern = `(?i)selector|envelope`
	re := regexp.MustCompile(pattern)
	all := ompMatches(urls, text, re)
	if len(all) < 2 {
		t.Fatalf("pattern %s matches %v: pick one found in several documents", pattern, all)
	}
	docsOnly := ompMatches(inDocs, text, re)
	readme := ompMatches([]string{"omp://README.md"}, text, re)
	first := 0 // the first matching line of README.md
	for i, l := range strings.Split(text["omp://README.md"], "\n") {
		if re.MatchString(l) {
			first = i + 1
			break
		}
	}
	if first == 0 || readme["omp://README.md"] < 2 {
		t.Fatalf("pattern %s must match several lines of README.md", pattern)
	}
	tests := []struct {
		reason string
		paths  []string
		lines  []scout.Range
		want   map[string]int // matching lines per file
		code   scout.Code
		errMsg string
	}{
		{"omp:// searches every document", []string{"omp://"}, nil, all, "", ""},
		{"a directory URL searches the documents below it", []string{"omp://docs"}, nil, docsOnly, "", ""},
		{"one document", []string{"omp://README.md"}, nil, readme, "", ""},
		{"a document listed twice is searched once", []string{"omp://", "omp://README.md"}, nil, all, "", ""},
		{"a line range on one document keeps its matches only", []string{"omp://README.md"}, []scout.Range{{Start: first, End: first}}, map[string]int{"omp://README.md": 1}, "", ""},
		{"no globs in internal URLs", []string{"omp://*.md"}, nil, nil, scout.CodeInvalidParam, "Glob patterns are not supported for internal URLs: omp://*.md"},
		{"a missing document is an error naming those that exist", []string{"omp://nope.md"}, nil, nil, scout.CodeNotFound, "Available: " + strings.Join(urls, ", ")},
	}
	for wsName, ws := range ompWorkspaces(t) {
		s := scout.Searcher{Workspace: ws}
		for _, tt := range tests {
			t.Run(wsName+"/"+tt.reason, func(t *testing.T) {
				res, err := s.Search(context.Background(), scout.SearchRequest{Pattern: pattern, Paths: tt.paths, Lines: tt.lines, MaxMatchesPerFile: -1, MaxFiles: -1})
				if failed(t, err, tt.code, tt.errMsg) {
					return
				}
				got := map[string]int{}
				for _, f := range res.Files {
					got[f.Path] = f.MatchLines
					if !f.Virtual || f.Tag != "" {
						t.Errorf("%s: virtual %v, tag %q; a document is a virtual, untagged resource", f.Path, f.Virtual, f.Tag)
					}
					for _, l := range f.Lines {
						if strings.Contains(l.Text, "Workspace readme") {
							t.Errorf("%s: the workspace's README was searched", f.Path)
						}
					}
				}
				if len(got) != len(tt.want) {
					t.Fatalf("files %v, want %v", got, tt.want)
				}
				for u, n := range tt.want {
					if got[u] != n {
						t.Errorf("%s: %d matching lines, want %d", u, got[u], n)
					}
				}
			})
		}
	}
}

// TestSearchOMPWithWorkspace searches the documentation and a workspace
// directory in one call.
func TestSearchOMPWithWorkspace(t *testing.T) {
	for wsName, ws := range ompWorkspaces(t) {
		s := scout.Searcher{Workspace: ws}
		res, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "tools", Paths: []string{"docs", "omp://docs"}})
		if err != nil {
			t.Fatalf("%s: %v", wsName, err)
		}
		var paths []string
		for _, f := range res.Files {
			paths = append(paths, f.Path)
		}
		if len(paths) < 2 || paths[0] != "docs/tools.md" || !strings.HasPrefix(paths[1], "omp://docs/") {
			t.Errorf("%s: files %v, want the workspace's docs/tools.md, then the omp://docs/ documents", wsName, paths)
		}
	}
}
