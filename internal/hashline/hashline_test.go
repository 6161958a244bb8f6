package hashline

import (
	"bytes"
	"strings"
	"testing"
)

func TestSum32(t *testing.T) {
	tests := []struct {
		in   string
		want uint32
		why  string
	}{
		{"", 0x02CC5D05, "published xxh32 of the empty input"},
		{"a", 0x550D7456, "published xxh32 of a single byte"},
		{"abc", 0x32D153FF, "published xxh32 of abc"},
		{"Nobody inspects the spammish repetition", 0xE2293B2F, "python-xxhash documentation vector, longer than one 16-byte stripe"},
	}
	for _, tt := range tests {
		if got := Sum32([]byte(tt.in)); got != tt.want {
			t.Errorf("Sum32(%q) = %08X, want %08X (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}

func TestTag(t *testing.T) {
	tests := []struct {
		in, want, why string
	}{
		{"", "5D05", "empty file"},
		{"a", "7456", "no newline"},
		{"hello\n", "5BF9", "final newline kept"},
		{"shared-needle apps\n", "D246", "the tag pi gives this text"},
		{"line 1\nline 2\n", "D245", "plain lines"},
		{"line 1  \r\nline 2\t\n", "D245", "trailing blanks and CRLF do not change the tag"},
		{"line 1\rline 2\n", "D245", "lone CR is a line end"},
		{"export const value = 1;\n", "52DB", "the tag pi gives this text"},
		{"\xEF\xBB\xBFhello\n", "5BF9", "a UTF-8 BOM is not text: search and read agree"},
		{"\xEF\xBB\xBF\xEF\xBB\xBFhello\n", "F497", "only the first BOM is not text"},
	}
	for _, tt := range tests {
		if got := Tag([]byte(tt.in)); got != tt.want {
			t.Errorf("Tag(%q) = %s, want %s (%s)", tt.in, got, tt.want, tt.why)
		}
		if text, ok := strings.CutPrefix(tt.in, "\xEF\xBB\xBF"); ok {
			if got := TextTag([]byte(text)); got != tt.want {
				t.Errorf("TextTag(%q) = %s, want %s, the tag of the content with its BOM", text, got, tt.want)
			}
		}
	}
}

// FuzzNormalize: the line-by-line normalize of text without CRs agrees
// with the general one, a byte at a time.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", "a", "a \n\tb\t\n", " \n \n", "x\r\ny \r z", "\n\n  ", "a\t \t"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := normalize(b), normalizeCR(b); !bytes.Equal(got, want) {
			t.Fatalf("normalize(%q) = %q, want %q", b, got, want)
		}
	})
}

// BenchmarkTag tags 1 MiB of Go-like lines, with and without trailing
// blanks on some lines.
func BenchmarkTag(b *testing.B) {
	for name, line := range map[string]string{
		"blanks": "\tif err := f(x); err != nil {  \n\t\treturn err\n\t}\n",
		"clean":  "\tif err := f(x); err != nil {\n\t\treturn err\n\t}\n",
	} {
		data := bytes.Repeat([]byte(line), (1<<20)/len(line))
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				Tag(data)
			}
		})
	}
}
