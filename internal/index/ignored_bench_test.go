package index

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/search"
)

// ignoredTree writes a repository of 10,000 tracked files in 2,000
// directories and 50,000 ignored files: "spread" puts 25 ignored object
// files beside the sources of each directory (each one a line of git's
// listing), "dirs" puts them in 1,000 packages under node_modules (one
// line).
func ignoredTree(b *testing.B, shape string) (dir, commit string) {
	b.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not installed")
	}
	g := &gitRepo{t: b, dir: b.TempDir()}
	write := g.write
	write(".gitignore", "*.o\nnode_modules/\n")
	for d := range 2000 {
		for i := range 5 {
			write(fmt.Sprintf("src/m%d/d%d/f%d.c", d/50, d, i), fmt.Sprintf("int f%d_%d; // needle%d\n", d, i, d))
		}
		if shape == "spread" {
			for i := range 25 {
				write(fmt.Sprintf("src/m%d/d%d/o%d.o", d/50, d, i), "obj needle\n")
			}
		}
	}
	if shape == "dirs" {
		for d := range 1000 {
			for i := range 50 {
				write(fmt.Sprintf("node_modules/pkg%d/lib/x%d.js", d, i), "module.exports = 'needle'\n")
			}
		}
	}
	g.run("init", "-q")
	return g.dir, g.commit("tree")
}

// BenchmarkIgnoredListing measures what the index path pays for the files
// git ignores, on trees of 50,000 of them (see ignoredTree), before and
// after it bounded that cost, side by side.
//
// git: the commands that list the changes. "before" compares the work
// tree with the commit (git diff) and lists the untracked and ignored
// files (git status, which compares each tracked file with the index
// again); "after" diffs the commits' trees alone, as git status's
// listing of the changes since HEAD is used for the rest. "untracked" is
// the listing without the ignored files, as it was before the index path
// read them.
//
// search: the search of an index answer's ten candidates, "before" with
// every ignored file a candidate, which the search checks against its
// rules one by one, "after" without them, as for a search whose rules
// bring no ignored file back; "scan" is the search without an index.
func BenchmarkIgnoredListing(b *testing.B) {
	ctx := context.Background()
	for _, shape := range []string{"spread", "dirs"} {
		dir, commit := ignoredTree(b, shape)
		r := &repo{top: dir}
		fsys, release, err := fsx.OpenDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		defer release()
		status := []string{"-c", "core.excludesFile=" + os.DevNull, "status", "--porcelain=v1", "-z", "--untracked-files=all",
			"--ignored=matching", "--no-renames", "--ignore-submodules=all"}
		for _, cmd := range []struct {
			name string
			args [][]string
		}{
			{"untracked", [][]string{{"diff", "--name-only", "-z", "--no-renames", commit, "--"},
				{"-c", "core.excludesFile=" + os.DevNull, "ls-files", "-z", "--others", "--exclude-standard"}}},
			{"before", [][]string{{"diff", "--name-only", "-z", "--no-renames", commit, "--"}, status}},
			{"after", [][]string{{"diff", "--name-only", "-z", "--no-renames", commit, "HEAD", "--"}, status}},
		} {
			b.Run(shape+"/git/"+cmd.name, func(b *testing.B) {
				for b.Loop() {
					for _, args := range cmd.args {
						if _, err := git(ctx, dir, args...); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
		b.Run(shape+"/changes", func(b *testing.B) {
			for b.Loop() {
				if _, err := r.changes(ctx, commit, false); err != nil {
					b.Fatal(err)
				}
			}
		})
		ch, err := r.changes(ctx, commit, false)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("%s: %d ignored files, %d ignored directories", shape, len(ch.Ignored), len(ch.IgnoredDirs))
		req := search.Request{Grep: grep.Options{Pattern: "needle1\\b", CountOnly: true}, MaxFiles: -1, Budget: -1, MaxFileSize: -1}
		answer := &search.Candidates{}
		for d := range 10 {
			answer.Files = append(answer.Files, fmt.Sprintf("src/m%d/d%d/f0.c", d/50, d))
		}
		after, ok := ch.ignoredInRoot(r, reincludes(&req, ch, r))
		if !ok || len(after.Files) > 0 {
			b.Fatalf("ignored candidates for a search that brings none back: %d", len(after.Files))
		}
		before, _ := ch.ignoredInRoot(r, true)
		before.Files = append(before.Files, answer.Files...)
		after.Files = append(after.Files, answer.Files...)
		for _, s := range []struct {
			name string
			cand *search.Candidates
		}{{"search/before", before}, {"search/after", after}, {"search/scan", nil}} {
			b.Run(shape+"/"+s.name, func(b *testing.B) {
				req := req
				req.Candidates = s.cand
				for b.Loop() {
					if _, err := search.Run(ctx, fsys, dir, req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
