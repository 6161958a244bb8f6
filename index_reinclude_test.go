package scout_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/index"
	"github.com/scoutkit/scout/zoekt"
)

// reincludeTree is a repository whose scan finds files that git ignores
// and the index therefore never holds: files brought back by "!" lines of
// .ignore and .rgignore files (at the top and nested), by ripgrep-mode
// globs, and hidden ones; and files a re-include does not bring back, as
// they lie in an ignored directory.
func reincludeTree(t *testing.T, dir string) {
	t.Helper()
	files := map[string]string{
		".gitignore":           "*.gen\n*.out\nbuild/\nout/\n.cache/\n*.hid\nlogs/\n",
		".ignore":              "!keep.gen\n!build/\nvend/\n",
		".rgignore":            "!rg.out\n!vend/\n",
		"vend/v.txt":           "needle excluded by .ignore, re-included by .rgignore\n",
		"src/main.go":          "package main // needle tracked\n",
		"src/keep.gen":         "needle re-included by .ignore\n",
		"src/drop.gen":         "needle stays ignored\n",
		"src/rg.out":           "needle re-included by .rgignore\n",
		"src/other.out":        "needle stays ignored too\n",
		"build/b.txt":          "needle in a re-included directory\n",
		"build/deep/c.gen":     "needle ignored in a re-included directory\n",
		"build/deep/keep.gen":  "needle re-included in a re-included directory\n",
		"out/keep.gen":         "needle under an ignored directory\n",
		"out/x.txt":            "needle under an ignored directory, globbed\n",
		"nested/.ignore":       "!*.hid\n",
		"nested/n.hid":         "needle re-included by a nested .ignore\n",
		"top.hid":              "needle not re-included above the nested .ignore\n",
		"nested/sub/.rgignore": "!*.gen\n",
		"nested/sub/s.gen":     "needle re-included by a nested .rgignore\n",
		".hidden/keep.gen":     "needle in a hidden directory\n",
		".dot.gen":             "needle hidden\n",
		".cache/keep.gen":      "needle under an ignored hidden directory\n",
		"logs/day/keep.gen":    "needle two levels under an ignored directory\n",
		"mixed/plain.txt":      "needle untracked\n",
		"mixed/keep.gen":       "needle re-included in an untracked directory\n",
		"mixed/gone.gen":       "needle ignored in an untracked directory\n",
	}
	for p, c := range files {
		writeFile(t, dir, p, []byte(c))
	}
	// Symlinks, which a scan does not follow (but as a path it names): to
	// a file, to a directory, and one whose target's name matches.
	for link, target := range map[string]string{"link.go": "src/main.go", "linkdir": "src", "needle-link": "src/needle.txt"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skip("no symlinks here: ", err)
		}
	}
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", "link.go", "linkdir", "needle-link")
	// A file whose work-tree content a filter makes from the commit's, as
	// Git LFS does: git sees no change, the index holds the commit's.
	writeFile(t, dir, ".gitattributes", []byte("*.sec filter=reveal\n"))
	writeFile(t, dir, "src/s.sec", []byte("hidden content\n"))
	gitIn(t, dir, "config", "filter.reveal.clean", "sed /needle/d")
	gitIn(t, dir, "config", "filter.reveal.smudge", "sed '$a needle revealed by a filter'")
	gitIn(t, dir, "add", ".gitattributes", "src/s.sec")
	// Text that is not UTF-8, and text with a NUL past 64 KiB.
	writeFile(t, dir, "src/latin1.txt", []byte("needle caf\xe9 and na\xefve\n"))
	writeFile(t, dir, "src/utf16.txt", []byte("\xff\xfen\x00e\x00e\x00d\x00l\x00e\x00 \x00u\x00t\x00f\x00\n\x00"))
	writeFile(t, dir, "src/late.txt", append([]byte(strings.Repeat("needle padding\n", 5000)), "nul\x00 needle\n"...))
	writeFile(t, dir, "src/big.txt", []byte(strings.Repeat("filler\n", 200000)+"needle big\n"))
	gitIn(t, dir, "add", "src/latin1.txt", "src/utf16.txt", "src/late.txt", "src/big.txt")
	gitIn(t, dir, "add", ".gitignore", ".ignore", ".rgignore", "src/main.go", "nested/.ignore", "nested/sub/.rgignore")
	gitIn(t, dir, "commit", "-q", "-m", "tree")
	require.NoError(t, os.Remove(filepath.Join(dir, "src/s.sec")))
	gitIn(t, dir, "checkout", "--", "src/s.sec")
	require.Contains(t, gitIn(t, dir, "show", "HEAD:src/s.sec"), "hidden")
	require.Empty(t, gitIn(t, dir, "status", "--porcelain", "src/s.sec"))
	b, err := os.ReadFile(filepath.Join(dir, "src/s.sec"))
	require.NoError(t, err)
	require.Contains(t, string(b), "needle revealed")
}

func reincludeCases() []searchCase {
	all := func(r scout.SearchRequest) scout.SearchRequest {
		r.MaxFiles, r.MaxMatches, r.MaxMatchesPerFile = -1, -1, -1
		return r
	}
	count := func(r scout.SearchRequest) scout.SearchRequest { r = all(r); r.Mode = scout.SearchCount; return r }
	return []searchCase{
		{"default", all(scout.SearchRequest{Pattern: "needle"}), ""},
		{"count", count(scout.SearchRequest{Pattern: "needle"}), ""},
		{"rgignore", all(scout.SearchRequest{Pattern: "needle", RgIgnore: true}), ""},
		{"hidden", all(scout.SearchRequest{Pattern: "needle", Hidden: true}), ""},
		{"hidden rgignore", all(scout.SearchRequest{Pattern: "needle", Hidden: true, RgIgnore: true}), ""},
		{"no ignore", all(scout.SearchRequest{Pattern: "needle", NoIgnore: true}), ""},
		{"glob", all(scout.SearchRequest{Pattern: "needle", Globs: []string{"*.gen"}}), ""},
		{"rg glob file", all(scout.SearchRequest{Pattern: "needle", Globs: []string{"*.out"}, RipgrepGlobs: true}), ""},
		{"rg glob dir", all(scout.SearchRequest{Pattern: "needle", Globs: []string{"out", "**/out/**"}, RipgrepGlobs: true}), ""},
		{"rg glob exclude", all(scout.SearchRequest{Pattern: "needle", Globs: []string{"!*.txt"}, RipgrepGlobs: true, RgIgnore: true}), ""},
		{"rg glob names a directory", all(scout.SearchRequest{Pattern: "needle", Globs: []string{"src", "nested"}, RipgrepGlobs: true}), ""},
		{"rg glob with a slash", all(scout.SearchRequest{Pattern: "needle", Globs: []string{"src/*.go", "build/**"}, RipgrepGlobs: true}), ""},
		{"rg glob excludes a directory", all(scout.SearchRequest{Pattern: "needle", Globs: []string{"!src"}, RipgrepGlobs: true}), ""},
		{"rg glob hidden", all(scout.SearchRequest{Pattern: "needle", Globs: []string{".cache", ".cache/**"}, RipgrepGlobs: true}), ""},
		{"path in ignored dir", all(scout.SearchRequest{Pattern: "needle", Paths: []string{"out"}}), ""},
		{"path deep in ignored dir", all(scout.SearchRequest{Pattern: "needle", Paths: []string{"logs/day"}}), ""},
		{"path through a symlink", all(scout.SearchRequest{Pattern: "needle", Paths: []string{"linkdir"}}), ""},
		{"path glob through a symlink", all(scout.SearchRequest{Pattern: "needle", Paths: []string{"linkdir/*.go"}}), ""},
		{"file through a symlink", all(scout.SearchRequest{Pattern: "needle", Paths: []string{"linkdir/main.go", "nested"}}), ""},
		{"symlink named", all(scout.SearchRequest{Pattern: "needle", Paths: []string{"link.go", "nested"}}), ""},
		{"type", all(scout.SearchRequest{Pattern: "needle", Types: []string{"txt"}}), ""},
		{"page", scout.SearchRequest{Pattern: "needle", MaxFiles: 2, Skip: 1}, ""},
		{"not utf-8", all(scout.SearchRequest{Pattern: "caf."}), ""},
		{"not utf-8 fold", all(scout.SearchRequest{Pattern: "NEEDLE CAF", IgnoreCase: true}), ""},
		{"utf-16", all(scout.SearchRequest{Pattern: "needle utf"}), ""},
		{"size cap", all(scout.SearchRequest{Pattern: "needle", MaxFileSize: 100000}), ""},
		{"fold", all(scout.SearchRequest{Pattern: "NEEDLE RE", IgnoreCase: true}), ""},
		{"multiline", all(scout.SearchRequest{Pattern: "needle\nneedle", Multiline: true}), "multiline"},
		{"types", all(scout.SearchRequest{Pattern: "needle", Types: []string{"go", "txt"}, RgIgnore: true}), ""},
	}
}

// TestZoektReinclude compares scans and index answers on a tree whose
// scan reads files git ignores: the index path must read them too.
func TestZoektReinclude(t *testing.T) {
	bins := zoektBins(t)
	noThresholds(t)
	work := t.TempDir()
	repo := filepath.Join(work, "re")
	reincludeTree(t, repo)
	idx := filepath.Join(work, "idx")
	zoektIndex(t, bins, repo, idx)
	url := zoektServe(t, bins, idx)
	c, err := zoekt.New([]string{url}, zoekt.RepoName(repo))
	if err != nil {
		t.Fatal(err)
	}
	waitCommit(t, c, gitIn(t, repo, "rev-parse", "HEAD"))
	cases := reincludeCases()
	// Twice: the first search of the tree asks git, the later ones watch.
	differential(t, repo, c, cases)
	differential(t, repo, c, cases)
	// Files appear where the watches do not reach, and in new directories.
	writeFile(t, repo, "build/later.gen", []byte("needle later, ignored\n"))
	writeFile(t, repo, "build/later.txt", []byte("needle later in a re-included directory\n"))
	writeFile(t, repo, "src/later.out", []byte("needle later, rg.out is not its name\n"))
	writeFile(t, repo, "src/rg.out", []byte("needle rewritten\n"))
	writeFile(t, repo, "fresh/keep.gen", []byte("needle in a new directory\n"))
	writeFile(t, repo, "fresh/rg.out", []byte("needle in a new directory, ignored but for .rgignore\n"))
	writeFile(t, repo, "fresh/deeper/keep.gen", []byte("needle deeper in a new directory\n"))
	writeFile(t, repo, "vend/later.txt", []byte("needle later where the watches do not reach\n"))
	writeFile(t, repo, "out/later.txt", []byte("needle later under an ignored directory\n"))
	writeFile(t, repo, "fresh/out/keep.gen", []byte("needle in a new ignored directory\n"))
	differential(t, repo, c, cases)
	if err := os.Remove(filepath.Join(repo, "src/keep.gen")); err != nil {
		t.Fatal(err)
	}
	differential(t, repo, c, cases)
	// A root in an ignored directory, which a scan searches whole.
	differential(t, filepath.Join(repo, "out"), c, []searchCase{
		{"ignored root", scout.SearchRequest{Pattern: "needle", MaxFiles: -1}, index.ChangedSet},
	})
	// A root below the top.
	differential(t, filepath.Join(repo, "nested"), c, []searchCase{
		{"nested root", scout.SearchRequest{Pattern: "needle", MaxFiles: -1, RgIgnore: true}, ""},
	})
}
