package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestReadCommand(t *testing.T) {
	var src strings.Builder
	src.WriteString("package big\n")
	for i := range 30 {
		fmt.Fprintf(&src, "\nfunc F%d() int {\n\tx := %d\n\tx++\n\treturn x\n}\n", i, i)
	}
	root := writeTree(t, map[string][]byte{"a.txt": []byte("one\ntwo\nthree\n"), "big.go": []byte(src.String())})
	tests := []struct {
		args   []string
		code   int
		out    string // prefix of stdout (or stderr when code != 0)
		reason string
	}{
		{[]string{"read", "--root", root, "a.txt:2-2"}, 0, "¶a.txt#", "a range read prints the hashline text"},
		{[]string{"read", "--root", root, "--style", "plain", "a.txt:2-2"}, 0, "two\n\n[1 more lines in file. Use :3 to continue]\n", "a range reads exactly its lines, without pi's context"},
		{[]string{"read", "--root", root, "--style", "plain", "a.txt:2"}, 0, "two\nthree\n", "an open-ended range starts at its line"},
		{[]string{"read", "a.txt", "--root", root, "--style", "plain"}, 0, "one\ntwo\nthree\n", "flags may follow the path"},
		{[]string{"read", "--root", root, "--read-limit", "1", "a.txt"}, 0, "¶a.txt#", "--read-limit sets the open-ended limit"},
		{[]string{"read", "--root", root, "big.go"}, 0, "¶big.go#", "a large source file is summarised"},
		{[]string{"read", "--root", root, "--no-summaries", "--style", "plain", "big.go"}, 0, "package big\n\nfunc F0() int {\n", "--no-summaries shows the lines"},
		{[]string{"read", "--root", root, "nope.txt"}, 1, "scout read: Path 'nope.txt' not found", "an error result exits 1 on stderr"},
		{[]string{"read", "--root", root}, 2, "scout read: want one PATH", "a missing path is a usage error"},
		{[]string{"read", "--root", root, "a.txt", "b.txt"}, 2, "scout read: want one PATH", "read takes one path"},
		{[]string{"read", "--root", root, "--style", "fancy", "a.txt"}, 2, "scout read: --style", "a bad style is a usage error"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, strings.NewReader(""), &stdout, &stderr)
		got := stdout.String()
		if tt.code != 0 {
			got = stderr.String()
		}
		if code != tt.code || !strings.HasPrefix(got, tt.out) {
			t.Errorf("%v: exit %d output %q, want %d %q (%s)", tt.args, code, got, tt.code, tt.out, tt.reason)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"read", "--root", root, "big.go"}, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "lines elided") {
		t.Errorf("big.go: exit %d, want a summary: %q", code, stdout.String())
	}
	stdout.Reset()
	if code := run([]string{"read", "--root", root, "--read-limit", "1", "a.txt"}, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "Use :2 to continue") {
		t.Errorf("--read-limit 1: exit %d, %q", code, stdout.String())
	}
	stdout.Reset()
	if code := run([]string{"call", "--root", root, "read", `{"path":"a.txt:2"}`}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("call read: exit %d, %s", code, stderr.String())
	}
	var env struct {
		Status string
		Data   struct{ ResolvedPath string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &env); err != nil || env.Status != "success" || env.Data.ResolvedPath != "a.txt" {
		t.Errorf("call read: %v %+v", err, env)
	}
}
