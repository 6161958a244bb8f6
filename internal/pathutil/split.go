package pathutil

import (
	"strings"

	"github.com/scoutkit/scout/internal/glob"
)

// A delimiter mode of SplitDelimited: which bytes split, and whether every
// part (strict) or at least one part (lenient) must resolve.
type mode struct {
	delims string
	strict bool
}

const spaces = " \t\n\r\v\f"

var modes = []mode{
	{",", false},
	{";", false},
	{spaces, true},
	{",;" + spaces, true},
}

// SplitDelimited recovers several paths given as one entry, as pi's
// splitDelimitedPathEntry does. exists reports
// whether a part resolves (the caller peels a ":sel" suffix and the glob
// part before it stats); it is also asked about the whole entry. A nil
// exists resolves nothing, so the entry comes back alone.
//
// The entry is returned alone when it has no glob character and exists.
// Otherwise the modes are tried in order: comma, semicolon, white space,
// then all of them mixed. A delimiter counts only outside '{}' and when not
// escaped with '\' (the '\' is then dropped), and never inside a bracket
// class ("[, ]"). Parts are trimmed and
// unquoted, empty parts dropped. Comma and semicolon are lenient (accepted
// when any part exists), white space and mixed are strict (every part must
// exist). The first accepted split is returned; if none is, the entry alone.
// So "apps/a.txt," gives ["apps/a.txt"] when that file exists.
func SplitDelimited(entry string, exists func(part string) bool) []string {
	if exists == nil {
		return []string{entry}
	}
	if !strings.ContainsAny(entry, "*?[{") && exists(entry) {
		return []string{entry}
	}
	for _, m := range modes {
		parts, split := splitOutsideBraces(entry, m.delims)
		if !split || len(parts) == 0 {
			continue
		}
		found := 0
		for _, p := range parts {
			if exists(p) {
				found++
			}
		}
		if m.strict && found == len(parts) || !m.strict && found > 0 {
			return parts
		}
	}
	return []string{entry}
}

// CommaParts splits s at its commas outside '{}' and bracket classes and
// not escaped with '\' (the sign of "a,b" given where an array was
// expected), as SplitDelimited does: parts trimmed and unquoted, empty
// ones dropped. hasComma is false when s holds no such comma.
func CommaParts(s string) (parts []string, hasComma bool) {
	return splitOutsideBraces(s, ",")
}

// splitOutsideBraces splits s at the bytes of delims found outside braces
// and bracket classes ("[,]" is a class, see glob.ClassEnd) and not
// escaped, and reports whether there was any. The parts are trimmed and
// unquoted, and empty ones dropped.
func splitOutsideBraces(s, delims string) (parts []string, split bool) {
	var cur strings.Builder
	flush := func() {
		if p := unquote(strings.TrimSpace(cur.String())); p != "" {
			parts = append(parts, p)
		}
		cur.Reset()
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte(delims, s[i+1]) >= 0:
			cur.WriteByte(s[i+1])
			i++
		case c == '[':
			end, ok := glob.ClassEnd(s, i)
			if !ok {
				end = i
			}
			cur.WriteString(s[i : end+1])
			i = end
		case c == '{':
			depth++
			cur.WriteByte(c)
		case c == '}':
			depth = max(depth-1, 0)
			cur.WriteByte(c)
		case depth == 0 && strings.IndexByte(delims, c) >= 0:
			split = true
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return parts, split
}

// unquote removes one pair of matching surrounding quotes.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
