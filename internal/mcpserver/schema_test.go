package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/tool"
)

// TestOutputSchema: every tool declares an outputSchema, and the
// structuredContent of its results, successes, partial results and errors
// alike, validates against it, as the official SDK's client receives them.
func TestOutputSchema(t *testing.T) {
	calls := map[string][]string{
		"find":   {`{"paths": ["**/*.go"]}`, `{"paths": ["**/*"], "limit": 1}`, `{"paths": 3}`},
		"search": {`{"paths": ".", "pattern": "package"}`, `{"pattern": ""}`},
		"read":   {`{"path": "a.go"}`, `{"path": "img/px.png"}`, `{"path": "."}`, `{"path": "nope.go"}`},
		"grep":   {`{"pattern": "package", "output_mode": "content"}`, `{"pattern": "package", "output_mode": "count"}`, `{"pattern": "("}`},
		"glob":   {`{"pattern": "**/*.go"}`, `{"pattern": 7}`},
		"Glob":   {`{"pattern": "**/*.go", "limit": 1}`, `{}`},
	}
	for _, ts := range tool.Toolsets() {
		cs := connect(t, tool.Config{FS: fixture(t)}, ts)
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, mt := range res.Tools {
			if mt.OutputSchema == nil {
				t.Errorf("%s/%s declares no outputSchema", ts, mt.Name)
				continue
			}
			b, _ := json.Marshal(mt.OutputSchema)
			var schema jsonschema.Schema
			if err := json.Unmarshal(b, &schema); err != nil {
				t.Fatalf("%s/%s: outputSchema %s: %v", ts, mt.Name, b, err)
			}
			if schema.Type != "object" {
				t.Errorf("%s/%s: outputSchema type %q, want object (MCP requires it)", ts, mt.Name, schema.Type)
			}
			resolved, err := schema.Resolve(nil)
			if err != nil {
				t.Fatalf("%s/%s: the outputSchema does not resolve: %v", ts, mt.Name, err)
			}
			args := calls[mt.Name]
			if len(args) == 0 {
				t.Errorf("%s/%s: no calls to check its outputSchema with", ts, mt.Name)
			}
			statuses := map[any]bool{}
			for _, a := range args {
				r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: mt.Name, Arguments: json.RawMessage(a)})
				if err != nil {
					t.Fatalf("%s %s: %v", mt.Name, a, err)
				}
				// Validate the JSON as the client received it.
				raw, _ := json.Marshal(r.StructuredContent)
				var v any
				if err := json.Unmarshal(raw, &v); err != nil {
					t.Fatal(err)
				}
				if err := resolved.Validate(v); err != nil {
					t.Errorf("%s %s: structuredContent does not validate against the outputSchema: %v\n%s", mt.Name, a, err, raw)
				}
				statuses[v.(map[string]any)["status"]] = true
			}
			if !statuses["error"] || !statuses["success"] && !statuses["partial"] {
				t.Errorf("%s/%s: the calls gave %v; want a result and an error checked", ts, mt.Name, statuses)
			}
		}
	}
}

// TestOutputSchemaMatchesEnvelope: the schema names every JSON member of
// the Envelope and its parts, and no other; the required members are those
// always present.
func TestOutputSchemaMatchesEnvelope(t *testing.T) {
	var schema jsonschema.Schema
	if err := json.Unmarshal(envelopeSchema, &schema); err != nil {
		t.Fatal(err)
	}
	check := func(name string, s *jsonschema.Schema, typ reflect.Type) {
		var members, required []string
		for i := range typ.NumField() {
			tag := typ.Field(i).Tag.Get("json")
			key, opts, _ := strings.Cut(tag, ",")
			if key == "-" {
				continue
			}
			members = append(members, key)
			if !strings.Contains(opts, "omitempty") {
				required = append(required, key)
			}
		}
		var props []string
		for k := range s.Properties {
			props = append(props, k)
		}
		slices.Sort(members)
		slices.Sort(props)
		slices.Sort(required)
		got := slices.Clone(s.Required)
		slices.Sort(got)
		if !slices.Equal(members, props) {
			t.Errorf("%s: schema properties %v, the Go type's JSON members %v", name, props, members)
		}
		if !slices.Equal(required, got) {
			t.Errorf("%s: schema requires %v, the Go type always writes %v", name, got, required)
		}
		if s.AdditionalProperties == nil || s.AdditionalProperties.Not == nil {
			t.Errorf("%s: the schema allows other members", name)
		}
	}
	check("Envelope", &schema, reflect.TypeFor[scout.Envelope]())
	check("stats", schema.Properties["stats"], reflect.TypeFor[scout.Stats]())
	check("context", schema.Properties["context"], reflect.TypeFor[scout.EnvelopeContext]())
	check("error", schema.Properties["error"], reflect.TypeFor[scout.Error]())
}

// TestAnswersBeforeEOF: requests piped in before the input ends are all
// answered, a call that is still running included, before Serve returns.
func TestAnswersBeforeEOF(t *testing.T) {
	s, err := New(tool.Config{FS: &slowFS{FS: fixture(t)}}, tool.Pi, "test")
	if err != nil {
		t.Fatal(err)
	}
	in := strings.NewReader(strings.Join([]string{
		`{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}}`,
		`{"jsonrpc": "2.0", "method": "notifications/initialized"}`,
		`{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": {"paths": ".", "pattern": "package"}}}`,
		`{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "find", "arguments": {"paths": ["**/*.go"]}}}`,
	}, "\n") + "\n")
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.Serve(context.Background(), in, w)
		w.Close()
	}()
	answers := map[float64]map[string]any{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, MaxMessage)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		id, _ := m["id"].(float64)
		answers[id] = m
	}
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	for id, want := range map[float64]string{2: "a.go", 3: "src/"} {
		res, _ := answers[id]["result"].(map[string]any)
		b, _ := json.Marshal(answers[id])
		if res == nil || res["isError"] != false || !strings.Contains(string(b), want) {
			t.Errorf("request %v: answered %s; want its result, with %q", id, b, want)
		}
	}
}

// TestCancelWhileDraining: once the input ended, canceling Serve's context
// stops the calls still running and Serve returns at once.
func TestCancelWhileDraining(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 5000 { // 10 s of opens at 2 ms each
		m[fmt.Sprintf("d%d/f%d.txt", i%7, i)] = &fstest.MapFile{Data: []byte("x\n")}
	}
	s, err := New(tool.Config{FS: &slowFS{FS: m}}, tool.Amplifier, "test")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	in := strings.NewReader(`{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "grep", "arguments": {"pattern": "x"}}}` + "\n")
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, in, io.Discard) }()
	select {
	case err := <-done:
		t.Fatalf("Serve returned %v while a call was running", err)
	case <-time.After(300 * time.Millisecond):
	}
	cancel()
	select {
	case err := <-done:
		if err != context.Canceled {
			t.Errorf("Serve returned %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context was canceled")
	}
}
