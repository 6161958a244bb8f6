package iurl

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/errs"
)

func TestParse(t *testing.T) {
	tests := []struct {
		reason, in         string
		scheme, host, path string
		q                  string
		err                bool
	}{
		{"host only", "skill://deploy", "skill", "deploy", "", "", false},
		{"colons in the host are legal", "skill://team:deploy/ref.md", "skill", "team:deploy", "/ref.md", "", false},
		{"path is percent-decoded", "agent://A.B/reports/0/a%20b", "agent", "A.B", "/reports/0/a b", "", false},
		{"query", "agent://x?q=.a[0]", "agent", "x", "", ".a[0]", false},
		{"scheme is lower-cased", "MEMORY://n", "memory", "n", "", "", false},
		{"no scheme", "plain/path", "", "", "", "", true},
		{"bad scheme", "1x://y", "", "", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			u, err := Parse(tt.in)
			if tt.err {
				if errs.CodeOf(err) != errs.InvalidParam {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil || u.Scheme != tt.scheme || u.Host != tt.host || u.Path != tt.path || u.Query.Get("q") != tt.q {
				t.Errorf("got %+v %v", u, err)
			}
		})
	}
}

// trees returns the same files as a MapFS and as a real directory.
func trees(t *testing.T, files map[string]string) map[string]fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	dir := t.TempDir()
	for name, data := range files {
		m[name] = &fstest.MapFile{Data: []byte(data)}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]fs.FS{"MapFS": m, "TempDir": os.DirFS(dir)}
}

func TestResolvers(t *testing.T) {
	files := map[string]string{
		"out/review.md":          "# Review\nall good\n",
		"out/review.json":        `{"reports":[{"title":"T1","body":"line a\nline b"},{"n":2}],"ok":true}`,
		"out/plain.md":           `{"k":"v"}`,
		"skills/deploy/SKILL.md": "deploy steps\n",
		"skills/lint.md":         "lint\n",
		"memory/today.md":        "remember\n",
	}
	for name, fsys := range trees(t, files) {
		t.Run(name, func(t *testing.T) {
			var r Registry
			r.Register("agent", Agent{FS: fsys, Dir: "out"})
			r.Register("skill", Files{FS: fsys, Dir: "skills", Suffix: ".md", Index: "SKILL.md", Immutable: true})
			r.Register("memory", Files{FS: fsys, Dir: "memory", Suffix: ".md", Immutable: true})
			r.Register("rule", Texts{Entries: map[string]string{"style": "be terse"}, Immutable: true})
			tests := []struct {
				reason, url, text, source, ctype string
				immutable                        bool
				errCode                          errs.Code
				errText                          string
			}{
				{"agent output", "agent://review", "# Review\nall good\n", "out/review.md", "text/markdown", true, "", ""},
				{"agent path extraction reads the JSON sidecar; a string is prose", "agent://review/reports/0/body", "line a\nline b", "out/review.json", "text/markdown", true, "", ""},
				{"agent path extraction of an object is pretty JSON", "agent://review/reports/1", "{\n  \"n\": 2\n}", "out/review.json", "application/json", true, "", ""},
				{"agent ?q= query", "agent://review?q=.reports[0].title", "T1", "out/review.json", "text/markdown", true, "", ""},
				{"a missing path gives null", "agent://review/nope/3", "null", "out/review.json", "application/json", true, "", ""},
				{"no sidecar: the .md itself is parsed", "agent://plain/k", "v", "out/plain.md", "text/markdown", true, "", ""},
				{"unknown agent lists what exists", "agent://ghost", "", "", "", false, errs.NotFound, "Available: plain, review"},
				{"agent ID cannot climb", "agent://..", "", "", "", false, errs.InvalidParam, "Invalid agent output ID"},
				{"skill directory index", "skill://deploy", "deploy steps\n", "skills/deploy/SKILL.md", "", true, "", ""},
				{"skill file with suffix", "skill://lint", "lint\n", "skills/lint.md", "", true, "", ""},
				{"files cannot climb out of their directory", "skill://../memory/today", "", "", "", false, errs.InvalidParam, "relative to the skill directory"},
				{"memory note", "memory://today", "remember\n", "memory/today.md", "", true, "", ""},
				{"unknown memory note lists names", "memory://tomorrow", "", "", "", false, errs.NotFound, "Available: today"},
				{"in-memory text", "rule://style", "be terse", "", "", true, "", ""},
				{"known scheme without resolver", "artifact://1", "", "", "", false, errs.Unsupported, `no resolver is registered for the "artifact" scheme`},
			}
			for _, tt := range tests {
				t.Run(tt.reason, func(t *testing.T) {
					res, err := r.Resolve(context.Background(), tt.url)
					if tt.errCode != "" {
						if errs.CodeOf(err) != tt.errCode || !strings.Contains(err.Error(), tt.errText) {
							t.Fatalf("err = %v (%s), want %s containing %q", err, errs.CodeOf(err), tt.errCode, tt.errText)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					if res.Text != tt.text || res.SourcePath != tt.source || res.ContentType != tt.ctype || res.Immutable != tt.immutable || res.URL != tt.url {
						t.Errorf("got %+v", res)
					}
				})
			}
		})
	}
}

func TestRegistry(t *testing.T) {
	var r Registry
	if !r.CanHandle("memory://x") || r.CanHandle("custom://x") || r.CanHandle("src/main.go") || r.CanHandle("https://x") {
		t.Error("CanHandle on known schemes")
	}
	r.Register("Custom", ResolverFunc(func(_ context.Context, u *URL) (*Resource, error) {
		return &Resource{Text: u.Host}, nil
	}))
	if !r.CanHandle("custom://x") || fmt.Sprint(r.Schemes()) != "[custom]" {
		t.Error("registered scheme")
	}
	res, err := r.Resolve(context.Background(), "custom://abc")
	if err != nil || res.Text != "abc" || res.URL != "custom://abc" {
		t.Errorf("resolve: %+v %v", res, err)
	}
	r.Register("custom", nil)
	if r.CanHandle("custom://x") {
		t.Error("unregistered scheme still handled")
	}
	var nilReg *Registry
	if !nilReg.CanHandle("skill://x") {
		t.Error("nil registry knows the known schemes")
	}
	if _, err := nilReg.Resolve(context.Background(), "skill://x"); errs.CodeOf(err) != errs.Unsupported {
		t.Errorf("nil registry resolve: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r.Register("rule", Texts{Entries: map[string]string{"a": "b"}})
	if _, err := r.Resolve(ctx, "rule://a"); errs.CodeOf(err) != errs.Canceled {
		t.Errorf("canceled: %v", err)
	}
}

func TestParseQuery(t *testing.T) {
	tests := []struct {
		reason, in, want string
		err              bool
	}{
		{"jq-style dots and brackets", ".reports[0].title", "[reports 0 title]", false},
		{"dotted numbers", "reports.0.title", "[reports 0 title]", false},
		{"slashes", "/reports/0", "[reports 0]", false},
		{"quoted key", `["a.b"].c`, "[a.b c]", false},
		{"unclosed bracket", ".a[0", "", true},
		{"bracket with a bare word", ".a[x]", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got, err := ParseQuery(tt.in)
			if tt.err {
				if errs.CodeOf(err) != errs.InvalidParam {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil || fmt.Sprint(got) != tt.want {
				t.Errorf("got %v %v", got, err)
			}
		})
	}
}
