package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/scoutkit/scout/tool"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// scoutBinary builds the real scout command once per test run.
func scoutBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "scout-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "scout")
		if runtime.GOOS == "windows" {
			binPath += ".exe"
		}
		out, err := exec.Command("go", "build", testfs.BuildMode(), "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// syncBuffer is a child process's stderr, safe to read while the process
// writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// mcpSession starts `scout mcp ARGS...` and connects the SDK's client to it.
func mcpSession(t *testing.T, args ...string) (*mcp.ClientSession, *exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(scoutBinary(t), append([]string{"mcp"}, args...)...)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "scout-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return cs, cmd, &stderr
}

func writeTree(t *testing.T, files map[string][]byte) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func pngFile(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestMCPEndToEnd(t *testing.T) {
	root := writeTree(t, map[string][]byte{
		"main.go":        []byte("package main\n\nfunc main() {}\n"),
		"pkg/util.go":    []byte("package pkg\n"),
		"docs/README.md": []byte("# docs\n"),
		"logo.png":       pngFile(t),
	})
	cs, _, stderr := mcpSession(t, "--root", root)
	ctx := context.Background()

	t.Run("tools/list", func(t *testing.T) {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := tool.Tools(tool.Pi)
		if len(res.Tools) != len(want) {
			t.Fatalf("listed %d tools, want the %d of pi", len(res.Tools), len(want))
		}
		for i, mt := range res.Tools {
			w := want[i]
			if mt.Name != w.Name || mt.Description != w.Description {
				t.Errorf("tool %d: %s, want %s with its description", i, mt.Name, w.Name)
			}
			got, _ := json.Marshal(mt.InputSchema)
			if comparableJSON(t, got) != comparableJSON(t, w.Schema) {
				t.Errorf("%s: schema %s, want %s", mt.Name, got, w.Schema)
			}
			a := mt.Annotations
			if a == nil || !a.ReadOnlyHint || !a.IdempotentHint {
				t.Errorf("%s: annotations %+v, want read-only and idempotent", mt.Name, a)
			}
		}
	})

	t.Run("find", func(t *testing.T) {
		args := `{"paths": ["**/*.go"]}`
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find", Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%v\nstderr: %s", err, stderr)
		}
		want := tool.Call(ctx, tool.Config{Root: root}, tool.Pi, "find", []byte(args))
		if res.IsError || want.Status != scout.StatusSuccess {
			t.Fatalf("isError %v, in-process status %s", res.IsError, want.Status)
		}
		if text, ok := res.Content[0].(*mcp.TextContent); !ok || text.Text != want.Text || !strings.Contains(text.Text, "util.go") {
			t.Errorf("content %#v, want the text %q", res.Content[0], want.Text)
		}
		assert.Equal(t, testfs.Untimed(t, want), testfs.Untimed(t, res.StructuredContent), "structuredContent is the Envelope")
	})

	t.Run("error", func(t *testing.T) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find", Arguments: map[string]any{"paths": 3}})
		if err != nil {
			t.Fatal(err)
		}
		env := testfs.Untimed(t, res.StructuredContent)
		e, _ := env["error"].(map[string]any)
		if !res.IsError || env["status"] != "error" || e["code"] != "INVALID_PARAM" || !strings.Contains(fmt.Sprint(e["message"]), "'paths'") {
			t.Fatalf("isError %v, envelope %v; want an INVALID_PARAM error Envelope naming 'paths'", res.IsError, env)
		}
	})

	t.Run("unknown tool", func(t *testing.T) {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}})
		if err == nil || !strings.Contains(err.Error(), "nope") {
			t.Fatalf("got %v, want a protocol error naming the tool", err)
		}
	})

	t.Run("image", func(t *testing.T) {
		if _, err := tool.Lookup(tool.Pi, "read"); err != nil {
			t.Skip("the pi toolset has no read tool yet")
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": "logo.png"}})
		if err != nil {
			t.Fatal(err)
		}
		var img *mcp.ImageContent
		for _, c := range res.Content {
			if ic, ok := c.(*mcp.ImageContent); ok {
				img = ic
			}
		}
		if res.IsError || img == nil || img.MIMEType != "image/png" || !bytes.Equal(img.Data, pngFile(t)) {
			t.Fatalf("isError %v, image %+v; want the PNG as image content", res.IsError, img)
		}
	})
}

func comparableJSON(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func TestMCPStandardizedToolset(t *testing.T) {
	cs, _, _ := mcpSession(t, "--toolset", "standardized", "--root", t.TempDir())
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != "Glob" {
		t.Fatalf("tools %v, want [Glob]", res.Tools)
	}
}

// TestMCPWeb: the real server refuses a loopback URL unless
// --allow-private-network, pages a web page from its cache (one request
// for three reads), and with --no-web refuses URLs and says read is
// closed-world.
func TestMCPWeb(t *testing.T) {
	srvURL, requests := testfs.PageServer(t)
	read := func(cs *mcp.ClientSession, path string) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": path}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}

	closed, _, _ := mcpSession(t, "--root", t.TempDir())
	if text, isErr := read(closed, srvURL+"/page.txt"); !isErr || !strings.Contains(text, "127.0.0.1 is a loopback address") || requests.Load() != 0 {
		t.Fatalf("a loopback URL without --allow-private-network: isError %v, %q", isErr, text)
	}
	cs, _, _ := mcpSession(t, "--root", t.TempDir(), "--allow-private-network")
	for _, p := range []struct{ sel, want string }{{"", "line 1"}, {":301", "line 301"}, {":390-395", "line 392"}} {
		if text, isErr := read(cs, srvURL+"/page.txt"+p.sel); isErr || !strings.Contains(text, p.want) {
			t.Fatalf("read %s: isError %v, %q", p.sel, isErr, text)
		}
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("%d requests for a page read three times, want 1 (the server's cache)", n)
	}

	off, _, _ := mcpSession(t, "--root", t.TempDir(), "--no-web", "--allow-private-network")
	if text, isErr := read(off, srvURL+"/page.txt"); !isErr || !strings.Contains(text, "turned off by the host") {
		t.Errorf("--no-web read: isError %v, %q", isErr, text)
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("--no-web fetched the page (%d requests)", n)
	}
	res, err := off.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, mt := range res.Tools {
		if a := mt.Annotations; a == nil || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("--no-web: %s is not closed-world: %+v", mt.Name, a)
		}
	}
}

// slowTree is a tree on which slowGrep needs minutes of CPU: one 8 MB
// text file hard-linked 4000 times, searched with a regex that has no
// literal to skip ahead with.
func slowTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for b.Len() < 8<<20 {
		for i := range 10 {
			if i > 0 {
				b.WriteByte(' ')
			}
			for range 6 {
				b.WriteByte("abcdefgh"[r.IntN(8)])
			}
		}
		b.WriteByte('\n')
	}
	first := filepath.Join(root, "f0.txt")
	if err := os.WriteFile(first, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 4000; i++ {
		if err := os.Link(first, filepath.Join(root, fmt.Sprintf("f%d.txt", i))); err != nil {
			t.Skipf("cannot make hard links here: %v", err)
		}
	}
	return root
}

var slowGrep = map[string]any{"pattern": `(a|b)+[cd]{2}(e|f)*h$`, "output_mode": "count"}

// cpuTicks is the CPU time a process has used, in clock ticks (Linux).
func cpuTicks(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The fields after the parenthesised command name; utime and stime
	// are fields 14 and 15 of the whole line.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return u + s
}

func TestMCPCancel(t *testing.T) {
	root := slowTree(t)
	cs, cmd, stderr := mcpSession(t, "--toolset", "amplifier", "--root", root)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	linux := runtime.GOOS == "linux"
	var idle int
	if linux {
		idle = cpuTicks(t, cmd.Process.Pid)
	}
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: slowGrep})
		done <- err
	}()
	if linux {
		// Cancel once the search is under way: the server has used 0.2 s
		// of CPU since the call.
		for end := time.Now().Add(30 * time.Second); cpuTicks(t, cmd.Process.Pid)-idle < 20; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("the server did not start the search within 30 s\nstderr: %s", stderr)
			}
		}
	} else {
		time.Sleep(500 * time.Millisecond)
	}
	canceled := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("canceled call returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the canceled call did not return")
	}
	if linux {
		// The server stops working: soon after the cancellation has
		// arrived it uses (almost) no CPU for 2 s, where the search alone
		// would keep every core busy for minutes.
		used := 0
		for end := time.Now().Add(20 * time.Second); ; {
			before := cpuTicks(t, cmd.Process.Pid)
			time.Sleep(2 * time.Second)
			if used = cpuTicks(t, cmd.Process.Pid) - before; used <= 10 {
				t.Logf("the server was idle %v after the cancellation", time.Since(canceled)-2*time.Second)
				break
			}
			if time.Now().After(end) {
				t.Fatalf("the server used %d CPU ticks in the 2 s %v after the cancellation: the search kept running", used, time.Since(canceled))
			}
		}
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "glob", Arguments: map[string]any{"pattern": "f1.txt"}})
	if err != nil || res.IsError {
		t.Fatalf("the server stopped serving after a cancellation: %v %+v\nstderr: %s", err, res, stderr)
	}
}

// TestMCPClientGoneMidCall: a client that crashes mid-call (its ends of
// both pipes close) does not leave the server working for it.
func TestMCPClientGoneMidCall(t *testing.T) {
	root := slowTree(t)
	// The client's own pipes, so that the test can drop the connection
	// the way a crashing client does: stdin reaches EOF and stdout has no
	// reader, mid-call.
	cmd := exec.Command(scoutBinary(t), "mcp", "--toolset", "amplifier", "--root", root)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// wait reaps the process once, from the test or from the cleanup.
	exited := make(chan struct{})
	var waitErr error
	wait := sync.OnceFunc(func() {
		go func() {
			waitErr = cmd.Wait()
			close(exited)
		}()
	})
	t.Cleanup(func() {
		cmd.Process.Kill()
		wait()
		<-exited
	})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "scout-test"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, &stderr)
	}
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "grep", Arguments: slowGrep})
	time.Sleep(500 * time.Millisecond)
	stdin.Close()
	stdout.Close()
	closed := time.Now()
	wait()
	select {
	case <-exited:
		if waitErr != nil {
			t.Fatalf("the server did not exit cleanly when the client went away: %v\nstderr: %s", waitErr, &stderr)
		}
		t.Logf("the server exited %v after its stdin closed", time.Since(closed))
	case <-time.After(10 * time.Second):
		t.Fatalf("the server still runs 10 s after its client went away mid-call\nstderr: %s", &stderr)
	}
}

// TestMCPPipedRequests: requests piped in before stdin ends are all
// answered before the server exits, as `printf ... | scout mcp` expects.
func TestMCPPipedRequests(t *testing.T) {
	root := writeTree(t, map[string][]byte{"a.go": []byte("package a\n"), "b/c.go": []byte("package b\n")})
	cmd := exec.Command(scoutBinary(t), "mcp", "--root", root)
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "sh", "version": "1"}}}`,
		`{"jsonrpc": "2.0", "method": "notifications/initialized"}`,
		`{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": {"paths": ".", "pattern": "package"}}}`,
		`{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "find", "arguments": {"paths": ["**/*.go"]}}}`,
	}, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scout mcp: %v\n%s", err, out)
	}
	answers := map[float64]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m struct {
			ID     float64
			Result struct{ IsError bool }
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if m.Result.IsError {
			t.Errorf("request %v failed: %s", m.ID, line)
		}
		answers[m.ID] = line
	}
	for id, want := range map[float64]string{1: `"protocolVersion":"2025-06-18"`, 2: "package a", 3: "c.go"} {
		if !strings.Contains(answers[id], want) {
			t.Errorf("request %v: answer %q lacks %q", id, answers[id], want)
		}
	}
}

// TestMCPPipedBatch: a client that speaks 2025-03-26 may batch its
// requests; a batch piped in before stdin ends is answered, as one array,
// before the server exits.
func TestMCPPipedBatch(t *testing.T) {
	root := writeTree(t, map[string][]byte{"a.go": []byte("package a\n"), "b/c.go": []byte("package b\n")})
	cmd := exec.Command(scoutBinary(t), "mcp", "--root", root)
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "sh", "version": "1"}}}`,
		`[{"jsonrpc": "2.0", "method": "notifications/initialized"}, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": {"paths": ".", "pattern": "package"}}}, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "find", "arguments": {"paths": ["**/*.go"]}}}]`,
	}, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scout mcp: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"protocolVersion":"2025-03-26"`) {
		t.Fatalf("answered %q, want the initialize result and the batch's array", out)
	}
	var batch []struct {
		ID     float64
		Result struct{ IsError bool }
	}
	if err := json.Unmarshal([]byte(lines[1]), &batch); err != nil || len(batch) != 2 {
		t.Fatalf("answered %s, want an array of 2 answers (%v)", lines[1], err)
	}
	for _, a := range batch {
		if a.Result.IsError || a.ID != 2 && a.ID != 3 {
			t.Errorf("answer %+v in %s", a, lines[1])
		}
	}
	for _, want := range []string{"package a", "c.go"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("the batch's answers %s lack %q", lines[1], want)
		}
	}
}

func TestMCPSIGTERM(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM on Windows")
	}
	cs, cmd, stderr := mcpSession(t, "--root", t.TempDir())
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cs.Wait(); err != nil && !errors.Is(err, io.EOF) {
		t.Logf("session ended with %v", err)
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("the server did not exit cleanly on SIGTERM: %v\nstderr: %s", err, stderr)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit status %d after SIGTERM, want 0\nstderr: %s", code, stderr)
	}
}

// TestMCPSIGTERMClientNotReading: a server whose client reads none of
// its answers (its stdout pipe full) exits on SIGTERM; it waited to write
// them and never did.
func TestMCPSIGTERMClientNotReading(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM on Windows")
	}
	cmd := exec.Command(scoutBinary(t), "mcp", "--root", t.TempDir())
	var stderr syncBuffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe() // never read
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		stdin.Close()
		stdout.Close()
	})
	for i := range 200 { // answers far past what a pipe holds
		fmt.Fprintf(stdin, `{"jsonrpc": "2.0", "id": %d, "method": "tools/list"}`+"\n", i)
	}
	time.Sleep(time.Second)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		exited <- err
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v, want status 0\nstderr: %s", err, &stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the server still runs 10 s after SIGTERM, its client reading nothing\nstderr: %s", &stderr)
	}
}

func TestMCPUsageErrors(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
		reason string
	}{
		{[]string{"--toolset", "nope"}, "Unknown toolset 'nope'", "unknown toolset"},
		{[]string{"--root", filepath.Join(t.TempDir(), "missing")}, "no such file", "root that does not exist"},
		{[]string{"extra"}, "scout mcp: takes no arguments", "positional argument"},
		{[]string{"--style", "fancy"}, "--style must be", "bad shared flag"},
		{[]string{"--no-web=maybe"}, `invalid value "maybe" for --no-web: want true or false`, "bad --no-web value"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		code := run(append([]string{"mcp"}, tt.args...), strings.NewReader(""), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), tt.stderr) || out.Len() != 0 {
			t.Errorf("%s: exit %d, stderr %q, stdout %q; want the usage error status 2 and %q", tt.reason, code, errb.String(), out.String(), tt.stderr)
		}
	}
}
