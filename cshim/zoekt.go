package main

import (
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/tool"
	"github.com/scoutkit/scout/zoekt"
)

// zoektOption is the options key "zoekt": the webservers of a zoekt index
// of the root's repository, {"urls": ["http://127.0.0.1:6070"], "repo":
// "name"}; repo defaults to the base name of the repository's directory.
type zoektOption struct {
	URLs []string `json:"urls"`
	Repo string   `json:"repo"`
}

// apply gives the Searcher of cfg the index.
func (z *zoektOption) apply(cfg *tool.Config) error {
	if z == nil {
		return nil
	}
	repo := z.Repo
	if repo == "" {
		repo = zoekt.RepoName(cfg.Root)
	}
	c, err := zoekt.New(z.URLs, repo)
	if err != nil {
		return errs.Wrap(errs.InvalidParam, err, "option 'zoekt': %v; e.g. {\"zoekt\": {\"urls\": [\"http://127.0.0.1:6070\"]}}.", err)
	}
	cfg.Index = c
	return nil
}
