package search

import (
	"context"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/scoutkit/scout/internal/fsx"
)

// PathFilters returns path regular expressions (Go RE2, over slash paths
// relative to the FS root, each starting with '^') that let an index
// filter files before a search of req runs over its candidates: every
// file the search can reach matches each regex of include and none of
// exclude. They may admit more files than the search (ignore and hidden
// rules are not expressed, nor globs relative to a directory among the
// excludes), never fewer. ok is false when a target of req's scope is not
// a file or directory of fsys (an archive member, an in-memory resource),
// or is searched in part (line ranges).
func PathFilters(ctx context.Context, fsys fs.FS, root string, req *Request) (include, exclude []string, ok bool, err error) {
	sc, err := Resolve(ctx, fsys, root, req.Paths, ResolveOptions{MaxMember: req.MaxFileSize, Registry: req.Registry, Lines: req.Grep.LineRanges})
	if err != nil {
		return nil, nil, false, err
	}
	globs, err := CompileGlobs(req.Globs)
	if err != nil {
		return nil, nil, false, err
	}
	types, err := CompileTypes(req.Types)
	if err != nil {
		return nil, nil, false, err
	}
	var scope []string
	whole := false
	for _, t := range sc.Targets {
		switch {
		case t.Mem || t.Ranges != nil:
			return nil, nil, false, nil
		case !t.Dir:
			scope = append(scope, "^"+regexp.QuoteMeta(t.Path)+"$")
		case t.Path == "." && t.Glob == nil:
			whole = true
		case t.Path == ".":
			scope = append(scope, t.Glob.Regexp())
		case t.Glob == nil:
			scope = append(scope, "^"+regexp.QuoteMeta(t.Path)+"/")
		default:
			scope = append(scope, "^"+regexp.QuoteMeta(t.Path)+"/"+strings.TrimPrefix(t.Glob.Regexp(), "^"))
		}
	}
	if !whole {
		include = append(include, anyOf(scope))
	}
	if globs != nil {
		var in []string
		for _, p := range globs.include {
			in = append(in, floating(p.String(), p.Regexp()))
		}
		if len(in) > 0 {
			include = append(include, anyOf(in))
		}
		for _, p := range globs.exclude {
			if !strings.Contains(strings.TrimSuffix(p.String(), "/"), "/") {
				exclude = append(exclude, p.Regexp())
			}
		}
	}
	if types != nil {
		include = append(include, types.regexp())
	}
	return include, exclude, true, nil
}

// floating returns the regex re of the filter glob src made to match at
// any depth: a glob without '/' already does; one with '/' is relative to
// the searched directory, which the regex cannot know.
func floating(src, re string) string {
	if !strings.Contains(strings.TrimSuffix(src, "/"), "/") {
		return re
	}
	return "^(?:.*/)?" + strings.TrimPrefix(re, "^")
}

// anyOf joins regexes as alternatives.
func anyOf(res []string) string {
	if len(res) == 1 {
		return res[0]
	}
	return "(?:" + strings.Join(res, "|") + ")"
}

// regexp returns the regex of the paths the filter selects.
func (f *TypeFilter) regexp() string {
	var names, exts []string
	for n := range f.names {
		names = append(names, regexp.QuoteMeta(n))
	}
	for e := range f.exts {
		exts = append(exts, "[^/]+"+regexp.QuoteMeta(e))
	}
	sort.Strings(names)
	sort.Strings(exts)
	return "^(?:.*/)?(?:" + strings.Join(append(names, exts...), "|") + ")$"
}

// linked reports whether the FS path p or a directory on its way is a
// symlink.
func linked(fsys fs.FS, p string) bool {
	for p != "." && p != "" {
		if fi, err := fsx.Lstat(fsys, p); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return err == nil
		}
		p = path.Dir(p)
	}
	return false
}
