package tool

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/scoutkit/scout"
)

// TestPiFindDataJSON: pi find's hand-written details are what encoding/json
// writes for the struct without HTML escaping, for every field present or
// absent and names that need escapes; through an encoder that escapes HTML
// they come out escaped as the struct's would.
func TestPiFindDataJSON(t *testing.T) {
	odd := []string{`<a&b>.go`, "line\u2028sep", "bad\xffutf8", "q\"b\\s\n\t\x01", "日本.go", ""}
	trunc := &piMetaTrunc{Direction: "head", TruncatedBy: "bytes", TotalLines: 300, TotalBytes: 70000, OutputLines: 120, ShownRange: piRange{1, 120}, NextOffset: 121, MaxBytes: 51200}
	cases := map[string]*piFindData{
		"zero":  {},
		"empty": {Files: []string{}, ScopePath: "."},
		"limit": {FileCount: 2, Files: []string{"a/b.go", "c.go"}, ScopePath: "src", ResultLimitReached: true, Truncated: true,
			Meta: &piMeta{Limits: &piMetaLimits{ResultLimit: &piReached{200}}}},
		"all": {FileCount: len(odd), Files: odd, ScopePath: odd[0], ResultLimitReached: true, Truncated: true,
			Meta:         &piMeta{Source: &piSource{Type: "path", Value: odd[1]}, Truncation: trunc, Limits: &piMetaLimits{ResultLimit: &piReached{3}, ColumnTruncated: &piMaxColumn{500}}},
			MissingPaths: []string{"x/**/*.go", odd[2]},
			Skipped:      map[scout.SkipReason]int{scout.SkipIgnored: 4, scout.SkipHidden: 2, "zz": 0, scout.SkipUnreadable: 1},
			SplitEntries: []piSplit{{Entry: "a,b", Paths: []string{"a", "b"}}, {Entry: odd[3]}},
			Truncation:   trunc},
		"partial truncation":  {Truncation: &piMetaTrunc{Direction: "head", TruncatedBy: "bytes", ShownRange: piRange{1, 0}, NextOffset: 1}},
		"meta without source": {Meta: &piMeta{Truncation: trunc}},
		"column limit alone":  {Meta: &piMeta{Limits: &piMetaLimits{ColumnTruncated: &piMaxColumn{80}}}},
		"empty meta":          {Meta: &piMeta{Limits: &piMetaLimits{}}, Skipped: map[scout.SkipReason]int{}, SplitEntries: []piSplit{}, MissingPaths: []string{}},
	}
	requireAllSet(t, "all", reflect.ValueOf(cases["all"]).Elem())
	type plain piFindData // the struct without its MarshalJSON
	encode := func(v any, html bool) string {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for name, d := range cases {
		want := encode((*plain)(d), false)
		if b, err := d.MarshalJSON(); err != nil || string(b)+"\n" != want {
			t.Errorf("%s: MarshalJSON =\n%s, %v; want\n%s", name, b, err, want)
		}
		if got, want := encode(d, true), encode((*plain)(d), true); got != want {
			t.Errorf("%s, HTML escaped:\n got %swant %s", name, got, want)
		}
	}
}

// requireAllSet fails unless every field of the struct v, and of each
// struct it points to, is set: a field added to pi find's details later
// must be added to the "all" case, which compares it with encoding/json.
func requireAllSet(t *testing.T, path string, v reflect.Value) {
	t.Helper()
	for i := range v.NumField() {
		f, name := v.Field(i), path+"."+v.Type().Field(i).Name
		if f.IsZero() {
			t.Fatalf("%s is not set: add it to the case, so that MarshalJSON is checked for it", name)
		}
		if f.Kind() == reflect.Pointer && f.Elem().Kind() == reflect.Struct {
			requireAllSet(t, name, f.Elem())
		}
	}
}
