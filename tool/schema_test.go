package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/envelope"
	"github.com/scoutkit/scout/internal/errs"
)

// TestSchemaAgreesWithDecoder checks, for every field of every tool, that
// the published JSON Schema (validated with jsonschema-go) and the decoder
// accept and refuse the same argument objects: valid values, wrong types,
// values out of bounds or outside the enum, empty required values, a
// missing required argument and an unknown one. JSON null is left out: the
// decoder reads it as absent, a leniency the schema does not advertise.
func TestSchemaAgreesWithDecoder(t *testing.T) {
	for _, ts := range Toolsets() {
		tools, _ := Tools(ts)
		for _, tl := range tools {
			var s jsonschema.Schema
			if err := json.Unmarshal(tl.Schema, &s); err != nil {
				t.Fatalf("%s/%s: schema does not parse: %v", ts, tl.Name, err)
			}
			rs, err := s.Resolve(nil)
			if err != nil {
				t.Fatalf("%s/%s: schema does not resolve: %v", ts, tl.Name, err)
			}
			n := 0
			for _, c := range agreementCases(tl.fields) {
				var inst map[string]any
				if err := json.Unmarshal(c.args, &inst); err != nil {
					t.Fatal(err)
				}
				schemaOK := rs.Validate(inst) == nil
				a, err := parseArgs(c.args, tl.fields)
				if err != nil {
					t.Fatal(err)
				}
				dst := reflect.New(tl.argsType)
				decodeErr := decode(a, tl.fields, dst.Interface())
				if schemaOK != (decodeErr == nil) || schemaOK != c.valid {
					t.Errorf("%s/%s %s (%s): schema accepts: %v, decoder error: %v, want valid: %v", ts, tl.Name, c.args, c.reason, schemaOK, decodeErr, c.valid)
				}
				n++
			}
			if n < 3*len(tl.fields) {
				t.Errorf("%s/%s: only %d cases for %d fields", ts, tl.Name, n, len(tl.fields))
			}
		}
	}
}

type agreementCase struct {
	args   json.RawMessage
	valid  bool
	reason string
}

// agreementCases builds argument objects around a valid base (every
// required argument set): for each field, values it takes and values it
// refuses.
func agreementCases(fields []argField) []agreementCase {
	base := map[string]any{}
	for _, f := range fields {
		if f.required {
			base[f.name] = validSamples(&f)[0]
		}
	}
	with := func(name string, v any) json.RawMessage {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		if v == nil {
			delete(m, name)
		} else {
			m[name] = v
		}
		b, _ := json.Marshal(m)
		return b
	}
	cases := []agreementCase{
		{with("", nil), true, "the required arguments alone"},
		{with("zz_unknown", 1), false, "an unknown argument"},
	}
	for _, f := range fields {
		for _, v := range validSamples(&f) {
			cases = append(cases, agreementCase{with(f.name, v), true, fmt.Sprintf("%s takes %v", f.name, v)})
		}
		for _, v := range invalidSamples(&f) {
			cases = append(cases, agreementCase{with(f.name, v), false, fmt.Sprintf("%s refuses %v", f.name, v)})
		}
		if f.required {
			cases = append(cases, agreementCase{with(f.name, nil), false, f.name + " is required"})
		}
	}
	return cases
}

func validSamples(f *argField) []any {
	switch f.kind {
	case kindString:
		if f.enum != nil {
			out := make([]any, len(f.enum))
			for i, e := range f.enum {
				out[i] = e
			}
			return out
		}
		return []any{"a"}
	case kindBool:
		return []any{true, false}
	case kindNumber, kindInteger:
		var out []any
		if f.min != nil {
			out = append(out, *f.min)
		}
		if f.max != nil {
			out = append(out, *f.max)
		}
		if f.kind == kindNumber {
			out = append(out, 1.5)
		}
		return append(out, 1, 2.0)
	case kindStrings:
		return []any{[]string{"a"}, []string{"a", "b"}}
	}
	return []any{"a", []string{"a", "b"}}
}

func invalidSamples(f *argField) []any {
	out := []any{map[string]any{}}
	switch f.kind {
	case kindString:
		out = append(out, 5, []string{"a"})
		if f.enum != nil {
			out = append(out, "zzz")
		}
		if f.required {
			out = append(out, "")
		}
	case kindBool:
		out = append(out, "yes", 1)
	case kindNumber, kindInteger:
		out = append(out, "1", true)
		if f.kind == kindInteger {
			out = append(out, 1.5)
		}
		if f.min != nil {
			out = append(out, *f.min-1)
		}
		if f.max != nil {
			out = append(out, *f.max+1)
		}
	case kindStrings:
		out = append(out, "a", []any{1})
		if f.required {
			out = append(out, []string{})
		}
	default:
		out = append(out, 5, []any{1})
	}
	return out
}

// decodeProbe exercises every decoder rule through tags.
type decodeProbe struct {
	Name  string    `json:"name" required:"true"`
	Mode  string    `json:"mode" enum:"a,b" default:"b"`
	Kind  string    `json:"kind" enum:"x,y" invalid:"kind is x or y, not %s"`
	Count int       `json:"count" min:"1" max:"9" default:"3"`
	Low   float64   `json:"low" min:"0.5"`
	High  *int      `json:"high" max:"10"`
	Flag  bool      `json:"flag" default:"true"`
	List  []string  `json:"list" required:"true" missing:"list needs one entry"`
	Any   oneOrMany `json:"any"`
}

func TestDecode(t *testing.T) {
	fields := argSpec(reflect.TypeFor[decodeProbe]())
	base := `"name": "n", "list": ["l"]`
	ten := 10
	tests := []struct {
		args   string
		want   *decodeProbe // nil: an error containing msg
		msg    string
		reason string
	}{
		{`{` + base + `}`, &decodeProbe{Name: "n", Mode: "b", Count: 3, Flag: true, List: []string{"l"}}, "", "defaults fill absent arguments"},
		{`{` + base + `, "mode": null, "count": null, "high": null}`, &decodeProbe{Name: "n", Mode: "b", Count: 3, Flag: true, List: []string{"l"}}, "", "null is absent"},
		{`{` + base + `, "mode": "a", "count": 9, "low": 0.5, "high": 10, "flag": false, "any": "s"}`,
			&decodeProbe{Name: "n", Mode: "a", Count: 9, Low: 0.5, High: &ten, List: []string{"l"}, Any: oneOrMany{"s"}}, "", "values at the bounds; one string for oneOrMany"},
		{`{` + base + `, "any": ["s", "t"]}`, &decodeProbe{Name: "n", Mode: "b", Count: 3, Flag: true, List: []string{"l"}, Any: oneOrMany{"s", "t"}}, "", "an array for oneOrMany"},
		{`{"list": ["l"]}`, nil, "Missing required argument 'name'.", "the generic missing message"},
		{`{"name": "", "list": ["l"]}`, nil, "Missing required argument 'name'.", "an empty required string is missing"},
		{`{"name": "n", "list": []}`, nil, "list needs one entry", "an empty required list uses the missing tag"},
		{`{` + base + `, "mode": "c"}`, nil, `Invalid argument 'mode': must be one of a, b, got "c".`, "the generic enum message"},
		{`{` + base + `, "kind": "z"}`, nil, `kind is x or y, not "z"`, "the invalid tag replaces the enum message, with the value"},
		{`{` + base + `, "kind": 7}`, nil, `kind is x or y, not 7`, "the invalid tag replaces the type message too"},
		{`{` + base + `, "count": 0}`, nil, "Invalid argument 'count': must be between 1 and 9, got 0.", "both bounds"},
		{`{` + base + `, "count": 2.5}`, nil, "Invalid argument 'count': must be an integer, got 2.5.", "an integer refuses fractions"},
		{`{` + base + `, "low": 0.25}`, nil, "Invalid argument 'low': must be 0.5 or more, got 0.25.", "a minimum only"},
		{`{` + base + `, "high": 11}`, nil, "Invalid argument 'high': must be 10 or less, got 11.", "a maximum only"},
		{`{` + base + `, "high": 1e400}`, nil, "Invalid argument 'high': 1e400 is out of range; pass a smaller number.", "a number beyond float64"},
		{`{` + base + `, "count": 9223372036854775807}`, nil, "Invalid argument 'count': must be between 1 and 9, got 9.223372036854776e+18.", "a huge integer is out of the bounds, not a fraction"},
		{`{` + base + `, "high": -9223372036854775807}`, nil, "Invalid argument 'high': -9223372036854775807 is out of range; pass an integer between -2^53 and 2^53.", "an integer beyond 2^53 within the bounds is out of range, not a fraction"},
		{`{` + base + `, "flag": "yes"}`, nil, `Invalid argument 'flag': must be true or false, got a string "yes".`, "a wrong type is named"},
		{`{` + base + `, "any": 3}`, nil, "must be a string or an array of strings, got a number 3.", "oneOrMany refuses a number"},
		{`{` + base + `, "zz": 1, "aa": 2}`, nil, "Unknown argument 'aa', 'zz'; valid arguments: name, mode, kind, count, low, high, flag, list, any.", "unknown arguments, sorted, with the valid ones in order"},
	}
	for _, tt := range tests {
		a, err := parseArgs([]byte(tt.args), fields)
		if err != nil {
			t.Fatalf("%s: %v", tt.args, err)
		}
		var got decodeProbe
		err = decode(a, fields, &got)
		switch {
		case tt.want == nil && (err == nil || !strings.Contains(err.Error(), tt.msg) || errs.CodeOf(err) != errs.InvalidParam):
			t.Errorf("%s: got error %v, want INVALID_PARAM %q (%s)", tt.args, err, tt.msg, tt.reason)
		case tt.want != nil:
			if assert.NoError(t, err, "%s (%s)", tt.args, tt.reason) {
				assert.Equal(t, tt.want, &got, "%s (%s)", tt.args, tt.reason)
			}
		}
	}
}

// TestDecodeNames: argument names are case-sensitive, a name in another
// case is refused first with the name to use (where that argument is not
// given too), and two arguments whose names differ only in case are each
// taken as given; parseArgs refuses an argument given twice, under any
// spelling of its name.
func TestDecodeNames(t *testing.T) {
	type probe struct {
		Path string `json:"path" required:"true" missing:"Path must not be empty"`
		Up   bool   `json:"-A"`
		Lo   bool   `json:"-a"`
	}
	fields := argSpec(reflect.TypeFor[probe]())
	for _, tt := range []struct{ args, msg, reason string }{
		{`{"Path":"x"}`, "Unknown argument 'Path': argument names are case-sensitive; pass it as 'path'.", "a known name in another case, before the missing one"},
		{`{"PATH":"x","-a":true}`, "Unknown argument 'PATH': argument names are case-sensitive; pass it as 'path'.", "in any case"},
		{`{"path":"x","Path":"y"}`, "Unknown argument 'Path'; valid arguments: path, -A, -a.", "with the right name given too, it is an unknown argument"},
		{`{"path":"x","-a":true,"-A":false}`, "", "names that differ only in case are two arguments"},
		{`{"path":"x","path":"y"}`, "Argument 'path' is given more than once: pass each argument once.", "a repeated argument"},
		{`{"path":"x","p\u0061th":"y","-a":true,"-a":true}`, "Arguments 'path', '-a' are given more than once: pass each argument once.", "repeated under an escaped spelling"},
	} {
		var got probe
		a, err := parseArgs([]byte(tt.args), fields)
		if err == nil {
			err = decode(a, fields, &got)
		}
		if tt.msg == "" {
			assert.NoError(t, err, "%s (%s)", tt.args, tt.reason)
			assert.Equal(t, probe{Path: "x", Lo: true}, got, "%s (%s)", tt.args, tt.reason)
			continue
		}
		if err == nil || err.Error() != tt.msg || errs.CodeOf(err) != errs.InvalidParam {
			t.Errorf("%s: got error %v, want INVALID_PARAM %q (%s)", tt.args, err, tt.msg, tt.reason)
		}
	}
}

func TestSchemaOf(t *testing.T) {
	got := string(schemaOf(argSpec(reflect.TypeFor[decodeProbe]())))
	want := `{"type":"object","properties":{` +
		`"name":{"type":"string","minLength":1},` +
		`"mode":{"type":"string","enum":["a","b"],"default":"b"},` +
		`"kind":{"type":"string","enum":["x","y"]},` +
		`"count":{"type":"integer","minimum":1,"maximum":9,"default":3},` +
		`"low":{"type":"number","minimum":0.5},` +
		`"high":{"type":"integer","maximum":10},` +
		`"flag":{"type":"boolean","default":true},` +
		`"list":{"type":"array","items":{"type":"string"},"minItems":1},` +
		`"any":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}]}` +
		`},"required":["name","list"],"additionalProperties":false}`
	if got != want {
		t.Errorf("schema:\n got %s\nwant %s", got, want)
	}
	if got := string(schemaOf(argSpec(reflect.TypeFor[struct{}]()))); got != `{"type":"object","properties":{},"additionalProperties":false}` {
		t.Errorf("no arguments: %s", got)
	}
}

// TestArgSpecRefusesBadTags: a malformed arguments struct is a bug caught
// when the tool registers, not when a model calls it.
func TestArgSpecRefusesBadTags(t *testing.T) {
	tests := []struct {
		typ    reflect.Type
		reason string
	}{
		{reflect.TypeFor[int](), "not a struct"},
		{reflect.TypeFor[struct{ A string }](), "no json name"},
		{reflect.TypeFor[struct {
			A map[string]int `json:"a"`
		}](), "an unsupported type"},
		{reflect.TypeFor[struct {
			A *[]string `json:"a"`
		}](), "a pointer to a list"},
		{reflect.TypeFor[struct {
			A bool `json:"a" required:"true"`
		}](), "a required boolean"},
		{reflect.TypeFor[struct {
			A int `json:"a" min:"one"`
		}](), "a bound that is not a number"},
		{reflect.TypeFor[struct {
			A bool `json:"a" default:"yes"`
		}](), "a default of the wrong type"},
		{reflect.TypeFor[struct {
			A *int `json:"a" default:"1"`
		}](), "a default on a pointer"},
		{reflect.TypeFor[struct {
			A []string `json:"a" default:"x"`
		}](), "a default on a list"},
	}
	for _, tt := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: argSpec accepted %s", tt.reason, tt.typ)
				}
			}()
			argSpec(tt.typ)
		}()
	}
}

// TestDefinedToolDecodes: a registered tool sees its decoded struct, and a
// decoding error never reaches it.
func TestDefinedToolDecodes(t *testing.T) {
	var seen *decodeProbe
	define("test-probe", "probe", "decodes", func(_ context.Context, _ *Config, in *decodeProbe) (*scout.Envelope, error) {
		seen = in
		return okEnvelope(false, nil, in.Name), nil
	})
	probe := builders[len(builders)-1].make(true)
	builders = builders[:len(builders)-1]
	call := func(raw string) *scout.Envelope {
		a, err := parseArgs([]byte(raw), probe.fields)
		if err != nil {
			t.Fatal(err)
		}
		env, err := probe.run(context.Background(), &Config{}, a)
		if err != nil {
			return envelope.Error(err, nil)
		}
		return env
	}
	env := call(`{"name": "n", "list": ["l"]}`)
	if env.Status != scout.StatusSuccess || env.Text != "n" || seen == nil || seen.Count != 3 {
		t.Fatalf("got %+v, tool saw %+v", env, seen)
	}
	seen = nil
	env = call(`{"name": "n"}`)
	if env.Status != scout.StatusError || seen != nil {
		t.Fatalf("a missing argument reached the tool: %+v", env)
	}
}

// FuzzDecode feeds arbitrary argument objects to every tool's decoder: it
// must return a value or an INVALID_PARAM error, never panic.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"paths": ["a"], "limit": 1e308}`, `{"pattern": "x", "-A": -1, "-C": 1.0}`,
		`{"pattern": "x", "limit": 9007199254740993}`, `{"paths": "a", "exclude": [null]}`,
		`{"pattern": "", "type": "dir", "skip": -0}`, `{"path": null, "output_mode": 3}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := parseArgs(raw, nil)
		if err != nil {
			if errs.CodeOf(err) != errs.InvalidParam {
				t.Fatalf("parseArgs(%q): %v", raw, err)
			}
			return
		}
		for _, ts := range Toolsets() {
			tools, _ := Tools(ts)
			for _, tl := range tools {
				if err := decode(a, tl.fields, reflect.New(tl.argsType).Interface()); err != nil && errs.CodeOf(err) != errs.InvalidParam {
					t.Fatalf("%s/%s %q: %v", ts, tl.Name, raw, err)
				}
			}
		}
	})
}
