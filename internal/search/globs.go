package search

import (
	"strings"

	"github.com/scoutkit/scout/internal/glob"
)

// GlobFilter selects files by globs, like ripgrep's -g: a file must match
// one of the including globs (when there are any) and none of the excluding
// ones ("!pattern"), and no directory it lies in below the searched one may
// match an excluding glob ("!node_modules", "!build/", "!src/gen" leave
// out all that they hold). A glob without '/' matches the base name at any
// depth; an excluding glob that ends in '/' matches directories only.
type GlobFilter struct {
	include, exclude []*glob.Pattern
	dirOnly          []bool // of exclude: the glob ends in '/'
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
