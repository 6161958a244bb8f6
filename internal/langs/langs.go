// Package langs maps language names and aliases (as ripgrep's --type and
// GitHub Linguist know them: "go", "py", "python", "js", "c++", ...) to
// their file extensions and file names. The tables are generated from
// go-enry's data (gen.go) so that no large map is built at start-up.
package langs

//go:generate go run gen.go

import (
	"sort"
	"strings"
)

type alias struct{ key, lang string }

type language struct {
	name      string
	exts      []string // with the leading dot, e.g. ".go"
	filenames []string // exact base names, e.g. "Makefile"
}

// Language is a language's file-name rules.
type Language struct {
	Name       string   // the canonical name, e.g. "Go"
	Extensions []string // with the leading dot
	Filenames  []string // exact base names
}

// Lookup returns the language a name or alias denotes. Matching ignores
// case; spaces may be written as '_' and the part after a comma is
// ignored, as in go-enry.
func Lookup(name string) (Language, bool) {
	key := strings.ToLower(strings.ReplaceAll(strings.SplitN(strings.TrimSpace(name), ",", 2)[0], " ", "_"))
	i := sort.Search(len(aliases), func(i int) bool { return aliases[i].key >= key })
	if i == len(aliases) || aliases[i].key != key {
		return Language{}, false
	}
	lang := aliases[i].lang
	j := sort.Search(len(languages), func(j int) bool { return languages[j].name >= lang })
	if j == len(languages) || languages[j].name != lang {
		return Language{Name: lang}, true
	}
	l := languages[j]
	return Language{Name: l.name, Extensions: l.exts, Filenames: l.filenames}, true
}
