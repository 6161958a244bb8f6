package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/scoutkit/scout/internal/iurl"
)

// ompRow is one scout command on Scout's embedded documentation.
type ompRow struct {
	args   []string // after the command's name and --root
	code   int
	status string // the Envelope's status for call; "" for a human command
	want   string // in the Envelope's text, or in stdout (stderr when code != 0)
	reason string
}

// runOMPRows runs the rows in a root that has a README.md of its own.
func runOMPRows(t *testing.T, rows []ompRow) {
	root := writeTree(t, map[string][]byte{"README.md": []byte("# Workspace readme: Scout must not show this\n")})
	for _, tt := range rows {
		var stdout, stderr bytes.Buffer
		args := append([]string{tt.args[0], "--root", root}, tt.args[1:]...)
		code := run(args, strings.NewReader(""), &stdout, &stderr)
		got := stdout.String()
		if tt.status != "" {
			var env struct {
				Status string `json:"status"`
				Text   string `json:"text"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &env); err != nil || env.Status != tt.status {
				t.Errorf("%s: status %q (%v), want %s\nstdout: %s", tt.reason, env.Status, err, tt.status, &stdout)
				continue
			}
			got = env.Text
		} else if tt.code != 0 {
			got = stderr.String()
		}
		if code != tt.code || !strings.Contains(got, tt.want) || strings.Contains(got, "Workspace readme") {
			t.Errorf("%s: exit %d, want %d; output %q, want it to hold %q\nstderr: %s", tt.reason, code, tt.code, got, tt.want, &stderr)
		}
	}
}

func TestReadOMPCommand(t *testing.T) {
	urls, err := (*iurl.Registry)(nil).Expand(context.Background(), []string{"omp://"})
	if err != nil || len(urls) < 2 {
		t.Fatalf("embedded documents: %v, %v", urls, err)
	}
	list := strings.Join(urls, "\n")
	runOMPRows(t, []ompRow{
		{[]string{"call", "read", `{"path": "omp://"}`}, 0, "success", list, "call read omp:// lists the documents"},
		{[]string{"call", "read", `{"path": "omp://README.md:1-1:raw"}`}, 0, "success", "# Scout\n", "call read of a document reads the embedded file"},
		{[]string{"call", "read", `{"path": "omp://nope"}`}, 1, "error", "Available: " + strings.Join(urls, ", "), "call read of a missing document: exit 1, the list in the error"},
		{[]string{"read", "omp://"}, 0, "", list, "scout read omp:// prints the list"},
		{[]string{"read", "omp://docs/*.md"}, 1, "", "Glob patterns are not supported for internal URLs", "scout read refuses a glob in an internal URL"},
	})
}
