package zoekt_test

import (
	"context"
	"fmt"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/zoekt"
)

// A Searcher with a zoekt index: searches the index can answer exactly
// and fast go to the webservers, the others scan; results are the same.
func Example() {
	root := "/src/myrepo" // a git work tree indexed by zoekt-git-index
	ix, err := zoekt.New([]string{"http://10.0.0.1:6070", "http://10.0.0.2:6070"}, zoekt.RepoName(root))
	if err != nil {
		fmt.Println(err)
		return
	}
	s := scout.Searcher{Workspace: scout.Workspace{Root: root}, Index: ix}
	res, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "MaxHeaderBytes"})
	if err != nil {
		fmt.Println(err)
		return
	}
	if res.Backend.Index {
		fmt.Printf("the index of %s answered, %d changed paths read directly\n", res.Backend.Commit, res.Backend.Overlay)
	} else {
		fmt.Println("scanned:", res.Backend.Fallback, res.Backend.Detail)
	}
	for _, f := range res.Files {
		fmt.Println(f.Path, f.MatchLines)
	}
}
