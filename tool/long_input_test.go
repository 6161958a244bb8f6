package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/selector"
)

// TestLongInput: a path no file can have is a clear INVALID_PARAM error in
// every tool, and an error quotes a long input cut short, so that a reply
// is never much larger than the call (a 1 MB path gave INTERNAL_ERROR
// "file name too long" and a 5 MB reply).
func TestLongInput(t *testing.T) {
	cfg := Config{FS: fstest.MapFS{"a.txt": {Data: []byte("hit\n")},
		"x.db": {Data: testDatabase(t, "CREATE TABLE t(a INTEGER PRIMARY KEY, b)", "INSERT INTO t VALUES (1, 'one')")}}}
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
		{"pi", "search", `{"paths": ".", "pattern": "hit", "` + big + `": 1}`},
		{"amplifier", "grep", `{"pattern": "hit", "type": "` + big + `"}`},
		{"amplifier", "grep", `{"pattern": "hit", "glob": "[` + big + `"}`},
		{"amplifier", "grep", `{"pattern": "hit", "-i": "` + big + `"}`},
		{"pi", "find", `{"paths": ["[` + big + `"]}`},
		{"pi", "read", `{"path": "a.zip:` + big + `"}`},
		{"standardized", "Glob", `{"pattern": "[` + big + `"}`},
		{"pi", "search", `{"pattern": "hit", "paths": ["a.txt,` + big + `"]}`},
		{"pi", "find", `{"paths": ["a.txt,` + big + `,"]}`},
		{"pi", "read", `{"path": "https://example.com/` + big + `"}`},
		// Patterns under the 64 KiB cap that the regexp parser refuses,
		// quoting them: a 56 KB one gave a 168 KB reply.
		{"pi", "search", `{"paths": ".", "pattern": "` + strings.Repeat("x{1000}", 8000) + `"}`},
		{"amplifier", "grep", `{"pattern": "` + strings.Repeat("x{1000}", 8000) + `"}`},
		{"pi", "search", `{"paths": ".", "pattern": "[` + big[:60000] + `"}`},
		{"amplifier", "grep", `{"pattern": "(` + big[:60000] + `"}`},
	} {
		env := Call(context.Background(), cfg, c.toolset, c.name, []byte(c.args))
		if env.Status != scout.StatusError {
			t.Errorf("%s/%s: %s, want an error", c.toolset, c.name, env.Status)
		}
		checkSize(t, c.toolset+"/"+c.name, env, len(c.args))
	}
}

// TestLongSelector: a selector or SQLite query over its 64 KiB cap is a
// clear INVALID_PARAM error, and every error about a long one quotes it cut
// short (a 1 MB selector gave a 3 MB reply, and 6 MB on success with q=).
// The cap is exact: a query of 64 KiB is run.
func TestLongSelector(t *testing.T) {
	cfg := Config{FS: fstest.MapFS{"a.txt": {Data: []byte("hit\n")},
		"x.db": {Data: testDatabase(t, "CREATE TABLE t(a INTEGER PRIMARY KEY, b)", "INSERT INTO t VALUES (1, 'one')")}}}
	read := func(p string) (*scout.Envelope, int) {
		args, _ := json.Marshal(map[string]string{"path": p})
		return Call(context.Background(), cfg, "pi", "read", args), len(args)
	}
	for _, n := range []int{1 << 20, 60_000} {
		digits, name := strings.Repeat("9", n), strings.Repeat("t", n)
		for _, c := range []struct {
			path string
			ok   bool // a success under the cap: its text quotes the input cut short
		}{
			{"a.txt:1-" + digits, false},
			{"a.txt:" + digits, false},
			{"x.db:" + name, false},
			{"x.db:" + name + ":1", false},
			{"x.db:t:" + name, true},
			{"x.db:t:1?" + name, false},
			{"x.db:t?where=" + digits, true},
			{"x.db:t?where=b = '" + name, false},
			{"x.db:t?order=" + digits, false},
			{"x.db:t?order=b:" + name, false},
			{"x.db:t?limit=" + digits, false},
			{"x.db:t?offset=" + name, false},
			{"x.db:t?" + name + "=1", false},
			{"x.db:t?limit=1&" + name, false},
			{"x.db?q=SELECT " + name, false},
			{"x.db?q=SELECT b FROM t WHERE " + digits + "(", false},
			{"x.db?" + name, false},
		} {
			env, size := read(c.path)
			what := fmt.Sprintf("%.40s… (%d bytes)", c.path, len(c.path))
			switch {
			case n > selector.MaxBytes:
				if env.Status != scout.StatusError || env.Error.Code != scout.CodeInvalidParam || !strings.Contains(env.Text, "over the limit") {
					t.Errorf("%s: %s %+v, want INVALID_PARAM saying it is over the limit", what, env.Status, env.Error)
				}
				checkSize(t, what, env, size)
			case c.ok && env.Status == scout.StatusSuccess:
				if len(env.Text) > 2048 {
					t.Errorf("%s: a %d-byte text: %.300s", what, len(env.Text), env.Text)
				}
			case c.ok && env.Error.Code != scout.CodeUnsupported: // no SQLite without cgo
				t.Errorf("%s: %+v, want a success", what, env.Error)
			case env.Status != scout.StatusError:
				t.Errorf("%s: %s, want an error", what, env.Status)
			default:
				checkSize(t, what, env, size)
			}
		}
	}
	// At the cap and one byte over it.
	query := func(n int) string { // a selector of n bytes
		return "x.db?q=SELECT '" + strings.Repeat("a", n-len("?q=SELECT ''")) + "'"
	}
	if env, _ := read(query(selector.MaxBytes)); env.Status == scout.StatusError && env.Error.Code != scout.CodeUnsupported {
		t.Errorf("a query of 64 KiB: %+v, want it run", env.Error)
	}
	if env, size := read(query(selector.MaxBytes + 1)); env.Status != scout.StatusError || env.Error.Code != scout.CodeInvalidParam || !strings.Contains(env.Text, "over the limit of 65536") {
		t.Errorf("a query of 64 KiB + 1: %s %+v, want INVALID_PARAM saying it is over the limit", env.Status, env.Error)
	} else {
		checkSize(t, "a query of 64 KiB + 1", env, size)
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

// TestLongCommaJoined: the refusal of a long comma-joined paths entry
// quotes it once, cut as errors cut what they quote, and says how many
// paths it holds (it quoted the entry and again its split, each cut); a
// short one is quoted whole, with its split.
func TestLongCommaJoined(t *testing.T) {
	cfg := Config{FS: fstest.MapFS{"a.txt": {Data: []byte("hit\n")}}}
	var many []string
	for i := range 80_000 {
		many = append(many, fmt.Sprintf("src/f%d.go", i))
	}
	tests := []struct {
		entry, want string
		once        string // what the message holds once, when the entry is long
	}{
		{strings.Join(many, ","), "holds 80000 paths; pass them as separate elements.", "src/f0.go"},
		{"a.txt," + strings.Repeat("x", 1<<20), "holds 2 paths; pass them as separate elements.", "a.txt"},
		{strings.Repeat("x", 1<<20) + ",", "holds one path and a stray comma; pass the path without it.", strings.Repeat("x", 150)},
		{"a.txt,b.txt", `the entry "a.txt,b.txt" holds several paths; pass them as separate elements: ["a.txt", "b.txt"].`, ""},
		{"b.txt,", `the entry "b.txt," holds one path and a stray comma; pass it as ["b.txt"].`, ""},
	}
	for _, tt := range tests {
		for _, name := range []string{"search", "find"} {
			args, _ := json.Marshal(map[string]any{"pattern": "hit", "paths": []string{tt.entry}})
			if name == "find" {
				args, _ = json.Marshal(map[string]any{"paths": []string{tt.entry}})
			}
			env := Call(context.Background(), cfg, "pi", name, args)
			what := name + " " + tt.entry[:min(len(tt.entry), 40)]
			if env.Status != scout.StatusError || env.Error.Code != scout.CodeInvalidParam {
				t.Fatalf("%s: %s %+v, want INVALID_PARAM", what, env.Status, env.Error)
			}
			msg := env.Error.Message
			if !strings.Contains(msg, tt.want) {
				t.Errorf("%s: %q, want it to say %q", what, msg, tt.want)
			}
			if n := strings.Count(msg, tt.once); tt.once != "" && n != 1 {
				t.Errorf("%s: %q quotes the entry %d times, want once", what, msg, n)
			}
			if len(msg) > 2*errs.MaxEcho {
				t.Errorf("%s: a %d-byte message: %q", what, len(msg), msg)
			}
		}
	}
}
