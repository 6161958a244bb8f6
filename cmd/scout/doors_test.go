package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/internal/testfs"
	"github.com/scoutkit/scout/tool"
)

// doorsTree is a git work tree with what the defaults decide on: a hidden
// file, an ignored file, node_modules, a file over the 10 MB size cap, a
// match with more context than the defaults show, a file longer than the
// read limit.
func doorsTree(t *testing.T) string {
	t.Helper()
	var long strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	files := map[string][]byte{
		".git/HEAD":            []byte("ref: refs/heads/main\n"),
		".gitignore":           []byte("ignored.txt\n"),
		"ctx.txt":              []byte("b2\nb1\nneedle here\na1\na2\na3\na4\n"),
		".hidden/h.txt":        []byte("needle hidden\n"),
		"ignored.txt":          []byte("needle ignored\n"),
		"node_modules/m/n.txt": []byte("needle module\n"),
		"long.txt":             []byte(long.String()),
	}
	for i := 1; i <= 350; i++ { // a listing of 351 rows
		files[fmt.Sprintf("rows/r%03d", i)] = nil
	}
	root := writeTree(t, files)
	big, err := os.Create(filepath.Join(root, "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer big.Close()
	if _, err := big.WriteString("needle big\n"); err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(10<<20 + 1); err != nil { // one byte over the cap
		t.Fatal(err)
	}
	return root
}

// doorCalls are a call of each tool for each toolset, with only the
// arguments a tool requires: every other argument is its default.
var doorCalls = []struct{ toolset, name, args string }{
	{"pi", "search", `{"paths": ".", "pattern": "needle"}`},
	{"pi", "find", `{"paths": ["*.txt"]}`},
	{"pi", "read", `{"path": "long.txt"}`},
	{"pi", "read", `{"path": "."}`},
	{"amplifier", "grep", `{"pattern": "needle"}`},
	{"amplifier", "grep", `{"pattern": "needle", "output_mode": "content"}`},
	{"amplifier", "glob", `{"pattern": "**/*.txt"}`},
	{"standardized", "Glob", `{"pattern": "**/*.txt"}`},
}

// TestDoorsAgree: a tool answers a call the same through every door that
// takes tool arguments: Go (tool.Call with the zero Config, the tools'
// own defaults), `scout call` and `scout mcp` (as their flags leave the
// settings). The C shim's door is checked by the cshim package's tests.
func TestDoorsAgree(t *testing.T) {
	root := doorsTree(t)
	ctx := context.Background()
	sessions := map[string]*mcp.ClientSession{}
	for _, c := range doorCalls {
		goEnv := testfs.Untimed(t, tool.Call(ctx, tool.Config{Root: root}, c.toolset, c.name, []byte(c.args)))

		code, out, errb := runCLI("call", "--toolset", c.toolset, "--root", root, c.name, c.args)
		if code != 0 {
			t.Fatalf("call %s %s: exit %d: %s", c.name, c.args, code, errb)
		}
		assert.Equal(t, goEnv, testfs.Untimed(t, []byte(out)), "%s/%s %s: scout call answers what Go answers", c.toolset, c.name, c.args)

		cs := sessions[c.toolset]
		if cs == nil {
			cs = mcpInProcess(t, "--toolset", c.toolset, "--root", root)
			sessions[c.toolset] = cs
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: json.RawMessage(c.args)})
		if err != nil {
			t.Fatal(err)
		}
		assert.Equal(t, goEnv, testfs.Untimed(t, res.StructuredContent), "%s/%s %s: scout mcp answers what Go answers", c.toolset, c.name, c.args)
	}
}

// mcpInProcess runs `scout mcp ARGS` in process on pipes and connects the
// SDK's client to it.
func mcpInProcess(t *testing.T, args ...string) *mcp.ClientSession {
	t.Helper()
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(append([]string{"mcp"}, args...), serverIn, serverOut, io.Discard)
		serverOut.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "doors"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		if code := <-done; code != 0 {
			t.Errorf("scout mcp exited %d", code)
		}
	})
	return cs
}

// TestCommandDefaults: the human commands decide what the tool they stand
// for decides, on each default: hidden files, ignore files, node_modules,
// the size cap, the context lines, the read limit, the directories a
// listing leaves out, the suffix match of a missing path. Their only
// departures (search prints every match, unpaged) are in their help.
func TestCommandDefaults(t *testing.T) {
	root := doorsTree(t)
	tests := []struct {
		reason    string
		cli       []string
		tool      string // pi tool
		args      string
		want, not []string
	}{
		{"search: hidden files are searched", []string{"search", "needle"}, "search", `{"paths": ".", "pattern": "needle"}`,
			[]string{"h.txt", "*1:needle hidden"}, nil},
		{"search: ignored files, node_modules and files over 10 MB are not", []string{"search", "needle"}, "search", `{"paths": ".", "pattern": "needle"}`,
			nil, []string{"ignored", "module", "big"}},
		{"search: 1 line of context before a match, 3 after", []string{"search", "needle", "ctx.txt"}, "search", `{"pattern": "needle", "paths": ["ctx.txt"]}`,
			[]string{"2:b1\n*3:needle here\n4:a1\n5:a2\n6:a3"}, []string{"b2", "a4"}},
		{"find: hidden entries are listed, ignored ones and node_modules are not", []string{"find", "*.txt"}, "find", `{"paths": ["*.txt"]}`,
			[]string{"h.txt", "ctx.txt"}, []string{"ignored.txt", "n.txt"}},
		{"read: 300 lines", []string{"read", "long.txt"}, "read", `{"path": "long.txt"}`,
			[]string{"300:line 300", "Use :301 to continue"}, []string{"301:line 301"}},
		{"read: a listing without a selector shows more than 300 rows", []string{"read", "rows"}, "read", `{"path": "rows"}`,
			[]string{"- r001", "- r350"}, []string{"Showing lines", "to continue"}},
		{"read: a listing leaves out pi's directories", []string{"read", "."}, "read", `{"path": "."}`,
			[]string{"- long.txt", "Not listed: .git/, node_modules/ (always pruned)]"}, []string{"- node_modules/"}},
		{"read: a missing path is found by a unique suffix match", []string{"read", "h.txt"}, "read", `{"path": "h.txt"}`,
			[]string{"[Path 'h.txt' not found; resolved to '.hidden/h.txt' via suffix match]", "1:needle hidden"}, nil},
	}
	for _, tt := range tests {
		code, out, errb := runCLI(append(tt.cli, "--root", root)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.cli, code, errb)
		}
		env := tool.Call(context.Background(), tool.Config{Root: root}, tool.Pi, tt.tool, []byte(tt.args))
		for door, text := range map[string]string{"scout " + tt.cli[0]: out, "the " + tt.tool + " tool": env.Text} {
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("%s: %s lacks %q:\n%s", tt.reason, door, w, text)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(text, n) {
					t.Errorf("%s: %s holds %q:\n%s", tt.reason, door, n, text)
				}
			}
		}
	}
}

// TestSharedFlagsTakeEffect: --style, --context-before, --context-after and
// --read-limit set pi's search and read alike through the human commands,
// `scout call` and `scout mcp`, spelled --flag value or --flag=value.
func TestSharedFlagsTakeEffect(t *testing.T) {
	root := writeTree(t, map[string][]byte{
		"ctx.txt":  []byte("b3\nb2\nb1\nneedle\na1\na2\na3\n"),
		"long.txt": []byte("l1\nl2\nl3\nl4\n"),
	})
	const (
		search = "2|b2\n3|b1\n*4|needle\n5|a1"
		read   = "l1\nl2\n\n[Showing lines 1-2 of 4. Use :3 to continue]"
	)
	for _, flags := range [][]string{
		{"--style", "plain", "--context-before", "2", "--context-after", "1", "--read-limit", "2"},
		{"--style=plain", "--context-before=2", "--context-after=1", "--read-limit=2"},
	} {
		withRoot := append([]string{"--root", root}, flags...)
		for _, tt := range []struct {
			args []string
			want string
		}{
			{[]string{"search", "needle", "ctx.txt"}, search + "\n"},
			{[]string{"read", "long.txt"}, read + "\n"},
		} {
			code, out, errb := runCLI(append(tt.args, withRoot...)...)
			if code != 0 || out != tt.want {
				t.Errorf("scout %v %v: exit %d %q %s; want %q", tt.args, flags, code, out, errb, tt.want)
			}
		}
		cs := mcpInProcess(t, withRoot...)
		for _, tt := range []struct{ name, args, want string }{
			{"search", `{"pattern": "needle", "paths": "ctx.txt"}`, search},
			{"read", `{"path": "long.txt"}`, read},
		} {
			var env struct {
				Text string `json:"text"`
			}
			code, out, errb := runCLI(append(append([]string{"call"}, withRoot...), tt.name, tt.args)...)
			if err := json.Unmarshal([]byte(out), &env); code != 0 || err != nil || env.Text != tt.want {
				t.Errorf("scout call %v %s: exit %d %q %s; want the text %q", flags, tt.name, code, out, errb, tt.want)
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.name, Arguments: json.RawMessage(tt.args)})
			if err != nil {
				t.Fatal(err)
			}
			js, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(js, &env); err != nil || env.Text != tt.want {
				t.Errorf("scout mcp %v %s: %s; want the text %q", flags, tt.name, js, tt.want)
			}
		}
	}
}
