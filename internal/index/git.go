package index

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/scoutkit/scout/internal/search"
)

// repo is the git work tree that holds a search root.
type repo struct {
	top    string // OS path of the work tree's top directory
	prefix string // the root's path below top plus "/"; "" when the root is top
}

// maxGitOutput bounds what is read from one git command.
const maxGitOutput = 64 << 20

var repos sync.Map // OS dir -> *repo

// findRepo returns the work tree holding the OS directory dir.
func findRepo(ctx context.Context, dir string) (*repo, error) {
	if r, ok := repos.Load(dir); ok {
		return r.(*repo), nil
	}
	out, err := git(ctx, dir, "rev-parse", "--show-toplevel", "--show-prefix")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) < 1 || lines[0] == "" {
		return nil, fmt.Errorf("git rev-parse in %s gave no work tree", dir)
	}
	r := &repo{top: filepath.Clean(lines[0])}
	if len(lines) > 1 {
		r.prefix = lines[1]
	}
	repos.Store(dir, r)
	return r, nil
}

// git runs a git command in dir and returns its output. It writes nothing
// (no optional locks, so no index refresh is written either).
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	var out []byte
	err := gitRun(ctx, dir, func(r io.Reader) error {
		var err error
		out, err = io.ReadAll(io.LimitReader(r, maxGitOutput+1))
		if err == nil && len(out) > maxGitOutput {
			return errTooMuch
		}
		return err
	}, args...)
	return out, err
}

// gitEach runs a git command in dir and passes each NUL-terminated record
// of its output to fn, without holding the whole output: a listing of
// every file of a large work tree may be long.
func gitEach(ctx context.Context, dir string, fn func(rec []byte), args ...string) error {
	return gitRun(ctx, dir, func(r io.Reader) error {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
			if i := bytes.IndexByte(data, 0); i >= 0 {
				return i + 1, data[:i], nil
			}
			if atEOF && len(data) > 0 {
				return len(data), data, nil
			}
			return 0, nil, nil
		})
		for sc.Scan() {
			fn(sc.Bytes())
		}
		return sc.Err()
	}, args...)
}

// errTooMuch is a git command's output over maxGitOutput.
var errTooMuch = errors.New("too much output")

// gitRun runs a git command in dir with read consuming its output; a
// command whose output read refuses is killed. Its error is a *gitError.
func gitRun(ctx context.Context, dir string, read func(io.Reader) error, args ...string) error {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--no-optional-locks", "-c", "core.quotePath=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{b: &stderr, n: 4096}
	fail := func(err error) *gitError {
		first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return &gitError{args: args, err: err, stderr: strings.TrimSpace(first)}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fail(err)
	}
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	readErr := read(stdout)
	if readErr != nil {
		cmd.Process.Kill()
	}
	err = cmd.Wait()
	switch {
	case errors.Is(readErr, errTooMuch):
		return fail(fmt.Errorf("more than %d bytes of output", maxGitOutput))
	case readErr != nil:
		return fail(readErr)
	case err != nil:
		e := fail(err)
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			e.code = ee.ExitCode()
		}
		return e
	}
	return nil
}

// gitError is a git command that failed: it could not start, its output
// could not be read, or it exited with a failure.
type gitError struct {
	args   []string // the command's arguments, after "git" and the options gitRun adds
	code   int      // the exit status (-1 for a signal); 0 when git did not exit on its own
	err    error    // the failure: "exit status 128", say
	stderr string   // the first line git wrote to its standard error
}

func (e *gitError) Error() string {
	msg := "git " + strings.Join(e.args, " ") + ": " + e.err.Error()
	if e.stderr != "" {
		msg += ": " + e.stderr
	}
	return msg
}

func (e *gitError) Unwrap() error { return e.err }

// limitedBuffer keeps the first n bytes written to it.
type limitedBuffer struct {
	b *bytes.Buffer
	n int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// foreignError says that the indexed commit is not in the repository.
type foreignError struct{ commit string }

func (e *foreignError) Error() string {
	return "commit " + e.commit + " is not in the local repository (fetch it, or index this clone)"
}

// Changes are the paths of a work tree whose content may differ from a
// commit's, relative to the work tree's top.
type Changes struct {
	// Files are the tracked files changed, added or deleted since the
	// commit (committed since or not) and the untracked files.
	Files []string
	// Dirs are directories whose every file is changed: untracked
	// directories, nested work trees and submodules (whose files an index
	// of the commit does not hold).
	Dirs []string
	// Ignored are the untracked files that git ignores, and IgnoredDirs
	// the directories it ignores whole, together with those whose changes
	// a tracker does not watch. An index of the commit holds none of
	// their files, but a search whose rules bring them back (a "!" line of
	// an .ignore or .rgignore file, a ripgrep glob) reads them; the others
	// leave them out without entering the directories. They do not count
	// as changed paths.
	Ignored, IgnoredDirs []string
	// Negated, RgNegated report that a .ignore, or a .rgignore, file of
	// the work tree holds a "!" line: such a line may bring back a file
	// git ignores (git reads neither kind). A search whose rules read
	// none of them, and that has no ripgrep glob, never reads an ignored
	// file, and leaves Ignored aside.
	Negated, RgNegated bool
	// Filtered are the tracked files whose work-tree content git makes
	// from the commit's through a filter (Git LFS, say), ident or
	// working-tree-encoding attribute: git sees no change where the bytes
	// differ from those an index holds. They do not count as changed
	// paths.
	Filtered []string
	// Stale reports that HEAD does not descend from the commit.
	Stale bool

	files map[string]bool
}

// changes asks git what differs between commit and the work tree: the
// tracked changes (committed since, staged or not), the untracked files
// (with noIgnore, the ignored ones too, as changed; without, as ignored),
// the files git does not compare (marked assume-unchanged or
// skip-worktree, but in the work tree), and the submodules. It writes
// nothing.
func (r *repo) changes(ctx context.Context, commit string, noIgnore bool) (*Changes, error) {
	var (
		wg                                    sync.WaitGroup
		diff, others, filtered                []byte
		entries                               *indexEntries
		ancErr, diffErr, oErr, attrErr, lsErr error
		untracked                             = []string{"ls-files", "-z", "--others", "--directory", "--no-empty-directory"}
		since                                 = []string{"diff", "--name-only", "-z", "--no-renames", commit, "--"}
	)
	if !noIgnore {
		// Scout honours .gitignore and info/exclude, but not the global
		// excludes file: a file ignored only there is searched. Each
		// untracked file is listed, so that the changed set's bound counts
		// them, and so is each ignored one (an ignored directory as one
		// entry, when an ignore line names it), which a search that
		// re-includes it reads; a nested work tree comes as one directory.
		// ls-files would drop the ignored files of an untracked directory
		// that holds others too, or list each file of ignored ones.
		untracked = []string{"-c", "core.excludesFile=" + os.DevNull, "status", "--porcelain=v1", "-z", "--untracked-files=all",
			"--ignored=matching", "--no-renames", "--ignore-submodules=all"}
		// git status lists the tracked changes since HEAD too (staged or
		// not), having compared each tracked file with the index: what
		// the commits since the indexed one changed comes from their
		// trees, without comparing the files a second time.
		since = []string{"diff", "--name-only", "-z", "--no-renames", commit, "HEAD", "--"}
	}
	wg.Go(func() { _, ancErr = git(ctx, r.top, "merge-base", "--is-ancestor", commit, "HEAD") })
	wg.Go(func() { diff, diffErr = git(ctx, r.top, since...) })
	wg.Go(func() { others, oErr = git(ctx, r.top, untracked...) })
	wg.Go(func() {
		// The files with a filter, ident or working-tree-encoding
		// attribute: all but those with none of them.
		filtered, attrErr = git(ctx, r.top, "ls-files", "-z", "--", ".", ":(exclude,attr:!filter !ident !working-tree-encoding)")
	})
	wg.Go(func() { entries, lsErr = r.entries(ctx) })
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c := &Changes{}
	var ge *gitError
	switch {
	case ancErr == nil:
	case errors.As(ancErr, &ge) && ge.code == 1:
		c.Stale = true
	case errors.As(ancErr, &ge) && ge.code != 0:
		if _, err := git(ctx, r.top, "cat-file", "-e", commit+"^{commit}"); err != nil {
			return nil, &foreignError{commit: commit}
		}
		return nil, ancErr
	default:
		return nil, ancErr
	}
	if diffErr != nil {
		return nil, diffErr
	}
	if oErr != nil {
		return nil, oErr
	}
	if attrErr != nil {
		return nil, attrErr
	}
	if lsErr != nil {
		return nil, lsErr
	}
	c.Files = append(c.Files, splitZ(diff)...)
	c.Files = append(c.Files, entries.unchecked...)
	ignoreFiles := entries.ignoreFiles
	c.Filtered = splitZ(filtered)
	for _, p := range splitZ(others) {
		files, dirs := &c.Files, &c.Dirs
		if !noIgnore {
			// "XY path": "??" untracked, "!!" ignored, others tracked
			// and changed since HEAD (in the index, the work tree, or
			// both).
			if len(p) < 4 || p[2] != ' ' {
				continue
			}
			if p[:2] == "!!" {
				files, dirs = &c.Ignored, &c.IgnoredDirs
			}
			p = p[3:]
			if isIgnoreFile(p) {
				ignoreFiles = append(ignoreFiles, p)
			}
		}
		if d, ok := strings.CutSuffix(p, "/"); ok {
			*dirs = append(*dirs, d)
		} else {
			*files = append(*files, p)
		}
	}
	for _, d := range submodules(filepath.Join(r.top, ".gitmodules")) {
		if !slices.Contains(entries.gitlinks, d) {
			c.Dirs = append(c.Dirs, d)
		}
	}
	c.Dirs = append(c.Dirs, entries.gitlinks...)
	for _, p := range ignoreFiles {
		neg := negates(filepath.Join(r.top, filepath.FromSlash(p)))
		if path.Base(p) == ".ignore" {
			c.Negated = c.Negated || neg
		} else {
			c.RgNegated = c.RgNegated || neg
		}
	}
	c.index()
	return c, nil
}

// isIgnoreFile reports whether p names an ignore file that a search reads
// and git does not.
func isIgnoreFile(p string) bool {
	b := path.Base(p)
	return b == ".ignore" || b == ".rgignore"
}

// negates reports whether the ignore file name holds a "!" line (a
// re-include); true when it cannot be read, unless it does not exist.
func negates(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return !errors.Is(err, fs.ErrNotExist)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 4<<20))
	if err != nil {
		return true
	}
	b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		if bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("!")) {
			return true
		}
	}
	return false
}

// negatedAbove reports whether a .ignore, or a .rgignore, file of a
// directory above the work tree's top holds a "!" line: a search reads
// those of every directory up to the file system's root.
func (r *repo) negatedAbove() (ignore, rg bool) {
	for d := filepath.Dir(r.top); ; d = filepath.Dir(d) {
		ignore = ignore || negates(filepath.Join(d, ".ignore"))
		rg = rg || negates(filepath.Join(d, ".rgignore"))
		if filepath.Dir(d) == d {
			return ignore, rg
		}
	}
}

// indexEntries are the entries of git's index that need more than git
// diff and git status say.
type indexEntries struct {
	// unchecked are the files marked assume-unchanged or skip-worktree
	// that the work tree holds: git compares neither with the commit, so
	// an edit in place goes unseen.
	unchecked []string
	// gitlinks are the paths of committed repositories (submodules,
	// declared in .gitmodules or not), whose files an index built
	// without submodules does not hold.
	gitlinks []string
	// ignoreFiles are the tracked .ignore and .rgignore files.
	ignoreFiles []string
}

// entries lists the index entries that git diff and git status pass
// over: one line per file of the index, streamed.
func (r *repo) entries(ctx context.Context) (*indexEntries, error) {
	e := &indexEntries{}
	var marked []string
	err := gitEach(ctx, r.top, func(rec []byte) {
		// "T MODE OBJECT STAGE\tPATH": T is H for a cached file, S for
		// skip-worktree, lower case for assume-unchanged.
		tab := bytes.IndexByte(rec, '\t')
		if tab < 9 || rec[1] != ' ' {
			return
		}
		p := rec[tab+1:]
		switch {
		case bytes.HasPrefix(rec[2:], []byte("160000 ")):
			if n := len(e.gitlinks); n == 0 || e.gitlinks[n-1] != string(p) {
				e.gitlinks = append(e.gitlinks, string(p))
			}
		case rec[0] == 'S' || 'a' <= rec[0] && rec[0] <= 'z':
			marked = append(marked, string(p))
		}
		if b := p[bytes.LastIndexByte(p, '/')+1:]; string(b) == ".ignore" || string(b) == ".rgignore" {
			e.ignoreFiles = append(e.ignoreFiles, string(p))
		}
	}, "ls-files", "-z", "-s", "-v")
	if err != nil {
		return nil, err
	}
	// A marked file the work tree lacks (as a sparse checkout leaves
	// them) holds nothing a scan finds.
	for _, p := range marked {
		if _, err := os.Lstat(filepath.Join(r.top, filepath.FromSlash(p))); err == nil {
			e.unchecked = append(e.unchecked, p)
		}
	}
	return e, nil
}

func splitZ(b []byte) []string {
	var out []string
	for _, p := range bytes.Split(b, []byte{0}) {
		if len(p) > 0 {
			out = append(out, string(p))
		}
	}
	return out
}

// submodulePath is compiled on first use, not at the command's start.
var submodulePath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*path\s*=\s*(.*?)\s*$`) })

// submodules returns the paths of the submodules a .gitmodules file
// declares: their files are in the work tree but not in an index built
// without submodules.
func submodules(name string) []string {
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	for sc.Scan() {
		if m := submodulePath().FindStringSubmatch(sc.Text()); m != nil {
			if p := path.Clean(strings.Trim(m[1], `"`)); p != "." && !strings.HasPrefix(p, "../") {
				out = append(out, p)
			}
		}
	}
	return out
}

// index builds the lookup set of Files.
func (c *Changes) index() {
	c.files = make(map[string]bool, len(c.Files))
	for _, p := range c.Files {
		c.files[p] = true
	}
}

// covers reports whether the path p (relative to the top) is changed.
func (c *Changes) covers(p string) bool {
	if c.files[p] {
		return true
	}
	for _, d := range c.Dirs {
		if strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// inRoot returns the changed paths below the search root, relative to it,
// as candidates, and their number; -1 when the root itself lies in a
// changed directory.
func (c *Changes) inRoot(r *repo) (*search.Candidates, int) {
	cand, ok := r.candidates(c.Dirs, c.Files)
	if !ok {
		return nil, -1
	}
	return cand, len(cand.Files) + len(cand.Dirs)
}

// ignoredInRoot returns the ignored directories below the search root,
// the ignored files too with files, and its filtered files, relative to
// it, as candidates; false when the root itself lies in an ignored
// directory (which a search of the root walks whole).
func (c *Changes) ignoredInRoot(r *repo, files bool) (*search.Candidates, bool) {
	if !files {
		return r.candidates(c.IgnoredDirs, c.Filtered)
	}
	return r.candidates(c.IgnoredDirs, c.Ignored, c.Filtered)
}

// candidates returns the directories and files below the search root,
// relative to it; false when the root itself lies in one of dirs.
func (r *repo) candidates(dirs []string, files ...[]string) (*search.Candidates, bool) {
	cand := &search.Candidates{}
	for _, list := range files {
		for _, p := range list {
			if rel, ok := r.toRoot(p); ok {
				cand.Files = append(cand.Files, rel)
			}
		}
	}
	for _, d := range dirs {
		if rel, ok := r.toRoot(d); ok {
			cand.Dirs = append(cand.Dirs, rel)
		} else if r.prefix != "" && strings.HasPrefix(r.prefix, d+"/") {
			return nil, false
		}
	}
	return cand, true
}

// toRoot maps a path relative to the top to one relative to the search
// root; false when it lies outside the root.
func (r *repo) toRoot(p string) (string, bool) {
	if r.prefix == "" {
		return p, true
	}
	rel, ok := strings.CutPrefix(p, r.prefix)
	return rel, ok && rel != ""
}

// fromRoot maps path regexes over paths relative to the search root (each
// starting with '^') to regexes over paths relative to the top.
func (r *repo) fromRoot(res []string) []string {
	if r.prefix == "" || len(res) == 0 {
		return res
	}
	out := make([]string, len(res))
	for i, re := range res {
		out[i] = "^" + regexp.QuoteMeta(r.prefix) + strings.TrimPrefix(re, "^")
	}
	return out
}
