package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/testfs"
	"github.com/scoutkit/scout/tool"
)

func TestRun(t *testing.T) {
	withTODO := fstest.MapFS{
		"main.go":       {Data: []byte("package main\n\nfunc main() {}\n")},
		"store/db.go":   {Data: []byte("package store\n\n// TODO: close the handle\nvar db = 1\n")},
		"docs/notes.md": {Data: []byte("TODO in Markdown is not searched\n")},
	}
	without := fstest.MapFS{"main.go": {Data: []byte("package main\n")}}
	tests := []struct {
		name   string
		fsys   fstest.MapFS
		want   []string
		reason string
	}{
		{"todo", withTODO, []string{
			"tools offered: find, read, search",
			"[turn 2] search", "-> error\nInvalid argument 'i'", // the mistake and its error text
			"[turn 3] search", "*3:// TODO: close the handle", // corrected
			"[turn 4] read {\"path\": \"store/db.go\"} -> success", // the path taken from the search text
			"model: Done after 4 tool calls",
		}, "find, a failed and a corrected search, a read, an answer"},
		{"none", without, []string{"No matches found", "model: There are no TODO comments"}, "the model stops early"},
	}
	for _, tt := range tests {
		for _, tr := range testfs.Trees(t, tt.fsys) {
			kind, cfg := tr.Name, tool.Config{FS: tr.FS, Root: tr.Root}
			var out bytes.Buffer
			if err := run(context.Background(), &out, cfg, scripted{}); err != nil {
				t.Fatalf("%s/%s: %v", tt.name, kind, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("%s/%s (%s): output lacks %q:\n%s", tt.name, kind, tt.reason, w, out.String())
				}
			}
		}
	}
}

// looping never stops calling tools.
type looping struct{}

func (looping) Next([]tool.OpenAITool, []toolResult) ([]toolCall, string) {
	return []toolCall{{"find", json.RawMessage(`{"paths": ["*"]}`)}}, ""
}

func TestRunStopsAModelThatNeverAnswers(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), &out, tool.Config{FS: fstest.MapFS{"a.go": {}}}, looping{})
	if err == nil || strings.Count(out.String(), "] find ") != maxTurns {
		t.Fatalf("err %v after %d calls; want an error after %d turns", err, strings.Count(out.String(), "] find "), maxTurns)
	}
}

func TestFirstFile(t *testing.T) {
	tests := []struct{ text, want, reason string }{
		{"# store/db.go#1A2B\n*3:x\n\n# main.go#00FF\n*1:x", "store/db.go", "a file in a directory, hashline tag"},
		{"# main.go#00FF\n2:y\n*3:x", "main.go", "a file in the root"},
		{"# a/b.zip:src/x.go\n*1|x", "a/b.zip:src/x.go", "an archive member: no tag"},
		{"# a/b#c.go\n", "a/b#c.go", "a '#' that is not a tag stays"},
		{"No matches found", "", "no file"},
	}
	for _, tt := range tests {
		if got := firstFile(tt.text); got != tt.want {
			t.Errorf("%s: firstFile(%q) = %q, want %q", tt.reason, tt.text, got, tt.want)
		}
	}
}
