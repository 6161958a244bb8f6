package walk

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Scaffolding of the differential tests (git_test.go, rg_test.go): random
// trees of files and ignore rules, a scratch repository with its own HOME,
// and the comparison of what the walker shows with a reference listing.

var (
	genDirs  = []string{"a", "b", "foo", "build", "tmp", "cache", "doc", "sub", "x.o", "node_modules", "z1"}
	genFiles = []string{"a", "b", "foo", "x.log", "y.log", "keep.log", "a.txt", "b.txt", "1.txt", "q.txt", "z9", "z",
		"build", "tmp", "doc.html", "n.o", "#hash", "!bang", "data.dat", "trail.txt", "sp ", "README", "m.js", "c.bak", "[ab"}
)

// genPattern returns one random gitignore line.
func genPattern(r *rand.Rand) string {
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	var p string
	switch r.IntN(21) {
	case 0, 1:
		p = pick(genFiles)
	case 2, 3:
		p = pick([]string{"*.log", "*.txt", "*.o", "*.html", "*.bak", "*.dat"})
	case 4:
		p = "/" + pick(genFiles)
	case 5:
		p = pick(genDirs) + "/" + pick(genFiles)
	case 6:
		p = pick(genDirs) + "/*.txt"
	case 7:
		p = pick(genDirs) + "/"
	case 8:
		p = "**/" + pick(genFiles)
	case 9:
		p = pick(genDirs) + "/**/" + pick(genFiles)
	case 10:
		p = pick(genDirs) + "/**"
	case 11:
		p = pick([]string{"[!0-9].txt", "[a-c].txt", "z[0-9]", "[[:digit:]].txt", "[!a]", "?.txt", "[ab]", "[ab",
			"[[:alpha:]]*", "[[:nope:]]", "[[:alpha:]-z].txt", "[[:upper:][:digit:]]*", "[]ab]", "[[:]ab]"})
	case 12:
		p = pick([]string{`\#hash`, `\!bang`, `sp\ `, "trail.txt   ", `\*`})
	case 13:
		p = pick([]string{"*og", "*", "f*", "*o*", "a*/", "**/" + pick(genDirs) + "/"})
	case 14:
		p = "/" + pick(genDirs) + "/"
	case 15:
		p = "**/" + pick(genDirs) + "/*"
	case 16:
		p = pick([]string{"# a comment", "", "   "})
	case 17:
		d1, d2 := pick(genDirs), pick(genDirs)
		p = pick([]string{d1 + "/**/" + d2 + "/", "**/" + d1 + "/**", d1 + "/**/", d1 + "/" + d2 + "/*.txt",
			"a**", "**a", "*/" + pick(genFiles), d1 + "/*/" + pick(genFiles), "**/*.log", "/**/" + d1})
	default:
		p = pick(genDirs)
	}
	if r.IntN(4) == 0 && p != "" && p[0] != '#' {
		p = "!" + p
	}
	return p
}

func genRules(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(genPattern(r))
		b.WriteByte('\n')
	}
	return b.String()
}

// genTree returns a random tree: FS path -> contents.
func genTree(r *rand.Rand) map[string]string {
	files := map[string]string{}
	var fill func(dir string, depth int)
	fill = func(dir string, depth int) {
		for range 1 + r.IntN(5) {
			files[path.Join(dir, genFiles[r.IntN(len(genFiles))])] = "x"
		}
		if r.IntN(3) == 0 {
			files[path.Join(dir, ".gitignore")] = genRules(r, 1+r.IntN(5))
		}
		if depth < 3 {
			for range r.IntN(3) {
				sub := path.Join(dir, genDirs[r.IntN(len(genDirs))])
				if _, isFile := files[sub]; !isFile {
					fill(sub, depth+1)
				}
			}
		}
	}
	fill(".", 0)
	// A directory and a file may have been given the same name: keep the directory.
	for p := range files {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			delete(files, d)
		}
	}
	return files
}

// differential runs one for seeds random trees (short of them under
// -short), two at a time, after checking that the tools it runs are
// installed.
func differential(t *testing.T, seeds, short int, tools []string, one func(seed uint64)) {
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " not installed")
		}
	}
	if testing.Short() {
		seeds = short
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for seed := range seeds {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			one(uint64(seed))
		})
	}
	wg.Wait()
}

// scratchRepo is a git work tree in a temporary directory, with a HOME of
// its own so that no user or system configuration applies.
type scratchRepo struct {
	t         *testing.T
	seed      uint64
	dir, home string
	env       []string
	fsys      fs.FS // dir, opened as the walker's OS file system
}

// newScratchRepo writes files into a new directory and runs git init in it.
func newScratchRepo(t *testing.T, seed uint64, files map[string]string) *scratchRepo {
	base := t.TempDir()
	r := &scratchRepo{t: t, seed: seed, home: filepath.Join(base, "home"), dir: filepath.Join(base, "repo")}
	r.fsys = tree(files).osFSAt(t, r.dir)
	if err := os.MkdirAll(r.home, 0o755); err != nil {
		t.Fatal(err)
	}
	r.env = append(os.Environ(), "HOME="+r.home, "XDG_CONFIG_HOME="+filepath.Join(r.home, ".config"), "GIT_CONFIG_NOSYSTEM=1", "RIPGREP_CONFIG_PATH=")
	r.run("git", "init", "-q", ".")
	return r
}

// run runs a command in the work tree and returns its output; rg's exit
// status 1 (nothing listed) is not a failure.
func (r *scratchRepo) run(name string, args ...string) string {
	return r.runIn(".", name, args...)
}

// runIn runs a command in the directory dir of the work tree.
func (r *scratchRepo) runIn(dir, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = filepath.Join(r.dir, filepath.FromSlash(dir)), r.env
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && name == "rg" {
		err = nil
	}
	if err != nil {
		r.t.Fatalf("seed %d: %s %v: %v", r.seed, name, args, err)
	}
	return string(out)
}

// nulList splits a NUL-separated listing, without "./" prefixes and empty
// names, sorted.
func nulList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "\x00") {
		if p = strings.TrimPrefix(p, "./"); p != "" {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// checkWalk compares the files (not directories) the walker reports under
// root with want, the reference listing of the tool named ref; what names
// the case in the failure, with the rules that made it.
func checkWalk(t *testing.T, what, ref string, fsys fs.FS, root string, opts Options, want []string, rules func() string) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	_, err := Walk(context.Background(), fsys, root, opts, func(e Entry) error {
		if !e.Type.IsDir() {
			mu.Lock()
			got = append(got, e.Path)
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("%s: walker and %s differ\n%s\nrules:\n%s", what, ref, listDiff(got, want), rules())
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func listDiff(got, want []string) string {
	var b strings.Builder
	for _, g := range got {
		if !slices.Contains(want, g) {
			fmt.Fprintf(&b, "  shown, the reference hides: %q\n", g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			fmt.Fprintf(&b, "  hidden, the reference shows: %q\n", w)
		}
	}
	return b.String()
}

func describeRules(files map[string]string, exclude, global string) string {
	var b strings.Builder
	var names []string
	for p := range files {
		if b := path.Base(p); b == ".gitignore" || b == ".ignore" || b == ".rgignore" {
			names = append(names, p)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(&b, "%s:\n%s", n, indent(files[n]))
	}
	fmt.Fprintf(&b, "info/exclude:\n%sglobal:\n%s", indent(exclude), indent(global))
	return b.String()
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		fmt.Fprintf(&b, "    %q\n", l)
	}
	return b.String()
}
