package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoutkit/scout/internal/mcpserver"
	"github.com/scoutkit/scout/tool"
)

func TestCallCommand(t *testing.T) {
	root := writeTree(t, map[string][]byte{"a.go": []byte("package a\n"), "b/c.go": []byte("package b\n")})
	tests := []struct {
		args   []string
		stdin  string
		code   int
		status string // the Envelope's status; "" when no Envelope is printed
		want   string // in stdout (or stderr for usage errors)
		reason string
	}{
		{[]string{"--root", root, "find", `{"paths": ["**/*.go"]}`}, "", 0, "success", "c.go", "success"},
		{[]string{"find", `{"paths": ["**/*.go"], "limit": 1}`, "--root", root}, "", 0, "partial", "limit reached", "partial; flags after the arguments"},
		{[]string{"--root", root, "find", "-"}, `{"paths": ["a.go"]}`, 0, "success", "a.go", "arguments from stdin"},
		{[]string{"--root", root, "find", `{"paths": 3}`}, "", 1, "error", "'paths'", "wrong field type: exit 1, Envelope printed"},
		{[]string{"--root", root, "find", `{not json`}, "", 1, "error", "not valid JSON", "arguments that are not JSON"},
		{[]string{"--root", root, "find", "-"}, "\uFEFF" + `{"paths": ["a.go"]}`, 0, "success", "a.go", "a byte order mark before the arguments on stdin is skipped, as scout mcp and the C shim skip one"},
		{[]string{"--root", root, "find", "\uFEFF" + `{"paths": ["a.go"]}`}, "", 0, "success", "a.go", "a byte order mark before the JSON argument is skipped"},
		{[]string{"--root", root, "nope"}, "", 1, "error", "Unknown tool 'nope'", "unknown tool"},
		{[]string{"--toolset", "nope", "--root", root, "find", "{}"}, "", 2, "", "Unknown toolset 'nope'", "unknown toolset: a usage error, as in tools and mcp"},
		{[]string{"--toolset", "standardized", "--root", root, "Glob", `{"pattern": "**/*.go"}`}, "", 0, "success", "b/c.go", "standardized toolset"},
		{[]string{"--toolset=standardized", "--root=" + root, "Glob", `{"pattern": "*.go"}`}, "", 0, "success", "a.go", "--flag=value spelling"},
		{[]string{"Glob", "--toolset", "standardized", `{"pattern": "**/*.go", "limit": 1}`, "--root", root}, "", 0, "partial", "[Truncated: showing the first 1 of 2", "flags between and after the arguments; a partial Glob exits 0"},
		{[]string{"--toolset", "standardized", "--root", root, "Glob"}, "", 1, "error", "Missing required parameter 'pattern'.", "JSON left out: the arguments are {}"},
		{[]string{"--toolset", "standardized", "--root", root, "Glob", "-"}, `{"pattern": "b/*.go"}`, 0, "success", "b/c.go", "Glob's arguments from stdin"},
		{[]string{"--toolset", "standardized", "--root", root, "Glob", "-"}, "{\"pattern\": \"b/*.go\"}\n", 0, "success", "b/c.go", "arguments from stdin as echo writes them, with a newline"},
		{[]string{"--toolset", "standardized", "--root", root, "Glob", "-"}, " \n", 1, "error", "Missing required parameter 'pattern'.", "nothing but white space on stdin: the arguments are {}"},
		{[]string{"--toolset", "standardized", "--root", root, "Glob", `{"pattern": "*", "path": "nope"}`}, "", 1, "error", "Search root 'nope' does not exist.", "a Glob error: exit 1, Envelope printed"},
		{[]string{"--root", filepath.Join(root, "missing"), "find", "{}"}, "", 2, "", "no such file", "root that does not exist: usage error"},
		{[]string{}, "", 2, "", "scout call: want TOOL", "no tool"},
		{[]string{"--root", root, "find", "{}", "extra"}, "", 2, "", "scout call: want TOOL and at most one JSON argument", "too many arguments"},
		{[]string{"--root", root, "read", "-"}, `{"path": "` + strings.Repeat("a", mcpserver.MaxMessage) + `"}`, 2, "", "scout call: the arguments on stdin are over 16 MiB", "arguments over mcp's message cap: refused before decoding (300 MB took 1.2 GB and 22 s)"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		code := run(append([]string{"call"}, tt.args...), strings.NewReader(tt.stdin), &out, &errb)
		if code != tt.code {
			t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", tt.reason, code, tt.code, &out, &errb)
			continue
		}
		if tt.status == "" {
			if !strings.Contains(errb.String(), tt.want) || out.Len() != 0 {
				t.Errorf("%s: stderr %q, stdout %q; want %q on stderr only", tt.reason, &errb, &out, tt.want)
			}
			continue
		}
		var env struct {
			Status string `json:"status"`
			Text   string `json:"text"`
		}
		if err := json.Unmarshal(out.Bytes(), &env); err != nil {
			t.Errorf("%s: stdout is not one Envelope: %v\n%s", tt.reason, err, &out)
			continue
		}
		if env.Status != tt.status || !strings.Contains(env.Text, tt.want) {
			t.Errorf("%s: status %s text %q; want %s containing %q", tt.reason, env.Status, env.Text, tt.status, tt.want)
		}
	}
}

// TestToolsCommand: `scout tools` prints each toolset's definitions, the
// committed testdata/tools/NAME.json (kept fresh by tool's
// TestDefinitionsSnapshot) byte for byte.
func TestToolsCommand(t *testing.T) {
	for _, ts := range tool.Toolsets() {
		var out, errb bytes.Buffer
		if code := run([]string{"tools", "--toolset", ts}, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("tools --toolset %s: exit %d: %s", ts, code, &errb)
		}
		snapshot, err := os.ReadFile(filepath.Join("..", "..", "testdata", "tools", ts+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), snapshot) {
			t.Errorf("tools --toolset %s differs from testdata/tools/%s.json", ts, ts)
		}
		var defs []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		}
		if err := json.Unmarshal(out.Bytes(), &defs); err != nil {
			t.Fatalf("tools --toolset %s: %v\n%s", ts, err, &out)
		}
		want, _ := tool.Tools(ts)
		if len(defs) != len(want) {
			t.Fatalf("tools --toolset %s: %d definitions, want %d", ts, len(defs), len(want))
		}
		for i, d := range defs {
			if d.Name != want[i].Name || d.Description != want[i].Description || comparableJSON(t, d.InputSchema) != comparableJSON(t, want[i].Schema) {
				t.Errorf("tools --toolset %s: definition %d is %s, want %s with its description and schema", ts, i, d.Name, want[i].Name)
			}
		}
	}
	for _, tt := range []struct {
		args   []string
		want   string
		reason string
	}{
		{[]string{"--toolset", "nope"}, "Unknown toolset 'nope'", "unknown toolset"},
		{[]string{"extra"}, "scout tools: takes no arguments", "positional argument"},
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"tools"}, tt.args...), strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", tt.reason, code, &errb, tt.want)
		}
	}
}
