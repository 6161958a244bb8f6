package glob

import "strings"

// SplitFind splits a find entry into the directory to walk and the glob to
// match below it, as pi find's parseFindPattern does. Every unclosed '{' is
// closed, as pi's native glob does; a '\' is a name's byte in the base and
// quotes the next character in the glob (pi's '\' separators are the
// caller's to turn into '/' first).
//
//   - no glob character: (p, "**/*", false), i.e. everything below p;
//   - a glob in the first segment: (".", p) with "**/" put in front unless
//     p already starts with "**/", so a bare top-level glob is recursive:
//     "*.ts" gives (".", "**/*.ts");
//   - a glob further on: the segments before the first glob segment and the
//     rest, which stays as written: "src/*.ts" gives ("src", "*.ts") and
//     matches only direct children of src; "./*.ts" gives (".", "*.ts").
//
// A base made only of the leading '/' ("/**/*.ts") is returned as "/".
func SplitFind(p string) (base, pattern string, hasGlob bool) {
	if !HasMeta(p) {
		return p, "**/*", false
	}
	base, rest, first := splitAtGlob(p)
	if first && !strings.HasPrefix(rest, "**/") {
		rest = "**/" + rest
	}
	return base, closeBraces(rest), true
}

// SplitSearch splits a search path into the directory or file to search and
// the glob that filters the files below it, following pi search's
// parseSearchPath with Scout's recursion rule. A '\' is a name's byte in the
// base and quotes the next character in the glob (pi's '\' separators are
// the caller's to turn into '/' first). The pattern is ready for Compile,
// relative to base:
//
//   - no glob character: (p, "");
//   - a glob in the first segment: (".", SearchPattern(p)), so "*.ts" gives
//     (".", "**/*.ts") and "{a.txt,b.txt}" stays an exact union;
//   - a glob further on: the segments before the first glob segment and the
//     rest, non-recursive and with unclosed '{' closed: "src/*.ts" gives
//     ("src", "*.ts") and "./*.ts" gives (".", "*.ts").
//
// A base made only of the leading '/' ("/**/*.ts") is returned as "/".
func SplitSearch(p string) (base, pattern string) {
	if !HasMeta(p) {
		return p, ""
	}
	base, rest, first := splitAtGlob(p)
	if first {
		return base, SearchPattern(rest)
	}
	return base, closeBraces(rest)
}

// SearchPattern rewrites a whole glob, relative to the search root, the way
// pi search's build_glob_pattern(recursive=true) does (but for its '\'
// separators, which are the caller's to turn into '/'): an empty or blank pattern becomes "*"; every unclosed '{' is closed; and
// "**/" is put in front unless the pattern contains '/', starts with "**",
// or is an exact brace union such as "{a.txt,b.txt}" (no glob character
// inside). It is idempotent.
//
// Do not apply it to the pattern of a base other than "." (SplitSearch's
// "src", "*.ts"): that would make "src/*.ts" recursive, which Scout's design
// rules out.
func SearchPattern(p string) string {
	if strings.TrimSpace(p) == "" {
		p = "*"
	}
	p = closeBraces(p)
	if strings.Contains(p, "/") || strings.HasPrefix(p, "**") || isExactUnion(p) {
		return p
	}
	return "**/" + p
}

// BraceUnion joins already-rebased items into one glob (pi's buildBraceUnion):
// items are trimmed, empty ones dropped, "." segments and doubled slashes
// removed, duplicates dropped (first one kept). One item is returned as is,
// several as "{a,b,...}", none as "" (find then searches "**/*").
// Literal file names that contain glob characters or commas should be
// passed through QuoteMeta first.
func BraceUnion(items []string) string {
	out := UnionItems(items)
	switch len(out) {
	case 0:
		return ""
	case 1:
		return out[0]
	}
	return "{" + strings.Join(out, ",") + "}"
}

// UnionItems returns the items BraceUnion joins, in order: each trimmed
// and normalized, the empty ones and repeats left out.
func UnionItems(items []string) []string {
	seen := make(map[string]bool, len(items))
	var out []string
	for _, it := range items {
		it = normalizeItem(strings.TrimSpace(it))
		if it == "" || seen[it] {
			continue
		}
		seen[it] = true
		out = append(out, it)
	}
	return out
}

// CutLiteral cuts the slash glob p before its first segment that is not a
// literal name (one holding a glob character, or a '\' that quotes one),
// or else before its last segment, which names the matches rather than a
// directory they lie in. dir is the segments before the cut as written
// and rest those from it, so that every match of p lies in or below dir:
//
//   - "src/cmd/*.go" gives ("src/cmd", "*.go"), "src/**" ("src", "**");
//   - a glob with no glob character keeps its last segment out: "a/b.go"
//     gives ("a", "b.go");
//   - a quoted character is not a literal name: `src/x\,y/*.go` gives
//     ("src", `x\,y/*.go`);
//   - a leading '/' is an empty first segment: "/x/*.go" gives ("/x",
//     "*.go"), "/*.go" ("", "*.go").
//
// found reports a cut after at least one segment; it is false, dir "" and
// rest p, when the first segment is not a literal name or is the only one
// ("*.go", "b.go", "{a,b}/x"). A ',' is part of a name here: where p is an
// item of a brace union (BraceUnion), one outside braces splits the union,
// which the caller must see to.
func CutLiteral(p string) (dir, rest string, found bool) {
	end := -1 // the '/' after the last literal segment
	for i := 0; ; {
		j := strings.IndexByte(p[i:], '/')
		if j < 0 || HasMeta(p[i:i+j]) || strings.Contains(p[i:i+j], `\`) {
			break
		}
		end = i + j
		i = end + 1
	}
	if end < 0 {
		return "", p, false
	}
	return p[:end], p[end+1:], true
}

// splitAtGlob splits p, which holds a glob character and no '\', at its
// first segment holding one (CutLiteral); first reports that it is the
// first segment, and base is then ".". The base is "/" when only a leading
// slash precedes the glob.
func splitAtGlob(p string) (base, rest string, first bool) {
	base, rest, found := CutLiteral(p)
	switch {
	case !found:
		return ".", p, true
	case base == "":
		return "/", rest, false
	}
	return base, rest, false
}

// closeBraces appends a '}' for every '{' left open. Braces inside a class
// ("[{]") and quoted ones (`\{`) do not count. A pattern ending in a lone
// '\' is returned as it is: a '}' after it would be quoted, not close, and
// compiling says how to fix the '\'.
func closeBraces(p string) string {
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			if i == len(p)-1 {
				return p
			}
			i++
		case '[':
			if end, ok := ClassEnd(p, i); ok {
				i = end
			}
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return p + strings.Repeat("}", depth)
}

// isExactUnion reports whether p is "{...}" with no glob character inside.
func isExactUnion(p string) bool {
	return len(p) >= 2 && p[0] == '{' && p[len(p)-1] == '}' && !HasMeta(p[1:len(p)-1])
}

// normalizeItem drops empty and "." segments of a slash path, keeping a
// leading '/' and a trailing one (which makes a glob match directories
// only). It leaves ".." alone: a segment may sit inside braces, where
// resolving it would break the glob.
func normalizeItem(p string) string {
	if p == "" {
		return ""
	}
	var segs []string
	for _, s := range strings.Split(p, "/") {
		if s != "" && s != "." {
			segs = append(segs, s)
		}
	}
	out := strings.Join(segs, "/")
	if out != "" && strings.HasSuffix(p, "/") && !strings.HasSuffix(p, `\/`) {
		out += "/"
	}
	if p[0] == '/' {
		return "/" + out
	}
	if out == "" {
		return "."
	}
	return out
}
