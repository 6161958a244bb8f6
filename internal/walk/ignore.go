package walk

import (
	"errors"
	"io/fs"
	"path"
	"slices"
)

// dirRules is one link of the chain of ignore rules in force in a
// directory. A directory with no ignore file and no ".git" shares its
// parent's link, so the chain holds only directories with rules.
type dirRules struct {
	parent *dirRules
	prefix string   // FS path of the directory plus "/", "" for the FS root
	ignore *ruleSet // the directory's .ignore, or nil
	git    *ruleSet // the directory's .gitignore (only inside a work tree), or nil
	top    bool     // the directory holds ".git": .gitignore files above it do not apply
	repo   *repo    // the work tree the directory is in, or nil
}

// repo is a git work tree.
type repo struct {
	prefix  string   // FS path of the work-tree top plus "/", "" for the FS root
	outer   string   // path from the top to the FS root plus "/" when the top lies above the FS root
	exclude *ruleSet // .git/info/exclude, or nil
	global  *ruleSet // the global excludes file, or nil
}

// ignored reports whether the entry at p (an FS path whose base name is
// base) is excluded. Precedence, as in ripgrep: .ignore files, deepest
// first; then .gitignore files, deepest first, up to the work-tree top;
// then .git/info/exclude; then the global excludes. Within one file the
// last matching line wins, and a "!" line re-includes.
func (d *dirRules) ignored(p, base string, isDir bool) bool {
	for n := d; n != nil; n = n.parent {
		if n.ignore != nil {
			if m := n.ignore.match(p[len(n.prefix):], base, isDir); m != noMatch {
				return m == matchIgn
			}
		}
	}
	r := d.repo
	if r == nil {
		return false
	}
	for n := d; n != nil; n = n.parent {
		if n.git != nil {
			if m := n.git.match(p[len(n.prefix):], base, isDir); m != noMatch {
				return m == matchIgn
			}
		}
		if n.top {
			break
		}
	}
	rel := r.outer + p[len(r.prefix):]
	for _, rs := range [2]*ruleSet{r.exclude, r.global} {
		if rs != nil {
			if m := rs.match(rel, base, isDir); m != noMatch {
				return m == matchIgn
			}
		}
	}
	return false
}

// dirFiles says which rule files a directory holds, from its listing.
type dirFiles struct {
	gitignore, ignore bool // regular files named .gitignore and .ignore
	git               bool // an entry named .git (a directory, or a file for a linked work tree)
	gitDir            bool // .git is a directory
}

func (f *dirFiles) note(name string, typ fs.FileMode) {
	switch name {
	case ".gitignore":
		f.gitignore = typ.IsRegular()
	case ".ignore":
		f.ignore = typ.IsRegular()
	case ".git":
		f.git, f.gitDir = true, typ.IsDir()
	}
}

// rulesLoader reads ignore files for one walk.
type rulesLoader struct {
	fsys   fs.FS
	global *ruleSet
	errs   func(error) // records a rule file that could not be read
}

// child returns the rules in force in dir (an FS path) given its parent's
// rules and the rule files the directory holds.
func (l *rulesLoader) child(parent *dirRules, dir string, f dirFiles) *dirRules {
	if !f.git && !f.ignore && !f.gitignore {
		return parent
	}
	prefix := ""
	if dir != "." {
		prefix = dir + "/"
	}
	n := &dirRules{parent: parent, prefix: prefix, top: f.git}
	if parent != nil {
		n.repo = parent.repo
	}
	if f.git {
		n.repo = &repo{prefix: prefix, global: l.global}
		if f.gitDir {
			n.repo.exclude = l.read(path.Join(dir, ".git/info/exclude"), true)
		}
	}
	if f.ignore {
		n.ignore = l.read(path.Join(dir, ".ignore"), false)
	}
	if f.gitignore && n.repo != nil {
		n.git = l.read(path.Join(dir, ".gitignore"), false)
	}
	if n.ignore == nil && n.git == nil && !n.top {
		return parent
	}
	return n
}

// read parses the ignore file name; a missing file is silent when
// optional, any other failure is recorded.
func (l *rulesLoader) read(name string, optional bool) *ruleSet {
	b, err := fs.ReadFile(l.fsys, name)
	if err != nil {
		if !optional || !errors.Is(err, fs.ErrNotExist) {
			l.errs(err)
		}
		return nil
	}
	return parseRules(string(b))
}

// Ignored reports whether Walk, walking the directory that holds name,
// would leave name out by rule: it is ".git", a directory in
// opts.PruneDirs, or excluded by the ignore files (unless opts.NoIgnore),
// with the same sources and precedence as Walk. Only name's own path is
// matched; whether a directory above it is ignored is not considered (see
// Walk). Hidden names are not "ignored". An invalid path or "." is never
// ignored.
func Ignored(fsys fs.FS, name string, isDir bool, opts Options) bool {
	if !fs.ValidPath(name) || name == "." {
		return false
	}
	base := path.Base(name)
	if base == ".git" || (isDir && slices.Contains(opts.PruneDirs, base)) {
		return true
	}
	if opts.NoIgnore {
		return false
	}
	rules := newWalker(fsys, opts, nil).ancestorRules(name)
	return rules != nil && rules.ignored(name, base, isDir)
}
