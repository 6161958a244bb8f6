package scout_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/zoekt"
)

// statesTree is a repository whose working tree, once statesEdit has run,
// differs from its commit in ways git diff and git status do not show, or
// show unusually: files marked assume-unchanged or skip-worktree and
// edited in place, or left out as a sparse checkout does; text that
// checkout converts (eol=crlf, core.autocrlf, working-tree-encoding); a
// repository committed inside without .gitmodules; a case-only rename;
// files replaced by a symlink or a directory and a directory by a file; a
// file added with git add -N; a nested work tree whose .git is a file; a
// symlink checked out as a file (core.symlinks false).
func statesTree(t *testing.T, dir string) {
	t.Helper()
	files := map[string]string{
		".gitattributes": "*.crlf text eol=crlf\n*.u16 working-tree-encoding=UTF-16LE-BOM\n*.l1 working-tree-encoding=ISO-8859-1\n",
		"plain.txt":      "needle plain\n",
		"au.txt":         "nothing here\n",
		"sw.txt":         "nothing here either\n",
		"swgone.txt":     "needle in a file a sparse checkout left out\n",
		"win.crlf":       "needle end\nsecond needle line\n",
		"auto.txt":       "needle end under autocrlf\n",
		// The work tree's bytes, as git add expects them.
		"wide.u16":           "\xff\xfen\x00e\x00e\x00d\x00l\x00e\x00 \x00w\x00i\x00d\x00e\x00\n\x00",
		"latin.l1":           "needle caf\xe9\n",
		"Case.txt":           "needle case\n",
		"tolink.txt":         "needle replaced by a link\n",
		"todir.txt":          "needle replaced by a directory\n",
		"dir2file/inner.txt": "needle inner\n",
		"itadir/x.txt":       "needle tracked beside\n",
	}
	for p, c := range files {
		writeFile(t, dir, p, []byte(c))
	}
	sub := filepath.Join(dir, "embedded")
	writeFile(t, sub, "e.txt", []byte("needle embedded\n"))
	gitIn(t, sub, "init", "-q")
	gitIn(t, sub, "add", "-A")
	gitIn(t, sub, "commit", "-q", "-m", "e")
	// A symlink, which checkout writes as a file holding the target's
	// name where core.symlinks is false (file systems without symlinks).
	if err := os.Symlink("needle-target", filepath.Join(dir, "lnk")); err != nil {
		t.Skip("no symlinks here: ", err)
	}
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", "-A") // embedded as a gitlink
	gitIn(t, dir, "commit", "-q", "-m", "tree")
	require.True(t, strings.HasPrefix(gitIn(t, dir, "ls-tree", "HEAD", "embedded"), "160000 commit "), "embedded is a gitlink")
	// The work tree as checkout writes it: CRLF lines, UTF-16 and Latin-1
	// where the commit holds LF and UTF-8.
	gitIn(t, dir, "config", "core.autocrlf", "true")
	gitIn(t, dir, "config", "core.symlinks", "false")
	for _, p := range []string{"win.crlf", "auto.txt", "wide.u16", "latin.l1", "lnk"} {
		require.NoError(t, os.Remove(filepath.Join(dir, p)))
	}
	gitOwn(t, dir, "checkout", "--", ".")
	for p, want := range map[string]string{"win.crlf": "needle end\r\n", "auto.txt": "autocrlf\r\n", "latin.l1": "caf\xe9"} {
		b, err := os.ReadFile(filepath.Join(dir, p))
		require.NoError(t, err)
		require.Contains(t, string(b), want, p)
	}
	require.Empty(t, gitOwn(t, dir, "status", "--porcelain"))
}

// gitOwn runs git with the repository's own settings (gitIn turns
// core.autocrlf off).
func gitOwn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

// statesEdit changes the work tree of statesTree.
func statesEdit(t *testing.T, work, dir string) {
	t.Helper()
	gitIn(t, dir, "update-index", "--assume-unchanged", "au.txt")
	writeFile(t, dir, "au.txt", []byte("needle edited under assume-unchanged\n"))
	gitIn(t, dir, "update-index", "--skip-worktree", "sw.txt", "swgone.txt")
	writeFile(t, dir, "sw.txt", []byte("needle edited under skip-worktree\n"))
	require.NoError(t, os.Remove(filepath.Join(dir, "swgone.txt")))
	require.Empty(t, gitOwn(t, dir, "status", "--porcelain", "au.txt", "sw.txt", "swgone.txt"))
	gitIn(t, dir, "mv", "Case.txt", "case.txt")
	require.NoError(t, os.Remove(filepath.Join(dir, "tolink.txt")))
	require.NoError(t, os.Symlink("plain.txt", filepath.Join(dir, "tolink.txt")))
	require.NoError(t, os.Remove(filepath.Join(dir, "todir.txt")))
	writeFile(t, dir, "todir.txt/in.txt", []byte("needle in what was a file\n"))
	require.NoError(t, os.RemoveAll(filepath.Join(dir, "dir2file")))
	writeFile(t, dir, "dir2file", []byte("needle was a directory\n"))
	writeFile(t, dir, "itadir/ita.txt", []byte("needle intent to add\n"))
	gitIn(t, dir, "add", "-N", "itadir/ita.txt")
	// A nested work tree whose .git is a file naming its git directory.
	gitIn(t, work, "init", "-q", "--separate-git-dir", filepath.Join(work, "sep.git"), filepath.Join(dir, "sep"))
	writeFile(t, dir, "sep/s.txt", []byte("needle in a work tree with a .git file\n"))
}

// TestZoektStates compares scans and index answers on a work tree that
// git diff and git status describe only in part (see statesTree).
func TestZoektStates(t *testing.T) {
	bins := zoektBins(t)
	noThresholds(t)
	work := t.TempDir()
	repo := filepath.Join(work, "st")
	statesTree(t, repo)
	idx := filepath.Join(work, "idx")
	zoektIndex(t, bins, repo, idx)
	url := zoektServe(t, bins, idx)
	c, err := zoekt.New([]string{url}, zoekt.RepoName(repo))
	require.NoError(t, err)
	head := gitIn(t, repo, "rev-parse", "HEAD")
	waitCommit(t, c, head)
	statesEdit(t, work, repo)
	all := func(r scout.SearchRequest) scout.SearchRequest {
		r.MaxFiles, r.MaxMatches, r.MaxMatchesPerFile = -1, -1, -1
		return r
	}
	cases := []searchCase{
		{"literal", all(scout.SearchRequest{Pattern: "needle"}), ""},
		{"count", all(scout.SearchRequest{Pattern: "needle", Mode: scout.SearchCount}), ""},
		{"context", all(scout.SearchRequest{Pattern: "needle e", Before: 1, After: 1}), ""},
		{"carriage return", all(scout.SearchRequest{Pattern: `needle end\r`}), ""},
		{"space at the end", all(scout.SearchRequest{Pattern: `needle end\s`}), ""},
		{"dot at the end", all(scout.SearchRequest{Pattern: `end.`}), ""},
		{"dollar", all(scout.SearchRequest{Pattern: `needle end$`}), ""},
		{"dollar autocrlf", all(scout.SearchRequest{Pattern: `autocrlf$`}), ""},
		{"utf-16", all(scout.SearchRequest{Pattern: `needle wide`}), ""},
		{"latin-1", all(scout.SearchRequest{Pattern: `needle caf.`}), ""},
		{"latin-1 not utf-8", all(scout.SearchRequest{Pattern: `needle caf[^é]`}), ""},
		{"under a gitlink", all(scout.SearchRequest{Pattern: "needle", Paths: []string{"embedded"}}), ""},
	}
	// Twice: the first search of the tree asks git, the later ones watch.
	differential(t, repo, c, cases)
	differential(t, repo, c, cases)
	// An edit made while the tree is watched.
	writeFile(t, repo, "au.txt", []byte("needle edited again\n"))
	differential(t, repo, c, cases)

	// A linked work tree (its .git is a file) at the indexed commit.
	linked := filepath.Join(work, "linked")
	gitIn(t, repo, "worktree", "add", "-q", "--detach", linked, head)
	gitIn(t, linked, "update-index", "--assume-unchanged", "plain.txt")
	writeFile(t, linked, "plain.txt", []byte("needle edited in a linked work tree\n"))
	writeFile(t, linked, "extra.txt", []byte("needle untracked in a linked work tree\n"))
	differential(t, linked, c, cases[:3])
}
