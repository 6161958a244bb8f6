package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

// TestLongInput: a path no file can have is a clear INVALID_PARAM error in
// every tool, and an error quotes a long input cut short, so that a reply
// is never much larger than the call (a 1 MB path gave INTERNAL_ERROR
// "file name too long" and a 5 MB reply).
func TestLongInput(t *testing.T) {
	cfg := Config{FS: fstest.MapFS{"a.txt": {Data: []byte("hit\n")}}}
	paths := map[string]string{
		"1 MB path":           strings.Repeat("b/", 500_000),
		"5000-byte component": "src/" + strings.Repeat("c", 5000) + "/a.go",
		"300-byte component":  "src/" + strings.Repeat("d", 300) + "/a.go",
	}
	calls := []struct{ toolset, name, args string }{
		{"pi", "read", `{"path": %q}`},
		{"pi", "search", `{"pattern": "hit", "paths": %q}`},
		{"pi", "search", `{"pattern": "hit", "paths": ["a.txt", %q]}`},
		{"pi", "find", `{"paths": [%q]}`},
		{"amplifier", "grep", `{"pattern": "hit", "path": %q}`},
		{"amplifier", "glob", `{"pattern": "*", "path": %q}`},
		{"standardized", "Glob", `{"pattern": "*", "path": %q}`},
	}
	for what, p := range paths {
		for _, c := range calls {
			q, _ := json.Marshal(p)
			args := strings.Replace(c.args, "%q", string(q), 1)
			env := Call(context.Background(), cfg, c.toolset, c.name, []byte(args))
			if env.Status != scout.StatusError || env.Error.Code != scout.CodeInvalidParam || !strings.Contains(env.Text, "over the limit") {
				t.Errorf("%s/%s, %s: %s %+v, want INVALID_PARAM saying the path is over the limit", c.toolset, c.name, what, env.Status, env.Error)
			}
			checkSize(t, c.toolset+"/"+c.name+", "+what, env, len(args))
		}
	}
	// Other inputs a message quotes.
	big := strings.Repeat("x", 1<<20)
	for _, c := range []struct{ toolset, name, args string }{
		{"pi", "search", `{"pattern": "hit", "` + big + `": 1}`},
		{"amplifier", "grep", `{"pattern": "hit", "type": "` + big + `"}`},
		{"amplifier", "grep", `{"pattern": "hit", "glob": "[` + big + `"}`},
		{"amplifier", "grep", `{"pattern": "hit", "-i": "` + big + `"}`},
		{"pi", "find", `{"paths": ["[` + big + `"]}`},
		{"pi", "read", `{"path": "a.zip:` + big + `"}`},
		{"standardized", "Glob", `{"pattern": "[` + big + `"}`},
		{"pi", "search", `{"pattern": "hit", "paths": ["a.txt,` + big + `"]}`},
		{"pi", "find", `{"paths": ["a.txt,` + big + `,"]}`},
		{"pi", "read", `{"path": "https://example.com/` + big + `"}`},
	} {
		env := Call(context.Background(), cfg, c.toolset, c.name, []byte(c.args))
		if env.Status != scout.StatusError {
			t.Errorf("%s/%s: %s, want an error", c.toolset, c.name, env.Status)
		}
		checkSize(t, c.toolset+"/"+c.name, env, len(c.args))
	}
}

// checkSize fails when the envelope is more than 2 KB larger than the
// arguments it echoes in context.params_input.
func checkSize(t *testing.T, what string, env *scout.Envelope, args int) {
	t.Helper()
	b, _ := json.Marshal(env)
	if len(b) > args+2048 {
		t.Errorf("%s: a %d-byte call gave a %d-byte reply: %.300s", what, args, len(b), env.Text)
	}
}
