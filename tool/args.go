package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/jsonobj"
)

// A tool's arguments are a Go struct. Each exported field is one argument,
// described by its tags; the decoder (decode) and the JSON Schema
// (schemaOf, schema.go) are both derived from the same fields, so the
// schema the model sees and what the tool accepts cannot drift apart.
//
//	json:"name"        the argument's name (required on every field)
//	desc:"..."         the model-facing description
//	default:"v"        the value when the argument is absent or null: the
//	                   literal text for a string, true/false, a number
//	required:"true"    absent, null, "" and [] are refused with the field's
//	                   missing message (the schema adds minLength/minItems 1)
//	missing:"..."      the error for a missing required argument
//	enum:"a,b,c"       the only values a string may take
//	min:"n" max:"n"    inclusive bounds of a number or integer
//	invalid:"..."      replaces every error about the field's value (type,
//	                   integer, bounds, enum); "%s" in it stands for the
//	                   value given
//	overflow:"inf"     a number beyond float64 is ±Inf, as JavaScript's
//	                   JSON.parse reads it, for the tool to clamp (without
//	                   the tag it is refused as out of range)
//
// Go types map to JSON types: string, bool (boolean), float64 (number),
// int (integer), []string (array of strings), oneOrMany (a string or an
// array of strings) and a pointer to any of the scalar ones (nil when the
// argument is absent).

// oneOrMany is an argument that takes one string or an array of strings.
type oneOrMany []string

// argKind is the JSON shape of an argument.
type argKind int

const (
	kindString argKind = iota
	kindBool
	kindNumber
	kindInteger
	kindStrings
	kindOneOrMany
)

// argField is one argument: its struct field and what the tags say.
type argField struct {
	index    int
	name     string
	desc     string
	kind     argKind
	pointer  bool          // the Go field is a pointer: nil when absent
	def      reflect.Value // the default value; invalid when none
	required bool
	missing  string
	enum     []string
	min, max *float64
	invalid  string
	inf      bool // overflow:"inf"
}

// argSpec lists the arguments of the struct type t, in field order. A
// malformed tag is a bug in Scout, reported by a panic when the tool is
// registered.
func argSpec(t reflect.Type) []argField {
	if t.Kind() != reflect.Struct {
		panic("tool: arguments must be a struct, got " + t.String())
	}
	var fields []argField
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "" || name == "-" {
			panic(fmt.Sprintf("tool: %s.%s needs an exported field with a json name", t, sf.Name))
		}
		f := argField{index: i, name: name, desc: sf.Tag.Get("desc"), missing: sf.Tag.Get("missing"), invalid: sf.Tag.Get("invalid")}
		ft := sf.Type
		if ft.Kind() == reflect.Pointer {
			f.pointer, ft = true, ft.Elem()
		}
		switch {
		case ft == reflect.TypeFor[oneOrMany]():
			f.kind = kindOneOrMany
		case ft == reflect.TypeFor[[]string]():
			f.kind = kindStrings
		case ft.Kind() == reflect.String:
			f.kind = kindString
		case ft.Kind() == reflect.Bool:
			f.kind = kindBool
		case ft.Kind() == reflect.Float64:
			f.kind = kindNumber
		case ft.Kind() == reflect.Int:
			f.kind = kindInteger
		default:
			panic(fmt.Sprintf("tool: %s.%s has an unsupported type %s", t, sf.Name, sf.Type))
		}
		if f.pointer && f.kind >= kindStrings {
			panic(fmt.Sprintf("tool: %s.%s: a list is nil when absent, it needs no pointer", t, sf.Name))
		}
		f.required = sf.Tag.Get("required") == "true"
		f.inf = sf.Tag.Get("overflow") == "inf"
		if f.inf && f.kind != kindNumber {
			panic(fmt.Sprintf("tool: %s.%s: only a number can overflow to infinity", t, sf.Name))
		}
		if f.required && (f.pointer || f.kind == kindBool || f.kind == kindNumber || f.kind == kindInteger) {
			panic(fmt.Sprintf("tool: %s.%s: only strings and lists can be required", t, sf.Name))
		}
		if e := sf.Tag.Get("enum"); e != "" {
			f.enum = strings.Split(e, ",")
		}
		f.min = tagNumber(t, sf, "min")
		f.max = tagNumber(t, sf, "max")
		if d, ok := sf.Tag.Lookup("default"); ok {
			f.def = defaultValue(t, sf, ft, d)
		}
		fields = append(fields, f)
	}
	return fields
}

func tagNumber(t reflect.Type, sf reflect.StructField, key string) *float64 {
	s, ok := sf.Tag.Lookup(key)
	if !ok {
		return nil
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(fmt.Sprintf("tool: %s.%s: bad %s tag %q", t, sf.Name, key, s))
	}
	return &n
}

// defaultValue parses a default tag into a value of the field's type.
func defaultValue(t reflect.Type, sf reflect.StructField, ft reflect.Type, s string) reflect.Value {
	v := reflect.New(ft).Elem()
	var err error
	switch ft.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Bool:
		var b bool
		b, err = strconv.ParseBool(s)
		v.SetBool(b)
	case reflect.Float64:
		var f float64
		f, err = strconv.ParseFloat(s, 64)
		v.SetFloat(f)
	case reflect.Int:
		var n int
		n, err = strconv.Atoi(s)
		v.SetInt(int64(n))
	default:
		err = fmt.Errorf("no default for %s", ft)
	}
	if err != nil || sf.Type.Kind() == reflect.Pointer {
		panic(fmt.Sprintf("tool: %s.%s: bad default %q (%v; pointer fields take none)", t, sf.Name, s, err))
	}
	return v
}

// args are a tool call's arguments: one JSON object, by name.
type args map[string]json.RawMessage

// parseArgs checks that raw is one JSON object ("" is {}) whose members
// each appear once; an error names the arguments of fields, those of the
// tool called.
func parseArgs(raw []byte, fields []argField) (args, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	if !json.Valid(raw) {
		return nil, errs.New(errs.InvalidParam, "Arguments are not valid JSON: pass one JSON object of named arguments (valid arguments: %s).", argNames(fields))
	}
	if !utf8.Valid(raw) {
		return nil, errs.New(errs.InvalidParam, "Arguments are not valid UTF-8: JSON text is UTF-8; encode the strings in it as UTF-8.")
	}
	if raw[0] != '{' {
		return nil, errs.New(errs.InvalidParam, "Arguments must be a JSON object, got %s: pass named arguments (valid arguments: %s).", jsonKind(raw), argNames(fields))
	}
	m := args{}
	var twice []string
	jsonobj.Each(raw, func(name, v []byte) bool {
		k := string(name)
		if _, ok := m[k]; ok && !slices.Contains(twice, k) {
			twice = append(twice, k)
		}
		m[k] = v
		return true
	})
	switch len(twice) {
	case 0:
		return m, nil
	case 1:
		return nil, errs.New(errs.InvalidParam, "Argument %s is given more than once: pass each argument once.", quoteList(twice))
	}
	return nil, errs.New(errs.InvalidParam, "Arguments %s are given more than once: pass each argument once.", quoteList(twice))
}

// decode fills dst, a pointer to the arguments struct of fields, from a:
// first an argument named as one of fields in another case (names are
// case-sensitive), then fields in order, each error naming the field at
// fault, then unknown arguments, listing the valid ones.
func decode(a args, fields []argField, dst any) error {
	known := func(k string) bool { return slices.ContainsFunc(fields, func(f argField) bool { return f.name == k }) }
	for k := range a {
		if known(k) {
			continue
		}
		for _, f := range fields {
			if _, given := a[f.name]; !given && strings.EqualFold(k, f.name) {
				return errs.New(errs.InvalidParam, "Unknown argument %s: argument names are case-sensitive; pass it as '%s'.", quoteList([]string{k}), f.name)
			}
		}
	}
	v := reflect.ValueOf(dst).Elem()
	for i := range fields {
		if err := fields[i].decode(a, v.Field(fields[i].index)); err != nil {
			return err
		}
	}
	var unknown []string
	for k := range a {
		if !known(k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return errs.New(errs.InvalidParam, "Unknown argument %s; valid arguments: %s.", quoteList(unknown), argNames(fields))
}

// argNames lists the names of fields, in order, comma-separated.
func argNames(fields []argField) string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// decode sets dst from the argument; JSON null counts as absent.
func (f *argField) decode(a args, dst reflect.Value) error {
	raw, ok := a[f.name]
	if !ok || string(raw) == "null" {
		switch {
		case f.required:
			return f.missingErr()
		case f.def.IsValid():
			dst.Set(f.def)
		}
		return nil
	}
	val, err := f.value(raw)
	if err != nil {
		if f.invalid != "" {
			msg := f.invalid
			if strings.Contains(msg, "%s") {
				msg = fmt.Sprintf(msg, errs.Echo(string(raw)))
			}
			return errs.New(errs.InvalidParam, "%s", msg)
		}
		return err
	}
	if f.required && val.Len() == 0 {
		return f.missingErr()
	}
	if f.pointer {
		p := reflect.New(val.Type())
		p.Elem().Set(val)
		val = p
	}
	dst.Set(val)
	return nil
}

// value decodes and checks raw as the field's kind.
func (f *argField) value(raw json.RawMessage) (reflect.Value, error) {
	switch f.kind {
	case kindString:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return reflect.Value{}, typeErr(f.name, "a string", raw)
		}
		if f.enum != nil && !slices.Contains(f.enum, s) {
			return reflect.Value{}, errs.New(errs.InvalidParam, "Invalid argument '%s': must be one of %s, got %s.", f.name, strings.Join(f.enum, ", "), errs.Echo(string(raw)))
		}
		return reflect.ValueOf(s), nil
	case kindBool:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return reflect.Value{}, typeErr(f.name, "true or false", raw)
		}
		return reflect.ValueOf(b), nil
	case kindNumber, kindInteger:
		var n float64
		if json.Unmarshal(raw, &n) != nil {
			if jsonKind(raw) == "a number" { // beyond float64
				if f.inf {
					sign := 1
					if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("-")) {
						sign = -1
					}
					return reflect.ValueOf(math.Inf(sign)), nil
				}
				return reflect.Value{}, errs.New(errs.InvalidParam, "Invalid argument '%s': %s is out of range; pass a smaller number.", f.name, errs.Echo(string(raw)))
			}
			return reflect.Value{}, typeErr(f.name, "a number", raw)
		}
		if f.kind == kindInteger && n != math.Trunc(n) {
			return reflect.Value{}, errs.New(errs.InvalidParam, "Invalid argument '%s': must be an integer, got %s.", f.name, fmtNum(n))
		}
		if err := f.inBounds(n); err != nil {
			return reflect.Value{}, err
		}
		if f.kind == kindInteger && math.Abs(n) > 1<<53 {
			return reflect.Value{}, errs.New(errs.InvalidParam, "Invalid argument '%s': %s is out of range; pass an integer between -2^53 and 2^53.", f.name, errs.Echo(string(raw)))
		}
		if f.kind == kindInteger {
			return reflect.ValueOf(int(n)), nil
		}
		return reflect.ValueOf(n), nil
	case kindStrings:
		var ss []string
		if json.Unmarshal(raw, &ss) != nil {
			return reflect.Value{}, typeErr(f.name, "an array of strings", raw)
		}
		return reflect.ValueOf(ss), nil
	default: // kindOneOrMany
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return reflect.ValueOf(oneOrMany{s}), nil
		}
		var ss []string
		if json.Unmarshal(raw, &ss) != nil {
			return reflect.Value{}, typeErr(f.name, "a string or an array of strings", raw)
		}
		return reflect.ValueOf(oneOrMany(ss)), nil
	}
}

// inBounds checks n against the field's min and max.
func (f *argField) inBounds(n float64) error {
	lo := f.min == nil || n >= *f.min
	hi := f.max == nil || n <= *f.max
	switch {
	case lo && hi:
		return nil
	case f.min != nil && f.max != nil:
		return errs.New(errs.InvalidParam, "Invalid argument '%s': must be between %s and %s, got %s.", f.name, fmtNum(*f.min), fmtNum(*f.max), fmtNum(n))
	case !lo:
		return errs.New(errs.InvalidParam, "Invalid argument '%s': must be %s or more, got %s.", f.name, fmtNum(*f.min), fmtNum(n))
	}
	return errs.New(errs.InvalidParam, "Invalid argument '%s': must be %s or less, got %s.", f.name, fmtNum(*f.max), fmtNum(n))
}

func (f *argField) missingErr() error {
	if f.missing != "" {
		return errs.New(errs.InvalidParam, "%s", f.missing)
	}
	return errs.New(errs.InvalidParam, "Missing required argument '%s'.", f.name)
}

func typeErr(name, want string, v json.RawMessage) error {
	return errs.New(errs.InvalidParam, "Invalid argument '%s': must be %s, got %s %s.", name, want, jsonKind(v), errs.Echo(string(v)))
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = "'" + errs.Echo(s) + "'"
	}
	return strings.Join(q, ", ")
}

// jsonKind names the type of v, a valid JSON value, with its article ("an
// object", "null").
func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch k := jsonobj.Kind(v); k {
	case "null":
		return k
	case "object", "array":
		return "an " + k
	default:
		return "a " + k
	}
}

// fmtNum prints a float like JavaScript does for integers and short decimals.
func fmtNum(f float64) string { return fmt.Sprint(f) }
