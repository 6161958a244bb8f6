// Command firstsearch times searches in one process, the first of them
// being the process's first: the count in path order that amplifier
// grep's content mode runs before its page (a budget of matching lines),
// or an exhaustive count. Run it several times to see the first search's
// cost against the later ones. It is a development tool, not part of the
// library.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/scoutkit/scout"
)

func main() {
	root := flag.String("root", ".", "the tree to search")
	pattern := flag.String("pattern", "return", "the pattern")
	budget := flag.Int("budget", 100000, "matching lines to stop at, in path order (-1: count every file, unordered)")
	n := flag.Int("n", 5, "searches in this process")
	flag.Parse()
	s := &scout.Searcher{Workspace: scout.Workspace{Root: *root}}
	req := scout.SearchRequest{Pattern: *pattern, Mode: scout.SearchCount, MaxFiles: -1, MaxMatches: *budget, MaxMatchesPerFile: -1}
	for i := range *n {
		start := time.Now()
		res, err := s.Search(context.Background(), req)
		if err != nil {
			fmt.Fprintln(os.Stderr, "firstsearch:", err)
			os.Exit(1)
		}
		fmt.Printf("search %d: %.1f ms, %d lines in %d files\n", i+1, float64(time.Since(start).Microseconds())/1000, res.TotalMatchLines, len(res.Files))
	}
}
