package search

import (
	"strings"

	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/walk"
)

// GlobFilter selects files by globs, like ripgrep's -g: a file must match
// one of the including globs (when there are any) and none of the excluding
// ones ("!pattern"). A glob without '/' matches the base name at any depth.
type GlobFilter struct {
	include, exclude []*glob.Pattern
	order            []*glob.Pattern // every glob, in the order given
	neg              []bool          // whether order[i] excludes
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
		f.order, f.neg = append(f.order, p), append(f.neg, neg)
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

// Decide returns ripgrep's verdict of the globs on the entry at rel: the
// last glob that matches decides, walk.Include or walk.Exclude for a
// "!glob"; walk.Undecided when none matches. A nil filter decides
// nothing.
func (f *GlobFilter) Decide(rel string) walk.Decision {
	if f == nil {
		return walk.Undecided
	}
	for i := len(f.order) - 1; i >= 0; i-- {
		if f.order[i].Match(rel) {
			if f.neg[i] {
				return walk.Exclude
			}
			return walk.Include
		}
	}
	return walk.Undecided
}

// MatchLast reports whether the file at rel passes the filter as
// ripgrep's globs decide it (see Decide): a file no glob matches passes
// only when all the globs exclude.
func (f *GlobFilter) MatchLast(rel string) bool {
	switch f.Decide(rel) {
	case walk.Include:
		return true
	case walk.Exclude:
		return false
	}
	return f == nil || len(f.include) == 0
}

// override is the walk's Options.Override of ripgrep's globs: they decide
// an entry that one of them matches; a file none matches is left to the
// rules (and then to MatchLast), so that it is counted as before.
func (f *GlobFilter) override(p string, isDir bool) walk.Decision {
	return f.Decide(p)
}
