package walk

import (
	"flag"
	"math/rand/v2"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var checkSeeds = flag.Int("checkseeds", 40, "number of random rule files TestDifferentialCheckIgnore compares with git check-ignore")

// TestDifferentialCheckIgnore compares the matching of single gitignore
// lines with git's: random patterns built from wildmatch's pieces
// (classes, POSIX classes, ranges, escapes, stars, "**", malformed
// brackets) against random paths, through `git check-ignore -v`, which
// names the line that decides each path: the last line matching it, or
// the one that excluded a directory above it.
func TestDifferentialCheckIgnore(t *testing.T) {
	differential(t, *checkSeeds, 10, []string{"git"}, func(seed uint64) { checkIgnoreOne(t, seed) })
}

var (
	patPieces = []string{"a", "b", "1", ".", "-", "*", "*", "**", "?", "/", "[ab]", "[!a]", "[^b]", "[a-c]", "[]a]", "[a-]",
		"[[:alpha:]]", "[[:digit:]]", "[[:upper:]]", "[![:alpha:]]", "[[:punct:][:digit:]]", `\*`, `\[`, `\a`, "[", "[[:nope:]]",
		"[[:]a]", "[a[:digit:]-]", "**/", "/**"}
	nameChars = []string{"a", "b", "c", "1", "9", ".", "-", "*", "[", "]", "A", "_"}
)

func checkIgnoreOne(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 13))
	var lines []string
	for range 12 {
		var b strings.Builder
		if r.IntN(4) == 0 {
			b.WriteByte('/')
		}
		for range 1 + r.IntN(5) {
			b.WriteString(patPieces[r.IntN(len(patPieces))])
		}
		p := b.String()
		if strings.HasSuffix(p, "/") || strings.HasSuffix(p, `\`) || strings.Trim(p, "/") == "" {
			p += "a"
		}
		lines = append(lines, p)
	}
	var paths []string
	for range 60 {
		var segs []string
		for range 1 + r.IntN(3) {
			var s strings.Builder
			for range 1 + r.IntN(4) {
				s.WriteString(nameChars[r.IntN(len(nameChars))])
			}
			if seg := s.String(); seg != "." && seg != ".." {
				segs = append(segs, seg)
			}
		}
		if len(segs) > 0 {
			paths = append(paths, strings.Join(segs, "/"))
		}
	}
	content := strings.Join(lines, "\n") + "\n"
	repo := newScratchRepo(t, seed, map[string]string{".keep": ""})
	writeFile(t, filepath.Join(repo.dir, ".gitignore"), content)
	cmd := exec.Command("git", "check-ignore", "--no-index", "-v", "-n", "-z", "--stdin")
	cmd.Dir, cmd.Env = repo.dir, repo.env
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\x00") + "\x00")
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil // nothing ignored
	}
	if err != nil {
		t.Fatalf("seed %d: git check-ignore: %v", seed, err)
	}
	fields := strings.Split(string(out), "\x00")
	rs, err := parseRules(content)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+3 < len(fields); i += 4 {
		p := fields[i+3]
		want := 0 // the deciding line, 1-based; 0 for none
		if fields[i+1] != "" {
			want, _ = strconv.Atoi(fields[i+1])
		}
		if got := decidingLine(rs, lines, p); got != want {
			t.Errorf("seed %d: path %q: walker's deciding line %d, git's %d\nrules:\n%s", seed, p, got, want, indent(content))
		}
	}
}

// decidingLine is the 1-based line of lines (the rule file) that decides
// p as git check-ignore reports it: the last line matching the first
// excluded directory above p, else the last matching p itself; 0 for none.
func decidingLine(rs *ruleSet, lines []string, p string) int {
	var lineOf []int // rule index -> line number
	for i, l := range lines {
		if _, ok := parseLine(l); ok {
			lineOf = append(lineOf, i+1)
		}
	}
	last := func(rel string, isDir bool) int {
		if rs == nil {
			return 0
		}
		for k := len(rs.rules) - 1; k >= 0; k-- {
			r := &rs.rules[k]
			if (!r.dirOnly || isDir) && r.matches(rel, path.Base(rel)) {
				return lineOf[k]
			}
		}
		return 0
	}
	segs := strings.Split(p, "/")
	for i := 1; i < len(segs); i++ {
		if n := last(strings.Join(segs[:i], "/"), true); n > 0 {
			return n
		}
	}
	return last(p, false)
}
