package search

import (
	"strings"

	"github.com/scoutkit/scout/internal/glob"
)

// GlobFilter selects files by globs, like ripgrep's -g: a file must match
// one of the including globs (when there are any) and none of the excluding
// ones ("!pattern"). A glob without '/' matches the base name at any depth.
type GlobFilter struct {
	include, exclude []*glob.Pattern
}

// CompileGlobs compiles the filter. Empty entries are ignored; no entries
// give a nil filter, which matches every file.
func CompileGlobs(globs []string) (*GlobFilter, error) {
	var f GlobFilter
	for _, g := range globs {
		g = strings.TrimSpace(g)
		neg := strings.HasPrefix(g, "!")
		if neg {
			g = g[1:]
		}
		if g == "" {
			continue
		}
		p, err := glob.CompileFilter(g)
		if err != nil {
			return nil, err
		}
		if neg {
			f.exclude = append(f.exclude, p)
		} else {
			f.include = append(f.include, p)
		}
	}
	if f.include == nil && f.exclude == nil {
		return nil, nil
	}
	return &f, nil
}

// Match reports whether the slash path rel passes the filter.
func (f *GlobFilter) Match(rel string) bool {
	if f == nil {
		return true
	}
	for _, p := range f.exclude {
		if p.Match(rel) {
			return false
		}
	}
	if len(f.include) == 0 {
		return true
	}
	for _, p := range f.include {
		if p.Match(rel) {
			return true
		}
	}
	return false
}
