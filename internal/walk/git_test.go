package walk

import (
	"context"
	"flag"
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

// The differential test: random trees with nested .gitignore files,
// .git/info/exclude and a global excludes file; the files the walker shows
// must be exactly those `git ls-files --cached --others --exclude-standard`
// lists.

var (
	genDirs  = []string{"a", "b", "foo", "build", "tmp", "cache", "doc", "sub", "x.o", "node_modules", "z1"}
	genFiles = []string{"a", "b", "foo", "x.log", "y.log", "keep.log", "a.txt", "b.txt", "1.txt", "q.txt", "z9", "z",
		"build", "tmp", "doc.html", "n.o", "#hash", "!bang", "data.dat", "trail.txt", "sp ", "README", "m.js", "c.bak"}
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
		p = pick([]string{"[!0-9].txt", "[a-c].txt", "z[0-9]", "[[:digit:]].txt", "[!a]", "?.txt", "[ab]"})
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

var gitSeeds = flag.Int("gitseeds", 60, "number of random trees TestDifferentialGit compares with git")

func TestDifferentialGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	seeds := *gitSeeds
	if testing.Short() {
		seeds = 15
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for seed := range seeds {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			diffOne(t, uint64(seed))
		})
	}
	wg.Wait()
}

func diffOne(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	files := genTree(r)
	exclude := genRules(r, r.IntN(4))
	global := genRules(r, r.IntN(4))

	base := t.TempDir()
	home, dir := filepath.Join(base, "home"), filepath.Join(base, "repo")
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	globalFile := filepath.Join(home, "globalignore")
	writeFile(t, globalFile, global)
	writeFile(t, filepath.Join(home, ".gitconfig"), "[core]\n\texcludesFile = "+globalFile+"\n")
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1")
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("seed %d: git %v: %v", seed, args, err)
		}
		return string(out)
	}
	git("init", "-q", ".")
	writeFile(t, filepath.Join(dir, ".git/info/exclude"), exclude)

	// The global excludes come through LoadGlobalExcludes' own lookup.
	getenv := func(k string) string {
		return map[string]string{"HOME": home, "GIT_CONFIG_NOSYSTEM": "1"}[k]
	}
	globalText := loadGlobalExcludes(getenv, os.ReadFile)
	if globalText != global {
		t.Fatalf("seed %d: loadGlobalExcludes = %q, want %q", seed, globalText, global)
	}

	fsys := tree(files).osFSAt(t, dir)
	// Walk the root, then a subdirectory in which git lists files: the
	// walker, like ripgrep, walks an explicit root even when an ignore
	// rule covers it, where git would list nothing.
	roots := []string{"."}
	for _, p := range strings.Split(git("ls-files", "-z", "--others", "--exclude-standard"), "\x00") {
		if d := path.Dir(p); p != "" && d != "." {
			roots = append(roots, d)
			break
		}
	}
	// The same tree as a MapFS, read through fs.ReadDir instead of
	// directory descriptors.
	mapFiles := tree{".git/info/exclude": exclude}
	for p, c := range files {
		mapFiles[p] = c
	}
	fileSystems := map[string]fs.FS{"OS": fsys, "MapFS": mapFiles.mapFS()}
	for _, root := range roots {
		args := []string{"ls-files", "-z", "--cached", "--others", "--exclude-standard"}
		if root != "." {
			args = append(args, "--", root)
		}
		var want []string
		for _, p := range strings.Split(git(args...), "\x00") {
			if p != "" {
				want = append(want, p)
			}
		}
		slices.Sort(want)
		for fsName, fsys := range fileSystems {
			for _, sorted := range []bool{false, true} {
				diffWalk(t, seed, fsName, fsys, root, Options{Hidden: true, GlobalExcludes: globalText, Sorted: sorted}, want,
					func() string { return describeRules(files, exclude, global) })
			}
		}
	}
}

// diffWalk compares the files the walker reports with want.
func diffWalk(t *testing.T, seed uint64, fsName string, fsys fs.FS, root string, opts Options, want []string, rules func() string) {
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
		t.Fatalf("seed %d: %v", seed, err)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("seed %d %s root %q sorted=%v: walker and git differ\n%s\nrules:\n%s", seed, fsName, root, opts.Sorted, listDiff(got, want), rules())
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
		if b := path.Base(p); b == ".gitignore" || b == ".ignore" {
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
