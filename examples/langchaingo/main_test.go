package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tmc/langchaingo/llms/fake"

	"github.com/scoutkit/scout/tool"
)

var tree = fstest.MapFS{
	"main.go":     {Data: []byte("package main\n\nfunc main() {}\n")},
	"lib/util.go": {Data: []byte("package lib\n")},
}

// TestTools: every Scout tool is a langchaingo tool with Scout's name, a
// description with the schema, and runs as tool.Call runs it.
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
			t.Fatalf("%s: %d tools for %d Scout tools", ts, len(tools), len(defs))
		}
		for i, lt := range tools {
			d := defs[i]
			if lt.Name() != d.Name || !strings.HasPrefix(lt.Description(), d.Description) || !strings.Contains(lt.Description(), string(d.Schema)) {
				t.Errorf("%s: tool %q, want %q with its description and schema", ts, lt.Name(), d.Name)
			}
		}
	}
	tools, _ := Tools(cfg, tool.Pi)
	for _, lt := range tools {
		if lt.Name() != "find" {
			continue
		}
		args := `{"paths": ["**/*.go"]}`
		text, err := lt.Call(ctx, args)
		if want := tool.Call(ctx, cfg, tool.Pi, "find", []byte(args)).Text; err != nil || text != want {
			t.Errorf("find: %q, %v; want %q", text, err, want)
		}
	}
}

// TestRun: an agent calls the tools, sees a mistake explained, corrects
// it and answers.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, tool.Config{FS: tree}, fake.NewFakeLLM(script)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[find ", "util.go", "Invalid argument 'i'", "*3:func main() {}", "answer: the entry point is main.go."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
