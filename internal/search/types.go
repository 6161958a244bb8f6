package search

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/langs"
)

// rgTypes are ripgrep's common file-type names, each with the file
// extensions (".x") and exact base names it selects. Other names are looked
// up as language names or aliases (go-enry's data, through internal/langs) ("python", "Dockerfile").
// The table is made on first use.
var rgTypes = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"c":          {".c", ".h", ".H"},
		"cpp":        {".C", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".inl"},
		"cs":         {".cs"},
		"css":        {".css", ".scss", ".sass", ".less"},
		"csv":        {".csv"},
		"docker":     {"Dockerfile", ".dockerfile"},
		"go":         {".go"},
		"html":       {".html", ".htm", ".xhtml"},
		"java":       {".java"},
		"js":         {".js", ".jsx", ".mjs", ".cjs", ".vue"},
		"json":       {".json", ".jsonl", ".geojson"},
		"kotlin":     {".kt", ".kts"},
		"lua":        {".lua"},
		"make":       {"Makefile", "makefile", "GNUmakefile", ".mk", ".mak"},
		"md":         {".md", ".markdown", ".mdown", ".mkdn", ".mkd", ".mdx"},
		"markdown":   {".md", ".markdown", ".mdown", ".mkdn", ".mkd", ".mdx"},
		"php":        {".php", ".php3", ".php4", ".php5", ".phtml"},
		"proto":      {".proto"},
		"py":         {".py", ".pyi", ".pyw"},
		"python":     {".py", ".pyi", ".pyw"},
		"rb":         {".rb", ".gemspec", "Gemfile", "Rakefile"},
		"ruby":       {".rb", ".gemspec", "Gemfile", "Rakefile"},
		"rs":         {".rs"},
		"rust":       {".rs"},
		"scala":      {".scala", ".sbt"},
		"sh":         {".sh", ".bash", ".zsh", ".ksh", ".bashrc", ".zshrc", ".profile"},
		"sql":        {".sql"},
		"swift":      {".swift"},
		"toml":       {".toml", "Cargo.lock"},
		"ts":         {".ts", ".tsx", ".cts", ".mts"},
		"typescript": {".ts", ".tsx", ".cts", ".mts"},
		"txt":        {".txt"},
		"xml":        {".xml", ".xsd", ".xsl", ".xslt", ".svg"},
		"yaml":       {".yaml", ".yml"},
		"zig":        {".zig"},
	}
})

// TypeFilter selects files by type name, like ripgrep's -t. The zero value
// (no types) selects every file.
type TypeFilter struct {
	exts  map[string]bool // ".go"
	names map[string]bool // "Makefile"
}

// CompileTypes builds the filter of the union of the named types. An unknown
// name is an INVALID_PARAM error that lists the common names.
func CompileTypes(types []string) (*TypeFilter, error) {
	if len(types) == 0 {
		return nil, nil
	}
	f := &TypeFilter{exts: map[string]bool{}, names: map[string]bool{}}
	for _, t := range types {
		items, ok := typeItems(strings.TrimSpace(t))
		if !ok {
			return nil, errs.New(errs.InvalidParam, "Unknown file type '%s': use a common name (%s) or a language name such as 'python'.", errs.Echo(t), strings.Join(TypeNames(), ", "))
		}
		for _, it := range items {
			if strings.HasPrefix(it, ".") && len(it) > 1 && !isDotName(it) {
				f.exts[it] = true
			} else {
				f.names[it] = true
			}
		}
	}
	return f, nil
}

// isDotName reports dot files that are names, not extensions (".bashrc").
func isDotName(s string) bool {
	return s == ".bashrc" || s == ".zshrc" || s == ".profile"
}

func typeItems(t string) ([]string, bool) {
	if t == "" {
		return nil, false
	}
	if items, ok := rgTypes()[strings.ToLower(t)]; ok {
		return items, true
	}
	lang, ok := langs.Lookup(t)
	if !ok {
		return nil, false
	}
	items := append(slices.Clone(lang.Extensions), lang.Filenames...)
	return items, len(items) > 0
}

// TypeNames returns the common type names, sorted.
func TypeNames() []string {
	names := make([]string, 0, len(rgTypes()))
	for n := range rgTypes() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Match reports whether the file with the slash path rel is of one of the
// filter's types. A nil filter matches every file.
func (f *TypeFilter) Match(rel string) bool {
	if f == nil {
		return true
	}
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	if f.names[base] {
		return true
	}
	// Every suffix from a '.' after the first character is a candidate
	// extension: "a.tar.gz" tries ".tar.gz" and ".gz", ".eslintrc.json"
	// tries ".json".
	for i := 1; i < len(base); i++ {
		if base[i] == '.' && f.exts[base[i:]] {
			return true
		}
	}
	return false
}
