package envelope

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/redact"
	"github.com/scoutkit/scout/internal/web"
)

// FuzzParams checks the arguments echo on arbitrary input: no panic;
// null exactly when the input is empty, not JSON or not UTF-8, else valid
// JSON with the input's tokens, in order, but for each string value that
// is a web URL with credentials (after leading spaces), shown through
// redact.URL with its secret "xxxxx", and the other URLs in a string
// through redact.Text; the input's bytes when there is no such value; and
// the same again when echoed twice.
func FuzzParams(f *testing.F) {
	for _, s := range []string{
		`{"path":"https://user:secret@host/x:10-20"}`,
		"{ \"path\" :\n \"https://u:p@h/\" , \"limit\": 5 }",
		`{"path":"https:\/\/u:p\u0040h\/x"}`,
		`{"a":"\u00e9\/","path":"HTTP://tok@h/","b":"x@y"}`,
		`{"paths":["a",{"u":"http://u:p@h"}],"n":[1,"www.u:p@h.example/x"]}`,
		`{"https://u:p@h/":"https://u:p@h/"}`,
		`{"path":"  https://u:p@h/<a>&"}`,
		`{"q":"say \"hi\" @ https://u:p@h","path":"dir/https://u:p@h","p":"ftp://u:p@h"}`,
		`{"path":"https://user:pa/ss@host/x"}`,
		`"https://u:p@h"`,
		`{"path":"https://host/x"}`,
		``, `{bad`, "{\"path\":\"\xff\"}",
		`[" \u2028https://u:p@h", "\\\"", 1e5, true, null, {}]`,
		`{"a":{"b":["https://u:p/a/s@s@host/x@y"]}, "c" : "https://u:xxxxx@h"}`,
		`{"":["www.@"]}`, // the user name "www.": "xxxxx@"
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := Params(in)
		if len(in) == 0 || !json.Valid(in) || !utf8.Valid(in) {
			if string(out) != "null" {
				t.Fatalf("Params(%q) = %q, want null", in, out)
			}
			return
		}
		if !json.Valid(out) || !utf8.Valid(out) {
			t.Fatalf("Params(%q) = %q, not valid JSON", in, out)
		}
		want, redacted := echoed(t, in)
		got, _ := echoed(t, out)
		if len(got) != len(want) {
			t.Fatalf("Params(%q) = %q: %d tokens, want %d", in, out, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("Params(%q) = %q: token %d is %#v, want %#v", in, out, i, got[i], want[i])
			}
		}
		if !redacted && !bytes.Equal(out, in) {
			t.Fatalf("Params(%q) = %q, want the input as it is", in, out)
		}
		if again := Params(out); !bytes.Equal(again, out) {
			t.Fatalf("Params(%q) = %q, then %q", in, out, again)
		}
	})
}

// echoed returns the JSON tokens of b as Params should echo them, each
// string value that is a web URL with credentials redacted (and checked
// to show its secret as "xxxxx"); redacted reports one.
func echoed(t *testing.T, b []byte) (toks []any, redacted bool) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	type frame struct{ object, nameNext bool }
	var stack []frame
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return toks, redacted
		}
		if err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		name := false
		if tok == json.Delim('}') || tok == json.Delim(']') {
			stack = stack[:len(stack)-1]
		} else if n := len(stack); n > 0 && stack[n-1].object {
			name = stack[n-1].nameNext
			stack[n-1].nameNext = !name // a name, then its value
		}
		if tok == json.Delim('{') || tok == json.Delim('[') {
			stack = append(stack, frame{tok == json.Delim('{'), tok == json.Delim('{')})
		}
		if s, ok := tok.(string); ok && !name {
			shown := s
			lead := strings.TrimLeftFunc(s, unicode.IsSpace)
			if web.IsURL(lead) && (redact.URL(lead) != lead || redact.IsRedacted(lead)) {
				shown = s[:len(s)-len(lead)] + redact.URL(lead)
				r := redact.URL(lead)
				if !redact.IsRedacted(r) && !redact.IsRedacted("https://"+r) { // "www.tok@h" is "https://www.tok@h": "xxxxx@h"
					t.Fatalf("%q: %q shown as %q", b, s, shown)
				}
			}
			if shown = redact.Text(shown); shown != s || redact.IsRedacted(strings.TrimLeftFunc(s, unicode.IsSpace)) {
				redacted = true
			}
			tok = shown
		}
		toks = append(toks, tok)
	}
}
