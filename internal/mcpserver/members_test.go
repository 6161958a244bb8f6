package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// splitMembers lists the members of obj as eachMember reads them.
func splitMembers(t *testing.T, obj []byte) []string {
	t.Helper()
	var got []string
	eachMember(obj, func(name, v []byte) bool {
		got = append(got, string(name), compact(t, v))
		return true
	})
	return got
}

func TestEachMember(t *testing.T) {
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

// FuzzEachMember: eachMember reads any valid JSON object in UTF-8 (as the
// server makes every message) as encoding/json's Decoder does.
func FuzzEachMember(f *testing.F) {
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

func TestReadMembers(t *testing.T) {
	tests := []struct {
		obj  string
		want string // the values of a and b (s for the last), then the error
	}{
		{`{"a":1,"b":"x","c":3}`, `[1 "x"] <nil>`},
		{`{"b":2}`, `[ 2] <nil>`},
		{`{"c":1,"C":2,"c":3}`, `[ ] <nil>`},
		{`{"A":1,"b":2}`, `[ 2] member "A" has the wrong case: names are case-sensitive ("a")`},
		{`{"a":1,"a":2,"b":3,"B":4}`, `[null 3] member "a" is repeated: send it once`},
		{`{"\u0061":1,"a":2}`, `[null ] member "a" is repeated: send it once`},
		{`{"\u0041":1}`, `[ ] member "A" has the wrong case: names are case-sensitive ("a")`},
		{`{"ſ":1}`, `[] member "ſ" has the wrong case: names are case-sensitive ("s")`},
	}
	for i, tt := range tests {
		names := []string{"a", "b"}
		if i == len(tests)-1 {
			names = []string{"s"}
		}
		v, err := readMembers([]byte(tt.obj), names...)
		if got := fmt.Sprintf("%s %v", v, err); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.obj, got, tt.want)
		}
	}
}
