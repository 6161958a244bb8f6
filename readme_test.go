package scout_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/scoutkit/scout/internal/testfs"
)

// TestReadmeCommands runs every fenced sh block of README.md as written,
// from the root of a fresh copy of the repository (the files git tracks,
// and new ones it does not ignore), with a home directory of its own. A
// block that needs a program that is not installed is skipped, saying
// which; so is the test command itself, which CI runs.
func TestReadmeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the README's commands build and run Scout")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the README's commands are for a POSIX shell")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := shBlocks(string(readme))
	if len(blocks) < 5 {
		t.Fatalf("README.md has %d sh blocks; the parser lost some", len(blocks))
	}
	repo := freshCopy(t)
	home := t.TempDir()
	env := readmeEnv(t, home)
	for _, b := range blocks {
		t.Run(b.name(), func(t *testing.T) {
			if strings.Contains(b.text, "go test") {
				t.Skip("the test command itself: CI runs it (.ci/run); here it would run this test again")
			}
			for _, need := range b.needs() {
				if _, err := exec.LookPath(need); err != nil {
					t.Skipf("needs %s, which is not installed", need)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bash, "-euo", "pipefail", "-c", b.text)
			cmd.Dir = repo
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			if err != nil && offline(out) {
				t.Skipf("needs the Go module proxy, which cannot be reached:\n%s", out)
			}
			if err != nil {
				t.Fatalf("README.md line %d:\n%s\n%v\n%s", b.line, b.text, err, out)
			}
		})
	}
}

// offline reports whether the go command failed to download a module
// because the network or the proxy cannot be reached.
func offline(out []byte) bool {
	for _, sign := range []string{"dial tcp", "no such host", "i/o timeout", "network is unreachable", "connection refused", "GOPROXY=off"} {
		if bytes.Contains(out, []byte(sign)) && bytes.Contains(out, []byte("go: ")) {
			return true
		}
	}
	return false
}

// shBlock is a fenced sh block of the README.
type shBlock struct {
	line int    // the line of its first command
	text string // its commands
}

func (b shBlock) name() string {
	first, _, _ := strings.Cut(b.text, "\n")
	return first
}

// needs lists the programs the block runs, besides go, the shell's
// builtins and the repository's own scripts: the first word of each
// command, continued lines joined, quotes respected.
func (b shBlock) needs() []string {
	text := strings.ReplaceAll(b.text, "\\\n", " ")
	text = strings.ReplaceAll(text, "|\n", "| ")
	var out []string
	for _, cmd := range splitCommands(text) {
		words := strings.Fields(cmd)
		for len(words) > 0 && strings.Contains(words[0], "=") { // VAR=value prefixes
			words = words[1:]
		}
		if len(words) == 0 {
			continue
		}
		switch w := words[0]; {
		case w == "go", w == "cd", w == "export", strings.Contains(w, "/"):
		default:
			out = append(out, w)
		}
	}
	return out
}

// splitCommands splits shell text at newlines, ;, & and | outside quotes.
func splitCommands(text string) []string {
	var cmds []string
	var cur strings.Builder
	var quote rune
	for _, r := range text {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '\n' || r == ';' || r == '&' || r == '|':
			cmds = append(cmds, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteRune(r)
	}
	return append(cmds, cur.String())
}

// shBlocks returns the README's ```sh blocks.
func shBlocks(readme string) []shBlock {
	var blocks []shBlock
	var cur *shBlock
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(readme))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```sh":
			cur = &shBlock{line: n + 1}
			lines = nil
		case cur != nil && strings.TrimSpace(line) == "```":
			cur.text = strings.Join(lines, "\n")
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			lines = append(lines, line)
		}
	}
	return blocks
}

// freshCopy copies the repository as a clone would have it: the files git
// tracks and the new files it does not ignore (so that a change not yet
// committed is tested too), without build outputs.
func freshCopy(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: cannot tell the repository's files from build outputs")
	}
	out, err := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("not a git checkout (git ls-files: %v)", err)
	}
	dst := t.TempDir()
	for _, name := range bytes.Split(bytes.TrimRight(out, "\x00"), []byte{0}) {
		src := string(name)
		data, err := os.ReadFile(src)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted in the work tree
		}
		if err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, filepath.FromSlash(src))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, st.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// readmeEnv is the environment the commands run in: this one, with HOME a
// directory of their own (the README installs into ~/bin) and the Go
// caches kept where they are, so that the commands build on what the tests
// built.
func readmeEnv(t *testing.T, home string) []string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	vals := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	env := []string{"HOME=" + home}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "GOFLAGS=") {
			env = append(env, kv)
		}
	}
	// The programs are built the way the test command's vet compiled the
	// packages, so that a cold run does not compile them once more.
	flags := strings.TrimSpace(vals[3] + " " + testfs.BuildMode())
	return append(env, "GOCACHE="+vals[0], "GOMODCACHE="+vals[1], "GOPATH="+vals[2], "GOFLAGS="+flags)
}
