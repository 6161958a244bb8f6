package tool

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/scoutkit/scout"
)

func TestCallBadInput(t *testing.T) {
	cfg := Config{FS: fstest.MapFS{"a.go": {Data: []byte("package a\n")}}}
	tests := []struct {
		toolset, name, args string
		code                scout.Code
		contains            string
		reason              string
	}{
		{"nope", "find", `{}`, scout.CodeInvalidParam, "Unknown toolset 'nope'", "unknown toolset"},
		{"pi", "nope", `{}`, scout.CodeInvalidParam, "Unknown tool 'nope'", "unknown tool"},
		{"pi", "find", `{not json`, scout.CodeInvalidParam, "not valid JSON", "malformed JSON"},
		{"pi", "find", `{"paths": [`, scout.CodeInvalidParam, "(valid arguments: paths, hidden, gitignore, limit, timeout)", "malformed JSON names the tool's arguments"},
		{"amplifier", "grep", `[1,2]`, scout.CodeInvalidParam, "got an array: pass named arguments (valid arguments: pattern, ", "not an object names the tool's arguments"},
		{"pi", "find", `[1,2]`, scout.CodeInvalidParam, "must be a JSON object, got an array", "arguments not an object"},
		{"pi", "find", `"x"`, scout.CodeInvalidParam, "must be a JSON object, got a string", "arguments a string"},
		{"pi", "find", `{"paths": "a.go"}`, scout.CodeInvalidParam, "'paths': must be an array of strings", "wrong field type is named"},
		{"pi", "find", `{"paths": ["a.go"], "hidden": "yes"}`, scout.CodeInvalidParam, "'hidden': must be true or false", "wrong boolean"},
		{"pi", "find", `{"paths": ["*"], "limit": -3}`, scout.CodeInvalidParam, "Limit must be a positive number", "negative limit"},
		{"standardized", "Glob", `{"pattern": "*", "limit": 1.5}`, scout.CodeInvalidParam, "limit must be an integer between 1 and 200.", "fractional limit"},
		{"pi", "read", "{\"path\": \"a\xffb.go\"}", scout.CodeInvalidParam, "not valid UTF-8", "JSON text is UTF-8: the call ran on a path mangled to U+FFFD and echoed the byte in params_input"},
		{"pi", "nope", "{\"path\": \"a\xff\"}", scout.CodeInvalidParam, "Unknown tool 'nope'", "not UTF-8 and an unknown tool: params_input is still valid JSON text"},
	}
	for _, tt := range tests {
		env := Call(context.Background(), cfg, tt.toolset, tt.name, []byte(tt.args))
		if env.Status != scout.StatusError || env.Error == nil || env.Error.Code != tt.code || !strings.Contains(env.Text, tt.contains) {
			t.Errorf("%s/%s %s: got %s %+v %q; want %s containing %q (%s)", tt.toolset, tt.name, tt.args, env.Status, env.Error, env.Text, tt.code, tt.contains, tt.reason)
		}
		b, _ := json.Marshal(env)
		if !utf8.Valid(b) {
			t.Errorf("%s/%s %q: the Envelope's JSON is not UTF-8: %q (%s)", tt.toolset, tt.name, tt.args, b, tt.reason)
		}
		var m map[string]any
		json.Unmarshal(b, &m)
		for k := range m {
			switch k {
			case "status", "data", "text", "stats", "context", "error":
			default:
				t.Errorf("envelope has a top-level field %q outside the Standard Envelope", k)
			}
		}
	}
}

func TestCallConfigStyle(t *testing.T) {
	fsys := fstest.MapFS{"a.go": {Data: []byte("package a\n")}}
	tests := []struct {
		style  string
		ok     bool
		reason string
	}{
		{"", true, "the default, hashline"},
		{"hashline", true, "named"},
		{"numbered", true, "named"},
		{"plain", true, "named"},
		{"Plain", false, "styles are lower case; it rendered lines in no documented style"},
		{"bogus", false, "a style that names nothing rendered \"1:text\" without a header"},
	}
	for _, tt := range tests {
		for _, call := range [][3]string{{"pi", "read", `{"path": "a.go"}`}, {"pi", "search", `{"pattern": "a", "paths": ["."]}`}, {"amplifier", "grep", `{"pattern": "a"}`}} {
			env := Call(context.Background(), Config{FS: fsys, Style: tt.style}, call[0], call[1], []byte(call[2]))
			if got := env.Status != scout.StatusError; got != tt.ok {
				t.Errorf("Style %q, %s/%s: status %s %q (%s)", tt.style, call[0], call[1], env.Status, env.Text, tt.reason)
			}
			if !tt.ok && (env.Error == nil || env.Error.Code != scout.CodeInvalidParam || !strings.Contains(env.Text, "Config.Style")) {
				t.Errorf("Style %q, %s/%s: error %+v, want INVALID_PARAM naming Config.Style", tt.style, call[0], call[1], env.Error)
			}
		}
	}
}

func TestCallRecoversPanics(t *testing.T) {
	define("test-panic", "boom", "panics", func(context.Context, *Config, *struct{}) (*scout.Envelope, error) { panic("kaboom") })
	boom := builders[len(builders)-1].make(true)
	builders = builders[:len(builders)-1]
	env := boom.call(context.Background(), Config{}, nil)
	if env.Status != scout.StatusError || env.Error.Code != scout.CodeInternal || !strings.Contains(env.Text, "kaboom") {
		t.Fatalf("panic gave %+v", env)
	}
}

func TestCallConcurrent(t *testing.T) {
	cfg := Config{FS: fstest.MapFS{"a/b.go": {}, "c.go": {}}}
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			env := Call(context.Background(), cfg, "pi", "find", []byte(`{"paths":["*.go"]}`))
			if env.Status != scout.StatusSuccess || env.Data.(*piFindData).FileCount != 2 {
				t.Errorf("concurrent call: %s %v", env.Status, env.Data)
			}
		}()
	}
	wg.Wait()
}

// TestCallParamsInput: context.params_input is the arguments as given; no
// arguments, which the tools read as {}, are recorded as {} (an object, as
// the Envelope's context requires), and arguments that are not JSON as null.
func TestCallParamsInput(t *testing.T) {
	cfg := Config{FS: fstest.MapFS{"a.go": {}}}
	for _, tt := range []struct {
		toolset, name, args, want, reason string
	}{
		{Pi, "find", "", `{}`, "no arguments"},
		{Pi, "find", " \n\t", `{}`, "blank arguments"},
		{Standardized, "Glob", "", `{}`, "no arguments, an error for a missing parameter"},
		{Pi, "nope", "", `{}`, "no arguments to an unknown tool"},
		{Pi, "find", `{"paths": ["a.go"]}`, `{"paths": ["a.go"]}`, "arguments as given"},
		{Pi, "find", `{not json`, `null`, "not JSON"},
	} {
		env := Call(context.Background(), cfg, tt.toolset, tt.name, []byte(tt.args))
		if got := string(env.Context.ParamsInput); got != tt.want {
			t.Errorf("%s/%s %q: params_input %s, want %s (%s)", tt.toolset, tt.name, tt.args, got, tt.want, tt.reason)
		}
	}
}
