package langs

import (
	"strings"
	"testing"

	enry "github.com/go-enry/go-enry/v2"
)

// FuzzLookupMatchesEnry: Lookup finds the language go-enry's alias lookup
// finds for the name without surrounding blanks (which Lookup ignores),
// for any name (case, spaces, commas, non-ASCII), and nothing for a name
// go-enry does not know.
func FuzzLookupMatchesEnry(f *testing.F) {
	for _, s := range []string{"go", "Py", "c++", "C#", "objective-c", "visual basic", "Visual_Basic .NET", " shell ", "js,extra", "", ",", "ǆ", "K", "İ", "\x00", "emacs lisp", "f#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got, ok := Lookup(name)
		want, wok := enry.GetLanguageByAlias(strings.TrimSpace(name))
		if ok != wok || got.Name != want {
			t.Fatalf("Lookup(%q) = %q, %v; go-enry says %q, %v", name, got.Name, ok, want, wok)
		}
	})
}
