package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAmpContentJSON checks the hand-written encoder against encoding/json
// on awkward strings.
func TestAmpContentJSON(t *testing.T) {
	odd := []string{"", "plain", "quote \" and \\ backslash", "\b\f\n\r\t\x00\x1f\x7f", "<html> & co", "line\u2028sep\u2029", "bad \xff\xfe utf8", "é世界🙂"}
	for _, s := range odd {
		d := ampContentData{
			ampGrepData: &ampGrepData{Pattern: s, OutputMode: "content", TotalMatches: 3, MatchesCount: 2, LowerBound: s == ""},
			Results: []ampResult{
				{File: s, LineNumber: 1, Content: s},
				{File: "f", LineNumber: 7, Content: s, Context: []ampContext{{6, s, false}, {7, s, true}}},
			},
		}
		got, err := d.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		// The same fields in a type without MarshalJSON.
		want, _ := json.Marshal(struct {
			*ampGrepData
			Results []ampResult `json:"results"`
		}{d.ampGrepData, d.Results})
		// encoding/json escapes <, > and & by default; compare with the
		// same HTML escaping applied to ours.
		gotHTML, _ := json.Marshal(json.RawMessage(got))
		if string(gotHTML) != string(want) {
			t.Errorf("%q:\n got %s\nwant %s", s, gotHTML, want)
		}
	}
}

// TestAppendJSONStringRandom compares the string encoder, with its
// eight-bytes-at-a-time path, against encoding/json on random strings
// over an alphabet of plain, escaped and multi-byte characters.
func TestAppendJSONStringRandom(t *testing.T) {
	alphabet := []string{"a", "Z", " ", "~", "\x7f", "\"", "\\", "\n", "\x00", "\x1f", "é", "\u2028", "\xff", "<", "&"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		var sb strings.Builder
		for range rng.IntN(40) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		s := sb.String()
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		if got := string(appendJSONString(nil, s)) + "\n"; got != want.String() {
			t.Fatalf("%q: got %s want %s", s, got, want.String())
		}
	}
}

// TestAmpContentWriteJSON: the streamed form is MarshalJSON's bytes, in
// bounded pieces.
func TestAmpContentWriteJSON(t *testing.T) {
	d := ampContentData{ampGrepData: &ampGrepData{Pattern: "p", OutputMode: "content"}}
	for i := range 3000 {
		d.Results = append(d.Results, ampResult{File: "dir/file.go", LineNumber: i + 1, Content: strings.Repeat("x\t\"é", 10)})
	}
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
	d := ampContentData{ampGrepData: &ampGrepData{Pattern: "p", OutputMode: "content"}}
	for i := range 10000 {
		d.Results = append(d.Results, ampResult{File: "f.go", LineNumber: i + 1, Content: "some content"})
	}
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
