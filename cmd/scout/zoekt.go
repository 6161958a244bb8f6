package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/tool"
	"github.com/scoutkit/scout/zoekt"
)

// zoektSettings are --zoekt and --zoekt-repo (default: SCOUT_ZOEKT and
// SCOUT_ZOEKT_REPO): the zoekt webservers that answer searches where their
// index can (see scout.Index), and the repository's name in their index.
type zoektSettings struct {
	urls, repo string
}

func (z *zoektSettings) register(f *flags) {
	f.StringVar(&z.urls, "zoekt", os.Getenv("SCOUT_ZOEKT"), "search: zoekt webservers (zoekt-webserver -rpc) holding an index of the root's repository, comma-separated `URLs` (env SCOUT_ZOEKT)")
	f.StringVar(&z.repo, "zoekt-repo", os.Getenv("SCOUT_ZOEKT_REPO"), "search: the repository's `name` in the zoekt index (env SCOUT_ZOEKT_REPO; default: the base name of the repository's directory)")
}

// apply gives the Searcher of cfg a zoekt index when URLs are set.
func (z *zoektSettings) apply(cfg *tool.Config) error {
	if strings.TrimSpace(z.urls) == "" {
		if z.repo != "" {
			return fmt.Errorf("--zoekt-repo needs --zoekt URL")
		}
		return nil
	}
	repo := z.repo
	if repo == "" {
		root := cfg.Root
		if root == "" {
			root = "."
		}
		repo = zoekt.RepoName(root)
	}
	c, err := zoekt.New(strings.Split(z.urls, ","), repo)
	if err != nil {
		return err
	}
	cfg.Index = c
	return nil
}

// statsNote says in one line what a search read and found, and with an
// index, how it was answered.
func statsNote(res *scout.SearchResult) string {
	note := fmt.Sprintf("%s searched, %s in %s", plural(res.Searched, "file"), plural(res.TotalMatchLines, "matching line"), plural(res.TotalFiles, "file"))
	if res.Backend != nil {
		note += "; " + backendNote(res.Backend)
	}
	return note
}

// backendNote says how a search was answered: by the index (its servers,
// commit and the files read beside it), or by a scan and why.
func backendNote(b *scout.Backend) string {
	if !b.Index {
		note := "scanned the tree, not answered by zoekt: " + b.Fallback
		if b.Detail != "" {
			note += " (" + b.Detail + ")"
		}
		return note
	}
	parts := []string{plural(b.Endpoints, "endpoint")}
	if b.Commit != "" {
		parts = append(parts, "commit "+b.Commit[:min(len(b.Commit), 12)])
	}
	parts = append(parts, "overlay "+plural(b.Overlay, "changed path"))
	if b.Unindexed > 0 {
		parts = append(parts, plural(b.Unindexed, "unindexed file")+" read")
	}
	return "answered by zoekt (" + strings.Join(parts, ", ") + ")"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
