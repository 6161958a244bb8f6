package langs

import (
	"slices"
	"testing"

	enry "github.com/go-enry/go-enry/v2"
	"github.com/go-enry/go-enry/v2/data"
)

// TestMatchesEnry fails when the generated tables no longer match go-enry
// (run go generate ./internal/langs after changing its version).
func TestMatchesEnry(t *testing.T) {
	for alias, lang := range data.LanguageByAliasMap {
		got, ok := Lookup(alias)
		if !ok || got.Name != lang {
			t.Fatalf("Lookup(%q) = %q, %v; go-enry says %q", alias, got.Name, ok, lang)
		}
		if want := enry.GetLanguageExtensions(lang); !slices.Equal(got.Extensions, want) {
			t.Fatalf("extensions of %s = %v, go-enry says %v", lang, got.Extensions, want)
		}
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name, lang, ext string
		reason          string
	}{
		{"go", "Go", ".go", "ripgrep's name"},
		{"py", "Python", ".py", "short alias"},
		{"Python", "Python", ".py", "case-insensitive"},
		{"rust", "Rust", ".rs", "language name"},
		{"c++", "C++", ".cpp", "punctuation in the alias"},
		{"js", "JavaScript", ".js", "alias"},
		{"typescript", "TypeScript", ".ts", "name"},
		{"shell", "Shell", ".sh", "alias of Shell"},
	}
	for _, tt := range tests {
		got, ok := Lookup(tt.name)
		if !ok || got.Name != tt.lang || !slices.Contains(got.Extensions, tt.ext) {
			t.Errorf("Lookup(%q) = %+v, %v; want %s with %s (%s)", tt.name, got, ok, tt.lang, tt.ext, tt.reason)
		}
	}
	if _, ok := Lookup("no-such-language"); ok {
		t.Error("Lookup of an unknown name succeeded")
	}
}
