package pathutil

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
)

func TestNormalize(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	tests := []struct {
		in, want, why string
	}{
		{"  src/a.go \n", "src/a.go", "trimmed"},
		{"\uFEFF\u3000src\u00A0", "src", "BOM and Unicode spaces trimmed at the ends"},
		{`"my file.txt"`, "my file.txt", "one pair of double quotes removed"},
		{`""a""`, `"a"`, "only one pair removed"},
		{`'a.txt'`, `'a.txt'`, "single quotes kept"},
		{`"a.txt`, `"a.txt`, "an unpaired quote is kept"},
		{"@/abs/x", "/abs/x", "@ dropped before /"},
		{"@~/x", "/home/u/x", "@ dropped before ~, then ~ expanded"},
		{"@C:\\x", "C:\\x", "@ dropped before a Windows drive"},
		{"@local://notes", "local://notes", "@ dropped before an internal scheme"},
		{"@skill://x", "skill://x", "@ dropped before skill://"},
		{"@src/a.go", "@src/a.go", "@ kept before a relative name (scoped npm packages)"},
		{"a\u2009b\u202Fc\u3000d", "a b c d", "inner Unicode spaces become plain spaces"},
		{"file:///tmp/my%20dir/a.txt", "/tmp/my dir/a.txt", "file URL to a percent-decoded path"},
		{"file://localhost/etc/x", "/etc/x", "file URL with localhost"},
		{"file://server/share", "file://server/share", "remote file URL left alone"},
		{"~", "/home/u", "bare tilde"},
		{"~/src", "/home/u/src", "tilde slash"},
		{"~bob/x", "~bob/x", "~user not expanded"},
		{`a\b`, `a\b`, "backslashes kept"},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		root, in, want string
		code           errs.Code
		why            string
	}{
		{"/w", "", ".", "", "empty is the root"},
		{"/w", "/", ".", "", "a lone slash is the root (pi)"},
		{"/w", "///", ".", "", "only slashes is the root"},
		{"", "/", ".", "", "slashes are the root even without an OS root"},
		{"/w", ".", ".", "", "dot"},
		{"/w", "./src/../lib/a.go", "lib/a.go", "", "cleaned"},
		{"/w", "src/", "src", "", "trailing slash dropped"},
		{"/w", "..", "", errs.AccessDenied, "parent of the root"},
		{"/w", "a/../../x", "", errs.AccessDenied, "climbs out after cleaning"},
		{"/w", "..foo", "..foo", "", "a name starting with dots is not a parent"},
		{"/w", "../w/src/a.go", "src/a.go", "", "climbs out and back in"},
		{"/w", "../w", ".", "", "climbs out and back to the root"},
		{"/w", "../wx/a", "", errs.AccessDenied, "climbs out into a sibling sharing the prefix"},
		{"", "../w/x", "", errs.AccessDenied, "climbs out with no OS root to come back to"},
		{"/w", "/w", ".", "", "absolute root"},
		{"/w/", "/w/src/a.go", "src/a.go", "", "absolute inside (root with a trailing slash)"},
		{"/w", "/w/../w/x", "x", "", "absolute path cleaned first"},
		{"/w", "/wx/a", "", errs.AccessDenied, "a sibling sharing the prefix is outside"},
		{"/w", "/etc/passwd", "", errs.AccessDenied, "absolute outside"},
		{"", "/etc/passwd", "", errs.AccessDenied, "absolute with no OS root"},
		{"/w", "C:/x", "", errs.AccessDenied, "Windows drive path is never inside a POSIX root"},
		{"/w", "a\x00b", "", errs.InvalidParam, "NUL byte"},
		{"/w", "local://x", "", errs.InvalidParam, "internal scheme"},
		{"/w", "local:/x", "", errs.InvalidParam, "internal scheme, one slash"},
		{"/", "/etc/x", "etc/x", "", "root of the file system"},
		{"/w", `a\..\..\x`, `a\..\..\x`, "", "backslashes are not separators here"},
	}
	for _, tt := range tests {
		got, err := Resolve(tt.root, tt.in)
		if errs.CodeOf(err) != tt.code || got != tt.want {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q, code %q (%s)", tt.root, tt.in, got, err, tt.want, tt.code, tt.why)
		}
		var e *errs.Error
		if err != nil && (!errors.As(err, &e) || e.Path != tt.in || !strings.Contains(e.Message, "—")) {
			t.Errorf("Resolve(%q, %q) error %v: want an *errs.Error naming the path and the fix", tt.root, tt.in, err)
		}
	}
	_, err := Resolve("/w", "../x")
	if want := "Access denied: '../x' is outside the project root '/w' — use a path inside it (relative paths start at the root)"; err == nil || err.Error() != want {
		t.Errorf("Resolve error message = %v, want %q", err, want)
	}
}

// TestResolveTempDir resolves absolute paths under a real directory.
func TestResolveTempDir(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src", "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in, want string
		code     errs.Code
		why      string
	}{
		{filepath.Join(root, "src", "pkg"), "src/pkg", "", "absolute path inside"},
		{root, ".", "", "the root itself"},
		{root + "/src/../src/pkg/", "src/pkg", "", "unclean absolute path"},
		{filepath.Dir(root), "", errs.AccessDenied, "the parent of the root"},
		{root + "-sibling/x", "", errs.AccessDenied, "a sibling sharing the prefix"},
		{"src/pkg", "src/pkg", "", "relative path"},
	}
	// A root given through a link admits the real spelling, a real root
	// the spelling through a link, and neither a link that leads out.
	link := root + "-link"
	other := t.TempDir()
	for _, l := range [][2]string{{root, link}, {other, root + "-out"}} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Skip("no symlinks here:", err)
		}
		t.Cleanup(func() { os.Remove(l[1]) })
	}
	tests = append(tests, []struct {
		in, want string
		code     errs.Code
		why      string
	}{
		{link + "/src/pkg", "src/pkg", "", "through a link to the root"},
		{"../" + filepath.Base(root) + "-link/src", "src", "", "out and back in through a link to the root"},
		{root + "-out/x", "", errs.AccessDenied, "through a link that leads out"},
		{other, "", errs.AccessDenied, "a directory outside"},
	}...)
	fsys := os.DirFS(root)
	for _, tt := range tests {
		got, err := Resolve(root, tt.in)
		if errs.CodeOf(err) != tt.code || got != tt.want {
			t.Errorf("Resolve(root, %q) = %q, %v; want %q, code %q (%s)", tt.in, got, err, tt.want, tt.code, tt.why)
			continue
		}
		if err == nil {
			if _, err := fs.Stat(fsys, got); err != nil {
				t.Errorf("Resolve(root, %q) = %q does not open in os.DirFS(root): %v", tt.in, got, err)
			}
		}
	}
	for in, want := range map[string]string{filepath.Join(root, "src"): "src", link + "/src": "src", root + "-out": ""} {
		if got, err := Resolve(link, in); got != want || (want == "") != (err != nil) {
			t.Errorf("Resolve(link, %q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func FuzzResolve(f *testing.F) {
	for _, s := range []string{"", "/", "a/../..", "/w/x", "/wx", "..", "../w/x", "./a//b/", "/w/../..", "a\x00", "C:\\x", `..\x`} {
		f.Add("/w", s)
		f.Add("", s)
	}
	f.Fuzz(func(t *testing.T, root, p string) {
		got, err := Resolve(root, p)
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || (e.Code != errs.AccessDenied && e.Code != errs.InvalidParam) {
				t.Fatalf("Resolve(%q, %q): %v is not an AccessDenied/InvalidParam *errs.Error", root, p, err)
			}
			return
		}
		if got == "" || path.IsAbs(got) || got == ".." || strings.HasPrefix(got, "../") || strings.Contains(got, "/../") || strings.HasSuffix(got, "/..") {
			t.Fatalf("Resolve(%q, %q) = %q escapes the root or is not an fs path", root, p, got)
		}
		if got != path.Clean(got) {
			t.Fatalf("Resolve(%q, %q) = %q is not clean", root, p, got)
		}
		// The result names the same place as the input.
		switch {
		case strings.Trim(p, "/") == "":
			if got != "." {
				t.Fatalf("Resolve(%q, %q) = %q, want the root", root, p, got)
			}
		case path.IsAbs(p):
			if want := path.Clean(p); path.Join(path.Clean(root), got) != want {
				t.Fatalf("Resolve(%q, %q) = %q, which is not %q below the root", root, p, got, want)
			}
		case path.Clean(p) == ".." || strings.HasPrefix(path.Clean(p), "../"):
			// It climbs out of the root and back in ("../w/x" from "/w",
			// ".." from "/").
			if want := path.Join(path.Clean(root), p); root == "" || path.Join(path.Clean(root), got) != want {
				t.Fatalf("Resolve(%q, %q) = %q, which is not %q below the root", root, p, got, want)
			}
		default:
			if got != path.Clean(p) {
				t.Fatalf("Resolve(%q, %q) = %q, want %q", root, p, got, path.Clean(p))
			}
		}
	})
}

func TestDisplay(t *testing.T) {
	for in, want := range map[string]string{"": ".", ".": ".", "./": ".", "./a/b": "a/b", "a/b": "a/b", "././x": "x"} {
		if got := Display(in); got != want {
			t.Errorf("Display(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCommonBase(t *testing.T) {
	tests := []struct {
		in   []string
		want string
		why  string
	}{
		{nil, ".", "nothing"},
		{[]string{"a/b/c"}, "a/b/c", "one path"},
		{[]string{"a/b/c", "a/b/d"}, "a/b", "shared directory"},
		{[]string{"a/b", "a/bc"}, "a", "component-wise, not by characters"},
		{[]string{"apps", "packages"}, ".", "no common prefix"},
		{[]string{"./a/x", "a/y/"}, "a", "cleaned first"},
		{[]string{"a", "a/b"}, "a", "one is the prefix of the other"},
		{[]string{"/x/a", "/y/b"}, "/", "absolute paths sharing only the root"},
	}
	for _, tt := range tests {
		if got := CommonBase(tt.in); got != tt.want {
			t.Errorf("CommonBase(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}

func TestCommaParts(t *testing.T) {
	tests := []struct {
		in       string
		parts    []string
		hasComma bool
		why      string
	}{
		{"a,b", []string{"a", "b"}, true, "plain comma"},
		{"src/{a,b}.ts", []string{"src/{a,b}.ts"}, false, "comma inside braces"},
		{"{a,b},c", []string{"{a,b}", "c"}, true, "comma after braces"},
		{`a\,b`, []string{"a,b"}, false, "escaped comma"},
		{"a b", []string{"a b"}, false, "no comma"},
		{"apps/a.txt,", []string{"apps/a.txt"}, true, "a trailing comma gives no empty part"},
		{" a , , 'b' ", []string{"a", "b"}, true, "parts trimmed and unquoted, empty ones dropped"},
		{"x[,]y", []string{"x[,]y"}, false, "comma inside a bracket class"},
		{"[[:alpha:],]x,y", []string{"[[:alpha:],]x", "y"}, true, "a class with a POSIX class and a comma, then a comma"},
		{"a[,b", []string{"a[", "b"}, true, "an unclosed '[' is no class"},
	}
	for _, tt := range tests {
		parts, has := CommaParts(tt.in)
		if !slices.Equal(parts, tt.parts) || has != tt.hasComma {
			t.Errorf("CommaParts(%q) = %q, %v; want %q, %v (%s)", tt.in, parts, has, tt.parts, tt.hasComma, tt.why)
		}
	}
}

// TestSplitDelimited: an entry that names no existing path is split at
// commas, semicolons and white space into the paths that exist, over a
// MapFS and a real directory.
func TestSplitDelimited(t *testing.T) {
	files := []string{"apps/a.txt", "apps/b.txt", "my file.txt", "x,y.txt", "pkg/c.txt"}
	mfs := fstest.MapFS{}
	for _, f := range files {
		mfs[f] = &fstest.MapFile{Data: []byte("x")}
	}
	dir := testfs.WriteDir(t, mfs)
	tests := []struct {
		in   string
		want []string
		why  string
	}{
		{"apps/a.txt", []string{"apps/a.txt"}, "an existing path is not split"},
		{"my file.txt", []string{"my file.txt"}, "an existing name with a space wins"},
		{"x,y.txt", []string{"x,y.txt"}, "an existing name with a comma wins"},
		{"apps/a.txt,apps/b.txt", []string{"apps/a.txt", "apps/b.txt"}, "comma split"},
		{"apps/a.txt, missing.txt", []string{"apps/a.txt", "missing.txt"}, "comma is lenient: one existing part is enough"},
		{"apps/a.txt,", []string{"apps/a.txt"}, "empty parts dropped"},
		{"apps/a.txt;pkg/c.txt", []string{"apps/a.txt", "pkg/c.txt"}, "semicolon split"},
		{"apps/a.txt pkg/c.txt", []string{"apps/a.txt", "pkg/c.txt"}, "white space split, all parts exist"},
		{"apps/a.txt missing.txt", []string{"apps/a.txt missing.txt"}, "white space is strict: not split"},
		{"apps/a.txt, pkg/c.txt;apps/b.txt", []string{"apps/a.txt", "pkg/c.txt;apps/b.txt"}, "comma mode wins first (lenient)"},
		{`"apps/a.txt" 'pkg/c.txt'`, []string{"apps/a.txt", "pkg/c.txt"}, "parts unquoted"},
		{"apps/{a,b}.txt", []string{"apps/{a,b}.txt"}, "comma inside braces does not split"},
		{"apps/[ab,].txt", []string{"apps/[ab,].txt"}, "comma inside a class does not split"},
		{"apps/[ ,a].txt,pkg/c.txt", []string{"apps/[ ,a].txt", "pkg/c.txt"}, "a comma or space inside a class does not split; the comma outside does"},
		{`apps/a.txt\ pkg`, []string{`apps/a.txt\ pkg`}, "escaped delimiter does not split; nothing accepted"},
		{"nope1,nope2", []string{"nope1,nope2"}, "nothing exists: the entry alone"},
	}
	for name, fsys := range map[string]fs.FS{"MapFS": mfs, "TempDir": os.DirFS(dir)} {
		exists := func(p string) bool {
			_, err := fs.Stat(fsys, p)
			return err == nil
		}
		for _, tt := range tests {
			if got := SplitDelimited(tt.in, exists); !slices.Equal(got, tt.want) {
				t.Errorf("%s: SplitDelimited(%q) = %q, want %q (%s)", name, tt.in, got, tt.want, tt.why)
			}
		}
	}
}

func TestSplitDelimitedNilExists(t *testing.T) {
	if got := SplitDelimited("a,b", nil); !slices.Equal(got, []string{"a,b"}) {
		t.Errorf("SplitDelimited with nil exists = %q, want the entry alone", got)
	}
}

func TestSplitDelimitedGlobEntryIsSplit(t *testing.T) {
	// An entry with a glob character is split even when exists says yes for
	// it: the check on the whole entry applies to literal paths only.
	exists := func(p string) bool { return true }
	got := SplitDelimited("*.go,*.md", exists)
	if want := []string{"*.go", "*.md"}; !slices.Equal(got, want) {
		t.Errorf("SplitDelimited = %q, want %q", got, want)
	}
}

// FuzzCommaParts checks that no entry makes the splitter fail and that it
// never returns an empty part or more text than it was given.
func FuzzCommaParts(f *testing.F) {
	for _, s := range []string{"a,b", "src/{a,b}.ts,lib", "x[,]y", "[[:alpha:],]x,y", `a\,b`, "[", "[!]", "{,[,]},", `"a", 'b'`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parts, _ := CommaParts(s)
		n := 0
		for _, p := range parts {
			if p == "" {
				t.Fatalf("CommaParts(%q) = %q: an empty part", s, parts)
			}
			n += len(p)
		}
		if n > len(s) {
			t.Fatalf("CommaParts(%q) = %q: more text than given", s, parts)
		}
		SplitDelimited(s, func(string) bool { return true })
	})
}

// TestCheckLength: a path no file can have is a clear INVALID_PARAM error
// that quotes the path cut short, never the OS's bare "file name too long"
// with the whole path (a 1 MB path must not give a 5 MB reply).
func TestCheckLength(t *testing.T) {
	long := strings.Repeat("a", MaxNameBytes+1)
	tests := []struct {
		in, want, why string
	}{
		{strings.Repeat("a/", MaxPathBytes/2), "", "at the path limit"},
		{strings.Repeat("a", MaxNameBytes), "", "at the name limit"},
		{strings.Repeat("a/", MaxPathBytes/2) + "b", "is too long: 4097 bytes, over the limit of 4096", "one byte over the path limit"},
		{strings.Repeat("b/", 500000), "is too long: 1000000 bytes", "a 1 MB path"},
		{"src/" + long + "/x.go", "has a name of 256 bytes", "one name over the limit"},
	}
	for _, tt := range tests {
		err := CheckLength(tt.in)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.why, err)
			}
			continue
		}
		var e *errs.Error
		if !errors.As(err, &e) || e.Code != errs.InvalidParam || !strings.Contains(e.Message, tt.want) {
			t.Errorf("%s: %v, want INVALID_PARAM %q", tt.why, err, tt.want)
			continue
		}
		if len(e.Message) > 3*errs.MaxEcho || len(e.Path) > errs.MaxEcho+20 {
			t.Errorf("%s: the error quotes %d bytes of a %d-byte path", tt.why, len(e.Message), len(tt.in))
		}
		if _, rerr := Resolve("/w", tt.in); rerr == nil || rerr.Error() != err.Error() {
			t.Errorf("%s: Resolve = %v, want the same error", tt.why, rerr)
		}
	}
}
