package hashline

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scoutkit/scout/internal/testfs"
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
		if got := sum32([]byte(tt.in)); got != tt.want {
			t.Errorf("sum32(%q) = %08X, want %08X (%s)", tt.in, got, tt.want, tt.why)
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

// normalized is the normalised text by its definition, a byte at a time:
// CRLF and lone CR become LF, and the spaces and tabs before every line
// end and at the end of the text are dropped.
func normalized(b []byte) []byte {
	trim := func(b []byte) []byte { return bytes.TrimRight(b, " \t") }
	out := []byte{}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\r' {
			if i+1 < len(b) && b[i+1] == '\n' {
				continue
			}
			c = '\n'
		}
		if c == '\n' {
			out = trim(out)
		}
		out = append(out, c)
	}
	return trim(out)
}

// hexTag is the tag of a hash.
func hexTag(h uint32) string { return fmt.Sprintf("%04X", h&0xFFFF) }

// piecesTag is the tag a Hasher gives text written in the pieces that the
// cuts (offsets, in any order, out of range ones clamped) make.
func piecesTag(text []byte, cuts []int) string {
	cuts = slices.Clone(cuts)
	for i, c := range cuts {
		cuts[i] = max(0, min(c, len(text)))
	}
	slices.Sort(cuts)
	var h Hasher
	prev := 0
	for _, c := range cuts {
		h.Write(text[prev:c])
		prev = c
	}
	h.Write(text[prev:])
	return h.Tag()
}

// TestHasher: the tag of a text written in pieces, split anywhere, is
// TextTag's of the whole text and the tag of its normalised text by
// definition, for random texts made of the bytes that normalising treats
// specially (CR, LF, spaces, tabs, a byte-order mark) and others, with and
// without a final line end, and for every split of short texts in two
// and three pieces.
func TestHasher(t *testing.T) {
	check := func(text []byte, cuts []int) {
		t.Helper()
		want := hexTag(sum32(normalized(text)))
		if got := TextTag(text); got != want {
			t.Fatalf("TextTag(%q) = %s, want %s", text, got, want)
		}
		if got := piecesTag(text, cuts); got != want {
			t.Fatalf("text %q cut at %v: tag %s, want %s", text, cuts, got, want)
		}
	}
	for _, s := range []string{"", "a", " ", "\r", "\r\n", "a \r\n b\t\r\r\n\n \t", "x\r \n", "a\t \t", " \n \n", "\xEF\xBB\xBFa \r\n"} {
		text := []byte(s)
		for i := 0; i <= len(text); i++ {
			for j := i; j <= len(text); j++ {
				check(text, []int{i, j})
			}
		}
	}
	alphabet := []string{"a", "b", "xyz", " ", "\t", "\r", "\n", "\r\n", "  \t", "\xEF\xBB\xBF", strings.Repeat("long line ", 5)}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b []byte
		for range rnd.IntN(60) {
			b = append(b, alphabet[rnd.IntN(len(alphabet))]...)
		}
		cuts := make([]int, rnd.IntN(6))
		for i := range cuts {
			cuts[i] = rnd.IntN(len(b) + 1)
		}
		check(b, cuts)
	}
	// Long stretches: a run of blanks or of lines that a cut falls in.
	long := []byte(strings.Repeat("text  \r\n", 5000) + strings.Repeat(" ", 3000) + "end" + strings.Repeat("\t", 100))
	for range 200 {
		check(long, []int{rnd.IntN(len(long)), rnd.IntN(len(long)), rnd.IntN(len(long))})
	}
}

// FuzzHasher: as TestHasher, for any text cut at any three offsets.
func FuzzHasher(f *testing.F) {
	for _, s := range []string{"", "a", "a \n\tb\t\n", " \n \n", "x\r\ny \r z", "\n\n  ", "a\t \t", "\xEF\xBB\xBFa\r"} {
		f.Add([]byte(s), 1, 2, 3)
	}
	f.Fuzz(func(t *testing.T, b []byte, i, j, k int) {
		want := hexTag(sum32(normalized(b)))
		if got := TextTag(b); got != want {
			t.Fatalf("TextTag(%q) = %s, want %s", b, got, want)
		}
		if got := piecesTag(b, []int{i, j, k}); got != want {
			t.Fatalf("text %q cut at %d, %d, %d: tag %s, want %s", b, i, j, k, got, want)
		}
	})
}

// TestSum32Pieces: the digest of bytes written in pieces is sum32's of
// them all, whatever the pieces' sizes around the 16-byte stripes.
func TestSum32Pieces(t *testing.T) {
	b := []byte(strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyz", 3))
	for n := 0; n <= len(b); n++ {
		for step := 1; step <= 20; step++ {
			var d digest
			for i := 0; i < n; i += step {
				d.write(b[i:min(i+step, n)])
			}
			if got, want := d.sum(), sum32(b[:n]); got != want {
				t.Fatalf("%d bytes in pieces of %d: %08X, want %08X", n, step, got, want)
			}
		}
	}
}

// reference is the normalised text the plain way: CRLF and then lone CR
// become LF, the text is split at LFs, each line loses its trailing
// spaces and tabs, and the lines are joined with LF again (so a final LF
// stays, and the last line loses its trailing blanks too).
func reference(text []byte) []byte {
	s := strings.ReplaceAll(string(text), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return []byte(strings.Join(lines, "\n"))
}

// TestReference pins the reference normalisation on the cases that make
// it: line ends, trailing blanks, a final line with and without its end.
func TestReference(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"a", "a"},
		{"a\n", "a\n"},
		{"a \t\n", "a\n"},
		{"a \t", "a"},
		{" \t \n\t\n", "\n\n"},
		{"  ", ""},
		{"a\r\nb\r\n", "a\nb\n"},
		{"a\rb\r", "a\nb\n"},
		{"a \r \n", "a\n\n"},
		{"a\r\r\n\n", "a\n\n\n"},
		{"a\n\r\n", "a\n\n"},
		{"x \ty", "x \ty"},
	}
	for _, tt := range tests {
		if got := reference([]byte(tt.in)); string(got) != tt.want {
			t.Errorf("reference(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzTagMatchesReference: Tag, TextTag, and a Hasher fed the text in
// pieces (cut where a seeded random source says: many small pieces, so
// that CRs, CRLFs and runs of blanks straddle them) give the tag of the
// reference normalisation, which is the byte-at-a-time one.
func FuzzTagMatchesReference(f *testing.F) {
	for _, s := range []string{"", "a", "a\n", " ", "\t\n", "a \r\n b\t\r\r\n\n \t", "x\r \n", " \n \n", "\xEF\xBB\xBFa \r\n", "\xEF\xBB\xBF\xEF\xBB\xBF \n",
		"\tif x {  \n\t\treturn\r\n\t}\t\r", strings.Repeat("ab \t", 9) + "\n" + strings.Repeat("c", 17) + " \n",
		strings.Repeat("x !\n\x0b\x0b\t\x08\n \t\n", 4)} {
		f.Add([]byte(s), uint64(1))
	}
	f.Fuzz(func(t *testing.T, b []byte, seed uint64) {
		text := bytes.TrimPrefix(b, bom)
		ref := reference(text)
		if n := normalized(text); !bytes.Equal(ref, n) {
			t.Fatalf("reference(%q) = %q, byte loop %q", text, ref, n)
		}
		want := hexTag(sum32(ref))
		if got := Tag(b); got != want {
			t.Fatalf("Tag(%q) = %s, want %s", b, got, want)
		}
		if got := TextTag(text); got != want {
			t.Fatalf("TextTag(%q) = %s, want %s", text, got, want)
		}
		rnd := rand.New(rand.NewPCG(seed, seed>>32))
		for range 3 {
			var cuts []int
			for at := 0; at < len(text); {
				at += rnd.IntN(1 << rnd.IntN(7))
				cuts = append(cuts, at)
			}
			if got := piecesTag(text, cuts); got != want {
				t.Fatalf("text %q cut at %v: tag %s, want %s", text, cuts, got, want)
			}
		}
	})
}

// goSource is up to n bytes of the Go files of $GOROOT/src, in walk
// order, each file whole (the test is skipped without the tree).
func goSource(tb testing.TB, n int) [][]byte {
	var files [][]byte
	root := testfs.GoSrc(tb)
	total := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if total >= n {
			return fs.SkipAll
		}
		if d.Type().IsRegular() && strings.HasSuffix(path, ".go") {
			if data, err := os.ReadFile(path); err == nil && len(data) <= MaxTagBytes {
				files = append(files, data)
				total += len(data)
			}
		}
		return nil
	})
	return files
}

// tagPieces tags data written to a Hasher in pieces of 64 KiB, as a file
// read in pieces is.
func tagPieces(data []byte) string {
	var h Hasher
	for p := data; len(p) > 0; p = p[min(len(p), 64<<10):] {
		h.Write(p[:min(len(p), 64<<10)])
	}
	return h.Tag()
}

// BenchmarkTagGoSource tags 4 MiB of the Go tree's Go files: file by
// file, as search and read tag them, and as one text, in 64 KiB pieces.
func BenchmarkTagGoSource(b *testing.B) {
	files := goSource(b, 4<<20)
	all := bytes.Join(files, nil)
	b.Run("files", func(b *testing.B) {
		b.SetBytes(int64(len(all)))
		for b.Loop() {
			for _, f := range files {
				Tag(f)
			}
		}
	})
	b.Run("pieces", func(b *testing.B) {
		b.SetBytes(int64(len(all)))
		for b.Loop() {
			tagPieces(all)
		}
	})
}

// BenchmarkTag tags 1 MiB of Go-like lines, with and without trailing
// blanks on some lines, and with CRLF line ends; "pieces" writes the same
// text to a Hasher in 64 KiB pieces.
func BenchmarkTag(b *testing.B) {
	for name, line := range map[string]string{
		"blanks": "\tif err := f(x); err != nil {  \n\t\treturn err\n\t}\n",
		"clean":  "\tif err := f(x); err != nil {\n\t\treturn err\n\t}\n",
		"crlf":   "\tif err := f(x); err != nil {\r\n\t\treturn err\r\n\t}\r\n",
	} {
		data := bytes.Repeat([]byte(line), (1<<20)/len(line))
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				Tag(data)
			}
		})
		b.Run(name+"/pieces", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				tagPieces(data)
			}
		})
	}
}

// BenchmarkSum32 hashes 1 MiB.
func BenchmarkSum32(b *testing.B) {
	data := bytes.Repeat([]byte("0123456789abcdef"), (1<<20)/16)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		sum32(data)
	}
}

// sum32 is xxHash32 with seed 0, in one piece.
func sum32(b []byte) uint32 {
	var d digest
	d.write(b)
	return d.sum()
}
