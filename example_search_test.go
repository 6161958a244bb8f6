package scout_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

func ExampleSearcher_Search() {
	s := scout.Searcher{Workspace: scout.Workspace{FS: fstest.MapFS{
		"src/main.go": {Data: []byte("package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n")},
		"src/util.go": {Data: []byte("package main\n\nfunc helper() {}\n")},
		"README.md":   {Data: []byte("# demo\nRun main.\n")},
		".env":        {Data: []byte("SECRET=1\n")},
		"logo.png":    {Data: []byte("\x89PNG\x00\x00func")},
	}}}
	res, err := s.Search(context.Background(), scout.SearchRequest{Pattern: `func \w+`, After: 1, Hidden: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range res.Files {
		for _, l := range f.Lines {
			if l.Match {
				fmt.Printf("%s:%d: %s %v\n", f.Path, l.Line, l.Text, l.Spans)
			}
		}
	}
	fmt.Println("skipped:", res.Skipped)
	text, _ := format.SearchText(res, &format.SearchOptions{Style: format.StyleNumbered})
	fmt.Println(text)
	// Output:
	// src/main.go:3: func main() { [{0 9}]
	// src/util.go:3: func helper() {} [{0 11}]
	// skipped: map[binary:1]
	// # src/main.go
	// *3|func main() {
	// 4|	println("hello")
	//
	// # src/util.go
	// *3|func helper() {}
}

// A path may end in line ranges, as a path given to Read does: that file
// is searched in those lines only, the other paths whole.
func ExampleSearcher_Search_lineRanges() {
	s := scout.Searcher{Workspace: scout.Workspace{FS: fstest.MapFS{
		"main.go": {Data: []byte("// TODO: one\nfunc main() {}\n// TODO: two\n// TODO: three\n")},
		"util.go": {Data: []byte("// TODO: four\n")},
	}}}
	res, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "TODO", Paths: []string{"main.go:3-4", "util.go"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range res.Files {
		for _, l := range f.Lines {
			fmt.Printf("%s:%d: %s\n", f.Path, l.Line, l.Text)
		}
	}
	// Output:
	// main.go:3: // TODO: two
	// main.go:4: // TODO: three
	// util.go:1: // TODO: four
}

// Stream yields each matching file as soon as it is searched, in path
// order; breaking out of the loop stops the search.
func ExampleSearcher_Stream() {
	s := scout.Searcher{Workspace: scout.Workspace{FS: fstest.MapFS{
		"a.go": {Data: []byte("// TODO: one\n")},
		"b.go": {Data: []byte("nothing here\n")},
		"c.go": {Data: []byte("// TODO: two\n// TODO: three\n")},
		"d.go": {Data: []byte("// TODO: never reached\n")},
	}}}
	for f, err := range s.Stream(context.Background(), scout.SearchRequest{Pattern: "TODO"}) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(f.Path, f.MatchLines)
		if f.Path == "c.go" {
			break
		}
	}
	// Output:
	// a.go 1
	// c.go 2
}

// NextSkip is the page cursor: pass it back as Skip until it is 0. Truncated
// says why a page ended (TruncFiles: the page was full).
func ExampleSearchResult_nextSkip() {
	fsys := fstest.MapFS{}
	for i := range 5 {
		fsys[fmt.Sprintf("pkg%d/f.go", i)] = &fstest.MapFile{Data: []byte("// TODO\n")}
	}
	s := scout.Searcher{Workspace: scout.Workspace{FS: fsys}}
	req := scout.SearchRequest{Pattern: "TODO", MaxFiles: 2}
	for {
		res, err := s.Search(context.Background(), req)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, f := range res.Files {
			fmt.Print(f.Path, " ")
		}
		fmt.Printf("| of %d, truncated %q, next %d\n", res.TotalFiles, res.Truncated, res.NextSkip)
		if res.NextSkip == 0 {
			break
		}
		req.Skip = res.NextSkip
	}
	// Output:
	// pkg0/f.go pkg1/f.go | of 5, truncated "files", next 2
	// pkg2/f.go pkg3/f.go | of 5, truncated "files", next 4
	// pkg4/f.go | of 5, truncated "", next 0
}
