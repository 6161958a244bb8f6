// Package pathutil holds the path rules shared by Scout's tools: how a user
// path is cleaned up (Normalize), mapped onto the workspace (Resolve),
// displayed (Display), split when one entry names several paths
// (SplitDelimited, CommaParts) and merged (CommonBase). They follow pi's
// path-utils.
package pathutil

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
)

// internalSchemes are the internal URL prefixes before which a leading '@'
// is dropped.
var internalSchemes = []string{"agent://", "artifact://", "skill://", "rule://", "local:", "mcp://"}

// unicodeSpaces become a plain space.
var unicodeSpaces = strings.NewReplacer(
	"\u00A0", " ", "\u2000", " ", "\u2001", " ", "\u2002", " ", "\u2003", " ",
	"\u2004", " ", "\u2005", " ", "\u2006", " ", "\u2007", " ", "\u2008", " ",
	"\u2009", " ", "\u200A", " ", "\u202F", " ", "\u205F", " ", "\u3000", " ",
)

// Normalize cleans a user path as pi's normalizePathLikeInput and expandPath
// do: surrounding white space (and a BOM) is trimmed; one pair of
// surrounding double quotes is removed (single quotes are kept); a leading
// '@' is dropped before '/', '~', a Windows drive ("C:\" or "C:/") or an
// internal scheme (agent:// artifact:// skill:// rule:// local: mcp://); the
// Unicode spaces U+00A0, U+2000-U+200A, U+202F, U+205F and U+3000 become
// ' '; a file:// URL becomes its percent-decoded path; and a leading "~" or
// "~/" becomes the home directory (left as is when it is unknown). "~user"
// is not expanded. Backslashes are kept: the caller decides.
func Normalize(s string) string {
	s = strings.Trim(s, " \t\n\v\f\r\u00A0\u2028\u2029\uFEFF\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000")
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	if rest, ok := strings.CutPrefix(s, "@"); ok && dropAt(rest) {
		s = rest
	}
	s = unicodeSpaces.Replace(s)
	if strings.HasPrefix(strings.ToLower(s), "file://") {
		if u, err := url.Parse(s); err == nil && (u.Host == "" || u.Host == "localhost") && u.Path != "" {
			s = u.Path
		}
	}
	if s == "~" || strings.HasPrefix(s, "~/") {
		if home, err := os.UserHomeDir(); err == nil && home != "" {
			s = filepath.ToSlash(home) + s[1:]
		}
	}
	return s
}

// dropAt reports whether a '@' in front of s is to be dropped.
func dropAt(s string) bool {
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || isWindowsAbs(s) {
		return true
	}
	for _, scheme := range internalSchemes {
		if strings.HasPrefix(s, scheme) {
			return true
		}
	}
	return false
}

// isWindowsAbs reports whether s starts with a drive letter, a colon and a
// slash or backslash.
func isWindowsAbs(s string) bool {
	return len(s) >= 3 && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') && s[1] == ':' && (s[2] == '/' || s[2] == '\\')
}

// Resolve maps a normalized user path onto the workspace: it returns the
// io/fs path (slash-separated, unrooted, "." for the root) given the
// absolute OS root ("" when the workspace has none, e.g. an in-memory FS).
//
//   - "" and a path made only of slashes ("/", "///") are the root;
//   - a relative path is cleaned ("./a/../b" is "b"); one that climbs out
//     of the root ("../x") is an AccessDenied error, unless it comes back
//     in ("../w/x" from the root "/w");
//   - an absolute path inside root, spelled through root or through the
//     symlinks both resolve to, becomes relative to it; outside root, or
//     with root "", it is an AccessDenied error;
//   - a NUL byte, or the internal scheme "local:" (pi's resolveToCwd
//     refuses it too), is an InvalidParam error.
//
// Backslashes are not separators here: the caller decides (find and search
// turn '\' into '/' first). The check is lexical except for the symlinks
// of an absolute path that is not inside root as spelled: symlinks inside
// root are the FS's business (os.Root refuses escapes).
func Resolve(root, p string) (string, error) {
	if err := CheckLength(p); err != nil {
		return "", err
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", &errs.Error{Code: errs.InvalidParam, Path: p,
			Message: "Invalid path '" + errs.Echo(strings.ReplaceAll(p, "\x00", `\0`)) + "': it contains a NUL byte — remove it"}
	}
	if strings.HasPrefix(p, "local:") {
		return "", &errs.Error{Code: errs.InvalidParam, Path: p,
			Message: "Cannot resolve '" + errs.Echo(p) + "': it uses the internal scheme 'local:', which names no file in the workspace — use a path relative to the project root"}
	}
	if strings.Trim(p, "/") == "" {
		return ".", nil
	}
	if path.IsAbs(p) || filepath.IsAbs(p) || isWindowsAbs(p) {
		if root == "" {
			return "", &errs.Error{Code: errs.AccessDenied, Path: p,
				Message: "Access denied: '" + errs.Echo(p) + "' is an absolute path, and this workspace has no OS root to place it in — use a path relative to the project root"}
		}
		if !path.IsAbs(p) && !filepath.IsAbs(p) { // a drive path on a POSIX system
			return "", outside(root, p)
		}
		if rel, ok := within(root, filepath.FromSlash(p)); ok {
			return rel, nil
		}
		return "", outside(root, p)
	}
	clean := path.Clean(p)
	if !inside(clean) {
		// "../w/x" from the root "/w" climbs out and back in.
		if root != "" {
			if rel, ok := within(root, filepath.Join(root, filepath.FromSlash(p))); ok {
				return rel, nil
			}
		}
		return "", outside(root, p)
	}
	return clean, nil
}

// within returns the absolute OS path abs relative to root, slash-separated,
// and whether it is inside root. A path outside root's spelling is compared
// again with the symlinks of both resolved, so that a root given through a
// link (or /tmp on a system where it is one) admits the real spelling, and
// the reverse.
func within(root, abs string) (string, bool) {
	if rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(abs)); err == nil && inside(filepath.ToSlash(rel)) {
		return filepath.ToSlash(rel), true
	}
	realRoot, realAbs := realPath(root), realPath(abs)
	if realRoot == filepath.Clean(root) && realAbs == filepath.Clean(abs) {
		return "", false
	}
	rel, err := filepath.Rel(realRoot, realAbs)
	if err != nil || !inside(filepath.ToSlash(rel)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// realPath returns p with the symlinks of its longest existing prefix
// resolved, and the rest appended; p cleaned when none resolves.
func realPath(p string) string {
	p = filepath.Clean(p)
	var rest []string
	for dir := p; ; {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			slices.Reverse(rest)
			return filepath.Join(append([]string{r}, rest...)...)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return p
		}
		rest = append(rest, filepath.Base(dir))
		dir = parent
	}
}

// MaxPathBytes and MaxNameBytes are the longest path and the longest name
// (one component between slashes) Resolve accepts, in bytes: Linux's
// PATH_MAX and NAME_MAX. No file has a longer name, and the OS would refuse
// it with a bare "file name too long".
const (
	MaxPathBytes = 4096
	MaxNameBytes = 255
)

// CheckLength returns an InvalidParam error for a path longer than
// MaxPathBytes or with a name longer than MaxNameBytes; nil otherwise.
func CheckLength(p string) error {
	if len(p) > MaxPathBytes {
		return &errs.Error{Code: errs.InvalidParam, Path: errs.Echo(p),
			Message: fmt.Sprintf("Path '%s' is too long: %d bytes, over the limit of %d. No file has such a path; pass a shorter one.", errs.Echo(p), len(p), MaxPathBytes)}
	}
	for name := range strings.SplitSeq(p, "/") {
		if len(name) > MaxNameBytes {
			return &errs.Error{Code: errs.InvalidParam, Path: errs.Echo(p),
				Message: fmt.Sprintf("Path '%s' has a name of %d bytes ('%s'), over the limit of %d bytes per name. No file has such a name; check the path.", errs.Echo(p), len(name), errs.Echo(name), MaxNameBytes)}
		}
	}
	return nil
}

// inside reports whether the cleaned relative slash path stays in the root.
func inside(clean string) bool {
	return clean != ".." && !strings.HasPrefix(clean, "../") && !path.IsAbs(clean)
}

// outside is the AccessDenied error for a path outside the root.
func outside(root, p string) error {
	where := "the project root"
	if root != "" {
		where = "the project root '" + root + "'"
	}
	return &errs.Error{Code: errs.AccessDenied, Path: p,
		Message: "Access denied: '" + errs.Echo(p) + "' is outside " + where + " — use a path inside it (relative paths start at the root)"}
}

// Display returns the display form of an io/fs path: "." for the root (and
// for ""), else the path without a leading "./".
func Display(p string) string {
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	if p == "" {
		return "."
	}
	return p
}

// CommonBase returns the component-wise common prefix of io/fs paths
// (each cleaned first): "a/b" for "a/b/c" and "a/b/d"; "." when they share
// nothing or paths is empty; "/" for absolute paths sharing only the root.
func CommonBase(paths []string) string {
	if len(paths) == 0 {
		return "."
	}
	common := strings.Split(path.Clean(paths[0]), "/")
	for _, p := range paths[1:] {
		segs := strings.Split(path.Clean(p), "/")
		n := 0
		for n < len(common) && n < len(segs) && common[n] == segs[n] {
			n++
		}
		common = common[:n]
	}
	switch base := strings.Join(common, "/"); base {
	case "":
		if len(common) > 0 { // absolute paths sharing only the leading '/'
			return "/"
		}
		return "."
	default:
		return base
	}
}
