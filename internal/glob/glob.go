// Package glob compiles the path globs of Scout's tools and implements the
// pi rules that split a user path into a base directory and a glob.
//
// Paths are slash-separated and relative to a base, as in io/fs. The syntax:
//
//	pattern      matches
//	-------      -------
//	*            any run of characters except '/'
//	?            one character except '/'
//	**           any run of characters including '/'; a "**" that is a
//	             whole segment followed by '/' also matches zero
//	             directories, so "**/foo" matches "foo" and "src/**/*.go"
//	             matches "src/a.go"; "a/**" matches below a, not a itself;
//	             three or more stars in a row match any run of characters
//	             too, but only "**/" matches zero directories
//	[abc]        one character of the class; ranges [a-z]; negation [!a]
//	             or [^a]; ']' first and '-' first or last are literal; '\'
//	             quotes the next character; ',', '{' and '}' are plain
//	             members; a class never matches '/'
//	[[:alpha:]]  a POSIX class, inside a bracket expression like any
//	             member ([[:digit:]_-], [![:space:]]): alnum, alpha, blank,
//	             cntrl, digit, graph, lower, print, punct, space, upper,
//	             xdigit; ASCII only, as in git
//	{a,b}        one of the alternatives, nested freely; a '}' or ',' outside
//	             braces is literal
//	\c           the character c, literally
//	x/           a trailing '/' (at the end of the pattern or of an
//	             alternative that ends it: "src/*/", "{a/,*.go}") makes
//	             the glob before it match directories only, as in a shell
//	             or a .gitignore: Match (a file, or an entry of unknown
//	             kind) never matches it, MatchDir does ("src/*/" matches
//	             the directory "src/a"); CompileFiles reads it as the
//	             files below those directories ("src/*/" is "src/*/**")
//
// Matching is case-sensitive and by character (UTF-8). A pattern is at
// most 16 KiB long, with at most 256 wildcards (runs of '*', '?' and
// classes); a longer one, an unclosed '[' or '{', an unknown class name,
// a reversed range or a trailing lone '\' is an InvalidParam error that
// says how to fix it.
//
// The pi contracts cannot write '\' escapes: the tool adapters turn every
// '\' of their inputs into '/' before they reach this package. Everywhere
// else (the Go API, the command line), Compile, SplitFind, SplitSearch and
// SearchPattern read '\' as an escape in a glob and as a name's byte in a
// base, as paths are slash-separated.
//
// A glob is translated to an anchored regular expression (package regexp),
// so matching takes time linear in the path whatever the pattern, and runs
// of stars become one wildcard; the commonest shapes ("**/*.go",
// "*.{ts,tsx}", "**/Makefile", literal paths) are matched with plain string
// tests, and the others are first checked against their literal prefix and
// suffix.
package glob

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/errs"
)

// Pattern is a compiled glob. It is immutable and safe for concurrent use.
// A nil *Pattern matches every path.
type Pattern struct {
	src string
	re  *regexp.Regexp
	// dirRe matches directories: re with the directory-only alternatives
	// (a trailing '/') matching too. nil when the pattern has none: re
	// matches directories as it matches files.
	dirRe *regexp.Regexp
	// prefix and suffix are literal texts every match starts and ends with,
	// checked before the regexp runs.
	prefix, suffix string
	fast           func(string) bool // the commonest globs without regexp; nil if none
}

// meta holds the bytes after which a glob is no longer plain literal text
// (',' and '}' too, for simplicity: they are literal only outside braces).
const meta = `*?[]{},\`

// Compile compiles pattern for matching slash paths relative to a base (see
// the package comment for the syntax). A malformed pattern gives an
// *errs.Error with Code InvalidParam whose message names the problem and
// the fix. The empty pattern is an error too (it would match nothing), and
// so is a pattern that is not valid UTF-8.
func Compile(pattern string) (*Pattern, error) {
	return compile(pattern, pattern)
}

// CompileAs is Compile whose errors name the glob as shown, the way the
// caller wrote it when pattern is a rewrite of it ("[z-a]" for the
// "**/[z-a]" a find matches).
func CompileAs(pattern, shown string) (*Pattern, error) {
	return compile(pattern, shown)
}

// CompileFiles compiles pattern as Compile does, for a glob that selects
// files (a search's): an alternative that ends in '/' selects the files
// below the directories it matches, so "src/*/" matches what "src/*/**"
// does and "**/testdata/" every file below a directory named testdata.
func CompileFiles(pattern string) (*Pattern, error) {
	return CompileFilesAs(pattern, pattern)
}

// CompileFilesAs is CompileFiles whose errors name the glob as shown (see
// CompileAs).
func CompileFilesAs(pattern, shown string) (*Pattern, error) {
	p, err := compile(pattern, shown)
	if err != nil || p.dirRe == nil {
		return p, err
	}
	expr, _, err := translate(pattern, slashBelow)
	if err != nil {
		return nil, invalidGlob(shown, err)
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidParam, err, "Invalid glob '%s': %v — simplify the pattern", errs.Echo(shown), err)
	}
	return &Pattern{src: pattern, re: re, prefix: p.prefix}, nil
}

// compile compiles pattern; its errors name the glob shown, as the caller
// gave it.
func compile(pattern, shown string) (*Pattern, error) {
	if pattern == "" {
		return nil, errs.New(errs.InvalidParam, "Invalid glob '': the pattern is empty — pass a glob such as '*' or '**/*.go'")
	}
	if len(pattern) > maxLen {
		return nil, invalidGlob(shown, invalid("it is %d bytes long, over the cap of %d bytes — shorten it, or split the paths over several calls", len(pattern), maxLen))
	}
	if !utf8.ValidString(pattern) {
		return nil, errs.New(errs.InvalidParam, "Invalid glob %q: it is not valid UTF-8 — pass the pattern as UTF-8 text", errs.Clip(shown))
	}
	expr, dirOnly, err := translate(pattern, slashNever)
	if err != nil {
		return nil, invalidGlob(shown, err)
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidParam, err, "Invalid glob '%s': %v — simplify the pattern", errs.Echo(shown), err)
	}
	p := &Pattern{src: pattern, re: re}
	if i := strings.IndexAny(pattern, meta); i >= 0 {
		p.prefix = pattern[:i]
	}
	if dirOnly {
		// Directories match the alternatives that end in '/' too; the
		// literal prefix holds for both, the suffix and the fast paths
		// would not.
		expr, _, err := translate(pattern, slashDir)
		if err != nil {
			return nil, invalidGlob(shown, err)
		}
		if p.dirRe, err = regexp.Compile(expr); err != nil {
			return nil, errs.Wrap(errs.InvalidParam, err, "Invalid glob '%s': %v — simplify the pattern", errs.Echo(shown), err)
		}
		return p, nil
	}
	p.fast = fastPath(pattern)
	if i := strings.IndexAny(pattern, meta); i >= 0 {
		// A '/' right after "**" may be matched by nothing: leave it out.
		p.suffix = strings.TrimPrefix(pattern[strings.LastIndexAny(pattern, meta)+1:], "/")
	}
	return p, nil
}

// fastPath returns a plain-Go matcher for the commonest globs, nil for the
// others: a literal path; "**" and "**/*" (everything); "**/*.ext" (a suffix
// at any depth); "*.ext" (a suffix, no '/'); "**/name" (a base name at any
// depth); and any of these ending in a group of literal alternatives,
// such as "**/*.{ts,tsx}".
func fastPath(pattern string) func(string) bool {
	switch {
	case !strings.ContainsAny(pattern, meta):
		return func(rel string) bool { return rel == pattern }
	case pattern == "**" || pattern == "**/*":
		return func(string) bool { return true }
	}
	if suffix, ok := strings.CutPrefix(pattern, "**/*"); ok && isPlain(suffix) {
		return func(rel string) bool { return strings.HasSuffix(rel, suffix) }
	}
	if suffix, ok := strings.CutPrefix(pattern, "*"); ok && isPlain(suffix) {
		return func(rel string) bool { return strings.HasSuffix(rel, suffix) && !strings.Contains(rel, "/") }
	}
	if name, ok := strings.CutPrefix(pattern, "**/"); ok && isPlain(name) {
		return func(rel string) bool { return rel == name || strings.HasSuffix(rel, "/"+name) }
	}
	open := strings.LastIndexByte(pattern, '{')
	if open < 0 || !strings.HasSuffix(pattern, "}") || strings.ContainsAny(pattern[:open], "{}") {
		return nil
	}
	var alts []func(string) bool
	for _, alt := range strings.Split(pattern[open+1:len(pattern)-1], ",") {
		f := fastPath(pattern[:open] + alt)
		if f == nil || !isPlain(alt) {
			return nil
		}
		alts = append(alts, f)
	}
	return func(rel string) bool {
		for _, f := range alts {
			if f(rel) {
				return true
			}
		}
		return false
	}
}

// isPlain reports whether s is a non-empty literal within one segment.
func isPlain(s string) bool {
	return s != "" && !strings.ContainsAny(s, meta+"/")
}

// Match reports whether the slash path rel, relative to the pattern's base,
// matches. A nil *Pattern matches every path.
func (p *Pattern) Match(rel string) bool {
	switch {
	case p == nil:
		return true
	case p.fast != nil:
		return p.fast(rel)
	case !strings.HasPrefix(rel, p.prefix) || !strings.HasSuffix(rel, p.suffix):
		return false
	}
	return p.re.MatchString(rel)
}

// MatchDir reports whether the directory at the slash path rel matches:
// as Match does, and also through the alternatives that end in '/'.
func (p *Pattern) MatchDir(rel string) bool {
	if p == nil || p.dirRe == nil {
		return p.Match(rel)
	}
	return strings.HasPrefix(rel, p.prefix) && p.dirRe.MatchString(rel)
}

// MatchEntry is MatchDir for a directory (isDir) and Match otherwise.
func (p *Pattern) MatchEntry(rel string, isDir bool) bool {
	if isDir {
		return p.MatchDir(rel)
	}
	return p.Match(rel)
}

// DirOnly reports whether the pattern has an alternative that ends in '/',
// which matches directories only (MatchDir).
func (p *Pattern) DirOnly() bool {
	return p != nil && p.dirRe != nil
}

// String returns the pattern text given to Compile ("" for a nil Pattern).
func (p *Pattern) String() string {
	if p == nil {
		return ""
	}
	return p.src
}

// CompileFilter compiles a file filter as ripgrep's -g does: a pattern
// without '/' matches the base name at any depth ("*.go" matches
// "a/b/c.go"); a pattern with '/' matches the whole relative path, and a
// leading '/' only anchors it ("/src/*.go" is "src/*.go"). A pattern
// starting with "**" is used as is, and a trailing '/' is dropped.
func CompileFilter(pattern string) (*Pattern, error) {
	p := strings.TrimSuffix(pattern, "/")
	if p != "" && p[0] == '/' {
		p = p[1:]
	} else if !strings.Contains(p, "/") && p != "" && !strings.HasPrefix(p, "**") {
		p = "**/" + p
	}
	g, err := compile(p, pattern)
	if err != nil {
		return nil, err
	}
	g.src = pattern
	return g, nil
}

// HasMeta reports whether s contains a glob character: * ? [ or {.
func HasMeta(s string) bool {
	return strings.ContainsAny(s, "*?[{")
}

// QuoteMeta escapes the glob characters of s (and ',', '}', ']' and '\')
// so that the result matches s literally. Use it for literal file names put
// into a BraceUnion.
func QuoteMeta(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]{},\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// The caps on a glob keep matching fast whatever the pattern: a match
// runs every wildcard that may still match side by side, so its time
// grows with their number.
const (
	maxLen       = 16 << 10 // bytes
	maxWildcards = 256      // runs of '*', '?' and classes
)

// badGlob says what is wrong with a glob; invalidGlob names the glob.
type badGlob struct{ what string }

func (e *badGlob) Error() string { return e.what }

// invalid is the badGlob of what, a format and its arguments.
func invalid(format string, args ...any) error {
	return &badGlob{fmt.Sprintf(format, args...)}
}

// invalidGlob is the InvalidParam error "Invalid glob 'SHOWN': WHAT" of
// err, a badGlob.
func invalidGlob(shown string, err error) error {
	return errs.New(errs.InvalidParam, "Invalid glob '%s': %s", errs.Echo(shown), err.Error())
}

// slashMode is how translate reads a trailing '/' (trailingSlash).
type slashMode int

const (
	slashNever slashMode = iota // the alternative matches nothing: a file
	slashDir                    // the '/' is dropped: a directory
	slashBelow                  // "/**": the files below such a directory
)

// never is a regular expression that matches nothing.
const never = `[^\x00-\x{10FFFF}]`

// translate turns a glob into an anchored regular expression, reading a
// trailing '/' as mode says; trailing reports that it has one. Runs of
// '*' become one wildcard and repeated "**/" segments one, so the
// expression grows linearly with the pattern and has one wildcard per
// run.
func translate(pattern string, mode slashMode) (expr string, trailing bool, err error) {
	var b strings.Builder
	b.WriteString(`^(?s:`)
	// segStart: the next character starts a path segment, so a "**/" there
	// may match zero directories. Each open '{' records whether it was at a
	// segment start, which its alternatives inherit, and whether all the
	// alternatives so far ended at one, which then holds after the '}'.
	type brace struct{ start, endsAtStart bool }
	segStart := true
	var braces []brace
	wildcards := 0
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		wasStart := segStart
		segStart = false
		if c == '*' || c == '?' || c == '[' {
			if wildcards++; wildcards > maxWildcards {
				return "", false, invalid("it has more than %d wildcards (runs of '*', '?' and classes), the cap — use fewer", maxWildcards)
			}
		}
		switch {
		case c == '\\':
			if i+1 == len(pattern) {
				return "", false, invalid("it ends with a lone '\\' — remove it, or write '\\\\' for a literal backslash")
			}
			r := nextRune(pattern[i+1:])
			b.WriteString(regexp.QuoteMeta(r))
			i += len(r)
		case c == '*':
			run := len(pattern[i:]) - len(strings.TrimLeft(pattern[i:], "*"))
			i += run - 1
			switch {
			case run == 1:
				b.WriteString(`[^/]*`)
			case run == 2 && wasStart && strings.HasPrefix(pattern[i+1:], "/") && (mode == slashBelow || !trailingSlash(pattern, i+1)):
				// "**/": zero or more directories; the same right after
				// it adds nothing. A trailing one is "**" then the '/',
				// but for the files below: "x/**/" is "x/**/**".
				b.WriteString(`(?:.*/)?`)
				i++
				for strings.HasPrefix(pattern[i+1:], "**/") && !strings.HasPrefix(pattern[i+1:], "***") && (mode == slashBelow || !trailingSlash(pattern, i+3)) {
					i += 3
				}
				if trailingSlash(pattern, i) { // with slashBelow only
					trailing = true
					b.WriteString(`.*`)
				}
				segStart = true
			default:
				// "**" anywhere else, and longer runs ("***" is "**"
				// then "*"), match any run of characters.
				b.WriteString(`.*`)
			}
		case c == '?':
			b.WriteString(`[^/]`)
		case c == '/' && trailingSlash(pattern, i):
			trailing = true
			switch mode {
			case slashNever:
				b.WriteString(never)
			case slashBelow:
				b.WriteString(`/.*`)
			}
			segStart = true
		case c == '/':
			b.WriteByte('/')
			segStart = true
		case c == '{':
			braces = append(braces, brace{start: wasStart, endsAtStart: true})
			b.WriteString(`(?:`)
			segStart = wasStart
		case c == ',' && len(braces) > 0:
			top := &braces[len(braces)-1]
			top.endsAtStart = top.endsAtStart && wasStart
			b.WriteByte('|')
			segStart = top.start
		case c == '}' && len(braces) > 0:
			top := braces[len(braces)-1]
			braces = braces[:len(braces)-1]
			b.WriteByte(')')
			segStart = top.endsAtStart && wasStart
		case c == '[':
			end, class, err := translateClass(pattern, i)
			if err != nil {
				return "", false, err
			}
			b.WriteString(class)
			i = end
		default:
			r := nextRune(pattern[i:])
			b.WriteString(regexp.QuoteMeta(r))
			i += len(r) - 1
		}
	}
	if len(braces) > 0 {
		return "", false, invalid("unclosed '{' — close it with '}' or remove it")
	}
	b.WriteString(`)$`)
	return b.String(), trailing, nil
}

// trailingSlash reports whether the '/' at pattern[i] ends the pattern or
// an alternative that ends it: what follows it is nothing, or the rest of
// the braces it lies in, and they end the pattern ("a/", "{a/,b}",
// "{x,{a/,b}}"; not "{a/,b}c").
func trailingSlash(pattern string, i int) bool {
	for j := i + 1; ; {
		if j == len(pattern) {
			return true
		}
		if c := pattern[j]; c != ',' && c != '}' {
			return false
		}
		end := braceEnd(pattern, j)
		if end < 0 {
			return false
		}
		j = end + 1
	}
}

// braceEnd returns the index of the '}' that closes the braces pattern[j]
// lies in (quoted characters, classes and nested braces skipped), -1 when
// none does.
func braceEnd(pattern string, j int) int {
	depth := 0
	for ; j < len(pattern); j++ {
		switch pattern[j] {
		case '\\':
			j++
		case '[':
			if end, ok := ClassEnd(pattern, j); ok {
				j = end
			}
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return j
			}
			depth--
		}
	}
	return -1
}

// nextRune returns the first UTF-8 character of s (one byte if invalid).
func nextRune(s string) string {
	_, n := utf8.DecodeRuneInString(s)
	return s[:n]
}
