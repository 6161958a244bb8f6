package index

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// gitRepo is a scratch repository with its own HOME (so no user config
// applies).
type gitRepo struct {
	t    testing.TB
	dir  string
	home string
}

func newGitRepo(t *testing.T, files map[string]string) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	g := &gitRepo{t: t, dir: t.TempDir(), home: t.TempDir()}
	t.Setenv("HOME", g.home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("XDG_CONFIG_HOME", g.home)
	g.run("init", "-q", "-b", "main")
	for p, c := range files {
		g.write(p, c)
	}
	g.commit("first")
	return g
}

func (g *gitRepo) run(args ...string) string {
	g.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = g.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		g.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (g *gitRepo) write(p, content string) {
	g.t.Helper()
	full := filepath.Join(g.dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		g.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		g.t.Fatal(err)
	}
}

func (g *gitRepo) remove(p string) {
	g.t.Helper()
	if err := os.RemoveAll(filepath.Join(g.dir, filepath.FromSlash(p))); err != nil {
		g.t.Fatal(err)
	}
}

func (g *gitRepo) commit(msg string) string {
	g.t.Helper()
	g.run("add", "-A")
	g.run("commit", "-q", "--allow-empty", "-m", msg)
	return g.run("rev-parse", "HEAD")
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestChanges(t *testing.T) {
	g := newGitRepo(t, map[string]string{
		"a.go": "package a\n", "b.go": "package b\n", "dir/c.go": "package c\n", ".gitignore": "*.log\nout/\n",
		".gitattributes": "*.sec filter=up\n*.id ident\n*.l1 working-tree-encoding=ISO-8859-1\n", "s.sec": "secret\n", "dir/i.id": "$Id$\n",
		"l.l1": "caf\xe9\n", "au.go": "package au\n", "sw.go": "package sw\n", "gone.go": "package gone\n",
	})
	// A repository committed inside, without .gitmodules: a gitlink.
	if out, err := exec.Command("git", "init", "-q", filepath.Join(g.dir, "emb")).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	g.write("emb/e.go", "package e\n")
	cmd := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "e")
	cmd.Dir = filepath.Join(g.dir, "emb")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	g.commit("gitlink")
	first := g.run("rev-parse", "HEAD")
	// Files git does not compare: edited in place, or gone.
	g.run("update-index", "--assume-unchanged", "au.go")
	g.run("update-index", "--skip-worktree", "sw.go", "gone.go")
	g.write("au.go", "package au // edited\n")
	g.write("sw.go", "package sw // edited\n")
	g.remove("gone.go")
	// A staged edit.
	g.write("dir/c.go", "package c // staged\n")
	g.run("add", "dir/c.go")
	g.write("out/o.txt", "in an ignored directory\n")
	g.write("untracked/skip.log", "ignored, beside an untracked file\n")
	g.write("a.go", "package a // edited\n")
	g.remove("b.go")
	g.write("new.go", "package n\n")
	g.write("untracked/x.go", "package x\n")
	g.write("debug.log", "ignored\n")
	g.write("global.txt", "ignored only by the global excludes file\n")
	g.write("later.go", "package later\n")
	g.run("add", "later.go")
	g.run("commit", "-q", "-m", "later") // committed since the indexed commit
	g.write(".gitmodules", "[submodule \"sub\"]\n\tpath = vendor/sub\n\turl = ../sub\n")
	g.write("nested/n.go", "package nested\n")
	if out, err := exec.Command("git", "init", "-q", filepath.Join(g.dir, "nested")).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	os.WriteFile(filepath.Join(g.home, ".gitconfig"), []byte("[core]\n\texcludesFile = "+filepath.Join(g.home, "ignore")+"\n"), 0o644)
	os.WriteFile(filepath.Join(g.home, "ignore"), []byte("global.txt\n"), 0o644)

	r, err := findRepo(context.Background(), g.dir)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := r.changes(context.Background(), first, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{".gitmodules", "a.go", "au.go", "b.go", "dir/c.go", "global.txt", "later.go", "new.go", "sw.go", "untracked/x.go"}; !slices.Equal(sorted(ch.Files), want) {
		t.Errorf("Files = %q, want %q", sorted(ch.Files), want)
	}
	if want := []string{"emb", "nested", "vendor/sub"}; !slices.Equal(sorted(ch.Dirs), want) {
		t.Errorf("Dirs = %q, want %q", sorted(ch.Dirs), want)
	}
	if want := []string{"debug.log", "untracked/skip.log"}; !slices.Equal(sorted(ch.Ignored), want) {
		t.Errorf("Ignored = %q, want %q", sorted(ch.Ignored), want)
	}
	if want := []string{"out"}; !slices.Equal(sorted(ch.IgnoredDirs), want) {
		t.Errorf("IgnoredDirs = %q, want %q", sorted(ch.IgnoredDirs), want)
	}
	if want := []string{"dir/i.id", "l.l1", "s.sec"}; !slices.Equal(sorted(ch.Filtered), want) {
		t.Errorf("Filtered = %q, want %q", sorted(ch.Filtered), want)
	}
	if ch.Stale {
		t.Error("HEAD descends from the commit, yet Stale")
	}
	all, err := r.changes(context.Background(), first, true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(all.Files, "debug.log") || !slices.Contains(all.Dirs, "out") || len(all.Ignored)+len(all.IgnoredDirs) > 0 {
		t.Errorf("with noIgnore the ignored files are changes too: %q %q %q %q", all.Files, all.Dirs, all.Ignored, all.IgnoredDirs)
	}
	for _, tc := range []struct {
		p    string
		want bool
	}{
		{"a.go", true}, {"dir/c.go", true}, {"dir/i.id", false}, {"untracked/x.go", true}, {"untracked", false}, {"vendor/sub/m.go", true}, {"vendor/subx", false},
	} {
		if got := ch.covers(tc.p); got != tc.want {
			t.Errorf("covers(%q) = %v", tc.p, got)
		}
	}

	// A commit HEAD does not descend from; one the repository lacks.
	g.remove("nested")
	g.run("checkout", "-q", "-b", "side", first)
	g.write("side.go", "package side\n")
	side := g.commit("side")
	g.run("checkout", "-q", "main")
	if ch, err := r.changes(context.Background(), side, false); err != nil || !ch.Stale {
		t.Errorf("a commit of another branch: Stale %v, err %v", ch != nil && ch.Stale, err)
	}
	var fe *foreignError
	if _, err := r.changes(context.Background(), strings.Repeat("ab", 20), false); !errors.As(err, &fe) {
		t.Errorf("an unknown commit: err %v, want a foreignError", err)
	}
}

func TestRepoPrefix(t *testing.T) {
	g := newGitRepo(t, map[string]string{"src/a.go": "package a\n", "doc/x.md": "x\n"})
	r, err := findRepo(context.Background(), filepath.Join(g.dir, "src"))
	if err != nil {
		t.Fatal(err)
	}
	if r.prefix != "src/" {
		t.Fatalf("prefix %q", r.prefix)
	}
	if p, ok := r.toRoot("src/a.go"); !ok || p != "a.go" {
		t.Errorf("toRoot(src/a.go) = %q %v", p, ok)
	}
	if _, ok := r.toRoot("doc/x.md"); ok {
		t.Error("doc/x.md is outside the root")
	}
	if got := r.fromRoot([]string{`^x/`, `^(?:.*/)?y$`}); !slices.Equal(got, []string{`^src/x/`, `^src/(?:.*/)?y$`}) {
		t.Errorf("fromRoot = %q", got)
	}
	if _, err := findRepo(context.Background(), t.TempDir()); err == nil {
		t.Error("a directory outside any work tree has a repo")
	}
}

// TestTrackerWatches checks that, once watching, the tracker sees edits,
// new, deleted and moved files and new directories without asking git
// (git is taken off PATH), and starts over when an ignore file changes.
func TestTrackerWatches(t *testing.T) {
	g := newGitRepo(t, map[string]string{"a.go": "package a\n", "b.go": "package b\n", "dir/c.go": "package c\n", "keep.go": "k\n", ".gitignore": "*.tmp\nout/\n"})
	commit := g.run("rev-parse", "HEAD")
	g.write("out/o.txt", "ignored\n")
	g.write("dir/out/p.txt", "ignored\n")
	r, err := findRepo(context.Background(), g.dir)
	if err != nil {
		t.Fatal(err)
	}
	tr := &tracker{r: r}
	ctx := context.Background()
	for range 2 {
		tr.visit(false)
		if _, err := tr.changes(ctx, commit, false); err != nil {
			t.Fatal(err)
		}
	}
	if tr.failed {
		t.Skip("watching is not available here")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		tr.mu.Lock()
		ready := tr.ready
		tr.mu.Unlock()
		if ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the watches were not in place after 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if ch, err := tr.changes(ctx, commit, false); err != nil || len(ch.Files)+len(ch.Dirs) != 0 {
		t.Fatalf("clean tree: %+v %v", ch, err)
	} else if want := []string{"dir/out", "out"}; !slices.Equal(sorted(ch.IgnoredDirs), want) {
		// As git lists them, and as the watches leave them out.
		t.Errorf("IgnoredDirs = %q, want %q", sorted(ch.IgnoredDirs), want)
	}
	if !tr.cheap(commit) || tr.cheap(strings.Repeat("0", 40)) {
		t.Errorf("cheap(commit) = %v, cheap(another) = %v; want true, false", tr.cheap(commit), tr.cheap(strings.Repeat("0", 40)))
	}
	t.Setenv("PATH", "")
	g.write("a.go", "package a // edited\n")
	g.remove("b.go")
	g.write("new.go", "package n\n")
	g.write("newdir/deep/x.go", "package x\n")
	g.write("newdir/deep/w.tmp", "ignored, in a new directory\n")
	g.write("newdir/out/q.txt", "in a new ignored directory\n")
	if err := os.Rename(filepath.Join(g.dir, "keep.go"), filepath.Join(g.dir, "dir/moved.go")); err != nil {
		t.Fatal(err)
	}
	ch, err := tr.changes(ctx, commit, false)
	if err != nil {
		t.Fatalf("a search after edits asked git: %v", err)
	}
	if want := []string{"a.go", "b.go", "dir/moved.go", "keep.go", "new.go", "newdir/deep/w.tmp", "newdir/deep/x.go"}; !slices.Equal(sorted(ch.Files), want) {
		t.Errorf("Files = %q, want %q", sorted(ch.Files), want)
	}
	if want := []string{"newdir/out"}; !slices.Equal(sorted(ch.Dirs), want) {
		t.Errorf("Dirs = %q, want %q", sorted(ch.Dirs), want)
	}
	g.write("newdir/deep/y.go", "package x\n")
	if ch, err := tr.changes(ctx, commit, false); err != nil || !ch.covers("newdir/deep/y.go") {
		t.Errorf("a file in a new directory: %v, %v", ch, err)
	}
	g.write(".gitignore", "*.tmp\nother/\n")
	if _, err := tr.changes(ctx, commit, false); err == nil {
		t.Error("after an ignore file changed the tracker did not start over (it did not ask git)")
	}
	tr.mu.Lock()
	tr.reset()
	tr.mu.Unlock()
}

// TestGitErrors checks that a failed git command's error names the command
// as called (its "-c" options too) and the first line of what git wrote to
// its standard error, however it failed.
func TestGitErrors(t *testing.T) {
	g := newGitRepo(t, map[string]string{"a.go": "package a\n"})
	ctx := context.Background()
	all := func(r io.Reader) error { _, err := io.Copy(io.Discard, r); return err }
	tests := []struct {
		name string
		dir  string
		read func(io.Reader) error
		args []string
		want string // the start of the message
		code int
	}{
		{"exit status", g.dir, all, []string{"log", "nosuch"},
			"git log nosuch: exit status 128: fatal: ambiguous argument 'nosuch'", 128},
		{"output refused", g.dir, func(io.Reader) error { return errors.New("refused") }, []string{"-c", "a.b=c", "ls-files"},
			"git -c a.b=c ls-files: refused", 0},
		{"too much output", g.dir, func(io.Reader) error { return errTooMuch }, []string{"-c", "a.b=c", "ls-files"},
			"git -c a.b=c ls-files: more than 67108864 bytes of output", 0},
		{"not started", filepath.Join(g.dir, "nosuch"), all, []string{"-c", "a.b=c", "status"},
			"git -c a.b=c status: chdir ", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := gitRun(ctx, tt.dir, tt.read, tt.args...)
			ge, ok := errors.AsType[*gitError](err)
			if !ok || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") || ge.code != tt.code {
				t.Errorf("err = %q (%T), want a *gitError of one line starting %q, code %d", err, err, tt.want, tt.code)
			}
		})
	}
}
