package tool

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/testfs"
)

// TestAmpGrepMultilineRg compares amplifier grep with multiline on against
// what amplifier makes of ripgrep's output (rg -U --multiline-dotall): a
// content result per JSON match event (its first line, its lines
// rstripped), and rg -c's counts. Skipped without rg.
func TestAmpGrepMultilineRg(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg not installed")
	}
	tree := fstest.MapFS{
		"a.py":  {Data: []byte("def foo():\n    pass\n\ndef bar():\n    return 1\n")},
		"b.txt": {Data: []byte("aa\nbb\naa\nbb\naa\nbb\n")},
		"x.txt": {Data: []byte("start\na\nb\nmid\na\nb\na\nb\nend\na\nb\n")},
		"y.txt": {Data: []byte("a\nb  \n\nab\nb\n")},
	}
	dir := testfs.WriteDir(t, tree)
	for _, pattern := range []string{`def foo\(\):\n    pass`, `bb\naa`, `aa|bb`, `b`, `a\nb`, `a\n?b`, `a.b`, `b\s+a`, `(?m)^b$\n`, `pass\n`} {
		t.Run(pattern, func(t *testing.T) {
			type result struct {
				File    string `json:"file"`
				Line    int    `json:"line_number"`
				Content string `json:"content"`
			}
			out, err := exec.Command(rg, "-U", "--multiline-dotall", "--json", "--sort", "path", "--", pattern, dir).Output()
			require.NoError(t, err)
			want := []result{}
			sc := bufio.NewScanner(bytes.NewReader(out))
			for sc.Scan() {
				var ev struct {
					Type string
					Data struct {
						Path       struct{ Text string }
						Lines      struct{ Text string }
						LineNumber int `json:"line_number"`
					}
				}
				require.NoError(t, json.Unmarshal(sc.Bytes(), &ev))
				if ev.Type == "match" {
					want = append(want, result{strings.TrimPrefix(ev.Data.Path.Text, dir+"/"), ev.Data.LineNumber, strings.TrimRightFunc(ev.Data.Lines.Text, unicode.IsSpace)})
				}
			}
			args, _ := json.Marshal(map[string]any{"pattern": pattern, "multiline": true, "output_mode": "content"})
			env := Call(context.Background(), Config{Root: dir}, Amplifier, "grep", args)
			b, _ := json.Marshal(env.Data)
			var got struct {
				Total   int      `json:"total_matches"`
				Results []result `json:"results"`
			}
			require.NoError(t, json.Unmarshal(b, &got), env.Text)
			assert.Equal(t, want, got.Results, "content")
			assert.Equal(t, len(want), got.Total, "content total_matches")

			out, err = exec.Command(rg, "-U", "--multiline-dotall", "-c", "--sort", "path", "--", pattern, dir).Output()
			require.NoError(t, err)
			args, _ = json.Marshal(map[string]any{"pattern": pattern, "multiline": true, "output_mode": "count"})
			env = Call(context.Background(), Config{Root: dir}, Amplifier, "grep", args)
			var text strings.Builder
			for line := range strings.Lines(strings.TrimSpace(string(out))) {
				fmt.Fprint(&text, strings.TrimPrefix(line, dir+"/"))
			}
			assert.Equal(t, text.String(), env.Text, "count")
		})
	}
}
