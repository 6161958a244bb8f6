package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/tool"
)

var tree = fstest.MapFS{
	"main.go":     {Data: []byte("package main\n\nfunc main() {}\n")},
	"lib/util.go": {Data: []byte("package lib\n")},
}

// schemas are Scout's pi tool schemas by name, as generic JSON.
func schemas(t *testing.T) map[string]any {
	t.Helper()
	defs, err := tool.Tools(tool.Pi)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	for _, d := range defs {
		var v any
		if err := json.Unmarshal(d.Schema, &v); err != nil {
			t.Fatal(err)
		}
		out[d.Name] = v
	}
	return out
}

// texts are the texts the scripted tool calls give.
func texts(cfg tool.Config) []string {
	var out []string
	for _, c := range scriptedCalls {
		out = append(out, tool.Call(context.Background(), cfg, tool.Pi, c.name, []byte(c.args)).Text)
	}
	return out
}

// TestOpenAI: the SDK sends Scout's tools with their schemas, and each
// tool result goes back as a tool message answering its call.
func TestOpenAI(t *testing.T) {
	cfg := tool.Config{FS: tree}
	script := scriptedOpenAI()
	srv := httptest.NewServer(script)
	defer srv.Close()
	var out bytes.Buffer
	if err := runOpenAI(context.Background(), &out, cfg, "test", srv.URL, "gpt-test"); err != nil {
		t.Fatal(err)
	}
	if len(script.requests) != 3 {
		t.Fatalf("%d requests, want 3 (two tool calls and the answer)", len(script.requests))
	}
	want := schemas(t)
	tools, _ := script.requests[0]["tools"].([]any)
	if len(tools) != len(want) {
		t.Fatalf("sent %d tools, want %d", len(tools), len(want))
	}
	for _, tl := range tools {
		f := tl.(map[string]any)["function"].(map[string]any)
		assert.Equal(t, want[f["name"].(string)], f["parameters"], "%s: parameters, want Scout's schema", f["name"])
	}
	for i, text := range texts(cfg) {
		msgs := script.requests[i+1]["messages"].([]any)
		last := msgs[len(msgs)-1].(map[string]any)
		if last["role"] != "tool" || last["content"] != text || !strings.HasPrefix(last["tool_call_id"].(string), "call_") {
			t.Errorf("turn %d: last message %v, want the tool result %q", i+2, last, text)
		}
	}
	if !strings.Contains(out.String(), "model: The search says: ") || !strings.Contains(out.String(), "[tool] find") {
		t.Errorf("output:\n%s", out.String())
	}
}

// TestAnthropic: the SDK sends Scout's tools with their schemas, and each
// tool result goes back as a tool_result block answering its tool_use.
func TestAnthropic(t *testing.T) {
	cfg := tool.Config{FS: tree}
	script := scriptedAnthropic()
	srv := httptest.NewServer(script)
	defer srv.Close()
	var out bytes.Buffer
	if err := runAnthropic(context.Background(), &out, cfg, "test", srv.URL, "claude-test"); err != nil {
		t.Fatal(err)
	}
	if len(script.requests) != 3 {
		t.Fatalf("%d requests, want 3 (two tool calls and the answer)", len(script.requests))
	}
	want := schemas(t)
	tools, _ := script.requests[0]["tools"].([]any)
	if len(tools) != len(want) {
		t.Fatalf("sent %d tools, want %d", len(tools), len(want))
	}
	for _, tl := range tools {
		m := tl.(map[string]any)
		assert.Equal(t, want[m["name"].(string)], m["input_schema"], "%s: input_schema, want Scout's schema", m["name"])
	}
	for i, text := range texts(cfg) {
		msgs := script.requests[i+1]["messages"].([]any)
		block := msgs[len(msgs)-1].(map[string]any)["content"].([]any)[0].(map[string]any)
		content, _ := json.Marshal(block["content"])
		wantContent, _ := json.Marshal([]any{map[string]any{"type": "text", "text": text}})
		if block["type"] != "tool_result" || !strings.HasPrefix(block["tool_use_id"].(string), "toolu_") || string(content) != string(wantContent) {
			t.Errorf("turn %d: tool result %v, want %q", i+2, block, text)
		}
	}
	if !strings.Contains(out.String(), "model: The search says: ") {
		t.Errorf("output:\n%s", out.String())
	}
}
