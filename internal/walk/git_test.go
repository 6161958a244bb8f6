package walk

import (
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"testing"

	"github.com/scoutkit/scout/internal/fsx"
)

// The git differential test: random trees with nested .gitignore files
// (some starting with a byte-order mark), .git/info/exclude, a global
// excludes file and sometimes a repository one (core.excludesFile in
// .git/config); the files the walker shows must be exactly those
// `git ls-files --cached --others --exclude-standard` lists, from the
// work-tree top, for a subdirectory given as the walk root, and for an FS
// whose root is a subdirectory (the ignore files above it read from the
// OS).

var gitSeeds = flag.Int("gitseeds", 60, "number of random trees TestDifferentialGit compares with git")

func TestDifferentialGit(t *testing.T) {
	differential(t, *gitSeeds, 15, []string{"git"}, func(seed uint64) { diffOne(t, seed) })
}

func diffOne(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	files := genTree(r)
	exclude := genRules(r, r.IntN(4))
	global := genRules(r, r.IntN(4))
	local := genRules(r, r.IntN(4))
	for _, p := range sortedKeys(files) {
		if path.Base(p) == ".gitignore" && r.IntN(3) == 0 {
			files[p] = "\uFEFF" + files[p] // git skips a byte-order mark
		}
	}
	if r.IntN(3) == 0 {
		exclude = "\uFEFF" + exclude
	}
	// The repository's own excludes file replaces the global one: a path
	// relative to the top (a file of the tree) or one under ~/ (which an FS
	// that is no OS directory cannot read).
	localFile := []string{"", "", "local.ignore", "~/localignore"}[r.IntN(4)]
	if localFile == "local.ignore" {
		files[localFile] = local
	}

	repo := newScratchRepo(t, seed, files)
	globalFile := filepath.Join(repo.home, "globalignore")
	writeFile(t, globalFile, global)
	writeFile(t, filepath.Join(repo.home, ".gitconfig"), "[core]\n\texcludesFile = "+globalFile+"\n")
	writeFile(t, filepath.Join(repo.home, "localignore"), local)
	writeFile(t, filepath.Join(repo.dir, ".git/info/exclude"), exclude)
	if localFile != "" {
		repo.run("git", "config", "core.excludesFile", localFile)
	}
	env := homeEnv(repo.home)
	if got := loadUserConfig(env).file; got != globalFile {
		t.Fatalf("seed %d: loadUserConfig found %q, want %q", seed, got, globalFile)
	}
	config, err := os.ReadFile(filepath.Join(repo.dir, ".git/config"))
	if err != nil {
		t.Fatal(err)
	}

	// The subdirectories in which git lists files: the walker, like
	// ripgrep, walks an explicit root even when an ignore rule covers it,
	// where git would list nothing.
	var subdirs []string
	for _, p := range nulList(repo.run("git", "ls-files", "-z", "--others", "--exclude-standard")) {
		if d := path.Dir(p); d != "." && !slices.Contains(subdirs, d) {
			subdirs = append(subdirs, d)
		}
	}
	roots := []string{"."}
	if len(subdirs) > 0 {
		roots = append(roots, subdirs[r.IntN(len(subdirs))])
	}
	// The same tree as a MapFS, read through fs.ReadDir instead of
	// directory descriptors.
	mapFiles := tree{".git/info/exclude": exclude, ".git/config": string(config)}
	for p, c := range files {
		mapFiles[p] = c
	}
	fileSystems := map[string]fs.FS{"OS": repo.fsys}
	if localFile != "~/localignore" {
		fileSystems["MapFS"] = mapFiles.mapFS()
	}
	rules := func() string { return describeRules(files, exclude, global+"local ("+localFile+"):\n"+local) }
	for _, root := range roots {
		args := []string{"ls-files", "-z", "--cached", "--others", "--exclude-standard"}
		if root != "." {
			args = append(args, "--", root)
		}
		want := nulList(repo.run("git", args...))
		for fsName, fsys := range fileSystems {
			for _, sorted := range []bool{false, true} {
				what := fmt.Sprintf("seed %d %s root %q sorted=%v", seed, fsName, root, sorted)
				checkWalk(t, what, "git", fsys, root, Options{Hidden: true, git: env, Sorted: sorted}, want, rules)
			}
		}
		if root == "." {
			continue
		}
		// The FS root is the subdirectory: what lies above it comes from
		// the OS, and git, run there, lists paths relative to it.
		sub, closeFn, err := fsx.OpenDir(filepath.Join(repo.dir, filepath.FromSlash(root)))
		if err != nil {
			t.Fatal(err)
		}
		want = nulList(repo.runIn(root, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"))
		checkWalk(t, fmt.Sprintf("seed %d FS rooted at %q", seed, root), "git", sub, ".", Options{Hidden: true, git: env}, want, rules)
		closeFn()
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestGitFileWorkTrees compares the walker with git in work trees whose
// ".git" is a file: a linked work tree (git worktree add), whose
// info/exclude and config are those of the main repository (its
// "commondir"), and a submodule-like work tree whose ".git" names, by a
// relative path, a git directory inside the superproject. Each is walked
// as the FS root, below it, and from a subdirectory opened as the FS root.
func TestGitFileWorkTrees(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	base := t.TempDir()
	home := filepath.Join(base, "home")
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1")
	run := func(dir string, args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = filepath.Join(base, dir), env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
		}
		return string(out)
	}
	writeFile(t, filepath.Join(home, "repo-ignore"), "*.cfg\n")
	writeFile(t, filepath.Join(home, ".gitconfig"), "[core]\n\texcludesFile = ~/global-ignore\n")
	writeFile(t, filepath.Join(home, "global-ignore"), "*.glob\n")
	if err := os.MkdirAll(filepath.Join(base, "main"), 0o755); err != nil {
		t.Fatal(err)
	}
	run("main", "init", "-q")
	run("main", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "start")
	run("main", "worktree", "add", "-q", "../wt")
	run("main", "config", "core.excludesFile", "~/repo-ignore")
	writeFile(t, filepath.Join(base, "main/.git/info/exclude"), "*.ex\n!keep.ex\n")
	// The submodule's git directory lives in the superproject's, named by
	// a relative path as git submodule writes it.
	if err := os.MkdirAll(filepath.Join(base, "main/.git/modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	run("main", "init", "-q", "--separate-git-dir", filepath.Join(base, "main/.git/modules/sm"), "sm")
	writeFile(t, filepath.Join(base, "main/sm/.git"), "gitdir: ../.git/modules/sm\n")
	writeFile(t, filepath.Join(base, "main/.git/modules/sm/info/exclude"), "*.sm\n")
	for _, dir := range []string{"wt", "main/sm"} {
		for _, p := range []string{"a.ex", "keep.ex", "b.cfg", "c.glob", "d.sm", "e.txt", "sub/f.ex", "sub/g.txt", "sub/h.cfg", "sub/i.sm"} {
			writeFile(t, filepath.Join(base, dir, p), "x")
		}
		writeFile(t, filepath.Join(base, dir, "sub/.gitignore"), "g.txt\n")
	}
	check := func(fsDir, root, gitDir string) {
		fsys, closeFn, err := fsx.OpenDir(filepath.Join(base, fsDir))
		if err != nil {
			t.Fatal(err)
		}
		defer closeFn()
		want := nulList(run(gitDir, "ls-files", "-z", "--cached", "--others", "--exclude-standard"))
		if root != "." {
			for i, p := range want {
				want[i] = root + "/" + p
			}
		}
		checkWalk(t, fmt.Sprintf("FS %s root %q", fsDir, root), "git", fsys, root, Options{Hidden: true, git: homeEnv(home)}, want,
			func() string { return "" })
	}
	check("wt", ".", "wt")
	check("wt", "sub", "wt/sub")
	check("wt/sub", ".", "wt/sub")
	check("main/sm", ".", "main/sm")
	check("main/sm/sub", ".", "main/sm/sub")
	check("main", "sm", "main/sm")
}
