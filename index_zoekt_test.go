package scout_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/index"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/scoutkit/scout/zoekt"
)

// The tests with the real engine need zoekt's binaries: the tarball named
// by SCOUT_ZOEKT_TARBALL, or ../shared/zoekt/zoekt-bin.tar.xz beside the
// module. They skip, saying so, when it is absent or cannot run here. The
// Go source tree test also needs SCOUT_ZOEKT_GOROOT=1 and no -short: it
// indexes 130 MB (about 30 s on 2 cores).

var (
	zoektOnce sync.Once
	zoektDir  string
	zoektErr  error
)

// TestMain removes the unpacked binaries after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if zoektDir != "" {
		os.RemoveAll(zoektDir)
	}
	os.Exit(code)
}

// zoektBins unpacks the binaries once per test process and returns their
// directory.
func zoektBins(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("zoekt binaries are for linux/amd64")
	}
	zoektOnce.Do(func() {
		tarball := os.Getenv("SCOUT_ZOEKT_TARBALL")
		if tarball == "" {
			tarball = filepath.Join("..", "shared", "zoekt", "zoekt-bin.tar.xz")
		}
		if _, err := os.Stat(tarball); err != nil {
			zoektErr = fmt.Errorf("no zoekt tarball (%v): set SCOUT_ZOEKT_TARBALL to zoekt-bin.tar.xz", err)
			return
		}
		dir, err := os.MkdirTemp("", "scout-zoekt-bin-")
		if err != nil {
			zoektErr = err
			return
		}
		zoektDir = dir // removed by TestMain
		if out, err := exec.Command("tar", "-C", dir, "-xJf", tarball).CombinedOutput(); err != nil {
			zoektErr = fmt.Errorf("unpacking %s: %v: %s", tarball, err, out)
			return
		}
		if out, err := exec.Command(filepath.Join(dir, "zoekt-git-index"), "-help").CombinedOutput(); err != nil && !strings.Contains(string(out), "Usage") && !strings.Contains(string(out), "-index") {
			zoektErr = fmt.Errorf("zoekt-git-index does not run here: %v: %.200s", err, out)
		}
	})
	if zoektErr != nil {
		t.Skip("skipping the tests with the real zoekt: ", zoektErr)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	return zoektDir
}

// zoektIndex indexes the work tree repo into idx with the flags that keep
// results exact, plus extra.
func zoektIndex(t *testing.T, bins, repo, idx string, extra ...string) {
	t.Helper()
	args := append([]string{"-index", idx, "-file_limit", "10485760", "-max_trigram_count", "100000000", "-submodules=false", "-disable_ctags"}, extra...)
	cmd := exec.Command(filepath.Join(bins, "zoekt-git-index"), append(args, repo)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zoekt-git-index: %v\n%s", err, out)
	}
}

// zoektServe serves idx on a loopback port until the test ends and
// returns its URL once it answers. zoekt-webserver does not say which port
// it got for ":0", so a free port is picked and handed to it; another
// process may take it in between, and then the server exits saying so,
// and another port is tried.
func zoektServe(t *testing.T, bins, idx string) string {
	t.Helper()
	var log strings.Builder
	for range 10 {
		addr := freeAddr(t)
		cmd := exec.Command(filepath.Join(bins, "zoekt-webserver"), "-index", idx, "-rpc", "-listen", addr)
		log.Reset()
		cmd.Stdout, cmd.Stderr = &log, &log
		require.NoError(t, cmd.Start())
		exited := make(chan struct{})
		go func() {
			cmd.Wait()
			close(exited)
		}()
		t.Cleanup(func() {
			cmd.Process.Kill()
			<-exited
		})
		if url, ok := zoektAnswers(t, addr, exited); ok {
			return url
		}
		if !strings.Contains(log.String(), "address already in use") {
			break
		}
	}
	t.Fatalf("zoekt-webserver did not serve: %s", log.String())
	return ""
}

// freeAddr returns a loopback address with a port free a moment ago.
var freeAddr = func(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

// TestZoektServeTakenPort: a port taken between its pick and the server's
// start is left for another.
func TestZoektServeTakenPort(t *testing.T) {
	bins := zoektBins(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	pick := freeAddr
	t.Cleanup(func() { freeAddr = pick })
	first := true
	freeAddr = func(t *testing.T) string {
		if first {
			first = false
			return taken.Addr().String()
		}
		return pick(t)
	}
	url := zoektServe(t, bins, t.TempDir())
	assert.NotEqual(t, "http://"+taken.Addr().String(), url)
}

// zoektAnswers waits until the webserver started on addr answers, and
// returns its URL; false when it exits first.
func zoektAnswers(t *testing.T, addr string, exited <-chan struct{}) (string, bool) {
	t.Helper()
	// A request ends when the server exits: whoever else holds the port
	// may never answer.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go func() {
		select {
		case <-exited:
			cancel()
		case <-ctx.Done():
		}
	}()
	url := "http://" + addr
	for ; ctx.Err() == nil; time.Sleep(50 * time.Millisecond) {
		req, err := http.NewRequestWithContext(ctx, "POST", url+"/api/list", strings.NewReader(`{"Q":""}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return url, true
			}
		}
	}
	select {
	case <-exited:
		return "", false
	default:
		t.Fatalf("zoekt-webserver did not answer on %s within 30 s", addr)
		return "", false
	}
}

// noThresholds lets the index answer on small trees: no size threshold,
// no cost for asking git, a scan estimated at a minute (so the probe's cap
// and deadline are generous), nothing learned.
func noThresholds(t *testing.T) {
	fixedCosts(t, time.Minute)
	minBytes := index.MinBytes
	index.MinBytes = 0
	t.Cleanup(func() { index.Settle(); index.MinBytes = minBytes })
}

// fixedCosts makes the planner's estimates fixed: a scan takes at least
// minScan, and nothing is learned from the searches.
func fixedCosts(t *testing.T, minScan time.Duration) {
	prior := index.Prior
	index.Settle()
	index.Prior.MinScan, index.Prior.Learn = minScan, false
	t.Cleanup(func() { index.Settle(); index.Prior = prior })
}

// waitCommit waits until the webservers hold commit (a re-index is
// picked up within about a second).
func waitCommit(t *testing.T, c *zoekt.Client, commit string) {
	t.Helper()
	for start := time.Now(); time.Since(start) < 30*time.Second; time.Sleep(100 * time.Millisecond) {
		if st, err := c.Status(context.Background()); err == nil && st.Commit == commit {
			return
		}
	}
	t.Fatalf("the webservers did not pick up commit %s", commit)
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return gitOwn(t, dir, append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false"}, args...)...)
}

func writeFile(t *testing.T, root, p string, content []byte) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(p))
	require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
	require.NoError(t, os.WriteFile(full, content, 0o644))
}

// testTree is a repository with what makes an index differ from a scan:
// CRLF and byte-order-mark lines, a UTF-16 text, binary files (a NUL
// early, a NUL after 64 KiB), a file over the index's size limit, a dense
// file over its trigram limit, a tiny file, a tracked file an ignore rule
// covers, hidden files, long lines and Unicode.
func testTree(t *testing.T, dir string) {
	t.Helper()
	files := map[string]string{
		".gitignore":             "*.log\nbuild/\n",
		"README.md":              "# Demo\n\nMaxHeaderBytes is documented here.\nSee handler.go and σ-notes.\n",
		"go.mod":                 "module demo\n\ngo 1.22\n",
		"cmd/main.go":            "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"Hello World\")\n\tErrorf(\"boom\")\n}\n",
		"server/handler.go":      "package server\n\n// MaxHeaderBytes bounds headers.\nconst MaxHeaderBytes = 1 << 20\n\nfunc (s *Server) Close() error {\n\treturn Errorf(\"closing %d\", MaxHeaderBytes)\n}\n\nfunc Errorf(f string, a ...any) error { return nil }\n",
		"server/handler_test.go": "package server\n\nimport \"testing\"\n\nfunc TestClose(t *testing.T) {\n\tt.Errorf(\"failed: %v\", MaxHeaderBytes)\n}\n",
		"server/conn.go":         "package server\n\ntype Conn struct{}\n\nfunc (c *Conn) Close() error { return nil }\n\n// errorf is lower case.\nfunc errorf() {}\n",
		"docs/guide.md":          "Guide\n=====\n\nThe ERRORF macro and the errorf function.\nLong ſ and final ς and ΣΙΓΜΑ.\nstraße STRASSE\n",
		"docs/notes.txt":         "alpha beta\ngamma delta\n\tindented line\nfoo(bar) and foo (baz)\nquote \"here\" and 'there'\n",
		"scripts/run.sh":         "#!/bin/sh\necho \"Hello World\"\nexit 0\n",
		"web/app.ts":             "export function errorf(msg: string) { console.log(msg) }\nconst MaxHeaderBytes = 10;\n",
		"web/app.test.ts":        "import { errorf } from './app'\nerrorf('x')\n",
		".github/workflow.yml":   "name: ci\nrun: go test MaxHeaderBytes\n",
		"crlf.txt":               "windows line end\r\nMaxHeaderBytes at end\r\nlast\r\n",
		"bom.go":                 "\ufeffpackage bom\nfunc Errorf() {}\n",
		"tiny.txt":               "ab",
		"empty.txt":              "",
		"long.txt":               strings.Repeat("xy", 3000) + " MaxHeaderBytes " + strings.Repeat("z", 2000) + "\nshort line Errorf\n",
		"unicode/日本語.txt":        "日本語のテキスト MaxHeaderBytes\n中文 errorf\n",
		"nested/deep/er/file.go": "package er\n\nvar x = \"func (t *T) Close()\"\n",
		"vendor/lib/vend.go":     "package lib\n\nfunc Errorf() {} // vendored\n",
		"data/trace.log":         "Errorf in a log\n",
		"Makefile":               "all:\n\tgo build ./... # Errorf\n",
	}
	for p, c := range files {
		writeFile(t, dir, p, []byte(c))
	}
	// UTF-16 LE with a byte-order mark: zoekt sees NUL bytes.
	utf16 := []byte{0xff, 0xfe}
	for _, r := range "utf16 text MaxHeaderBytes\nErrorf in utf16\n" {
		utf16 = append(utf16, byte(r), 0)
	}
	writeFile(t, dir, "utf16.txt", utf16)
	writeFile(t, dir, "early.bin", []byte("MaxHeaderBytes\x00binary"))
	late := []byte(strings.Repeat("Errorf padding line\n", 4000)) // 80 KB
	late = append(late, []byte("MaxHeaderBytes\x00after 64 KiB\n")...)
	writeFile(t, dir, "late_nul.txt", late)
	writeFile(t, dir, "big.txt", []byte(strings.Repeat("filler text line\n", 7000)+"MaxHeaderBytes in a big file\n"))
	var dense strings.Builder
	rng := rand.New(rand.NewPCG(1, 2))
	for range 25000 {
		dense.WriteRune(rune(0x4e00 + rng.IntN(20000)))
	}
	dense.WriteString("\nErrorf in a dense file\n")
	writeFile(t, dir, "dense.txt", []byte(dense.String()))
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "add", "-f", "data/trace.log") // tracked, though ignored
	gitIn(t, dir, "commit", "-q", "-m", "tree")
}

// searchCase is one request of the differential test.
type searchCase struct {
	name string
	req  scout.SearchRequest
	// fallback is the reason the planner must give, "" when the index must
	// answer.
	fallback string
}

func searchCases() []searchCase {
	all := func(r scout.SearchRequest) scout.SearchRequest {
		r.MaxFiles, r.MaxMatches, r.MaxMatchesPerFile = -1, -1, -1
		return r
	}
	count := func(r scout.SearchRequest) scout.SearchRequest { r = all(r); r.Mode = scout.SearchCount; return r }
	cases := []searchCase{
		{"literal", all(scout.SearchRequest{Pattern: "MaxHeaderBytes"}), ""},
		{"literal count", count(scout.SearchRequest{Pattern: "Errorf"}), ""},
		{"literal files", scout.SearchRequest{Pattern: "Errorf", Mode: scout.SearchFiles, MaxFiles: -1}, ""},
		{"no match", all(scout.SearchRequest{Pattern: "zqxjkvbwnomatch"}), ""},
		{"ignore case", all(scout.SearchRequest{Pattern: "errorf", IgnoreCase: true}), ""},
		{"ignore case count", count(scout.SearchRequest{Pattern: "ERRORF", IgnoreCase: true}), ""},
		{"ignore case long s", all(scout.SearchRequest{Pattern: "STRASSE", IgnoreCase: true}), ""},
		{"ignore case sigma", all(scout.SearchRequest{Pattern: "σ-notes", IgnoreCase: true}), ""},
		{"ignore case final sigma", all(scout.SearchRequest{Pattern: "final ς", IgnoreCase: true}), ""},
		// Σ, σ and ς fold together, so do Ι, ι and ι: too many spellings for
		// the literal analysis.
		{"ignore case greek", all(scout.SearchRequest{Pattern: "ςιγμα", IgnoreCase: true}), index.NoLiteral},
		{"inline fold", all(scout.SearchRequest{Pattern: "(?i)maxheaderbytes"}), ""},
		{"alternation", all(scout.SearchRequest{Pattern: "MaxHeaderBytes|Println"}), ""},
		{"alternation fold", all(scout.SearchRequest{Pattern: "hello world|guide", IgnoreCase: true}), ""},
		{"class", all(scout.SearchRequest{Pattern: `[Ee]rrorf\(`}), ""},
		{"method", all(scout.SearchRequest{Pattern: `func \(\w+ \*\w+\) Close\(\)`}), ""},
		{"negated class", all(scout.SearchRequest{Pattern: `Errorf\([^)]*$`}), ""},
		{"space class", all(scout.SearchRequest{Pattern: `foo\s+\(baz`}), ""},
		{"anchor start", all(scout.SearchRequest{Pattern: `^package server`}), ""},
		{"anchor bom", all(scout.SearchRequest{Pattern: `^package bom$`}), ""},
		{"anchor end crlf", all(scout.SearchRequest{Pattern: `at end$`}), ""},
		{"anchor both", all(scout.SearchRequest{Pattern: `^const MaxHeaderBytes = 1 << 20$`}), ""},
		{"word boundary", all(scout.SearchRequest{Pattern: `\bErrorf\b`}), ""},
		{"dot", all(scout.SearchRequest{Pattern: `Max.eaderBytes`}), ""},
		{"dot star", all(scout.SearchRequest{Pattern: `Hello.*World`}), ""},
		{"unicode", all(scout.SearchRequest{Pattern: "日本語"}), ""},
		{"unicode class", all(scout.SearchRequest{Pattern: `\p{Han}+ errorf`}), ""},
		{"quote", all(scout.SearchRequest{Pattern: `"here" and`}), ""},
		{"parens", all(scout.SearchRequest{Pattern: `foo\(bar\)`}), ""},
		{"glob", all(scout.SearchRequest{Pattern: "Errorf", Globs: []string{"*.go"}}), ""},
		{"glob exclude", all(scout.SearchRequest{Pattern: "Errorf", Globs: []string{"*.go", "!*_test.go"}}), ""},
		{"glob with slash", all(scout.SearchRequest{Pattern: "Errorf", Globs: []string{"server/*.go"}}), ""},
		{"glob exclude dir", all(scout.SearchRequest{Pattern: "Errorf", Globs: []string{"!vendor/**"}}), ""},
		{"type", all(scout.SearchRequest{Pattern: "errorf", IgnoreCase: true, Types: []string{"ts"}}), ""},
		{"types", all(scout.SearchRequest{Pattern: "MaxHeaderBytes", Types: []string{"go", "md", "make"}}), ""},
		{"paths", all(scout.SearchRequest{Pattern: "Errorf", Paths: []string{"server", "cmd/main.go"}}), ""},
		{"path glob", all(scout.SearchRequest{Pattern: "Close", Paths: []string{"server/**/*.go"}}), ""},
		{"hidden", all(scout.SearchRequest{Pattern: "MaxHeaderBytes", Hidden: true}), ""},
		{"no ignore", all(scout.SearchRequest{Pattern: "Errorf", NoIgnore: true}), ""},
		{"prune", all(scout.SearchRequest{Pattern: "Errorf", PruneDirs: []string{"vendor"}}), ""},
		{"context", all(scout.SearchRequest{Pattern: "MaxHeaderBytes", Before: 2, After: 1}), ""},
		{"context fold", all(scout.SearchRequest{Pattern: "errorf", IgnoreCase: true, Before: 1, After: 3}), ""},
		{"columns", all(scout.SearchRequest{Pattern: "MaxHeaderBytes", MaxColumns: 40}), ""},
		{"page 1", scout.SearchRequest{Pattern: "Errorf", MaxFiles: 3}, ""},
		{"page 2", scout.SearchRequest{Pattern: "Errorf", MaxFiles: 3, Skip: 3}, ""},
		{"page last", scout.SearchRequest{Pattern: "Errorf", MaxFiles: 3, Skip: 9}, ""},
		{"budget", scout.SearchRequest{Pattern: "Errorf", MaxMatches: 5}, ""},
		{"per file", scout.SearchRequest{Pattern: "Errorf", MaxMatchesPerFile: 1, MaxFiles: -1}, ""},
		{"max file size", all(scout.SearchRequest{Pattern: "MaxHeaderBytes", MaxFileSize: 1000}), ""},
		{"tags", scout.SearchRequest{Pattern: "Close", Tags: true}, ""},
		// The planner's fallbacks.
		{"no literal", all(scout.SearchRequest{Pattern: `[A-Z][a-z]+[0-9]`}), index.NoLiteral},
		{"short literal", all(scout.SearchRequest{Pattern: `ab`}), index.NoLiteral},
		{"fold literal", all(scout.SearchRequest{Pattern: `errorf\(`, IgnoreCase: true}), ""},
		{"fold regex", all(scout.SearchRequest{Pattern: `errorf\w*`, IgnoreCase: true}), index.FoldRegex},
		{"multiline", all(scout.SearchRequest{Pattern: `Errorf.*\n.*\}`, Multiline: true}), index.Multiline},
		{"line ranges", scout.SearchRequest{Pattern: "Errorf", Paths: []string{"server/handler.go"}, Lines: []scout.Range{{Start: 1, End: 8}}}, index.LineRanges},
		{"named file", all(scout.SearchRequest{Pattern: "Errorf", Paths: []string{"server/handler.go"}}), index.NamedFiles},
		{"empty", all(scout.SearchRequest{Pattern: ""}), index.EmptyPattern},
	}
	return cases
}

// same compares two results, but for what depends on the backend: the
// files read (Searched, Skipped) and Backend.
func same(t *testing.T, name string, scan, got *scout.SearchResult) {
	t.Helper()
	a, b := *scan, *got
	a.Searched, b.Searched = 0, 0
	a.Skipped, b.Skipped = nil, nil
	a.Backend, b.Backend = nil, nil
	assert.Equal(t, a, b, name)
}

// differential runs every case through a scan and through the index and
// compares; it returns how many cases the index answered.
func differential(t *testing.T, root string, ix scout.Index, cases []searchCase) int {
	t.Helper()
	scan := scout.Searcher{Workspace: scout.Workspace{Root: root}}
	indexed := scout.Searcher{Workspace: scout.Workspace{Root: root}, Index: ix}
	answered := 0
	for _, tc := range cases {
		want, err := scan.Search(context.Background(), tc.req)
		require.NoError(t, err, tc.name)
		got, err := indexed.Search(context.Background(), tc.req)
		require.NoError(t, err, tc.name)
		require.NotNil(t, got.Backend, tc.name)
		if tc.fallback == "" {
			assert.True(t, got.Backend.Index, "%s: the index did not answer: %s %s", tc.name, got.Backend.Fallback, got.Backend.Detail)
		} else {
			assert.Equal(t, tc.fallback, got.Backend.Fallback, tc.name)
		}
		if got.Backend.Index {
			answered++
		}
		same(t, tc.name, want, got)
	}
	return answered
}

func TestZoektDifferential(t *testing.T) {
	bins := zoektBins(t)
	noThresholds(t)
	work := t.TempDir()
	repo := filepath.Join(work, "demo")
	testTree(t, repo)
	idx := filepath.Join(work, "idx")
	// A small size limit and trigram limit, so that big.txt and dense.txt
	// are held without content and read directly.
	zoektIndex(t, bins, repo, idx, "-file_limit", "100000", "-max_trigram_count", "20000")
	url := zoektServe(t, bins, idx)
	c, err := zoekt.New([]string{url}, zoekt.RepoName(repo))
	require.NoError(t, err)
	require.Equal(t, "demo", zoekt.RepoName(repo))
	head := gitIn(t, repo, "rev-parse", "HEAD")
	waitCommit(t, c, head)

	un, err := c.Unindexed(context.Background(), head)
	require.NoError(t, err)
	reasons := map[string]string{}
	for _, u := range un {
		reasons[u.Path] = u.Reason
	}
	assert.Equal(t, map[string]string{"big.txt": "too_large", "dense.txt": "too_many_trigrams", "early.bin": "binary",
		"late_nul.txt": "binary", "tiny.txt": "too_small", "utf16.txt": "binary"}, reasons)

	// The comparison proves something only if the scan finds what the
	// index alone would miss.
	scan := scout.Searcher{Workspace: scout.Workspace{Root: repo}}
	for pattern, want := range map[string][]string{
		"MaxHeaderBytes":  {"big.txt", "crlf.txt", "utf16.txt"},
		"Errorf padding":  {"late_nul.txt"},
		"Errorf in":       {"dense.txt", "utf16.txt"},
		`^package bom$`:   {"bom.go"},
		`at end$`:         {"crlf.txt"},
		`(?i)stra(ss|ß)e`: {"docs/guide.md"},
	} {
		r, err := scan.Search(context.Background(), scout.SearchRequest{Pattern: pattern, MaxFiles: -1})
		require.NoError(t, err)
		var paths []string
		for _, f := range r.Files {
			paths = append(paths, f.Path)
		}
		assert.Subset(t, paths, want, pattern)
	}
	cases := searchCases()
	n := differential(t, repo, c, cases)
	t.Logf("clean tree: the index answered %d of %d cases", n, len(cases))

	// The working tree moves on: an edit, a deletion, untracked files and
	// directories. Two searches have run, so the tracker now watches.
	writeFile(t, repo, "server/handler.go", []byte("package server\n\n// edited: MaxHeaderBytes and Errorf moved\nfunc Errorf() {}\n"))
	require.NoError(t, os.Remove(filepath.Join(repo, "cmd/main.go")))
	writeFile(t, repo, "untracked.go", []byte("package demo\n\nvar MaxHeaderBytes, Errorf = 1, 2\n"))
	writeFile(t, repo, "newdir/sub/x.go", []byte("package x // Errorf MaxHeaderBytes Close()\nfunc (t *T) Close() {}\n"))
	writeFile(t, repo, "ignored.log", []byte("Errorf MaxHeaderBytes\n"))
	differential(t, repo, c, cases)
	writeFile(t, repo, "docs/guide.md", []byte("rewritten: ERRORF straße\n"))
	writeFile(t, repo, "newdir/sub/y.go", []byte("Errorf again\n"))
	differential(t, repo, c, cases)

	// Commit, refresh the index with -delta, search again.
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "more")
	head = gitIn(t, repo, "rev-parse", "HEAD")
	zoektIndex(t, bins, repo, idx, "-file_limit", "100000", "-max_trigram_count", "20000", "-delta")
	waitCommit(t, c, head)
	differential(t, repo, c, cases)

	// A root below the repository's top.
	sub := filepath.Join(repo, "server")
	differential(t, sub, c, []searchCase{
		{"subdir literal", scout.SearchRequest{Pattern: "Errorf", MaxFiles: -1}, ""},
		{"subdir fold", scout.SearchRequest{Pattern: "ERRORF", IgnoreCase: true, MaxFiles: -1}, ""},
	})
}

// TestZoektFanOut splits the shards of one index over two webservers: the
// client's merged answers equal the scan.
func TestZoektFanOut(t *testing.T) {
	bins := zoektBins(t)
	noThresholds(t)
	work := t.TempDir()
	repo := filepath.Join(work, "demo")
	testTree(t, repo)
	for i := range 40 {
		writeFile(t, repo, fmt.Sprintf("pkg%02d/file.go", i), []byte(fmt.Sprintf("package pkg%02d\n\n// Errorf number %d\nconst MaxHeaderBytes%d = %d\n", i, i, i, i)+strings.Repeat("// filler\n", 300)))
	}
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "packages")
	idx := filepath.Join(work, "idx")
	zoektIndex(t, bins, repo, idx, "-shard_limit", "20000")
	shards, err := filepath.Glob(filepath.Join(idx, "*.zoekt"))
	require.NoError(t, err)
	sort.Strings(shards)
	require.Greater(t, len(shards), 3, "the index should have several shards")
	var urls []string
	for half := range 2 {
		dir := filepath.Join(work, fmt.Sprint("half", half))
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for i, s := range shards {
			if i%2 == half {
				require.NoError(t, os.Link(s, filepath.Join(dir, filepath.Base(s))))
			}
		}
		urls = append(urls, zoektServe(t, bins, dir))
	}
	c, err := zoekt.New(urls, "demo")
	require.NoError(t, err)
	head := gitIn(t, repo, "rev-parse", "HEAD")
	waitCommit(t, c, head)
	st, err := c.Status(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, st.Endpoints)
	one, err := zoekt.New(urls[:1], "demo")
	require.NoError(t, err)
	part, err := one.Search(context.Background(), &scout.IndexQuery{Commit: head, Pattern: "Errorf", MaxFiles: 1000})
	require.NoError(t, err)
	whole, err := c.Search(context.Background(), &scout.IndexQuery{Commit: head, Pattern: "Errorf", MaxFiles: 1000})
	require.NoError(t, err)
	assert.Less(t, len(part.Files), len(whole.Files), "one webserver holds only some of the files")
	// The shards share a cap: a pattern of 40 files asked for 8 is capped,
	// and no shard names more than its share.
	capped, err := c.Search(context.Background(), &scout.IndexQuery{Commit: head, Pattern: "Errorf", MaxFiles: 8})
	require.NoError(t, err)
	assert.True(t, capped.Capped, "%+v", capped)
	assert.Less(t, len(capped.Files), len(whole.Files))
	n := differential(t, repo, c, searchCases())
	assert.Greater(t, n, 30)
	// The same searches beside an index taken for one on another machine,
	// a slow one: a scan races the plan from 25 ms (a quarter of a scan
	// estimated at 100 ms) and answers first, with a scan's results.
	fixedCosts(t, 100*time.Millisecond)
	for _, tc := range searchCases() {
		got := raceOnce(t, repo, remote{c, 2 * time.Second}, tc)
		if tc.fallback == "" {
			assert.Equal(t, index.Deadline, got.Backend.Fallback, tc.name)
			assert.Contains(t, got.Backend.Detail, "a scan started beside the plan finished first", tc.name)
		}
	}
}

// remote is an Index that says it runs on another machine, and answers
// searches after a delay.
type remote struct {
	scout.Index
	delay time.Duration
}

func (r remote) Search(ctx context.Context, q *scout.IndexQuery) (*scout.IndexAnswer, error) {
	select {
	case <-time.After(r.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return r.Index.Search(ctx, q)
}

func (r remote) Status(ctx context.Context) (*scout.IndexStatus, error) {
	st, err := r.Index.Status(ctx)
	if st != nil {
		st.Local = false
	}
	return st, err
}

// raceOnce searches with ix and by a scan, compares the results, and
// returns the result with ix.
func raceOnce(t *testing.T, root string, ix scout.Index, tc searchCase) *scout.SearchResult {
	t.Helper()
	scan := scout.Searcher{Workspace: scout.Workspace{Root: root}}
	indexed := scout.Searcher{Workspace: scout.Workspace{Root: root}, Index: ix}
	want, err := scan.Search(context.Background(), tc.req)
	require.NoError(t, err, tc.name)
	got, err := indexed.Search(context.Background(), tc.req)
	require.NoError(t, err, tc.name)
	require.NotNil(t, got.Backend, tc.name)
	same(t, tc.name, want, got)
	return got
}

// TestZoektGoroot runs the differential test on a copy of the Go source
// tree (SCOUT_ZOEKT_GOROOT=1, not -short).
func TestZoektGoroot(t *testing.T) {
	if testing.Short() || os.Getenv("SCOUT_ZOEKT_GOROOT") == "" {
		t.Skip("set SCOUT_ZOEKT_GOROOT=1 (and drop -short) to index a copy of $GOROOT/src")
	}
	bins := zoektBins(t)
	// The cases say which backend must answer: a scan is taken to cost 2 s
	// and the index 15.625 µs per file it names, so a probe asks for 2,000
	// files (a 64th of a scan), which the shards share, and an index on
	// this machine has 546 ms (a quarter of a scan and git's 46 ms), times
	// the machine's load.
	fixedCosts(t, 2*time.Second)
	index.Prior.ProbePerFile = 15625 * time.Nanosecond
	work := t.TempDir()
	repo := filepath.Join(work, "gosrc")
	out, err := exec.Command("cp", "-a", testfs.GoSrc(t), repo).CombinedOutput()
	require.NoError(t, err, "%s", out)
	gitIn(t, repo, "init", "-q")
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "src")
	idx := filepath.Join(work, "idx")
	zoektIndex(t, bins, repo, idx)
	url := zoektServe(t, bins, idx)
	c, err := zoekt.New([]string{url}, "gosrc")
	require.NoError(t, err)
	waitCommit(t, c, gitIn(t, repo, "rev-parse", "HEAD"))
	cases := []searchCase{
		{"rare", scout.SearchRequest{Pattern: "MaxHeaderBytes", MaxFiles: -1, MaxMatches: -1}, ""},
		{"none", scout.SearchRequest{Pattern: "zqxjkvbwnomatch", MaxFiles: -1}, ""},
		{"method", scout.SearchRequest{Pattern: `func \(\w+ \*\w+\) Close\(\)`, MaxFiles: -1, MaxMatches: -1, Mode: scout.SearchCount}, ""},
		{"test", scout.SearchRequest{Pattern: `\w+_test\(`, MaxFiles: -1, MaxMatches: -1}, ""},
		{"type", scout.SearchRequest{Pattern: `func main\(\)`, Types: []string{"go"}, MaxFiles: -1, MaxMatches: -1, Mode: scout.SearchCount}, ""},
		{"fold", scout.SearchRequest{Pattern: "maxheaderbytes", IgnoreCase: true, MaxFiles: -1, Before: 1, After: 1}, ""},
		{"sigma", scout.SearchRequest{Pattern: "σ", IgnoreCase: true, MaxFiles: -1}, index.NoLiteral},
		{"page", scout.SearchRequest{Pattern: "HandlerFunc"}, ""},
		{"broad", scout.SearchRequest{Pattern: "err", MaxFiles: -1, MaxMatches: -1, Mode: scout.SearchCount}, index.IndexBroad},
		{"nolit", scout.SearchRequest{Pattern: `[A-Z][a-z]+[0-9]{2,}[a-z]`, MaxFiles: -1, Mode: scout.SearchCount}, index.NoLiteral},
	}
	differential(t, repo, c, cases)
	writeFile(t, repo, "net/http/server.go", []byte("package http\n\n// MaxHeaderBytes rewritten\n"))
	require.NoError(t, os.Remove(filepath.Join(repo, "net/http/doc.go")))
	writeFile(t, repo, "freshprobe/new.go", []byte("package freshprobe // MaxHeaderBytes HandlerFunc\n"))
	differential(t, repo, c, cases)
}
