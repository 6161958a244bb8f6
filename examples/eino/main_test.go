package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	einotool "github.com/cloudwego/eino/components/tool"
	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/tool"
)

var tree = fstest.MapFS{
	"main.go":     {Data: []byte("package main\n\nfunc main() {}\n")},
	"lib/util.go": {Data: []byte("package lib\n")},
}

// TestTools: every Scout tool is an eino tool with Scout's name,
// description and schema, and runs as tool.Call runs it.
func TestTools(t *testing.T) {
	ctx := context.Background()
	cfg := tool.Config{FS: tree}
	for _, ts := range tool.Toolsets() {
		tools, err := Tools(cfg, ts)
		if err != nil {
			t.Fatal(err)
		}
		defs, _ := tool.Tools(ts)
		if len(tools) != len(defs) {
			t.Fatalf("%s: %d eino tools for %d Scout tools", ts, len(tools), len(defs))
		}
		for i, bt := range tools {
			info, err := bt.Info(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if info.Name != defs[i].Name || info.Desc != defs[i].Description {
				t.Errorf("%s: eino tool %q, want %q with its description", ts, info.Name, defs[i].Name)
			}
			js, err := info.ParamsOneOf.ToJSONSchema()
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(js)
			assert.JSONEq(t, string(defs[i].Schema), string(got), "%s/%s: the model is shown another schema than Scout's", ts, info.Name)
			if _, ok := bt.(einotool.InvokableTool); !ok {
				t.Errorf("%s/%s is not invokable", ts, info.Name)
			}
		}
	}
	tools, _ := Tools(cfg, tool.Pi)
	for _, bt := range tools {
		info, _ := bt.Info(ctx)
		if info.Name != "find" {
			continue
		}
		args := `{"paths": ["**/*.go"]}`
		text, err := bt.(einotool.InvokableTool).InvokableRun(ctx, args)
		if want := tool.Call(ctx, cfg, tool.Pi, "find", []byte(args)).Text; err != nil || text != want {
			t.Errorf("find: %q, %v; want %q", text, err, want)
		}
	}
}

// TestRun: a ToolsNode runs a model's calls through the tools; a bad call
// comes back as text that says how to fix it.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, tool.Config{FS: tree}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[find 1]\n", "util.go", "[search 2]\n", "*3:func main() {}", "[search 3]\n", "Invalid argument 'i'"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
