package iurl

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	r.Register("rule", texts{"a": "b"})
	if _, err := r.Resolve(ctx, "rule://a"); errs.CodeOf(err) != errs.Canceled {
		t.Errorf("canceled: %v", err)
	}
}

// texts resolves scheme://name to the text of name.
type texts map[string]string

func (m texts) Resolve(_ context.Context, u *URL) (*Resource, error) {
	s, ok := m[u.Host+u.Path]
	if !ok {
		return nil, errs.New(errs.NotFound, "Not found: %s", u.Raw)
	}
	return &Resource{URL: u.Raw, Text: s}, nil
}
