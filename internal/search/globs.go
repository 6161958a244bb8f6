package search

import (
	"strings"

	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/walk"
)

// GlobFilter selects files by globs, like ripgrep's -g: a file must match
// one of the including globs (when there are any) and none of the excluding
// ones ("!pattern"), and no directory it lies in below the searched one may
// match an excluding glob ("!node_modules", "!build/", "!src/gen" leave
// out all that they hold). A glob without '/' matches the base name at any
// depth; an excluding glob that ends in '/' matches directories only.
type GlobFilter struct {
	include, exclude []*glob.Pattern
	dirOnly          []bool     // of exclude: the glob ends in '/'
	rules            []globRule // every glob, in the order given
}

// globRule is one glob of a filter as ripgrep's rules see it.
type globRule struct {
	p       *glob.Pattern
	neg     bool // "!glob"
	dirOnly bool // "glob/": matches directories only
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
			f.dirOnly = append(f.dirOnly, strings.HasSuffix(g, "/"))
		} else {
			f.include = append(f.include, p)
		}
		f.rules = append(f.rules, globRule{p, neg, strings.HasSuffix(g, "/")})
	}
	if f.include == nil && f.exclude == nil {
		return nil, nil
	}
	return &f, nil
}

// Match reports whether the file at the slash path rel, relative to the
// searched directory, passes the filter.
func (f *GlobFilter) Match(rel string) bool {
	if f == nil {
		return true
	}
	for i, p := range f.exclude {
		if !f.dirOnly[i] && p.Match(rel) {
			return false
		}
	}
	for i := 0; i < len(rel) && len(f.exclude) > 0; i++ {
		if rel[i] == '/' && f.SkipsDir(rel[:i]) {
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

// decide returns ripgrep's verdict of the globs on the entry at rel, a
// directory when isDir: the last glob that matches decides, walk.Include
// or walk.Exclude for a "!glob"; a glob ending in '/' matches directories
// only; walk.Undecided when none matches. A nil filter decides nothing.
func (f *GlobFilter) decide(rel string, isDir bool) walk.Decision {
	if f == nil {
		return walk.Undecided
	}
	for i := len(f.rules) - 1; i >= 0; i-- {
		r := f.rules[i]
		if (isDir || !r.dirOnly) && r.p.Match(rel) {
			if r.neg {
				return walk.Exclude
			}
			return walk.Include
		}
	}
	return walk.Undecided
}

// MatchLast reports whether the file at rel passes the filter as
// ripgrep's globs decide it (see decide): a file no glob matches passes
// only when all the globs exclude.
func (f *GlobFilter) MatchLast(rel string) bool {
	switch f.decide(rel, false) {
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
	return f.decide(p, isDir)
}

// SkipsDir reports that the directory at the slash path rel, relative to
// the searched directory, matches an excluding glob: nothing below it
// passes the filter, so a walk need not enter it.
func (f *GlobFilter) SkipsDir(rel string) bool {
	if f == nil {
		return false
	}
	for _, p := range f.exclude {
		if p.Match(rel) {
			return true
		}
	}
	return false
}
