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
