package convert

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestXLSXAgainstExcelize compares our reader with what the excelize-based
// reader printed (testdata/xlsx_excelize.txtar): the same text, or, where
// a "<fixture>.want" section exists, the text it gives for the reasons in
// "<fixture>.why".
func TestXLSXAgainstExcelize(t *testing.T) {
	a, err := txtar.ParseFile("testdata/xlsx_excelize.txtar")
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string]map[string]string{} // fixture -> part -> XML
	sections := map[string]string{}         // "fixture.excelize", ".want", ".why"
	var fixtures []string
	for _, f := range a.Files {
		if dir, part, ok := strings.Cut(f.Name, "/"); ok {
			if parts[dir] == nil {
				parts[dir] = map[string]string{}
			}
			parts[dir][part] = string(f.Data)
			continue
		}
		sections[f.Name] = string(f.Data)
		if name, ok := strings.CutSuffix(f.Name, ".excelize"); ok {
			fixtures = append(fixtures, name)
		}
	}
	if len(fixtures) < 10 {
		t.Fatalf("only %d fixtures in xlsx_excelize.txtar", len(fixtures))
	}
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			var data []byte
			if strings.HasSuffix(name, ".xlsx") {
				data = mustRead(t, "testdata/"+name)
			} else {
				data = zipOf(t, parts[name])
			}
			got, err := convertXLSX(context.Background(), bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			want, ok := sections[name+".want"]
			if !ok {
				want = sections[name+".excelize"]
			} else if sections[name+".why"] == "" {
				t.Errorf("%s.want has no %s.why", name, name)
			}
			if got+"\n" != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
