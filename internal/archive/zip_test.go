package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
)

// openZipBytes opens data with OpenZip through a plain io.ReaderAt.
func openZipBytes(data []byte, lim Limits) (*ZipReader, error) {
	return OpenZip(bytes.NewReader(data), int64(len(data)), lim)
}

// TestOpenZip finds and reads members of a zip opened from an io.ReaderAt,
// with data before it (a self-extracting stub), by their normalised names.
func TestOpenZip(t *testing.T) {
	ms := append([]testfs.Member{{Name: "dup.txt", Body: "first"}, {Name: "./dup.txt", Body: "second"}}, sample...)
	data := append(bytes.Repeat([]byte("#!stub\n"), 300), buildZip(ms)...)
	z, err := openZipBytes(data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		max    int64
		want   string
		code   errs.Code
		msg    string
		reason string
	}{
		{"README.md", 0, "# hello\n", "", "", "a member"},
		{"src/deep/nested/x.ts", 0, "export const x = 1\n", "", "", "a nested member"},
		{"abs/file.txt", 0, "absolute\n", "", "", "an entry named from the root"},
		{"/abs/file.txt", 0, "absolute\n", "", "", "a name with a leading '/' is normalised too"},
		{"win/path.txt", 0, "backslash\n", "", "", "an entry named with '\\'"},
		{"dot/x.txt", 0, "dot\n", "", "", "an entry named with '.' segments"},
		{"dup.txt", 0, "first", "", "", "the first of two entries of one name"},
		{"src/Zeta.txt", 1300, strings.Repeat("z", 1300), "", "", "a member at its cap"},
		{"src/Zeta.txt", 1000, "", errs.TooLarge, "Archive entry 'src/Zeta.txt' decompresses to more than 1000B, Scout's limit", "a member over its cap"},
		{"src", 0, "", errs.NotFound, "Path 'src' not found inside archive", "a directory"},
		{"empty", 0, "", errs.NotFound, "Path 'empty' not found inside archive", "an empty directory"},
		{"missing.txt", 0, "", errs.NotFound, "Path 'missing.txt' not found inside archive", "no such member"},
		{"../../etc/passwd", 0, "", errs.NotFound, "not found inside archive", "an entry left out for its '..'"},
	}
	for _, c := range cases {
		var got string
		r, err := z.Open(context.Background(), c.name, c.max)
		if err == nil {
			var b []byte
			b, err = io.ReadAll(r)
			got = string(b)
		}
		if c.code == "" && (err != nil || got != c.want) {
			t.Errorf("%s (%s): got %q, %v; want %q", c.name, c.reason, got, err, c.want)
		}
		if c.code != "" && (errs.CodeOf(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg)) {
			t.Errorf("%s (%s): got %v (%s), want %s containing %q", c.name, c.reason, err, errs.CodeOf(err), c.code, c.msg)
		}
		if has := z.Has(c.name); has != (c.code != errs.NotFound) {
			t.Errorf("%s (%s): Has = %v", c.name, c.reason, has)
		}
	}

	enc, err := openZipBytes(rawZip(t, "secret.txt", zip.Store, 0x1, []byte("xxxx"), []byte("yyyy")), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := enc.Open(context.Background(), "secret.txt", 0); errs.CodeOf(err) != errs.Unsupported || !strings.Contains(err.Error(), "is encrypted") {
		t.Errorf("an encrypted member: %v (%s), want UNSUPPORTED", err, errs.CodeOf(err))
	}

	ctx, cancel := context.WithCancel(context.Background())
	r, err := z.Open(ctx, "src/Zeta.txt", 0)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := io.ReadAll(r); errs.CodeOf(err) != errs.Canceled {
		t.Errorf("reading after cancel: %v", err)
	}
}

// TestOpenZipBounds checks that OpenZip refuses what Open refuses in a zip
// file, with the message that Open gives after naming the file.
func TestOpenZipBounds(t *testing.T) {
	cases := []struct {
		name   string
		data   []byte
		lim    Limits
		code   errs.Code
		msg    string
		reason string
	}{
		{"overlap", overlapZip(0), Limits{}, errs.TooLarge, "its entries overlap (entries share compressed data), the mark of a zip bomb, so it is not read", "two entries share one record"},
		{"quoted overlap", overlapZip(40), Limits{}, errs.TooLarge, "its entries overlap", "an entry's record inside another's data"},
		{"entries", buildZip(manyMembers()), Limits{MaxEntries: 10}, errs.TooLarge, "it has 30 entries, more than the limit of 10", "entry count capped"},
		{"directory", buildZip(manyMembers()), Limits{MaxDirBytes: 1 << 10}, errs.TooLarge, "its central directory is 2.1KB, more than the limit of 1.0KB", "directory bytes capped"},
		{"garbage", []byte("this is not a zip at all"), Limits{}, errs.Unsupported, "not a valid zip file", "no end of central directory"},
	}
	for _, c := range cases {
		_, err := openZipBytes(c.data, c.lim)
		if errs.CodeOf(err) != c.code || err == nil || !strings.HasPrefix(err.Error(), c.msg) {
			t.Errorf("%s (%s): OpenZip: %v (%s), want %s starting %q", c.name, c.reason, err, errs.CodeOf(err), c.code, c.msg)
			continue
		}
		_, ferr := Open(context.Background(), fstest.MapFS{"z.zip": {Data: c.data}}, "z.zip", c.lim)
		if want := "Cannot read archive 'z.zip': " + err.Error(); errs.CodeOf(ferr) != c.code || ferr == nil || ferr.Error() != want {
			t.Errorf("%s (%s): Open: %v (%s), want %s %q", c.name, c.reason, ferr, errs.CodeOf(ferr), c.code, want)
		}
	}
	if _, err := openZipBytes(buildZip(manyMembers()), Limits{MaxEntries: 30}); err != nil {
		t.Errorf("a zip at the entry limit: %v", err)
	}
}

// TestInflaterReuse reads the members of a zip from several goroutines at
// once, some to their end and some in part, closed or left: the end and
// Close hand a member's decoder to the next, yet each member reads whole
// and right, a read after the end gives the end again and one after Close
// fails.
func TestInflaterReuse(t *testing.T) {
	var ms []testfs.Member
	for i := range 20 {
		ms = append(ms, testfs.Member{Name: fmt.Sprintf("m%02d.txt", i), Body: strings.Repeat(fmt.Sprintf("member %d ", i), 1000*(i+1))})
	}
	z, err := openZipBytes(buildZip(ms), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for k := range 10 {
				for i, m := range ms {
					r, err := z.Open(context.Background(), m.Name, 0)
					if err != nil {
						t.Error(err)
						return
					}
					if (g+k+i)%3 == 0 { // closed or left after its first bytes
						r.Read(make([]byte, 100))
						if k%2 == 0 {
							r.Close()
							if _, err := r.Read(make([]byte, 10)); err == nil {
								t.Errorf("%s: a read after Close did not fail", m.Name)
							}
						}
						continue
					}
					b, err := io.ReadAll(r)
					if err != nil || string(b) != m.Body {
						t.Errorf("%s: read %d bytes, %v; want %d", m.Name, len(b), err, len(m.Body))
						return
					}
					if n, err := r.Read(make([]byte, 10)); n != 0 || err != io.EOF {
						t.Errorf("%s: a read after the end: %d, %v", m.Name, n, err)
					}
				}
			}
		})
	}
	wg.Wait()
}
