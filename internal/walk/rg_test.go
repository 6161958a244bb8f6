package walk

import (
	"context"
	"flag"
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

var rgSeeds = flag.Int("rgseeds", 30, "number of random trees TestDifferentialRipgrep compares with rg")

// TestDifferentialRipgrep compares the walker with `rg --files --hidden`
// on random git trees that also hold .ignore files, which git does not
// know: .ignore must beat .gitignore and deeper files must win.
func TestDifferentialRipgrep(t *testing.T) {
	if _, err := exec.LookPath("rg"); err != nil {
		t.Skip("rg not installed")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	seeds := *rgSeeds
	if testing.Short() {
		seeds = 8
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for seed := range seeds {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			rgOne(t, uint64(seed))
		})
	}
	wg.Wait()
}

func rgOne(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 11))
	files := genTree(r)
	for p := range files {
		if d := path.Dir(p); r.IntN(4) == 0 {
			files[path.Join(d, ".ignore")] = genRules(r, 1+r.IntN(3))
		}
	}
	// Leave out two lines where ripgrep 13 departs from git (the walker
	// follows git): a "!" with nothing after it (spaces aside), which rg
	// reads as a whitelist of everything, and POSIX classes such as
	// [[:digit:]], which rg does not know.
	for p, c := range files {
		if b := path.Base(p); b == ".ignore" || b == ".gitignore" {
			var keep []string
			for _, l := range strings.Split(c, "\n") {
				bare := strings.HasPrefix(l, "!") && strings.TrimSpace(l[1:]) == ""
				if !bare && !strings.Contains(l, "[:") {
					keep = append(keep, l)
				}
			}
			files[p] = strings.Join(keep, "\n")
		}
	}
	base := t.TempDir()
	home, dir := filepath.Join(base, "home"), filepath.Join(base, "repo")
	fsys := tree(files).osFSAt(t, dir)
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1", "RIPGREP_CONFIG_PATH=")
	run := func(name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && name == "rg" {
			err = nil // no files
		}
		if err != nil {
			t.Fatalf("seed %d: %s %v: %v", seed, name, args, err)
		}
		return string(out)
	}
	run("git", "init", "-q", ".")
	list := func() []string {
		var out []string
		for _, p := range strings.Split(run("rg", "--files", "--hidden", "--no-config", "-g", "!.git", "--null"), "\x00") {
			if p = strings.TrimPrefix(p, "./"); p != "" {
				out = append(out, p)
			}
		}
		slices.Sort(out)
		return out
	}
	// Only the whole tree: given a subdirectory, rg 13 does not apply the
	// anchored patterns ("dir/*.txt") of the .gitignore files above it;
	// the git differential test covers that case.
	want := list()
	var mu sync.Mutex
	var got []string
	_, err := Walk(context.Background(), fsys, ".", Options{Hidden: true}, func(e Entry) error {
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
		t.Errorf("seed %d: walker and rg differ\n%s\nrules:\n%s", seed, listDiff(got, want), describeRules(files, "", ""))
	}
}
