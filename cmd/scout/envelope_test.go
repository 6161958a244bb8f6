package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/envelope"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawData marshals itself, as the content-mode results of amplifier grep do.
type rawData string

func (r rawData) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// streamData streams itself.
type streamData string

func (r streamData) MarshalJSON() ([]byte, error) { return []byte(r), nil }
func (r streamData) WriteJSON(w io.Writer) error {
	for i := 0; i < len(r); i += 3 {
		if _, err := io.WriteString(w, string(r[i:min(i+3, len(r))])); err != nil {
			return err
		}
	}
	return nil
}

// TestWriteEnvelope: the spliced output is byte for byte what json.Encoder
// without HTML escaping writes.
func TestWriteEnvelope(t *testing.T) {
	params := json.RawMessage(`{"pattern":"<a> & \"b\""}`)
	cases := []struct {
		name string
		env  *scout.Envelope
	}{
		{"self-marshalling data", &scout.Envelope{Status: scout.StatusSuccess, Data: rawData(`{"results":[{"content":"a<b>&\"data\":null"}]}`),
			Text: "x <y> & \"data\":null", Context: scout.EnvelopeContext{Cwd: ".", ParamsInput: params}}},
		{"streamed data", &scout.Envelope{Status: scout.StatusSuccess, Data: streamData(`{"a":[1,2,3],"b":"<c>"}`),
			Text: "t", Context: scout.EnvelopeContext{Cwd: ".", ParamsInput: params}}},
		{"plain data goes through encoding/json", &scout.Envelope{Status: scout.StatusPartial, Data: map[string]int{"n": 1},
			Text: "t", Stats: scout.Stats{Matched: 3}, Context: scout.EnvelopeContext{Cwd: ".", ParamsInput: params}}},
		{"error envelope, nil data", envelope.Error(errors.New("bad <input>"), params)},
		{"every field", &scout.Envelope{Status: scout.StatusPartial, Data: []string{"a<b>", "\u2028"},
			Text: "line\n\ttab \x00\x1f \"q\" \\ <&> \u2028\u2029 \xff\xfe é 日本", Stats: scout.Stats{TimeMS: 12, Matched: 3, Visited: -1, Skipped: 4, Files: 5, Bytes: 1 << 40},
			Context: scout.EnvelopeContext{Cwd: "dir/\x7f", ParamsInput: json.RawMessage("{ \"a\" : [ 1 ,\n 2 ] , \"b\":\"<\\u2028>\" }"),
				PathResolved: "p<>", PatternNormalized: "**/*.go",
				Backend: &scout.Backend{Index: false, Endpoints: 2, Commit: "abc", Overlay: 1, Unindexed: 2, Fallback: "no <index>"}},
			Error: &scout.Error{Code: scout.CodeInvalidParam, Message: "a & b", Path: "x"}}},
		{"zero envelope", &scout.Envelope{}},
		{"empty params_input", &scout.Envelope{Status: scout.StatusSuccess, Context: scout.EnvelopeContext{ParamsInput: json.RawMessage{}}}},
		{"params_input not JSON", &scout.Envelope{Status: scout.StatusSuccess, Context: scout.EnvelopeContext{ParamsInput: json.RawMessage(`{"a":`)}}},
	}
	for _, c := range cases {
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		wantErr := enc.Encode(c.env)
		if err := writeEnvelope(&got, c.env); (err != nil) != (wantErr != nil) {
			t.Fatalf("%s: error %v, want %v", c.name, err, wantErr)
		} else if err != nil {
			if err.Error() != wantErr.Error() {
				t.Errorf("%s: error %q, want %q", c.name, err, wantErr)
			}
			continue
		}
		if got.String() != want.String() {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got.String(), want.String())
		}
	}
	if err := writeEnvelope(&bytes.Buffer{}, &scout.Envelope{Data: rawData("")}); err == nil {
		t.Error("empty self-marshalled data: no error, a broken line would be written")
	}
}

// TestWriteEnvelopeStrings: the envelope's strings are escaped as
// encoding/json escapes them without HTML escaping.
func TestWriteEnvelopeStrings(t *testing.T) {
	strs := []string{"", "plain", "\x00\x01\x08\x0c\x1f\x7f", "\b\f\n\r\t", `"\/`, "<script>&amp;</script>",
		"\u2028\u2029\u2027\u202a", "\xff", "a\xc3", "\xed\xa0\x80", "\U0001F600", "ünïcödé", strings.Repeat("abcdefgh", 9) + "\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		strs = append(strs, string(b))
	}
	for _, s := range strs {
		env := &scout.Envelope{Status: scout.Status(s), Data: streamData(`{}`), Text: s, Context: scout.EnvelopeContext{Cwd: s, PathResolved: s, PatternNormalized: s},
			Error: &scout.Error{Code: scout.Code(s), Message: s}}
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(env); err != nil {
			t.Fatal(err)
		}
		if err := writeEnvelope(&got, env); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%q:\n got %s\nwant %s", s, got.String(), want.String())
		}
	}
}

// TestWriteEnvelopeFirstUse: the first envelope a process writes costs few
// allocations: encoding/json's first use of the Envelope type, which
// reflected on it and on every type it holds, is not made. It runs in a
// child process, where no envelope has been written before.
func TestWriteEnvelopeFirstUse(t *testing.T) {
	env := &scout.Envelope{Status: scout.StatusSuccess, Data: streamData(`{"files":[]}`), Text: "No files found",
		Stats: scout.Stats{TimeMS: 1}, Context: scout.EnvelopeContext{Cwd: ".", ParamsInput: json.RawMessage(`{"pattern":"x"}`), PathResolved: "."}}
	if os.Getenv("SCOUT_ENVELOPE_CHILD") != "" {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		err := writeEnvelope(io.Discard, env)
		runtime.ReadMemStats(&m1)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("allocations: %d\n", m1.Mallocs-m0.Mallocs)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteEnvelopeFirstUse$")
	cmd.Env = append(os.Environ(), "SCOUT_ENVELOPE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var n int
	i := bytes.Index(out, []byte("allocations: "))
	if i < 0 {
		t.Fatalf("no count in the output:\n%s", out)
	}
	fmt.Sscanf(string(out[i:]), "allocations: %d", &n)
	if n > 20 {
		t.Errorf("the first envelope written made %d allocations, want at most 20", n)
	}
}

// TestWriteEnvelopeEveryField: every field that the Envelope's JSON holds,
// filled by reflection (so that a field added later is filled too), is
// written as encoding/json writes it: the hand-written encoding misses none.
func TestWriteEnvelopeEveryField(t *testing.T) {
	var fill func(v reflect.Value, n int)
	fill = func(v reflect.Value, n int) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				if f := v.Type().Field(i); f.IsExported() && f.Tag.Get("json") != "-" {
					fill(v.Field(i), n+i)
				}
			}
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem(), n)
		case reflect.String:
			v.SetString(fmt.Sprintf("s%d", n))
		case reflect.Int, reflect.Int64:
			v.SetInt(int64(n + 1))
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Slice:
			if v.Type() == reflect.TypeFor[json.RawMessage]() {
				v.SetBytes([]byte(fmt.Sprintf(`{"n":%d}`, n)))
				return
			}
			t.Fatalf("no filling for %s: write one, and check appendEnvelope writes it", v.Type())
		case reflect.Interface:
			v.Set(reflect.ValueOf(map[string]int{"n": n}))
		default:
			t.Fatalf("no filling for %s: write one, and check appendEnvelope writes it", v.Type())
		}
	}
	env := &scout.Envelope{}
	fill(reflect.ValueOf(env).Elem(), 0)
	var want, got bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(env))
	require.NoError(t, writeEnvelope(&got, env))
	assert.Equal(t, want.String(), got.String())
}
