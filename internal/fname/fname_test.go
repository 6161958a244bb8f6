package fname

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	tests := []struct {
		name, want, why string
	}{
		{"src/main.go", "src/main.go", "printable ASCII is unchanged"},
		{"", "", "empty stays empty"},
		{"my file (1).txt", "my file (1).txt", "the ASCII space is printable"},
		{`say "hi".txt`, `say "hi".txt`, "a double quote is printable"},
		{`a\n.txt`, `a\n.txt`, "a backslash is printable: the name holds no newline"},
		{"héllo.go", "héllo.go", "valid non-ASCII letters are unchanged"},
		{"日本.txt", "日本.txt", "CJK is unchanged"},
		{"a\n*1|fake", `"a\n*1|fake"`, "a newline would forge a line"},
		{"a\tb", `"a\tb"`, "a tab is a control character"},
		{"a\rb", `"a\rb"`, "a carriage return would overwrite the line"},
		{"a\x7fb", `"a\x7fb"`, "DEL"},
		{"a\x1b[31mred", `"a\x1b[31mred"`, "an escape sequence"},
		{"evil\u202Etxt.exe", `"evil\u202etxt.exe"`, "a bidi override reorders what is shown"},
		{"a\u00A0b", "a\u00A0b", "a no-break space is a space: shown as it is"},
		{"Shot at 10.00.00\u202FAM.png", "Shot at 10.00.00\u202FAM.png", "so is a macOS screenshot's narrow no-break space"},
		{"a\u2028b", `"a\u2028b"`, "a line separator would break the line"},
		{"a\u0085b", `"a\u0085b"`, "a C1 control (NEL)"},
		{"a\u200Db", `"a\u200db"`, "a zero-width joiner is invisible"},
		{"a\u200Bb", `"a\u200bb"`, "a zero-width space is invisible"},
		{"b\xffc", `"b\xffc"`, "an invalid byte"},
		{"é\xc3", `"é\xc3"`, "a rune cut short after a valid one"},
		{"\xed\xa0\x80", `"\xed\xa0\x80"`, "an encoded surrogate is not UTF-8"},
		{"x\"\n", `"x\"\n"`, "a quote in a quoted name is escaped"},
	}
	for _, tt := range tests {
		if got := Quote(tt.name); got != tt.want {
			t.Errorf("Quote(%q) = %s, want %s (%s)", tt.name, got, tt.want, tt.why)
		}
		if got := Quote(tt.want); got != tt.want && tt.want != tt.name {
			t.Errorf("Quote(Quote(%q)) = %s: the quoted form must show as itself", tt.name, got)
		}
		if tt.want != tt.name {
			if back, ok := Unquote(tt.want); !ok || back != tt.name {
				t.Errorf("Unquote(%s) = %q, %v, want %q (%s)", tt.want, back, ok, tt.name, tt.why)
			}
		}
	}
}

func TestWireName(t *testing.T) {
	tests := []struct {
		name, want, why string
	}{
		{"a.go", "a.go", "plain"},
		{"a\n*1|fake", "a\n*1|fake", "valid UTF-8 stays exact: JSON escapes the newline"},
		{"evil\u202Etxt", "evil\u202Etxt", "valid UTF-8 stays exact"},
		{"b\xffc", `"b\xffc"`, "invalid UTF-8 is quoted, where JSON would write U+FFFD"},
	}
	for _, tt := range tests {
		if got := WireName(tt.name); got != tt.want {
			t.Errorf("WireName(%q) = %q, want %q (%s)", tt.name, got, tt.want, tt.why)
		}
	}
}

func TestUnquote(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
		why      string
	}{
		{"src/a.go", "src/a.go", false, "no quote"},
		{`"a\n*1|fake"`, "a\n*1|fake", true, "a whole quoted path"},
		{`"b\xffc"`, "b\xffc", true, "invalid bytes come back"},
		{`"dir/a\tb"`, "dir/a\tb", true, "a quoted path with a slash"},
		{`dir/"a\tb"`, "dir/a\tb", true, "a quoted name in a directory"},
		{`"d\n"/"f\n"`, "d\n/f\n", true, "several quoted segments"},
		{`a.zip:"m\n"`, "a.zip:m\n", true, "a quoted archive member"},
		{`"a\n":5-9`, "a\n:5-9", true, "a quoted path before a selector"},
		{`"a.txt"`, "a.txt", true, "plain quotes unquote too"},
		{`say "hi"`, `say "hi"`, false, "a quote inside a segment is a character"},
		{`x"a\n"`, `x"a\n"`, false, "a quote must start its segment"},
		{`"a\n"x`, `"a\n"x`, false, "a quoted segment must end at / or :"},
		{`"a\q"`, `"a\q"`, false, "an invalid escape is no quoted form"},
		{`"abc`, `"abc`, false, "unclosed"},
		{`'a'`, `'a'`, false, "single quotes are no Go string"},
		{`"a\x00b"`, "a\x00b", true, "a NUL comes back; Resolve refuses it"},
		{`""`, "", true, "an empty quoted name"},
	}
	for _, tt := range tests {
		got, ok := Unquote(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Unquote(%s) = %q, %v, want %q, %v (%s)", tt.in, got, ok, tt.want, tt.ok, tt.why)
		}
	}
}

func FuzzQuote(f *testing.F) {
	for _, s := range []string{"a", "a\nb", "b\xffc", "日本", "\u202E", `"x"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		q := Quote(name)
		if q == name {
			if !utf8.ValidString(name) {
				t.Fatalf("Quote(%q) left bytes that are not UTF-8", name)
			}
			for _, r := range name {
				if unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) {
					t.Fatalf("Quote(%q) left %U raw", name, r)
				}
			}
			return
		}
		if back, ok := Unquote(q); !ok || back != name {
			t.Fatalf("Unquote(Quote(%q)) = %q, %v", name, back, ok)
		}
	})
}

// BenchmarkQuote measures the names of a walk: the common name must cost
// no allocation.
func BenchmarkQuote(b *testing.B) {
	for _, bc := range []struct{ name, in string }{
		{"ascii", "src/internal/pathutil/quote_test.go"},
		{"utf8", "docs/日本語/héllo.md"},
		{"control", "a\n*1|fake"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = Quote(bc.in)
			}
		})
	}
}
