package jsonobj

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// decodedMembers lists the members of obj as encoding/json's Decoder
// reads them: each name, then its value compacted.
func decodedMembers(t *testing.T, obj []byte) []string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(obj))
	if _, err := d.Token(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for d.More() {
		k, err := d.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		got = append(got, k.(string), compact(t, v))
	}
	return got
}

func compact(t *testing.T, v []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		t.Fatalf("value %q: %v", v, err)
	}
	return b.String()
}

// splitMembers lists the members of obj as Each reads them.
func splitMembers(t *testing.T, obj []byte) []string {
	t.Helper()
	var got []string
	Each(obj, func(name, v []byte) bool {
		got = append(got, string(name), compact(t, v))
		return true
	})
	return got
}

func TestEach(t *testing.T) {
	for _, obj := range []string{
		`{}`,
		` { } `,
		`{"a":1}`,
		"{ \"a\" :\t1 ,\r\n\"b\"\n:\"x\" }",
		`{"a":"q\"uote","b":"back\\","c":"\\\"","d":"\\\\"}`,
		`{"a":{"b":[1,{"c":"}]"}],"d":"{["},"e":[[],{}],"f":"]"}`,
		`{"\u006dethod":"ping","m\"e":1,"\\":2,"\ud800":3}`,
		`{"n":-1.5e+10,"t":true,"f":false,"z":null,"s":""}`,
		`{"a":[ 1 , 2 ] , "b" : { } }`,
		`{"é":"ü","ſ":"K"}`,
	} {
		if !json.Valid([]byte(obj)) {
			t.Fatalf("%s is not valid JSON", obj)
		}
		want := fmt.Sprint(decodedMembers(t, []byte(obj)))
		if got := fmt.Sprint(splitMembers(t, []byte(obj))); got != want {
			t.Errorf("%s: members %s, want %s", obj, got, want)
		}
	}
}

// FuzzEach: Each reads any valid JSON object in UTF-8 as encoding/json's
// Decoder does.
func FuzzEach(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":"\\\"","b":{"c":["}"]}}`, `{"\u0041":[]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, obj []byte) {
		obj = bytes.TrimSpace(obj)
		if len(obj) == 0 || obj[0] != '{' || !json.Valid(obj) || !utf8.Valid(obj) {
			return
		}
		want := fmt.Sprintf("%q", decodedMembers(t, obj))
		if got := fmt.Sprintf("%q", splitMembers(t, obj)); got != want {
			t.Errorf("%q: members %s, want %s", obj, got, want)
		}
	})
}

func TestKind(t *testing.T) {
	for v, want := range map[string]string{`{}`: "object", `[1]`: "array", `"s"`: "string", `true`: "boolean", `false`: "boolean", `null`: "null", `-1.5`: "number", `0`: "number"} {
		if got := Kind([]byte(v)); got != want {
			t.Errorf("Kind(%s) = %s, want %s", v, got, want)
		}
	}
}

// TestTrimBOM: a byte order mark before the JSON value, after white space
// or not, is dropped with that white space; one anywhere else stays.
func TestTrimBOM(t *testing.T) {
	for in, want := range map[string]string{
		"\uFEFF{}":         "{}",
		" \r\n\t\uFEFF[1]": "[1]",
		"{}":               "{}",
		" {}":              " {}",
		"{\uFEFF}":         "{\uFEFF}",
		"\uFEFF":           "",
		"":                 "",
		"\uFEFF\uFEFF{}":   "\uFEFF{}",
	} {
		if got := string(TrimBOM([]byte(in))); got != want {
			t.Errorf("TrimBOM(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestElements: each element's raw text, in order, nested values and
// strings holding brackets, commas and escaped quotes whole; an empty
// array has none; f returning false stops the walk.
func TestElements(t *testing.T) {
	tests := []struct {
		arr  string
		want []string
	}{
		{`[]`, nil},
		{` [ ] `[1:], nil},
		{`[1]`, []string{`1`}},
		{`["a", null ,[1,[2]], {"k":"]"} ,"\"],"]`, []string{`"a"`, `null`, `[1,[2]]`, `{"k":"]"}`, `"\"],"`}},
		{"[\n\t-1.5e3,\r\ntrue\n]", []string{`-1.5e3`, `true`}},
	}
	for _, tt := range tests {
		var got []string
		Elements([]byte(tt.arr), func(v []byte) bool { got = append(got, string(v)); return true })
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("Elements(%s) = %q, want %q", tt.arr, got, tt.want)
		}
	}
	n := 0
	Elements([]byte(`[1,2,3]`), func([]byte) bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("f called %d times after returning false at the second, want 2", n)
	}
}

// TestAppendStringRandom compares the string encoder, with its
// eight-bytes-at-a-time path, against encoding/json on random strings
// over an alphabet of plain, escaped and multi-byte characters.
func TestAppendStringRandom(t *testing.T) {
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
		if got := string(AppendString(nil, s)) + "\n"; got != want.String() {
			t.Fatalf("%q: got %s want %s", s, got, want.String())
		}
	}
}
