package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
)

// refResult and refContext are amplifier grep's content-mode JSON shapes,
// for encoding/json: the reference the hand-written encoder is checked
// against.
type refResult struct {
	File       string       `json:"file"`
	LineNumber *int         `json:"line_number,omitempty"` // nil with -n false
	Content    string       `json:"content"`
	Context    []refContext `json:"context,omitempty"`
}

type refContext struct {
	LineNumber int    `json:"line_number"`
	Content    string `json:"content"`
	IsMatch    bool   `json:"is_match"`
}

// refResults lists the results plainly: every matching line in order (with
// runs, every run of matching lines with consecutive numbers, their texts
// joined by "\n"), the window [skip, skip+count) of them, context by line
// numbers around the result's first and last lines; no line_number with
// noNumbers; contents without trailing white space, as Python's str.rstrip
// leaves them.
func refResults(files []scout.FileMatch, skip, count int, context bool, before, after int, noNumbers, runs bool) []refResult {
	out := []refResult{}
	n := 0
	for _, f := range files {
		for i := 0; i < len(f.Lines); i++ {
			l := f.Lines[i]
			if !l.Match {
				continue
			}
			text, last := l.Text, l.Line
			for runs && i+1 < len(f.Lines) && f.Lines[i+1].Match && f.Lines[i+1].Line == last+1 {
				i++
				text += "\n" + f.Lines[i].Text
				last++
			}
			n++
			if n <= skip || (count >= 0 && n > skip+count) {
				continue
			}
			r := refResult{File: wire(f.Path), Content: strings.TrimRightFunc(text, unicode.IsSpace)}
			if !noNumbers {
				r.LineNumber = &l.Line
			}
			if context {
				for _, c := range f.Lines {
					if c.Line >= l.Line-before && c.Line <= last+after {
						r.Context = append(r.Context, refContext{c.Line, strings.TrimRightFunc(c.Text, unicode.IsSpace), c.Match})
					}
				}
			}
			out = append(out, r)
		}
	}
	return out
}

// TestAmpContentJSON checks the hand-written encoder against encoding/json
// on awkward strings and on result windows across files, with context.
func TestAmpContentJSON(t *testing.T) {
	odd := []string{"", "plain", "quote \" and \\ backslash", "\b\f\n\r\t\x00\x1f\x7f", "<html> & co", "line\u2028sep\u2029", "  indented, trailing \t\u00a0 ", "bad \xff\xfe utf8", "é世界🙂"}
	files := func(s string) []scout.FileMatch {
		return []scout.FileMatch{
			{Path: s, Lines: []scout.LineMatch{{Line: 1, Text: s, Match: true}}},
			{Path: "f", Lines: []scout.LineMatch{{Line: 6, Text: s}, {Line: 7, Text: s, Match: true}, {Line: 8, Text: "m" + s, Match: true}, {Line: 10, Text: s}}},
			{Path: "g/h", Lines: []scout.LineMatch{{Line: 3, Text: s, Match: true}}},
			{Path: "r", Lines: []scout.LineMatch{{Line: 1, Text: s, Match: true}, {Line: 2, Text: s + " ", Match: true}, {Line: 3, Text: s}, {Line: 4, Text: s, Match: true},
				{Line: 5, Text: "", Match: true}, {Line: 6, Text: s, Match: true}, {Line: 8, Text: s, Match: true}}},
		}
	}
	windows := []struct {
		skip, count   int
		context       bool
		before, after int
		noNumbers     bool
		runs          bool
		reason        string
	}{
		{0, -1, false, 0, 0, false, false, "every result"},
		{1, 2, false, 0, 0, false, false, "a window across files"},
		{2, -1, true, 1, 2, false, false, "context, skipping into the second file"},
		{0, 2, true, 5, 5, false, false, "context wider than the file"},
		{9, -1, false, 0, 0, false, false, "skip past the end: no results"},
		{1, 2, false, 0, 0, true, false, "-n false: no line_number"},
		{0, -1, true, 1, 1, true, false, "-n false: no line_number in results, context lines keep theirs"},
		{0, -1, false, 0, 0, false, true, "runs: consecutive matching lines make one result"},
		{4, 2, true, 1, 1, false, true, "runs: context around a run, skipping into the last file"},
		{5, -1, true, 3, 0, true, true, "runs: -n false, context before"},
	}
	for _, s := range odd {
		for _, w := range windows {
			fs := files(s)
			h := newAmpHits(fs, w.skip, w.count, w.context, w.before, w.after, w.runs)
			h.noNumbers = w.noNumbers
			d := ampContentData{
				ampGrepData: &ampGrepData{Pattern: s, OutputMode: "content", TotalMatches: 3, MatchesCount: h.count, LowerBound: s == "", Truncated: s == "plain", CutAt: len(s)},
				hits:        h,
			}
			got, err := d.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			ref := refResults(fs, w.skip, w.count, w.context, w.before, w.after, w.noNumbers, w.runs)
			want, _ := json.Marshal(struct {
				*ampGrepData
				Results []refResult `json:"results"`
			}{d.ampGrepData, ref})
			// encoding/json escapes <, > and & by default; compare with
			// the same HTML escaping applied to ours.
			gotHTML, _ := json.Marshal(json.RawMessage(got))
			if string(gotHTML) != string(want) || h.count != len(ref) {
				t.Errorf("%q, %s:\n got %s (count %d)\nwant %s", s, w.reason, gotHTML, h.count, want)
			}
		}
	}
}

// TestAmpContentWriteJSON: the streamed form is MarshalJSON's bytes, in
// bounded pieces.
func TestAmpContentWriteJSON(t *testing.T) {
	var fs []scout.FileMatch
	for i := range 3000 {
		fs = append(fs, scout.FileMatch{Path: "dir/file.go", Lines: []scout.LineMatch{{Line: i + 1, Text: strings.Repeat("x\t\"é", 10), Match: true}}})
	}
	d := ampContentData{ampGrepData: &ampGrepData{Pattern: "p", OutputMode: "content"}, hits: newAmpHits(fs, 0, -1, false, 0, 0, false)}
	whole, _ := d.MarshalJSON()
	var w pieces
	if err := d.WriteJSON(&w); err != nil {
		t.Fatal(err)
	}
	if w.buf.String() != string(whole) || !json.Valid(whole) {
		t.Fatal("WriteJSON differs from MarshalJSON or is not valid JSON")
	}
	if w.n < 2 || w.max > 80<<10 {
		t.Errorf("%d pieces, largest %d bytes: want several of at most about 64 KB", w.n, w.max)
	}
}

type pieces struct {
	buf    bytes.Buffer
	n, max int
}

func (p *pieces) Write(b []byte) (int, error) {
	p.n++
	p.max = max(p.max, len(b))
	return p.buf.Write(b)
}

// TestAmpContentWriteJSONError: a failing writer ends the stream with its
// error.
func TestAmpContentWriteJSONError(t *testing.T) {
	var fs []scout.FileMatch
	for i := range 10000 {
		fs = append(fs, scout.FileMatch{Path: "f.go", Lines: []scout.LineMatch{{Line: i + 1, Text: "some content", Match: true}}})
	}
	d := ampContentData{ampGrepData: &ampGrepData{Pattern: "p", OutputMode: "content"}, hits: newAmpHits(fs, 0, -1, false, 0, 0, false)}
	w := &failAfter{n: 3}
	if err := d.WriteJSON(w); err != errFull {
		t.Fatalf("WriteJSON = %v, want the writer's error", err)
	}
	if w.n > 0 || w.calls != 4 {
		t.Errorf("%d writes after the failure", w.calls-4)
	}
}

var errFull = errors.New("disk full")

type failAfter struct{ n, calls int }

func (f *failAfter) Write(b []byte) (int, error) {
	f.calls++
	if f.n == 0 {
		return 0, errFull
	}
	f.n--
	return len(b), nil
}

// TestAmpCountFilesJSON checks the hand-written count and files encoders
// against encoding/json (without HTML escaping, as the CLI writes) on
// awkward paths, and on empty and nil lists.
func TestAmpCountFilesJSON(t *testing.T) {
	odd := []string{"", "plain", "quote \" and \\ backslash", "\b\f\n\r\t\x00\x1f\x7f", "<html> & co", "line\u2028sep\u2029", "  indented, trailing \t\u00a0 ", "bad \xff\xfe utf8", "é世界🙂"}
	ref := func(v any) string {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	var many []string
	for i := range 10000 {
		many = append(many, fmt.Sprintf("dir%d/%s%d.go", i%9, odd[i%len(odd)], i))
	}
	type refCounts struct {
		*ampGrepData
		Counts json.RawMessage `json:"counts"`
	}
	type refFiles struct {
		*ampGrepData
		Files []string `json:"files"`
	}
	for _, c := range []struct {
		paths  []string
		reason string
	}{
		{nil, "nil: null"},
		{[]string{}, "empty: an empty object and list"},
		{[]string{"a.go"}, "one path"},
		{odd, "awkward paths"},
		{many, "more paths than one part holds: encoded in parts"},
	} {
		d := &ampGrepData{Pattern: "p<" + c.reason, OutputMode: "count", TotalMatches: 7, MatchesCount: len(c.paths), LowerBound: c.paths == nil, CutAt: len(c.paths)}
		var oc *orderedCounts
		counts := "null"
		if c.paths != nil {
			oc = &orderedCounts{paths: c.paths}
			var o strings.Builder
			o.WriteByte('{')
			for i, p := range c.paths {
				oc.counts = append(oc.counts, i*1000-1)
				if i > 0 {
					o.WriteByte(',')
				}
				o.WriteString(ref(wire(p)) + ":" + ref(i*1000-1))
			}
			o.WriteByte('}')
			counts = o.String()
		}
		got, err := ampCountData{d, oc}.MarshalJSON()
		require.NoError(t, err)
		assert.Equal(t, ref(refCounts{d, json.RawMessage(counts)}), string(got), c.reason)
		assert.True(t, json.Valid(got), c.reason)
		streamed(t, ampCountData{d, oc}, got, c.reason)

		got, err = ampFilesData{d, c.paths}.MarshalJSON()
		require.NoError(t, err)
		assert.Equal(t, ref(refFiles{d, wireNames(c.paths)}), string(got), c.reason)
		streamed(t, ampFilesData{d, c.paths}, got, c.reason)
	}
}

// streamed checks that d's WriteJSON writes whole (the bytes of its
// MarshalJSON) and stops at a writer's error.
func streamed(t *testing.T, d interface{ WriteJSON(io.Writer) error }, whole []byte, reason string) {
	t.Helper()
	var w pieces
	require.NoError(t, d.WriteJSON(&w), reason)
	assert.Equal(t, string(whole), w.buf.String(), reason)
	for n := range w.n {
		assert.Equal(t, errFull, d.WriteJSON(&failAfter{n: n}), "%s: a writer failing after %d writes", reason, n)
	}
}
