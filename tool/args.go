package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
)

// args decodes a tool call's JSON arguments field by field, so that every
// error names the field at fault and what it should be.
type args struct {
	m    map[string]json.RawMessage
	seen map[string]bool
}

func parseArgs(raw []byte) (*args, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	if !json.Valid(raw) {
		return nil, errs.New(errs.InvalidParam, "Arguments are not valid JSON: pass one JSON object, e.g. {\"pattern\": \"TODO\"}.")
	}
	if raw[0] != '{' {
		return nil, errs.New(errs.InvalidParam, "Arguments must be a JSON object, got %s: pass e.g. {\"pattern\": \"TODO\"}.", jsonKind(raw))
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, errs.Wrap(errs.InvalidParam, err, "Arguments are not a valid JSON object: %v", err)
	}
	return &args{m: m, seen: map[string]bool{}}, nil
}

// get returns the raw value of name, treating JSON null as absent.
func (a *args) get(name string) (json.RawMessage, bool) {
	a.seen[name] = true
	v, ok := a.m[name]
	if !ok || string(v) == "null" {
		return nil, false
	}
	return v, true
}

func typeErr(name, want string, v json.RawMessage) error {
	return errs.New(errs.InvalidParam, "Invalid argument '%s': must be %s, got %s %s.", name, want, jsonKind(v), clip(string(v)))
}

func (a *args) str(name string) (string, bool, error) {
	v, ok := a.get(name)
	if !ok {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", true, typeErr(name, "a string", v)
	}
	return s, true, nil
}

func (a *args) boolean(name string, def bool) (bool, error) {
	v, ok := a.get(name)
	if !ok {
		return def, nil
	}
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		return def, typeErr(name, "true or false", v)
	}
	return b, nil
}

func (a *args) number(name string) (float64, bool, error) {
	v, ok := a.get(name)
	if !ok {
		return 0, false, nil
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, true, typeErr(name, "a number", v)
	}
	return f, true, nil
}

// integer accepts a JSON number with no fractional part.
func (a *args) integer(name string) (int, bool, error) {
	f, ok, err := a.number(name)
	if err != nil || !ok {
		return 0, ok, err
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, true, errs.New(errs.InvalidParam, "Invalid argument '%s': must be an integer, got %v.", name, f)
	}
	return int(f), true, nil
}

func (a *args) strs(name string) ([]string, bool, error) {
	v, ok := a.get(name)
	if !ok {
		return nil, false, nil
	}
	var ss []string
	if err := json.Unmarshal(v, &ss); err != nil {
		return nil, true, typeErr(name, "an array of strings", v)
	}
	return ss, true, nil
}

// strOrStrs accepts a string (one element) or an array of strings.
func (a *args) strOrStrs(name string) ([]string, bool, error) {
	v, ok := a.get(name)
	if !ok {
		return nil, false, nil
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return []string{s}, true, nil
	}
	var ss []string
	if err := json.Unmarshal(v, &ss); err != nil {
		return nil, true, typeErr(name, "a string or an array of strings", v)
	}
	return ss, true, nil
}

// done rejects arguments the tool does not know, listing the valid ones.
func (a *args) done(valid ...string) error {
	var unknown []string
	for k := range a.m {
		if !slices.Contains(valid, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return errs.New(errs.InvalidParam, "Unknown argument %s; valid arguments: %s.", quoteList(unknown), strings.Join(valid, ", "))
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = "'" + s + "'"
	}
	return strings.Join(q, ", ")
}

func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// fmtNum prints a float like JavaScript does for integers and short decimals.
func fmtNum(f float64) string { return fmt.Sprint(f) }
