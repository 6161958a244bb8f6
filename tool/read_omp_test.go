package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/iurl"
	"github.com/scoutkit/scout/internal/testfs"
)

// ompCase is one call of a tool on Scout's embedded documentation.
type ompCase struct {
	reason, tool, args string
	status             scout.Status
	want               []string // in the text, in order
	not                string   // never in the text ("" for no check)
	data               string   // in the JSON of the Envelope's data ("" for no check)
}

// ompURLs returns the omp:// URLs of the embedded documents.
func ompURLs(t *testing.T) []string {
	t.Helper()
	urls, err := (*iurl.Registry)(nil).Expand(context.Background(), []string{"omp://"})
	if err != nil || len(urls) < 2 || urls[0] != "omp://README.md" {
		t.Fatalf("embedded documents: %v, %v", urls, err)
	}
	return urls
}

// runOMP runs the cases in workspaces that have a README.md of their own,
// as a MapFS and as a real directory, in the hashline and numbered styles.
func runOMP(t *testing.T, tests []ompCase) {
	m := fstest.MapFS{"README.md": {Data: []byte("# Workspace readme: Scout must not show this\n")}}
	for _, tr := range testfs.Trees(t, m) {
		wsName, c := tr.Name, Config{FS: tr.FS, Root: tr.Root}
		for _, style := range []string{"hashline", "numbered"} {
			c.Style = style
			for _, tt := range tests {
				t.Run(wsName+"/"+style+"/"+tt.reason, func(t *testing.T) {
					env := Call(context.Background(), c, Pi, tt.tool, []byte(tt.args))
					if env.Status != tt.status {
						t.Fatalf("status %s, want %s: %s", env.Status, tt.status, env.Text)
					}
					rest := env.Text
					for _, w := range tt.want {
						i := strings.Index(rest, w)
						if i < 0 {
							t.Fatalf("text lacks %q (in order):\n%s", w, env.Text)
						}
						rest = rest[i+len(w):]
					}
					if tt.not != "" && strings.Contains(env.Text, tt.not) {
						t.Errorf("text holds %q:\n%s", tt.not, env.Text)
					}
					if data, err := json.Marshal(env.Data); err != nil || !strings.Contains(string(data), tt.data) {
						t.Errorf("data %s (%v) lacks %s", data, err, tt.data)
					}
				})
			}
		}
	}
}

func TestPiReadOMP(t *testing.T) {
	urls := ompURLs(t)
	runOMP(t, []ompCase{
		{"omp:// lists the documents", "read", `{"path": "omp://"}`, scout.StatusSuccess, []string{strings.Join(urls, "\n")}, "¶", `"resolvedPath":"omp://"`},
		{"a document, without anchors: it is immutable", "read", `{"path": "omp://docs/tools.md"}`, scout.StatusSuccess, []string{"# "}, "Workspace readme", `"immutable":true`},
		{"a document over 50KB is read in pages", "read", `{"path": "omp://README.md"}`, scout.StatusPartial, []string{"# Scout\n\nScout is a Go library", "(50KB limit). Use :"}, "Workspace readme", `"immutable":true`},
		{"a line range pages the document", "read", `{"path": "omp://README.md:1-1:raw"}`, scout.StatusSuccess, []string{"# Scout\n", "more lines in resource. Use :2 to continue"}, "Scout is a Go library", `"next":2`},
		{"a missing document names those that exist", "read", `{"path": "omp://nope.md"}`, scout.StatusError, []string{"Not found: omp://nope.md", strings.Join(urls, ", ")}, "", ""},
		{"no globs in internal URLs", "read", `{"path": "omp://docs/*.md"}`, scout.StatusError, []string{"Glob patterns are not supported for internal URLs"}, "", ""},
	})
}
