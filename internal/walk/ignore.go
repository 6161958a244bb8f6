package walk

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/scoutkit/scout/internal/fsx"
)

// anchor turns an FS path into the path relative to a directory that
// holds rules, inside the FS or above its root.
type anchor struct {
	prefix string // inside the FS: the directory's FS path plus "/", "" for the FS root
	// Above the FS root, lead is the path from the directory down to the
	// FS root plus "/", and root the longest such path of the walk (the
	// FS root's OS path without its leading "/", plus "/"), of which lead
	// is a suffix. Both are "" inside the FS.
	lead, root string
}

// rel returns the FS path p relative to the anchor's directory. full
// caches root+p for the anchors of one lookup, so that a lookup builds it
// at most once.
func (a *anchor) rel(p string, full *string) string {
	if a.root == "" {
		return p[len(a.prefix):]
	}
	if *full == "" {
		*full = a.root + p
	}
	return (*full)[len(a.root)-len(a.lead):]
}

// dirRules is one link of the chain of ignore rules in force in a
// directory. A directory with no ignore file and no ".git" shares its
// parent's link, so the chain holds only directories with rules. The
// chain may start above the FS root (see rulesLoader.outer).
type dirRules struct {
	anchor
	parent *dirRules
	rg     *ruleSet // the directory's .rgignore (read only with Options.RgIgnore), or nil
	anyRg  bool     // some link of the chain, this one or one above, has rg
	ignore *ruleSet // the directory's .ignore, or nil
	git    *ruleSet // the directory's .gitignore (only inside a work tree), or nil
	top    bool     // the directory holds ".git": .gitignore files above it do not apply
	repo   *repo    // the work tree the directory is in, or nil
}

// repo is a git work tree; its anchor is the work-tree top.
type repo struct {
	anchor
	exclude *ruleSet // info/exclude of its git directory, or nil
	global  *ruleSet // its core.excludesFile (or the user's), or nil
}

// ignored reports whether the entry at p (an FS path whose base name is
// base) is excluded. Precedence, as in ripgrep: .rgignore files (when
// read), deepest first; then .ignore files, deepest first; then .gitignore
// files, deepest first, up to the work-tree top; then info/exclude; then
// the excludes file. Within one file the last matching line wins, and a
// "!" line re-includes.
func (d *dirRules) ignored(p, base string, isDir bool) bool {
	var full string
	if d.anyRg {
		for n := d; n != nil; n = n.parent {
			if n.rg != nil {
				if m := n.rg.match(n.rel(p, &full), base, isDir); m != noMatch {
					return m == matchIgn
				}
			}
		}
	}
	for n := d; n != nil; n = n.parent {
		if n.ignore != nil {
			if m := n.ignore.match(n.rel(p, &full), base, isDir); m != noMatch {
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
			if m := n.git.match(n.rel(p, &full), base, isDir); m != noMatch {
				return m == matchIgn
			}
		}
		if n.top {
			break
		}
	}
	if r.exclude == nil && r.global == nil {
		return false
	}
	rel := r.rel(p, &full)
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
	rgignore          bool // a regular file named .rgignore
	git               bool // an entry named .git: a directory, or a file naming the git directory
	gitDir            bool // .git is a directory
}

func (f *dirFiles) note(name string, typ fs.FileMode) {
	switch name {
	case ".gitignore":
		f.gitignore = typ.IsRegular()
	case ".ignore":
		f.ignore = typ.IsRegular()
	case ".rgignore":
		f.rgignore = typ.IsRegular()
	case ".git":
		f.git, f.gitDir = typ.IsRegular() || typ.IsDir(), typ.IsDir()
	}
}

// place is a file or directory the loader reads: an FS path, or an
// absolute OS path when os is set.
type place struct {
	path string
	os   bool
}

// rulesLoader reads ignore files for one walk.
type rulesLoader struct {
	fsys  fs.FS
	rg    bool     // .rgignore files are read (Options.RgIgnore)
	names []string // the names of the rule files (and ".git") a directory may hold
	osDir string   // the OS directory of fsys, "" when it is not an OS directory
	env   *gitEnv
	user  func() userExcludes // the user's excludes file, loaded on first use
	errs  func(error)         // records a rule file that could not be read
}

// userExcludes is the user's configuration and global excludes file.
type userExcludes struct {
	cfg   userConfig
	rules *ruleSet
}

// ruleNames are the names of the files that hold or locate ignore rules;
// ".rgignore" is read only when Options.RgIgnore asks for it.
var ruleNames = [...]string{".git", ".gitignore", ".ignore", ".rgignore"}

func newRulesLoader(fsys fs.FS, env *gitEnv, rg bool, errs func(error)) *rulesLoader {
	l := &rulesLoader{fsys: fsys, env: env, rg: rg, errs: errs, names: ruleNames[:3]}
	if rg {
		l.names = ruleNames[:]
	}
	if d, ok := fsys.(fsx.OSDir); ok {
		l.osDir = d.OSDir()
	}
	l.user = sync.OnceValue(func() userExcludes {
		cfg := loadUserConfig(env)
		u := userExcludes{cfg: cfg}
		if cfg.file != "" {
			u.rules = l.rules(place{cfg.file, true}, true)
		}
		return u
	})
	return l
}

// child returns the rules in force in dir (an FS path) given its parent's
// rules and the rule files the directory holds.
func (l *rulesLoader) child(parent *dirRules, dir string, f dirFiles) *dirRules {
	f.rgignore = f.rgignore && l.rg
	if !f.git && !f.ignore && !f.gitignore && !f.rgignore {
		return parent
	}
	prefix := ""
	if dir != "." {
		prefix = dir + "/"
	}
	at := func(name string) place { return place{path: path.Join(dir, name)} }
	return l.link(parent, anchor{prefix: prefix}, place{path: dir}, f, at)
}

// link returns the rules of a directory with rule files f, whose files
// are at(name), below parent's.
func (l *rulesLoader) link(parent *dirRules, a anchor, dir place, f dirFiles, at func(string) place) *dirRules {
	n := &dirRules{anchor: a, parent: parent, top: f.git}
	if parent != nil {
		n.repo, n.anyRg = parent.repo, parent.anyRg
	}
	if f.git {
		n.repo = l.repo(a, dir, f.gitDir)
	}
	if f.rgignore && l.rg {
		n.rg = l.rules(at(".rgignore"), false)
		n.anyRg = n.anyRg || n.rg != nil
	}
	if f.ignore {
		n.ignore = l.rules(at(".ignore"), false)
	}
	if f.gitignore && n.repo != nil {
		n.git = l.rules(at(".gitignore"), false)
	}
	if n.rg == nil && n.ignore == nil && n.git == nil && !n.top {
		return parent
	}
	return n
}

// repo reads the excludes of the work tree whose top is dir, as git finds
// them: the git directory is dir/.git, or the one a ".git" file names
// ("gitdir: PATH", a linked work tree or a submodule); its "commondir"
// file, if any, leads to the directory shared by linked work trees, which
// holds info/exclude and the repository's config, whose core.excludesFile
// (relative to the top when relative) replaces the user's.
func (l *rulesLoader) repo(a anchor, dir place, gitIsDir bool) *repo {
	r := &repo{anchor: a}
	gitDir, ok := l.join(dir, ".git")
	if ok && !gitIsDir {
		b, err := l.read(gitDir)
		target, isGitFile := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		if err != nil || !isGitFile {
			if err != nil {
				l.errs(err)
			}
			ok = false
		} else {
			gitDir, ok = l.join(dir, strings.TrimSpace(target))
		}
	}
	var excludesFile string
	var set bool
	if ok {
		common := gitDir
		if at, ok := l.join(gitDir, "commondir"); ok {
			if b, err := l.read(at); err == nil {
				if c, ok := l.join(gitDir, strings.TrimSpace(string(b))); ok {
					common = c
				}
			}
		}
		if at, ok := l.join(common, "info/exclude"); ok {
			r.exclude = l.rules(at, true)
		}
		if at, ok := l.join(common, "config"); ok {
			if b, err := l.read(at); err == nil {
				excludesFile, set = configValue(string(b), "core", "excludesfile")
			}
		}
	}
	u := l.user()
	if !set {
		r.global = u.rules
		return r
	}
	if excludesFile == "" {
		return r
	}
	if at, ok := l.join(dir, u.cfg.expandHome(excludesFile)); ok {
		r.global = l.rules(at, true)
	}
	return r
}

// join resolves p (slash-separated, or an OS path) against the directory
// dir as git would. A path that stays inside the FS is an FS place; one
// outside it (absolute, or climbing out with "..") is an OS place, which
// only an FS that is an OS directory has: ok is false otherwise.
func (l *rulesLoader) join(dir place, p string) (place, bool) {
	switch {
	case p == "":
		return place{}, false
	case dir.os || filepath.IsAbs(p):
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir.path, filepath.FromSlash(p))
		}
		if !dir.os && l.osDir == "" {
			return place{}, false
		}
		return place{path: filepath.Clean(p), os: true}, true
	}
	if j := path.Join(dir.path, p); fs.ValidPath(j) {
		return place{path: j}, true
	}
	if l.osDir == "" {
		return place{}, false
	}
	return place{path: filepath.Join(l.osDir, filepath.FromSlash(dir.path), filepath.FromSlash(p)), os: true}, true
}

// read returns the contents of a file (see readRuleFile).
func (l *rulesLoader) read(p place) ([]byte, error) {
	if p.os {
		return l.env.readFile(p.path)
	}
	return readRuleFile(l.fsys, p.path)
}

// rules parses the ignore file at p; a missing file is silent when
// optional, any other failure is recorded.
func (l *rulesLoader) rules(p place, optional bool) *ruleSet {
	b, err := l.read(p)
	if err != nil {
		if !optional || !errors.Is(err, fs.ErrNotExist) {
			l.errs(err)
		}
		return nil
	}
	rs, err := parseRules(string(b))
	if err != nil {
		l.errs(&fs.PathError{Op: "read", Path: p.path, Err: err})
		return nil
	}
	return rs
}

// outer returns the rules of the OS directories above the FS root, for
// an FS that is an OS directory (its path with symlinks resolved, as git
// sees it): the .ignore files (and .rgignore files, when read) of every
// directory up to "/" (as ripgrep reads them), and, when a directory
// above holds ".git", the excludes of that work tree and the .gitignore
// files from its top down to the FS root's parent. Nothing else above the FS root is read. nil when there
// are none.
func (l *rulesLoader) outer() *dirRules {
	if l.osDir == "" {
		return nil
	}
	root, err := filepath.EvalSymlinks(l.osDir)
	if err != nil || !filepath.IsAbs(root) {
		return nil
	}
	var dirs []string // the directories above root, closest first
	for d := filepath.Dir(root); ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if len(dirs) == 0 || dirs[0] == root {
		return nil
	}
	files := make([]dirFiles, len(dirs))
	top := -1 // index in dirs of the closest work-tree top
	for i, d := range dirs {
		for _, name := range l.names {
			if fi, err := os.Lstat(filepath.Join(d, name)); err == nil {
				files[i].note(name, fi.Mode().Type())
			}
		}
		if files[i].git && top < 0 {
			top = i
		}
	}
	lead := filepath.ToSlash(strings.TrimPrefix(root, string(filepath.Separator))) + "/"
	var rules *dirRules
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		f := files[i]
		f.git = f.git && i == top
		f.gitignore = f.gitignore && i <= top
		f.rgignore = f.rgignore && l.rg
		if !f.git && !f.ignore && !f.gitignore && !f.rgignore {
			continue
		}
		rel, err := filepath.Rel(d, root)
		if err != nil {
			continue
		}
		a := anchor{lead: filepath.ToSlash(rel) + "/", root: lead}
		at := func(name string) place { return place{path: filepath.Join(d, name), os: true} }
		rules = l.link(rules, a, place{path: d, os: true}, f, at)
	}
	return rules
}
