package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/scoutkit/scout/tool"
)

// buildLib builds libscout.so and libscout.h (once for all the tests)
// into a temp dir and returns it with the C compiler cgo uses, or skips
// the test when cgo or the compiler is missing.
func buildLib(t *testing.T) (string, string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the C example uses pthreads and the test links a .so/.dylib")
	}
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	if err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is disabled: the shim cannot be built")
	}
	cc := "cc"
	if env, _ := exec.Command("go", "env", "CC").Output(); len(strings.TrimSpace(string(env))) > 0 {
		cc = strings.Fields(string(env))[0]
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s): the shim cannot be built", cc)
	}
	dir, out, err := built()
	if err != nil {
		t.Fatalf("go build -buildmode=c-shared: %v\n%s", err, out)
	}
	return dir, cc
}

// built builds the library once for the tests that use it (a build takes
// minutes on a busy machine) into a directory TestMain removes.
func built() (dir string, out []byte, err error) {
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "libscout"); buildErr != nil {
			return
		}
		// On Linux c-shared compiles position-independent code, as the
		// test command's vet (go vet -buildmode=pie) did: the build links
		// what vet compiled.
		buildOut, buildErr = exec.Command("go", "build", "-buildmode=c-shared", "-o", filepath.Join(buildDir, libName()), ".").CombinedOutput()
	})
	return buildDir, buildOut, buildErr
}

var (
	buildOnce sync.Once
	buildDir  string
	buildOut  []byte
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// libName is the shared library's file name, as the C linker looks for
// it with -lscout.
func libName() string {
	if runtime.GOOS == "darwin" {
		return "libscout.dylib"
	}
	return "libscout.so"
}

// exampleTree is the project the examples search: Go files for find, a
// Markdown file for the concurrent calls.
func exampleTree(t *testing.T) string {
	return testfs.WriteDir(t, fstest.MapFS{
		"main.go":      {Data: []byte("package main\n")},
		"lib/lib.go":   {Data: []byte("package lib\n")},
		"README.md":    {Data: []byte("# example\n")},
		"docs/note.md": {Data: []byte("a note\n")},
	})
}

func TestExamples(t *testing.T) {
	lib, cc := buildLib(t)
	root := exampleTree(t)
	header, err := os.ReadFile(filepath.Join(lib, "libscout.h"))
	if err != nil {
		t.Fatalf("the build did not write libscout.h: %v", err)
	}
	// The ABI the README and the examples document.
	for _, decl := range []string{
		"typedef const char scout_cchar;",
		"extern char* scout_call(scout_cchar* toolset, scout_cchar* name, scout_cchar* args, scout_cchar* root);",
		"extern char* scout_call_opts(scout_cchar* toolset, scout_cchar* name, scout_cchar* args, scout_cchar* root, scout_cchar* options);",
		"extern char* scout_cancel(long long int callID);",
		"// char *scout_call_opts(toolset, tool, json_args, root, options)", // the ABI's documentation
		"extern void scout_free(char* p);",
		"extern char* scout_version(void);",
		"extern int scout_abi_version(void);",
	} {
		if !strings.Contains(string(header), decl) {
			t.Errorf("libscout.h lacks %q", decl)
		}
	}

	t.Run("python", func(t *testing.T) {
		py, err := exec.LookPath("python3")
		if err != nil {
			t.Skip("python3 is not installed")
		}
		cmd := exec.Command(py, filepath.Join("..", "examples", "python", "scout.py"), "--lib", filepath.Join(lib, libName()), root)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "python example: ok") {
			t.Fatalf("python example: %v\n%s", err, out)
		}
		for _, want := range []string{"main.go", "not valid UTF-8", "tool is NULL", "options: ok", "cancel: ok", "url cache: ok", "100 concurrent calls: ok"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("python output lacks %q:\n%s", want, out)
			}
		}
	})

	t.Run("c", func(t *testing.T) {
		bin := filepath.Join(lib, "scout-c")
		// -Wwrite-strings makes string literals const: the inputs must be
		// const char*.
		build := exec.Command(cc, "-Wall", "-Wextra", "-Wwrite-strings", "-Werror", "-o", bin, filepath.Join("..", "examples", "c", "main.c"),
			"-I"+lib, "-L"+lib, "-lscout", "-lpthread", "-Wl,-rpath,"+lib)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("cc: %v\n%s", err, out)
		}
		out, err := exec.Command(bin, root).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "c example: ok") {
			t.Fatalf("c example: %v\n%s", err, out)
		}
		for _, want := range []string{"main.go", "ok   non-UTF-8 arguments", "ok   root that does not exist", "ok   non-UTF-8 options", "ok   cancel of an unknown id", "ok   timeout_ms", "ok   cancel a running call", "ok   100 concurrent calls"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("c output lacks %q:\n%s", want, out)
			}
		}
	})

	t.Run("c++", func(t *testing.T) {
		cxx, err := exec.LookPath("c++")
		if err != nil {
			if cxx, err = exec.LookPath("g++"); err != nil {
				t.Skip("no C++ compiler (c++, g++)")
			}
		}
		bin := filepath.Join(lib, "scout-cpp")
		build := exec.Command(cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-o", bin, filepath.Join("..", "examples", "cpp", "main.cpp"),
			"-I"+lib, "-L"+lib, "-lscout", "-Wl,-rpath,"+lib)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", cxx, err, out)
		}
		out, err := exec.Command(bin, root).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "c++ example: ok") || !strings.Contains(string(out), "main.go") {
			t.Fatalf("c++ example: %v\n%s", err, out)
		}
	})
}

// testTree is a small project for the Go-level tests.
func testTree(t *testing.T) string {
	return testfs.WriteDir(t, fstest.MapFS{
		"a.txt":     {Data: []byte("one\ntwo\nthree\n")},
		"src/a.go":  {Data: []byte("package a\n\nfunc A() {}\n\n// B\nfunc B() {}\n")},
		"README.md": {Data: []byte("# a\n")},
	})
}

func TestCallOptions(t *testing.T) {
	root := testTree(t)
	tests := []struct {
		tool, args, options string
		code                scout.Code // "" for success or partial
		want, notWant       string     // in the text (the message for errors)
		reason              string
	}{
		{"read", `{"path":"a.txt"}`, "", "", "¶a.txt#", "", "no options: the defaults (hashline)"},
		{"read", `{"path":"a.txt"}`, `{}`, "", "¶a.txt#", "", "an empty object is the defaults"},
		{"read", `{"path":"a.txt"}`, `{"style":"plain"}`, "", "one\ntwo", "¶", "style plain"},
		{"read", `{"path":"a.txt"}`, `{"style":"numbered"}`, "", "1|one\n2|two", "¶", "style numbered"},
		{"read", `{"path":"a.txt"}`, `{"read_limit":1}`, "", "Use :2 to continue", "three", "read_limit cuts an open-ended read"},
		{"search", `{"pattern":"func B","paths":["src/a.go"]}`, `{"style":"numbered","context_before":0,"context_after":0}`, "", "*6|func B", "// B", "context lines 0 means none"},
		{"search", `{"pattern":"func B","paths":["src/a.go"]}`, `{"style":"numbered"}`, "", "5|// B\n*6|func B", "", "default context: 1 line before"},
		{"search", `{"pattern":"func B","paths":["src/a.go"]}`, `{"style":"plain"}`, "", "5|// B\n*6|func B", "¶", "plain search lines keep pi's N| numbers, without a tag"},
		{"read", `{"path":"https://example.com/"}`, `{"no_web":true}`, scout.CodeUnsupported, "turned off by the host", "", "no_web refuses URLs"},
		{"read", `{"path":"a.txt"}`, `{"timeout_ms":60000,"call_id":91}`, "", "one", "", "a timeout and an id that are not reached"},
		{"read", `{"path":"a.txt"}`, `[1]`, scout.CodeInvalidParam, "options must be a JSON object", "", "options that are an array"},
		{"read", `{"path":"a.txt"}`, `{bad`, scout.CodeInvalidParam, "options must be a JSON object", "", "options that are not JSON"},
		{"read", `{"path":"a.txt"}`, `{"colour":1}`, scout.CodeInvalidParam, `unknown field "colour"; valid options: style, `, "", "an unknown option"},
		{"read", `{"path":"a.txt"}`, `{"style":"fancy"}`, scout.CodeInvalidParam, `option 'style' must be "hashline", "numbered" or "plain", got "fancy"`, "", "a bad style"},
		{"read", `{"path":"a.txt"}`, `{"style":3}`, scout.CodeInvalidParam, "option 'style' must be a string, got number", "", "a wrong type"},
		{"read", `{"path":"a.txt"}`, `{"read_limit":0}`, scout.CodeInvalidParam, "'read_limit' must be at least 1", "", "read_limit 0"},
		{"read", `{"path":"a.txt"}`, `{"context_after":-1}`, scout.CodeInvalidParam, "must be 0 or more", "", "negative context"},
		{"read", `{"path":"a.txt"}`, `{"timeout_ms":9223372036854775807}`, "", "one", "", "a timeout past time.Duration's range is no limit (it wrapped to a deadline passed: TIMEOUT)"},
		{"read", `{"path":"a.txt"}`, `{"timeout_ms":9223372036854}`, "", "one", "", "the longest timeout"},
		{"read", `{"path":"a.txt"}`, `{"timeout_ms":-5}`, scout.CodeInvalidParam, "'timeout_ms' must be 0 (no limit) or more", "", "negative timeout"},
		{"read", `{"path":"a.txt"}`, `{"call_id":-1}`, scout.CodeInvalidParam, "'call_id' must be a positive integer", "", "negative call id"},
		{"read", `{"path":"a.txt"}`, `{"call_id":1.5}`, scout.CodeInvalidParam, "option 'call_id' must be an integer", "", "fractional call id"},
		{"read", `{"path":"a.txt"}`, `{"allow_private_network":"yes"}`, scout.CodeInvalidParam, "option 'allow_private_network' must be true or false", "", "allow_private_network is a boolean"},
		{"read", `{"path":"a.txt"}`, `{"Style":"plain"}`, scout.CodeInvalidParam, "unknown option 'Style': option names are case-sensitive; pass it as 'style'", "", "option names are case-sensitive, as tool arguments are (encoding/json folds case)"},
		{"read", `{"path":"a.txt"}`, `{"READ_LIMIT":1}`, scout.CodeInvalidParam, "pass it as 'read_limit'", "", "option names are case-sensitive"},
		{"read", `{"path":"a.txt"}`, `{"style":"plain","style":"numbered"}`, scout.CodeInvalidParam, "option 'style' is given more than once", "", "a repeated option (encoding/json keeps the last)"},
		{"read", `{"path":"a.txt"}`, `{"zoekt":{"URLs":["http://127.0.0.1:6070"]}}`, scout.CodeInvalidParam, "pass it as 'zoekt.urls'", "", "the zoekt object's names are case-sensitive too"},
		{"read", `{"path":"a.txt"}`, `{"zoekt":{"urls":["http://127.0.0.1:6070"],"repo":"a","repo":"b"}}`, scout.CodeInvalidParam, "option 'zoekt.repo' is given more than once", "", "a repeated zoekt member"},
	}
	for _, tt := range tests {
		env := call("pi", tt.tool, tt.args, root, tt.options)
		if tt.code == "" {
			if env.Status == scout.StatusError || !strings.Contains(env.Text, tt.want) || tt.notWant != "" && strings.Contains(env.Text, tt.notWant) {
				t.Errorf("%s (%s): got %s %q; want %q without %q", tt.options, tt.reason, env.Status, env.Text, tt.want, tt.notWant)
			}
			continue
		}
		if env.Status != scout.StatusError || env.Error.Code != tt.code || !strings.Contains(env.Error.Message, tt.want) {
			t.Errorf("%s (%s): got %s %+v; want %s containing %q", tt.options, tt.reason, env.Status, env.Error, tt.code, tt.want)
		}
		if !strings.Contains(string(envelopeJSON(env)), `"params_input":`+tt.args) {
			t.Errorf("%s (%s): the error Envelope does not echo the arguments: %s", tt.options, tt.reason, envelopeJSON(env))
		}
	}
}

// blockingServer answers no request until the test ends or the client
// gives up; it counts the requests it got.
func blockingServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	return srv, &n
}

func TestCancel(t *testing.T) {
	root := testTree(t)
	srv, requests := blockingServer(t)
	const id = 4242
	done := make(chan *scout.Envelope)
	go func() {
		done <- call("pi", "read", `{"path":"`+srv.URL+`/slow"}`, root, `{"call_id":4242,"allow_private_network":true}`)
	}()
	// Wait until the request is in flight, so that the call is running.
	for requests.Load() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	if env := call("pi", "read", `{"path":"a.txt"}`, root, `{"call_id":4242}`); env.Status != scout.StatusError || !strings.Contains(env.Text, "call_id 4242 is already used") {
		t.Errorf("a second call with a running id: %s %q", env.Status, env.Text)
	}
	if env := cancelCall(id); env.Status != scout.StatusSuccess || !strings.Contains(string(envelopeJSON(env)), `"canceled":true`) {
		t.Fatalf("cancel: %s", envelopeJSON(env))
	}
	select {
	case env := <-done:
		if env.Status != scout.StatusError || env.Error.Code != scout.CodeCanceled {
			t.Errorf("the canceled call returned %s", envelopeJSON(env))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the canceled call did not return")
	}
	if env := cancelCall(id); env.Status != scout.StatusError || env.Error.Code != scout.CodeNotFound {
		t.Errorf("cancel after the call returned: %s", envelopeJSON(env))
	}
	if env := cancelCall(777); env.Status != scout.StatusError || env.Error.Code != scout.CodeNotFound || !strings.Contains(env.Text, "No running call has call_id 777") {
		t.Errorf("cancel of an unknown id: %s", envelopeJSON(env))
	}
	for _, bad := range []int64{0, -1, -9223372036854775808} {
		env := cancelCall(bad)
		if env.Status != scout.StatusError || env.Error.Code != scout.CodeInvalidParam || !strings.Contains(env.Text, "call ids are positive integers") || strings.Contains(env.Text, "not started") {
			t.Errorf("cancel of id %d: %s; want INVALID_PARAM saying ids are positive", bad, envelopeJSON(env))
		}
	}
	// The id is free again.
	if env := call("pi", "read", `{"path":"a.txt"}`, root, `{"call_id":4242}`); env.Status != scout.StatusSuccess {
		t.Errorf("reusing a finished call's id: %s %q", env.Status, env.Text)
	}
}

func TestTimeout(t *testing.T) {
	srv, _ := blockingServer(t)
	start := time.Now()
	env := call("pi", "read", `{"path":"`+srv.URL+`/slow"}`, testTree(t), `{"timeout_ms":100,"allow_private_network":true}`)
	if env.Status != scout.StatusError || env.Error.Code != scout.CodeTimeout {
		t.Errorf("timeout_ms: got %s", envelopeJSON(env))
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("timeout_ms 100 took %v", d)
	}
}

// TestParamsRedacted: an Envelope of the C shim, the tool's or the
// shim's own error, echoes a URL's password redacted.
func TestParamsRedacted(t *testing.T) {
	root := testTree(t)
	const args = `{"path":"https://user:secret@example.com/x"}`
	for _, options := range []string{`{"no_web":true}`, `{"style":"fancy"}`} {
		b := string(envelopeJSON(call("pi", "read", args, root, options)))
		if !strings.Contains(b, `"params_input":{"path":"https://user:xxxxx@example.com/x"}`) || strings.Contains(b, "secret") {
			t.Errorf("%s: the Envelope does not echo the URL redacted: %s", options, b)
		}
	}
}

// TestURLCache: a loopback URL is refused unless allow_private_network;
// paging a web page reads it from the process's cache.
func TestURLCache(t *testing.T) {
	srvURL, requests := testfs.PageServer(t)
	root := testTree(t)
	if env := call("pi", "read", `{"path":"`+srvURL+`/page.txt"}`, root, ""); env.Status != scout.StatusError || env.Error.Code != scout.CodeAccessDenied ||
		!strings.Contains(env.Text, "127.0.0.1 is a loopback address") || requests.Load() != 0 {
		t.Fatalf("a loopback URL without allow_private_network: %s", envelopeJSON(env))
	}
	const allow = `{"allow_private_network":true}`
	first := call("pi", "read", `{"path":"`+srvURL+`/page.txt"}`, root, allow)
	if first.Status == scout.StatusError || !strings.Contains(first.Text, "line 1") {
		t.Fatalf("first read: %s", envelopeJSON(first))
	}
	next := call("pi", "read", `{"path":"`+srvURL+`/page.txt:301"}`, root, allow)
	if next.Status == scout.StatusError || !strings.Contains(next.Text, "line 301") {
		t.Fatalf("paged read: %s", envelopeJSON(next))
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("%d requests for one page read twice: the second should come from the cache", n)
	}
}

// TestConcurrentCalls: many calls at once, some with ids, some canceled.
func TestConcurrentCalls(t *testing.T) {
	root := testTree(t)
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			opts := fmt.Sprintf(`{"call_id":%d}`, 10000+i)
			env := call("pi", []string{"find", "search", "read"}[i%3], []string{`{"paths":["**/*.go"]}`, `{"paths":".","pattern":"func"}`, `{"path":"."}`}[i%3], root, opts)
			if env.Status == scout.StatusError && env.Error.Code != scout.CodeCanceled {
				t.Errorf("call %d: %s", i, envelopeJSON(env))
			}
			cancelCall(int64(10000 + (i+1)%100)) // may or may not find it running
		}()
	}
	wg.Wait()
}

// TestGuard: a panic behind an exported function is an INTERNAL_ERROR
// Envelope for the caller, not a crash of the host.
func TestGuard(t *testing.T) {
	var env scout.Envelope
	if err := json.Unmarshal(guard("scout_call", func() []byte { panic("kaboom") }), &env); err != nil {
		t.Fatal(err)
	}
	if env.Status != scout.StatusError || env.Error == nil || env.Error.Code != scout.CodeInternal || !strings.Contains(env.Error.Message, "Internal error in scout_call: kaboom") {
		t.Errorf("a panic gave %+v", env)
	}
	if got := string(guard("scout_call", func() []byte { return []byte(`{"status":"success"}`) })); got != `{"status":"success"}` {
		t.Errorf("guard changed a result: %s", got)
	}
}

// TestDefaultsMatchGo: a call without options answers as Go's tool.Call
// with the zero Config (the tools' own defaults), for every tool: hidden
// files, ignore files, node_modules, context lines, the read limit.
func TestDefaultsMatchGo(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	root := testfs.WriteDir(t, fstest.MapFS{
		".git/HEAD":            {Data: []byte("ref: refs/heads/main\n")},
		".gitignore":           {Data: []byte("ignored.txt\n")},
		"ctx.txt":              {Data: []byte("b2\nb1\nneedle here\na1\na2\na3\na4\n")},
		".hidden/h.txt":        {Data: []byte("needle hidden\n")},
		"ignored.txt":          {Data: []byte("needle ignored\n")},
		"node_modules/m/n.txt": {Data: []byte("needle module\n")},
		"long.txt":             {Data: []byte(long.String())},
	})
	for _, c := range []struct{ toolset, name, args string }{
		{"pi", "search", `{"paths": ".", "pattern": "needle"}`},
		{"pi", "find", `{"paths": ["*.txt"]}`},
		{"pi", "read", `{"path": "long.txt"}`},
		{"amplifier", "grep", `{"pattern": "needle", "output_mode": "content"}`},
		{"amplifier", "glob", `{"pattern": "**/*.txt"}`},
		{"standardized", "Glob", `{"pattern": "**/*.txt"}`},
	} {
		got := testfs.Untimed(t, envelopeJSON(call(c.toolset, c.name, c.args, root, "")))
		want := testfs.Untimed(t, tool.Call(context.Background(), tool.Config{Root: root}, c.toolset, c.name, []byte(c.args)))
		assert.Equal(t, want, got, "%s/%s %s: the C shim answers what Go answers", c.toolset, c.name, c.args)
	}
}

// TestHostGCSettings: loading the library changes none of the host's
// process-wide garbage collector settings (the scout command sets its own;
// a library must not): this test process ran the shim's init and that of
// every package it imports.
func TestHostGCSettings(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") == "" {
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("memory limit %d, want Go's default (none)", got)
		}
	}
	if os.Getenv("GOGC") == "" {
		if got := debug.SetGCPercent(100); got != 100 {
			debug.SetGCPercent(got)
			t.Errorf("GOGC %d, want Go's default 100", got)
		}
	}
}

// TestArgsCap: json_args over 16 MiB are refused before they are parsed,
// as scout call and scout mcp refuse such a message (100 MB of arguments
// took 1.45 GB resident to refuse, with a 100 MB reply echoing them).
func TestArgsCap(t *testing.T) {
	root := testTree(t)
	pad := func(n int) string {
		head, tail := `{"path":"a.txt","x":"`, `"}`
		return head + strings.Repeat("a", n-len(head)-len(tail)) + tail
	}
	tests := []struct {
		args, want string
		params     bool // the Envelope echoes the arguments
	}{
		{pad(16 << 20), "Unknown argument 'x'", true},
		{pad(16<<20 + 1), "json_args is 16777217 bytes, over the limit of 16 MiB", false},
	}
	for _, tt := range tests {
		env := call("pi", "read", tt.args, root, "")
		if env.Status != scout.StatusError || env.Error.Code != scout.CodeInvalidParam || !strings.Contains(env.Error.Message, tt.want) {
			t.Errorf("%d bytes: %s %+v, want INVALID_PARAM %q", len(tt.args), env.Status, env.Error, tt.want)
		}
		if got := len(env.Context.ParamsInput) > 4; got != tt.params {
			t.Errorf("%d bytes: params_input echoed %v, want %v", len(tt.args), got, tt.params)
		}
	}
}

// TestHeaderDocumentsOptions checks that the header (the cgo preamble of
// main.go, which the build copies into libscout.h) and the error messages'
// list name every option scout_call_opts accepts.
func TestHeaderDocumentsOptions(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(src), "/*\n")
	end := strings.Index(string(src), "*/\nimport \"C\"")
	if start < 0 || end < start {
		t.Fatal("main.go has no cgo preamble")
	}
	preamble := string(src[start:end])
	typ := reflect.TypeFor[options]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if !strings.Contains(preamble, `//     "`+name+`":`) {
			t.Errorf("the header does not document the option %q", name)
		}
		if !strings.Contains(", "+optionNames+", ", ", "+name+", ") {
			t.Errorf("optionNames lacks %q", name)
		}
	}
}

// TestHostile builds testdata/hostile.c against the library and runs it:
// NULL, empty, non-UTF-8, huge and deeply nested inputs in every position,
// unknown names, bad options and call ids, from one thread and from eight
// at once, each must get an Envelope saying what to fix.
func TestHostile(t *testing.T) {
	lib, cc := buildLib(t)
	bin := filepath.Join(lib, "hostile")
	build := exec.Command(cc, "-Wall", "-Wextra", "-Werror", "-o", bin, filepath.Join("testdata", "hostile.c"),
		"-I"+lib, "-L"+lib, "-lscout", "-lpthread", "-Wl,-rpath,"+lib)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, testTree(t)).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "hostile: ok") {
		t.Fatalf("hostile: %v\n%s", err, out)
	}
}

// TestInputEcho: an input of any size is refused or quoted in a short
// error: options over maxOptions are refused unread, a long toolset, tool,
// root, option name or value is quoted cut (a 20 MiB toolset made a 40 MB
// error, 20 MiB of options took 13 s).
func TestInputEcho(t *testing.T) {
	root := testTree(t)
	long := strings.Repeat("x", 1<<20)
	tests := []struct {
		name, toolset, tool, root, options, want string
	}{
		{"options over the limit", "pi", "read", root, `{"style":"` + strings.Repeat("x", maxOptions) + `"}`, "options is 65548 bytes, over the limit of 64 KiB"},
		{"options at the limit", "pi", "read", root, `{"style":"` + strings.Repeat("x", maxOptions-12) + `"}`, `option 'style' must be "hashline", "numbered" or "plain", got "xxx`},
		{"a long unknown option", "pi", "read", root, `{"` + strings.Repeat("x", 60000) + `":1}`, "options: json: unknown field \"xxx"},
		{"a long repeated option", "pi", "read", root, `{"` + strings.Repeat("x", 30000) + `":1,"` + strings.Repeat("x", 30000) + `":1}`, "option 'xxx"},
		{"a long toolset", long, "read", root, "", "Unknown toolset 'xxx"},
		{"a long tool", "pi", long, root, "", "Unknown tool 'xxx"},
		{"a long root", "pi", "read", long, "", "root 'xxx"},
		{"a long root that does not exist", "pi", "read", "/" + strings.Repeat("x/", 1<<19), "", "root '/x/x"},
		{"a tool with a line break", "pi", "read\nStatus: ok", root, "", `Unknown tool '"read\nStatus: ok"'`},
	}
	for _, tt := range tests {
		env := call(tt.toolset, tt.tool, `{"path":"a.txt"}`, tt.root, tt.options)
		if env.Status != scout.StatusError || !strings.Contains(env.Error.Message, tt.want) {
			t.Errorf("%s: %s %.300q, want an error with %q", tt.name, env.Status, env.Text, tt.want)
		}
		if len(env.Text) > 1024 || len(env.Error.Message) > 1024 {
			t.Errorf("%s: a %d-byte error: %.300q…", tt.name, len(env.Text), env.Text)
		}
	}
}

// TestByteOrderMark: a byte order mark before the JSON of json_args or
// options (after white space, if any) is skipped, as scout mcp skips one
// before a message; the Envelope echoes the arguments without it. One
// elsewhere is still an error.
func TestByteOrderMark(t *testing.T) {
	root := testTree(t)
	const bom = "\uFEFF"
	tests := []struct {
		args, options, want string // want: in the text, or the error message
		params              string // the arguments echoed; "" when as given
		ok                  bool
	}{
		{bom + `{"path":"a.txt"}`, "", "one", `{"path":"a.txt"}`, true},
		{" \n" + bom + ` {"path":"a.txt"}`, "", "one", ` {"path":"a.txt"}`, true},
		{bom, "", "Path must not be empty", `{}`, false},
		{`{"path":"a.txt"}`, bom + `{"style":"numbered"}`, "1|one", "", true},
		{`{"path":"a.txt"}`, "\t" + bom + "\t" + `{"read_limit":1}`, "Use :2 to continue", "", true},
		{bom + bom + `{"path":"a.txt"}`, "", "Arguments are not valid JSON", "null", false},
		{`{` + bom + `"path":"a.txt"}`, "", "Arguments are not valid JSON", "null", false},
		{`{"path":"a.txt"}`, bom + bom + `{}`, "options must be a JSON object", "", false},
	}
	for _, tt := range tests {
		env := call("pi", "read", tt.args, root, tt.options)
		if got := env.Status != scout.StatusError; got != tt.ok {
			t.Errorf("%q, %q: %s %q, want ok %v", tt.args, tt.options, env.Status, env.Text, tt.ok)
		}
		if !strings.Contains(env.Text, tt.want) {
			t.Errorf("%q, %q: %q, want %q in it", tt.args, tt.options, env.Text, tt.want)
		}
		params := tt.params
		if params == "" {
			params = tt.args
		}
		if string(env.Context.ParamsInput) != params {
			t.Errorf("%q, %q: params_input %s, want %s", tt.args, tt.options, env.Context.ParamsInput, params)
		}
	}
}
