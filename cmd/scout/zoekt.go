package main

import (
	"fmt"
	"os"
	"strings"

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
