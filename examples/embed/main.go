// Command embed shows Scout's three tools embedded in a Go program: it
// finds the Go files under a directory, searches them for a pattern, and
// reads the lines around the first match.
//
//	go run ./examples/embed [-root DIR] [-pattern REGEX]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

func main() {
	root := flag.String("root", ".", "the project directory")
	pattern := flag.String("pattern", `func main\(`, "the regular expression to search for")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *root, *pattern); err != nil {
		fmt.Fprintln(os.Stderr, "embed:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer, root, pattern string) error {
	// One Workspace for the three tools: the OS directory root, opened so
	// that ".." and symlinks cannot leave it.
	ws := scout.Workspace{Root: root}

	finder := scout.Finder{Workspace: ws}
	found, err := finder.Find(ctx, scout.FindRequest{Patterns: []string{"**/*.go"}, Limit: 10})
	if err != nil {
		return err
	}
	listing, _ := format.FindText(found, nil)
	fmt.Fprintf(w, "== find **/*.go: %d of %d, newest first\n%s\n", len(found.Entries), found.Matched, listing)

	searcher := scout.Searcher{Workspace: ws}
	res, err := searcher.Search(ctx, scout.SearchRequest{Pattern: pattern, Globs: []string{"*.go"}, After: 1, MaxFiles: 5})
	if err != nil {
		return err
	}
	text, _ := format.SearchText(res, &format.SearchOptions{Plain: true})
	fmt.Fprintf(w, "\n== search %s: %d files\n%s\n", pattern, res.TotalFiles, text)
	if len(res.Files) == 0 {
		return nil
	}

	// Read five lines from the first match, by selector.
	first := res.Files[0]
	line := 1
	for _, l := range first.Lines {
		if l.Match {
			line = l.Line
			break
		}
	}
	reader := scout.Reader{Workspace: ws}
	path := fmt.Sprintf("%s:%d+5", first.Path, line)
	rr, err := reader.Read(ctx, scout.ReadRequest{Path: path})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n== read %s\n%s\n", path, format.ReadText(rr, &format.ReadOptions{Style: format.StyleNumbered}))
	return nil
}
