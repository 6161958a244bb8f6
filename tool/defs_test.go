package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

var updateDefs = flag.Bool("update-defs", false, "rewrite testdata/tools/*.json from the registered tools")

// TestDefinitionsSnapshot fails when the committed tool definitions
// (testdata/tools/<toolset>.json, what `scout tools` prints) are stale.
// Run `go test ./tool -run TestDefinitionsSnapshot -update-defs` after
// changing a tool's name, description or schema.
func TestDefinitionsSnapshot(t *testing.T) {
	for _, ts := range Toolsets() {
		defs, err := AnthropicTools(ts)
		if err != nil {
			t.Fatal(err)
		}
		// As `scout tools` prints them: indented, '<', '>' and '&' unescaped.
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(defs); err != nil {
			t.Fatal(err)
		}
		got := b.Bytes()
		file := filepath.Join("..", "testdata", "tools", ts+".json")
		if *updateDefs {
			os.MkdirAll(filepath.Dir(file), 0o755)
			if err := os.WriteFile(file, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v; run with -update-defs to create it", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: the %s tool definitions changed. Run: go test ./tool -run TestDefinitionsSnapshot -update-defs", file, ts)
		}
	}
}

func TestDefinitionShapes(t *testing.T) {
	for _, ts := range Toolsets() {
		oa, err := OpenAITools(ts)
		if err != nil {
			t.Fatal(err)
		}
		tools, _ := Tools(ts)
		if len(oa) != len(tools) {
			t.Fatalf("%s: %d OpenAI tools for %d tools", ts, len(oa), len(tools))
		}
		for i, o := range oa {
			var schema map[string]any
			if err := json.Unmarshal(o.Function.Parameters, &schema); err != nil || schema["type"] != "object" {
				t.Errorf("%s/%s: parameters are not an object schema: %s", ts, o.Function.Name, o.Function.Parameters)
			}
			if o.Type != "function" || o.Function.Name != tools[i].Name || o.Function.Description == "" {
				t.Errorf("%s: bad OpenAI shape %+v", ts, o)
			}
		}
	}
	if _, err := OpenAITools("nope"); err == nil {
		t.Error("unknown toolset accepted")
	}
}

// TestCallAsDelivered runs tool calls as the model APIs deliver them: a
// name from the definitions and the arguments as JSON text.
func TestCallAsDelivered(t *testing.T) {
	cfg := Config{FS: fstest.MapFS{"a.go": {Data: []byte("package a\n")}}}
	tests := []struct {
		toolset, name, args string
		code                scout.Code // "" for success
		want                string     // in the text
	}{
		{Pi, "find", `{"paths": ["*.go"]}`, "", "a.go"},
		{Amplifier, "grep", `{"pattern": "package", "output_mode": "content"}`, "", "a.go"},
		{Standardized, "Glob", `{"pattern": "*.go"}`, "", "a.go"},
		{Pi, "nope", `{}`, scout.CodeInvalidParam, "Unknown tool 'nope' in toolset 'pi'; tools: find, read, search."},
		{"nope", "find", `{}`, scout.CodeInvalidParam, "Unknown toolset 'nope'"},
		{Pi, "find", `{"paths": [`, scout.CodeInvalidParam, "not valid JSON"},
		{Pi, "find", `"*.go"`, scout.CodeInvalidParam, "JSON object"},
		{Pi, "find", `{"paths": 3}`, scout.CodeInvalidParam, "'paths'"},
	}
	for _, tt := range tests {
		env := Call(context.Background(), cfg, tt.toolset, tt.name, []byte(tt.args))
		switch {
		case tt.code == "" && (env.Status != scout.StatusSuccess || !strings.Contains(env.Text, tt.want)):
			t.Errorf("%s/%s %s: %s %q; want success with %q", tt.toolset, tt.name, tt.args, env.Status, env.Text, tt.want)
		case tt.code != "" && (env.Status != scout.StatusError || env.Error.Code != tt.code || !strings.Contains(env.Text, tt.want)):
			t.Errorf("%s/%s %s: %s %q; want %s with %q", tt.toolset, tt.name, tt.args, env.Status, env.Text, tt.code, tt.want)
		}
	}
}

// TestContractParamDescriptions pins the parameter descriptions the
// contracts spell out word for word (the standardized Glob's schema,
// amplifier grep's parameter list), and the defaults they state.
func TestContractParamDescriptions(t *testing.T) {
	tests := []struct {
		toolset, tool, param, desc string
	}{
		{Standardized, "Glob", "pattern", "Glob pattern relative to the search root (path), e.g. '**/*.js'."},
		{Standardized, "Glob", "path", "Directory to start search from (relative to project root)."},
		{Standardized, "Glob", "limit", "Max matches to return (1-200)."},
		{Standardized, "Glob", "include_hidden", "If true, include hidden files and directories."},
		{Standardized, "Glob", "include_ignored", "If true, traverse ignored directories (node_modules, dist, etc)."},
		{Amplifier, "grep", "pattern", "Regular expression pattern to search for"},
		{Amplifier, "grep", "path", "File or directory to search (default: current directory)"},
		{Amplifier, "grep", "output_mode", `Output format - "content" (matching lines), "files_with_matches" (file paths only), or "count" (match counts). Default: files_with_matches`},
		{Amplifier, "grep", "-i", "Case insensitive search"},
		{Amplifier, "grep", "-n", "Show line numbers (default: true for content mode)"},
		{Amplifier, "grep", "-A", "Lines of context after each match"},
		{Amplifier, "grep", "-B", "Lines of context before each match"},
		{Amplifier, "grep", "-C", "Lines of context before and after each match"},
		{Amplifier, "grep", "glob", `Glob pattern to filter files (e.g., "*.py", "*.{ts,tsx}")`},
		{Amplifier, "grep", "type", `File type to search (e.g., "js", "py", "rust") - more efficient than glob`},
		{Amplifier, "grep", "multiline", "Enable multiline mode for cross-line patterns"},
		{Amplifier, "grep", "head_limit", "Limit output to first N results (default: 0 = unlimited). Use with `total_matches` to implement pagination."},
		{Amplifier, "grep", "offset", "Skip first N results before applying head_limit (default: 0)"},
	}
	for _, tt := range tests {
		t.Run(tt.toolset+"/"+tt.tool+"/"+tt.param, func(t *testing.T) {
			tl, err := Lookup(tt.toolset, tt.tool)
			if err != nil {
				t.Fatal(err)
			}
			var schema struct {
				Properties map[string]struct {
					Description string `json:"description"`
				} `json:"properties"`
			}
			if err := json.Unmarshal(tl.Schema, &schema); err != nil {
				t.Fatal(err)
			}
			if got := schema.Properties[tt.param].Description; got != tt.desc {
				t.Errorf("description:\n got %q\nwant %q", got, tt.desc)
			}
		})
	}
}

// TestStdGlobSchema pins the types and defaults of seed 002's schema
// (§2.2), and its required list; the descriptions are pinned above.
func TestStdGlobSchema(t *testing.T) {
	tl, err := Lookup(Standardized, "Glob")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Type       string `json:"type"`
		Properties map[string]struct {
			Type    string          `json:"type"`
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(tl.Schema, &schema); err != nil {
		t.Fatal(err)
	}
	if schema.Type != "object" || len(schema.Required) != 1 || schema.Required[0] != "pattern" {
		t.Errorf("type %q, required %q; want object and [pattern]", schema.Type, schema.Required)
	}
	tests := []struct{ param, typ, def string }{ // def: the default as JSON; "" for none
		{"pattern", "string", ""},
		{"path", "string", `"."`},
		{"limit", "integer", "50"},
		{"include_hidden", "boolean", "false"},
		{"include_ignored", "boolean", "false"},
	}
	if len(schema.Properties) != len(tests) {
		t.Errorf("%d properties, want the contract's %d", len(schema.Properties), len(tests))
	}
	for _, tt := range tests {
		p, ok := schema.Properties[tt.param]
		if !ok || p.Type != tt.typ || string(p.Default) != tt.def {
			t.Errorf("%s: type %q default %s; want %q and %q", tt.param, p.Type, p.Default, tt.typ, tt.def)
		}
	}
}

// TestContractSummaries pins each tool description's first line to the
// contract's one-line summary of the tool.
func TestContractSummaries(t *testing.T) {
	tests := []struct {
		toolset, tool, summary string
	}{
		{Pi, "search", "Search file contents with a regex across files, directories, globs, and internal URLs."},
		{Pi, "read", "Read files, directories, archives, SQLite databases, internal resources, images, documents, and URLs through one path string."},
		{Pi, "find", "Find filesystem paths by glob; use search when you need content matches instead of path matches."},
		{Standardized, "Glob", "Find files using glob patterns (relative to the search root)."},
		{Amplifier, "glob", "Find files matching glob patterns."},
	}
	for _, tt := range tests {
		tl, err := Lookup(tt.toolset, tt.tool)
		if err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(tl.Description, "\n"); first != tt.summary {
			t.Errorf("%s/%s: first line\n got %q\nwant %q", tt.toolset, tt.tool, first, tt.summary)
		}
	}
}
