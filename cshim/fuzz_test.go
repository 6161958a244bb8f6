package main

import (
	"encoding/json"
	"io/fs"
	"maps"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// FuzzCall runs call, what scout_call_opts runs once the C strings are
// converted, with arbitrary toolsets, tools, arguments and options over a
// small tree: it must not panic, must return an Envelope that encodes as
// JSON in UTF-8, an error one with a code and a message, and must write
// nothing. Calls that could reach the network (a URL in the arguments
// without no_web, a zoekt option) are left out.
func FuzzCall(f *testing.F) {
	root := testfs.WriteDir(f, fstest.MapFS{
		"a.txt":     {Data: []byte("one\ntwo\nthree\n")},
		"src/a.go":  {Data: []byte("package a\n\nfunc A() {}\n\n// B\nfunc B() {}\n")},
		"README.md": {Data: []byte("# a\n")},
		"bin":       {Data: []byte("\x00\xff\xfe")},
		"out":       {Data: []byte("/etc"), Mode: fs.ModeSymlink},
	})
	before := testfs.TreeState(f, root)
	for _, s := range [][4]string{
		{"pi", "read", `{"path":"a.txt"}`, ""},
		{"", "read", `{"path":"a.txt:2"}`, `{"style":"plain","read_limit":1}`},
		{"pi", "search", `{"pattern":"func B","paths":["src/a.go"]}`, `{"style":"numbered","context_before":0,"context_after":0}`},
		{"pi", "find", `{"paths":["**/*"]}`, `{"timeout_ms":60000,"call_id":91}`},
		{"amplifier", "grep", `{"pattern":"one","output_mode":"content","-C":2}`, `{"no_web":true,"allow_private_network":false}`},
		{"amplifier", "glob", `{"pattern":"**/*.go"}`, `{"timeout_ms":1}`},
		{"standardized", "Glob", `{"pattern":"**/*","path":"out"}`, `{"call_id":9223372036854775807}`},
		{"pi", "read", `{"path":"https://example.com/"}`, `{"no_web":true}`},
		{"nope", "read", `{"path":"a.txt"}`, `[1]`},
		{"pi", "", `{bad`, `{bad`},
		{"pi", "read", `{"path":"a.txt"}`, `{"style":3,"call_id":1.5,"timeout_ms":-5,"colour":1}`},
		{"pi", "read", `{"path":"a.txt"}`, `{"timeout_ms":9223372036854775807,"context_after":-1}`},
		{"pi", "read", "{\"path\":\"\xff\"}", `{"read_limit":0}`},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, toolset, name, args, options string) {
		if o, err := parseOptions(options); err == nil && (o.Zoekt != nil || !o.NoWeb && mentionsWeb(args)) {
			t.Skip("could reach the network")
		}
		env := call(toolset, name, args, root, options)
		if env == nil {
			t.Fatal("nil Envelope")
		}
		b := envelopeJSON(env)
		var got scout.Envelope
		if !utf8.Valid(b) || json.Unmarshal(b, &got) != nil {
			t.Fatalf("the Envelope is not UTF-8 JSON: %q", b)
		}
		switch got.Status {
		case scout.StatusError:
			if got.Error == nil || got.Error.Code == "" || got.Error.Message == "" {
				t.Fatalf("an error Envelope without a code or message: %s", b)
			}
		case scout.StatusSuccess, scout.StatusPartial:
			if got.Error != nil {
				t.Fatalf("a %s Envelope with an error: %s", got.Status, b)
			}
		default:
			t.Fatalf("status %q: %s", got.Status, b)
		}
		if after := testfs.TreeState(t, root); !maps.Equal(before, after) {
			t.Fatalf("the tree changed:\nbefore %v\nafter  %v", before, after)
		}
	})
}

// mentionsWeb reports whether a string of the arguments could be a web
// URL, as read takes one (http://, https://, www.).
func mentionsWeb(args string) bool {
	var v any
	if json.Unmarshal([]byte(skipBOM(args)), &v) != nil {
		return false
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case string:
			l := strings.ToLower(v)
			return strings.Contains(l, "http") || strings.Contains(l, "www.")
		case []any:
			for _, e := range v {
				if walk(e) {
					return true
				}
			}
		case map[string]any:
			for k, e := range v {
				if walk(k) || walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
