package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawZip writes one member with the given raw bytes, method and flags.
func rawZip(t testing.TB, name string, method uint16, flags uint16, raw, plain []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	f, err := w.CreateRaw(&zip.FileHeader{
		Name: name, Method: method, Flags: flags,
		CRC32: crc32.ChecksumIEEE(plain), CompressedSize64: uint64(len(raw)), UncompressedSize64: uint64(len(plain)),
	})
	if err != nil {
		t.Fatal(err)
	}
	f.Write(raw)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readMember opens one archive and reads one member to the end.
func readMember(fsys fs.FS, name, inner string, lim Limits) error {
	a, err := Open(context.Background(), fsys, name, lim)
	if err != nil {
		return err
	}
	defer a.Close()
	it, err := a.Lookup(context.Background(), inner)
	if err != nil {
		return err
	}
	defer it.Close()
	if it.Dir {
		return nil
	}
	_, err = io.Copy(io.Discard, it.Body())
	return err
}

// lines is 8 MiB of short lines, which deflate to little.
var lines = strings.Repeat("aaaaaaa\n", 1<<20)

// overlapZip returns a zip bomb of overlapping entries: the second entry's
// record points at the first's (off 0), or inside its data.
func overlapZip(off uint32) []byte {
	b := buildZip([]testfs.Member{{Name: "a", Body: lines}, {Name: "b", Body: lines}})
	second := bytes.LastIndex(b, []byte("PK\x01\x02"))
	binary.LittleEndian.PutUint32(b[second+42:], off)
	return b
}

// manyMembers returns 30 one-byte members.
func manyMembers() []testfs.Member {
	var many []testfs.Member
	for i := range 30 {
		many = append(many, testfs.Member{Name: strings.Repeat("m", i+1), Body: "x"})
	}
	return many
}

func TestHostileArchives(t *testing.T) {
	zeros := strings.Repeat("\x00", 8<<20)
	good := buildZip(sample)
	goodTar := buildTar(sample, false)
	goodTgz := buildTar(sample, true)
	// corrupt the deflate stream of src/main.go inside an otherwise valid zip
	badFlate := buildZip([]testfs.Member{{Name: "f.txt", Body: strings.Repeat("hello world ", 500)}})
	for i := 40; i < 60; i++ {
		badFlate[i] ^= 0xff
	}
	cases := []struct {
		name, file, inner string
		data              []byte
		lim               Limits
		code              errs.Code
		msg               string
		reason            string
	}{
		{"enc", "e.zip", "secret.txt", rawZip(t, "secret.txt", zip.Store, 0x1, []byte("xxxx"), []byte("yyyy")), Limits{}, errs.Unsupported, "is encrypted", "encrypted member"},
		{"bzip2", "m.zip", "f.txt", rawZip(t, "f.txt", 12, 0, []byte("BZh9"), []byte("abc")), Limits{}, errs.Unsupported, "compression method 12", "unsupported method"},
		{"zip bomb", "b.zip", "z", buildZip([]testfs.Member{{Name: "z", Body: lines}}), Limits{MaxMemberBytes: 1 << 20}, errs.TooLarge, "decompresses to more than 1.0MB", "member bytes capped"},
		{"tgz bomb", "b.tgz", "after", buildTar([]testfs.Member{{Name: "z", Body: zeros}, {Name: "after", Body: "x"}}, true), Limits{MaxScanBytes: 1 << 20}, errs.TooLarge, "Archive 'b.tgz' decompresses to more than 1.0MB", "scan bytes capped"},
		{"zip entries", "n.zip", "", buildZip(manyMembers()), Limits{MaxEntries: 10}, errs.TooLarge, "30 entries, more than the limit of 10", "entry count capped at open"},
		{"zip directory", "d.zip", "", buildZip(manyMembers()), Limits{MaxDirBytes: 1 << 10}, errs.TooLarge, "its central directory is 2.1KB, more than the limit of 1.0KB", "directory bytes capped at open"},
		{"tar entries", "n.tar", "", buildTar(manyMembers(), false), Limits{MaxEntries: 10}, errs.TooLarge, "more than 10 entries", "entry count capped while scanning"},
		{"zip overlap", "o.zip", "b", overlapZip(0), Limits{}, errs.TooLarge, "its entries overlap", "two entries share one record"},
		{"zip quoted overlap", "q.zip", "", overlapZip(40), Limits{}, errs.TooLarge, "the mark of a zip bomb", "an entry's record inside another's data"},
		{"zip truncated", "t.zip", "", good[:len(good)-10], Limits{}, errs.Unsupported, "not a valid zip file", "no end of central directory"},
		{"zip garbage", "g.zip", "", []byte("this is not a zip at all"), Limits{}, errs.Unsupported, "Cannot read archive 'g.zip'", "garbage"},
		{"zip corrupt data", "c.zip", "f.txt", badFlate, Limits{}, errs.Unsupported, "Archive entry 'f.txt'", "corrupt deflate stream"},
		{"tar truncated", "t.tar", "src/deep/nested/x.ts", goodTar[:1200], Limits{}, errs.Unsupported, "", "cut inside a member"},
		{"tar garbage", "g.tar", "", bytes.Repeat([]byte("garbage!"), 100), Limits{}, errs.Unsupported, "corrupt or truncated", "garbage header"},
		{"tgz truncated", "t.tgz", "", goodTgz[:len(goodTgz)/2], Limits{}, errs.Unsupported, "truncated", "cut gzip stream"},
		{"tgz not gzip", "n.tgz", "", goodTar, Limits{}, errs.Unsupported, "not a valid gzip stream", "plain tar named .tgz"},
		{"tgz empty", "e.tgz", "", nil, Limits{}, errs.Unsupported, "not a valid gzip stream", "empty file"},
	}
	for _, c := range cases {
		fsys := fstest.MapFS{c.file: {Data: c.data}}
		err := readMember(fsys, c.file, c.inner, c.lim)
		if errs.CodeOf(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s (%s): got %v (%s), want %s containing %q", c.name, c.reason, err, errs.CodeOf(err), c.code, c.msg)
		}
	}
	// a zip is listed from its central directory: members whose data are
	// corrupt or decompress past every cap are never inflated to list them
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"c.zip": {badFlate, "f.txt 6000"},
		"b.zip": {buildZip([]testfs.Member{{Name: "z", Body: lines}}), "z 8388608"},
	} {
		a, err := Open(context.Background(), fstest.MapFS{name: {Data: c.data}}, name, Limits{MaxMemberBytes: 1 << 10, MaxScanBytes: 1 << 10})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, _ := lookupText(t, a, ""); got != c.want {
			t.Errorf("%s listing: got %q, want %q", name, got, c.want)
		}
		a.Close()
	}
}

func TestCanceled(t *testing.T) {
	fsys := fstest.MapFS{"a.tgz": {Data: buildTar(sample, true)}, "a.zip": {Data: buildZip(sample)}}
	for _, name := range []string{"a.tgz", "a.zip"} {
		a, err := Open(context.Background(), fsys, name, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		it, err := a.Lookup(ctx, "README.md")
		if err != nil {
			t.Fatal(err)
		}
		cancel()
		_, err = io.ReadAll(it.Body())
		if errs.CodeOf(err) != errs.Canceled {
			t.Errorf("%s: reading after cancel: %v", name, err)
		}
		it.Close()
		if _, err := a.Lookup(ctx, ""); errs.CodeOf(err) != errs.Canceled {
			t.Errorf("%s: lookup after cancel: %v", name, err)
		}
		a.Close()
	}
}

func TestWalk(t *testing.T) {
	ms := append([]testfs.Member{}, sample...)
	for _, name := range formats {
		fsys := fstest.MapFS{name: {Data: build(t, name, ms)}}
		a, err := Open(context.Background(), fsys, name, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		rejected, err := a.Walk(context.Background(), "src", func(e Entry, r io.Reader, err error) error {
			if err != nil {
				return err
			}
			b, err := io.ReadAll(r)
			got = append(got, e.Name+"="+string(b[:min(len(b), 7)]))
			return err
		})
		want := "src/main.go=package|src/Zeta.txt=zzzzzzz|src/alpha.txt=|src/deep/nested/x.ts=export " // a tar's order
		if name == "a.zip" {
			want = "src/Zeta.txt=zzzzzzz|src/alpha.txt=|src/deep/nested/x.ts=export |src/main.go=package" // a zip's: by name
		}
		if err != nil || strings.Join(got, "|") != want || rejected != 1 {
			t.Errorf("%s: Walk = %q, %d, %v; want %q, 1", name, got, rejected, err, want)
		}
		n := 0
		_, err = a.Walk(context.Background(), "", func(Entry, io.Reader, error) error { n++; return fs.SkipAll })
		if err != nil || n != 1 {
			t.Errorf("%s: SkipAll: n=%d err=%v", name, n, err)
		}
		a.Close()
	}
}

func TestGzippedTarNamedTar(t *testing.T) {
	fsys := fstest.MapFS{"a.tar": {Data: buildTar(sample, true)}}
	if err := readMember(fsys, "a.tar", "src/main.go", Limits{}); err != nil {
		t.Errorf("a gzipped .tar: %v", err)
	}
}

func TestWalkBudget(t *testing.T) {
	mb := strings.Repeat("aaaaaaa\n", 1<<17)
	ms := []testfs.Member{{Name: "a", Body: mb}, {Name: "b", Body: mb}, {Name: "c", Body: mb}, {Name: "d", Body: mb}}
	fsys := fstest.MapFS{"o.zip": {Data: buildZip(ms)}}
	a, err := Open(context.Background(), fsys, "o.zip", Limits{MaxScanBytes: 3 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	read := 0
	_, err = a.Walk(context.Background(), "", func(e Entry, r io.Reader, err error) error {
		if err != nil {
			return err
		}
		if _, err := io.Copy(io.Discard, r); err != nil {
			return err
		}
		read++
		return nil
	})
	if errs.CodeOf(err) != errs.TooLarge || read != 3 {
		t.Errorf("a walk past the scan budget: read %d members, err %v", read, err)
	}
}

func TestHead(t *testing.T) {
	fsys := fstest.MapFS{"a.tgz": {Data: buildTar(sample, true)}}
	a, err := Open(context.Background(), fsys, "a.tgz", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	it, err := a.Lookup(context.Background(), "README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if h := string(it.Head(4)); h != "# he" {
		t.Errorf("Head(4) = %q", h)
	}
	if s, err := it.Text(0); err != nil || s != "# hello\n" {
		t.Errorf("Head consumed the body: %q %v", s, err)
	}
}

func TestIsBinary(t *testing.T) {
	cases := []struct {
		head   string
		cut    bool
		want   bool
		reason string
	}{
		{"plain text\n", false, false, "ascii"},
		{"héllo", false, false, "utf-8"},
		{"a\x00b", false, true, "NUL"},
		{"\xff\xfe", false, true, "invalid utf-8"},
		{"abc\xc3", true, false, "a character cut at the sniff boundary"},
		{"abc\xc3", false, true, "an incomplete character at the real end"},
	}
	for _, c := range cases {
		if got := IsBinary([]byte(c.head), c.cut); got != c.want {
			t.Errorf("IsBinary(%q, %v) (%s) = %v", c.head, c.cut, c.reason, got)
		}
	}
}

// hostileSeed is a FuzzArchive input: the archive and its kind (0 zip, 1
// tar, 2 tgz).
type hostileSeed struct {
	data []byte
	kind uint8
}

// hostileSeeds returns small archives of the shapes the caps exist for, so
// that the fuzzer starts from their structure: a tar member declaring 8 GiB
// before a cut, overlapping zip entries, an archive inside an archive, long
// PAX names and links, two gzip streams, cut gzip and zip ends.
func hostileSeeds() []hostileSeed {
	tarHuge := buildTar([]testfs.Member{{Name: "huge", Body: "0123456789"}, {Name: "after", Body: "x"}}, false)
	copy(tarHuge[124:136], "77777777777\x00") // 8 GiB - 1
	copy(tarHuge[148:156], "        ")        // the checksum counts its field as spaces
	var sum int
	for _, c := range tarHuge[:512] {
		sum += int(c)
	}
	copy(tarHuge[148:156], fmt.Sprintf("%06o\x00 ", sum))
	tarHuge = tarHuge[:512+10]

	small := strings.Repeat("aaaaaaa\n", 64)
	overlap := buildZip([]testfs.Member{{Name: "a", Body: small}, {Name: "b", Body: small}})
	second := bytes.LastIndex(overlap, []byte("PK\x01\x02"))
	binary.LittleEndian.PutUint32(overlap[second+42:], 0)

	long := []testfs.Member{
		{Name: strings.Repeat("d/", 60) + "long.txt", Body: "deep\n"},
		{Name: "up", Link: "../" + strings.Repeat("x/", 60)},
		{Name: "dir/"}, {Name: "dir/", Body: "again"},
	}
	tgz := buildTar(sample, true)
	zipped := buildZip(sample)
	return []hostileSeed{
		{tarHuge, 1},
		{testfs.Gzip(tarHuge), 2},
		{overlap, 0},
		{buildTar([]testfs.Member{{Name: "in.zip", Body: string(zipped)}, {Name: "in.tgz", Body: string(tgz)}}, true), 2},
		{buildZip([]testfs.Member{{Name: "in.tar", Body: string(buildTar(sample, false))}}), 0},
		{buildTar(long, false), 1},
		{buildZip(long), 0},
		{append(testfs.Gzip(buildTar(sample[:2], false)[:1024]), testfs.Gzip(buildTar(sample[2:4], false))...), 2},
		{tgz[:len(tgz)-6], 2},
		{zipped[:len(zipped)-4], 0},
	}
}

func FuzzArchive(f *testing.F) {
	f.Add(buildZip(sample), uint8(0))
	f.Add(buildTar(sample, false), uint8(1))
	f.Add(buildTar(sample, true), uint8(2))
	f.Add(rawZip(f, "x", 12, 1, []byte("abc"), []byte("abc")), uint8(0))
	for _, s := range hostileSeeds() {
		f.Add(s.data, s.kind)
	}
	names := []string{"f.zip", "f.tar", "f.tgz"}
	f.Fuzz(func(t *testing.T, data []byte, kind uint8) {
		name := names[int(kind)%len(names)]
		fsys := fstest.MapFS{name: {Data: data}}
		lim := Limits{MaxEntries: 1000, MaxMemberBytes: 1 << 20, MaxScanBytes: 4 << 20}
		a, err := Open(context.Background(), fsys, name, lim)
		if err != nil {
			return
		}
		defer a.Close()
		if it, err := a.Lookup(context.Background(), ""); err == nil {
			for _, e := range it.Children {
				if e.Name == "" || strings.Contains("/"+e.Name+"/", "/../") {
					t.Fatalf("unsafe child name %q", e.Name)
				}
			}
			it.Close()
		}
		var z *ZipReader
		if a.format == Zip {
			if z, err = openZipBytes(data, lim); err != nil {
				t.Fatalf("Open opened the zip, OpenZip did not: %v", err)
			}
		}
		a.Walk(context.Background(), "", func(e Entry, r io.Reader, err error) error {
			if r != nil {
				io.Copy(io.Discard, r)
			}
			if z != nil {
				if !z.Has(e.Name) {
					t.Fatalf("OpenZip does not find member %q", e.Name)
				}
				if r, err := z.Open(context.Background(), e.Name, 0); err == nil {
					io.Copy(io.Discard, r)
				}
			}
			return nil
		})
	})
}

func TestZip64AndPrefix(t *testing.T) {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i := range 70_000 {
		f, err := w.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("d%d/f%05d", i%7, i), Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprint(f, i)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	big := buf.Bytes()
	sfx := append(bytes.Repeat([]byte("#!stub\n"), 300), buildZip(sample)...)
	var cbuf bytes.Buffer
	w = zip.NewWriter(&cbuf)
	if f, err := w.Create("notes.txt"); err == nil {
		fmt.Fprint(f, "noted")
	}
	w.SetComment(strings.Repeat("a comment ", 6000))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	commented := cbuf.Bytes()
	cases := []struct {
		name, file, inner, want string
		data                    []byte
		reason                  string
	}{
		{"zip64", "big.zip", "d6/f69999", "69999", big, "more than 65,535 entries need the Zip64 end records"},
		{"prefix", "sfx.zip", "src/deep/nested/x.ts", "export const x = 1\n", sfx, "data before the zip (a self-extracting stub)"},
		{"comment", "c.zip", "notes.txt", "noted", commented, "an end record 60,000 bytes before the end, behind its comment"},
	}
	for _, c := range cases {
		fsys := fstest.MapFS{c.file: {Data: c.data}}
		a, err := Open(context.Background(), fsys, c.file, Limits{})
		if err != nil {
			t.Fatalf("%s (%s): %v", c.name, c.reason, err)
		}
		it, err := a.Lookup(context.Background(), c.inner)
		if err != nil {
			t.Fatalf("%s (%s): %v", c.name, c.reason, err)
		}
		if got, err := it.Text(0); err != nil || got != c.want {
			t.Errorf("%s (%s): %q %v", c.name, c.reason, got, err)
		}
		it.Close()
		a.Close()
	}
}

// TestTarLinks checks that a link entry is refused with the member to read
// instead when it points inside the archive, and never followed out of it.
func TestTarLinks(t *testing.T) {
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	hdrs := []*tar.Header{
		{Name: "d/ok.txt", Typeflag: tar.TypeReg, Size: 3, Mode: 0o644},
		{Name: "d/rel", Typeflag: tar.TypeSymlink, Linkname: "ok.txt"},
		{Name: "up", Typeflag: tar.TypeSymlink, Linkname: "d/../d/ok.txt"},
		{Name: "hard", Typeflag: tar.TypeLink, Linkname: "d/ok.txt"},
		{Name: "abs", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"},
		{Name: "d/out", Typeflag: tar.TypeSymlink, Linkname: "../../secret"},
	}
	for _, h := range hdrs {
		if err := w.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			w.Write([]byte("ok\n"))
		}
	}
	w.Close()
	fsys := fstest.MapFS{"l.tar": {Data: b.Bytes()}}
	for inner, want := range map[string]string{
		"d/rel": "Archive entry 'd/rel' is a link to 'ok.txt'; read l.tar:d/ok.txt instead",
		"up":    "Archive entry 'up' is a link to 'd/../d/ok.txt'; read l.tar:d/ok.txt instead",
		"hard":  "Archive entry 'hard' is a link to 'd/ok.txt'; read l.tar:d/ok.txt instead",
		"abs":   "Archive entry 'abs' is a link to '/etc/passwd', outside the archive; links are not followed",
		"d/out": "Archive entry 'd/out' is a link to '../../secret', outside the archive; links are not followed",
	} {
		err := readMember(fsys, "l.tar", inner, Limits{})
		if errs.CodeOf(err) != errs.Unsupported || err.Error() != want {
			t.Errorf("%s: got %v, want %q", inner, err, want)
		}
	}
}

// TestOpenReadsHead: Open reads enough of an archive to know that it is
// one, a zip's directory or a tar's first header, so that a file named
// like an archive that is none fails there, whatever its format; a tar
// corrupt further on opens, and fails where it is read. Why is what
// failed without the archive's name for an error about the archive as a
// whole, and the message itself for one about a member.
func TestOpenReadsHead(t *testing.T) {
	cut := buildTar([]testfs.Member{{Name: "a.txt", Body: "a\n"}, {Name: "b.txt", Body: "b\n"}}, false)
	copy(cut[1024+148:], "garbage!") // the second header's checksum
	cases := []struct {
		name   string
		data   []byte
		why    string // "" when Open succeeds
		reason string
	}{
		{"t.zip", []byte("a text file\n"), "not a valid zip file", "text named .zip"},
		{"t.tar", []byte("a text file\n"), "it is corrupt or truncated (unexpected EOF)", "text shorter than a tar header"},
		{"g.tar", bytes.Repeat([]byte("garbage!"), 100), "it is corrupt or truncated (archive/tar: invalid tar header)", "text longer than a tar header"},
		{"t.tgz", []byte("a text file\n"), "not a valid gzip stream (gzip: invalid header)", "text named .tgz"},
		{"t.tar.gz", testfs.Gzip([]byte("gzipped text, no tar\n")), "it is corrupt or truncated (unexpected EOF)", "gzipped text named .tar.gz"},
		{"z.tar", testfs.Gzip([]byte("gzipped text, no tar\n")), "it is corrupt or truncated (unexpected EOF)", "gzipped text named .tar"},
		{"e.tar", nil, "", "an empty file: a tar without members"},
		{"cut.tar", cut, "", "a tar whose second header is corrupt"},
		{"ok.tgz", buildTar(sample, true), "", "a good tgz"},
	}
	for _, c := range cases {
		fsys := fstest.MapFS{c.name: {Data: c.data}}
		a, err := Open(context.Background(), fsys, c.name, Limits{})
		if c.why == "" {
			if err != nil {
				t.Errorf("%s (%s): %v", c.name, c.reason, err)
				continue
			}
			a.Close()
			continue
		}
		if errs.CodeOf(err) != errs.Unsupported || err.Error() != "Cannot read archive '"+c.name+"': "+c.why || Why(err) != c.why {
			t.Errorf("%s (%s): %v (%s), Why %q; want UNSUPPORTED %q", c.name, c.reason, err, errs.CodeOf(err), Why(err), c.why)
		}
	}
	err := readMember(fstest.MapFS{"cut.tar": {Data: cut}}, "cut.tar", "b.txt", Limits{})
	if want := "it is corrupt or truncated (archive/tar: invalid tar header)"; err == nil || Why(err) != want {
		t.Errorf("cut.tar:b.txt: %v, want %q", err, want)
	}
	link := buildTar([]testfs.Member{{Name: "x.txt", Body: "x\n"}, {Name: "lnk", Link: "x.txt"}}, false)
	err = readMember(fstest.MapFS{"l.tar": {Data: link}}, "l.tar", "lnk", Limits{})
	if err == nil || Why(err) != err.Error() || !strings.HasPrefix(Why(err), "Archive entry 'lnk' is a link") {
		t.Errorf("l.tar:lnk: %v, Why %q; want the message itself", err, Why(err))
	}
}

// TestLinks: a symbolic link member is a link in every format: listed as
// one, refused by Lookup with the member to read instead (or as leading
// outside), passed to Walk with that error and no data.
func TestLinks(t *testing.T) {
	ms := []testfs.Member{
		{Name: "x.txt", Body: "x\n"},
		{Name: "d/lnk", Link: "../x.txt"},
		{Name: "up", Link: "../../etc/passwd"},
		{Name: "long", Link: strings.Repeat("t/", maxLinkTarget/2+1)},
	}
	for _, name := range formats {
		for fsName, fsys := range fileSystems(t, map[string][]byte{name: build(t, name, ms)}) {
			what := name + " on " + fsName
			a, err := Open(context.Background(), fsys, name, Limits{})
			require.NoError(t, err, what)
			dir, err := a.Lookup(context.Background(), "d")
			require.NoError(t, err, what)
			require.Len(t, dir.Children, 1, what)
			assert.Equal(t, Entry{Name: "d/lnk", Symlink: true}, Entry{Name: dir.Children[0].Name, Symlink: dir.Children[0].Symlink, Size: dir.Children[0].Size}, what)
			dir.Close()
			for inner, want := range map[string]string{
				"d/lnk": "Archive entry 'd/lnk' is a link to '../x.txt'; read " + name + ":x.txt instead",
				"up":    "Archive entry 'up' is a link to '../../etc/passwd', outside the archive; links are not followed",
			} {
				_, err := a.Lookup(context.Background(), inner)
				assert.Equal(t, errs.Unsupported, errs.CodeOf(err), "%s %s: %v", what, inner, err)
				assert.EqualError(t, err, want, "%s %s", what, inner)
			}
			var walked []string
			_, err = a.Walk(context.Background(), "", func(e Entry, r io.Reader, err error) error {
				if e.IsLink() {
					assert.Nil(t, r, "%s %s", what, e.Name)
					assert.Equal(t, errs.Unsupported, errs.CodeOf(err), "%s %s: %v", what, e.Name, err)
				}
				walked = append(walked, e.Name)
				return nil
			})
			require.NoError(t, err, what)
			assert.ElementsMatch(t, []string{"x.txt", "d/lnk", "up", "long"}, walked, what)
			a.Close()
		}
	}
	// A zip's link target is its data, read only up to a bound.
	a, err := Open(context.Background(), fstest.MapFS{"l.zip": {Data: buildZip(ms)}}, "l.zip", Limits{})
	require.NoError(t, err)
	defer a.Close()
	_, err = a.Lookup(context.Background(), "long")
	assert.EqualError(t, err, fmt.Sprintf("Archive entry 'long' is a symbolic link whose target is over %d bytes; links are not followed", maxLinkTarget))
}

func TestUnixSymlink(t *testing.T) {
	const unix, mac, fat, ntfs = 3 << 8, 19 << 8, 0 << 8, 10 << 8
	for _, c := range []struct {
		madeBy   uint16
		external uint32
		want     bool
	}{
		{unix | 20, 0o120777 << 16, true},
		{mac | 20, 0o120755 << 16, true},
		{unix | 20, 0o100644 << 16, false}, // a regular file
		{unix | 20, 0o040755 << 16, false}, // a directory
		{fat | 20, 0o120777 << 16, false},  // other creators keep no Unix mode
		{ntfs | 20, 0o120777 << 16, false},
		{unix | 20, 0o140777 << 16, false}, // a socket shares a bit with a link
	} {
		assert.Equal(t, c.want, unixSymlink(c.madeBy, c.external), "%#x %o", c.madeBy, c.external>>16)
	}
}

// TestGzipTrailer: a .tar.gz read to its end has its gzip trailer checked:
// one cut inside it, or with a wrong checksum, is corrupt, even though the
// tar's end marker came before; bytes after a whole gzip stream are not.
func TestGzipTrailer(t *testing.T) {
	tgz := buildTar(sample, true)
	badCRC := bytes.Clone(tgz)
	badCRC[len(badCRC)-8] ^= 0xff
	plain := buildTar(sample, false)
	twoStreams := append(testfs.Gzip(plain[:1024]), testfs.Gzip(plain[1024:])...)
	for _, c := range []struct {
		name string
		data []byte
		why  string // "" when it reads
	}{
		{"whole", tgz, ""},
		{"trailing zeros", append(bytes.Clone(tgz), make([]byte, 512)...), ""},
		{"two streams", twoStreams, ""},
		{"two streams, the second cut", twoStreams[:len(twoStreams)-2], "Archive 'a.tgz' is truncated"},
		{"trailing garbage", append(bytes.Clone(tgz), "not gzip"...), ""},
		{"cut trailer", tgz[:len(tgz)-3], "Archive 'a.tgz' is truncated"},
		{"bad checksum", badCRC, "Archive 'a.tgz' is corrupt: gzip: invalid checksum"},
	} {
		for fsName, fsys := range fileSystems(t, map[string][]byte{"a.tgz": c.data}) {
			what := c.name + " on " + fsName
			a, err := Open(context.Background(), fsys, "a.tgz", Limits{})
			require.NoError(t, err, what)
			_, lerr := a.Lookup(context.Background(), "")
			_, werr := a.Walk(context.Background(), "", func(Entry, io.Reader, error) error { return nil })
			a.Close()
			for _, err := range []error{lerr, werr} {
				if c.why == "" {
					assert.NoError(t, err, what)
					continue
				}
				assert.Equal(t, errs.Unsupported, errs.CodeOf(err), "%s: %v", what, err)
				assert.ErrorContains(t, err, c.why, what)
			}
		}
	}
}

// TestLongNames checks that an entry whose name is over MaxNameBytes is
// left out and counted as a '..' entry is, in listings and walks: a tar
// header may name an entry with up to 1 MiB, and 600 such names in a
// 600 KB .tgz made a listing hold 540 MB and sort for minutes.
func TestLongNames(t *testing.T) {
	longest := strings.Repeat("k", MaxNameBytes)
	ms := []testfs.Member{{Name: "ok.txt", Body: "ok\n"}, {Name: strings.Repeat("x", MaxNameBytes+1), Body: "x"}, {Name: longest, Body: "k"},
		{Name: "d/" + strings.Repeat("y", MaxNameBytes), Body: "y"}}
	for _, name := range formats {
		for fsName, fsys := range fileSystems(t, map[string][]byte{name: build(t, name, ms)}) {
			a, err := Open(context.Background(), fsys, name, Limits{})
			require.NoError(t, err, "%s %s", fsName, name)
			got, _ := lookupText(t, a, "")
			got = strings.ReplaceAll(got, longest, "k×4096")
			assert.Equal(t, "k×4096 1\nok.txt 3\nrejected 2", got, "%s %s: the root lists the longest name kept", fsName, name)
			a.Close()
			a, err = Open(context.Background(), fsys, name, Limits{})
			require.NoError(t, err, "%s %s", fsName, name)
			var walked []string
			rejected, err := a.Walk(context.Background(), "", func(e Entry, r io.Reader, err error) error {
				walked = append(walked, fmt.Sprint(len(e.Name)))
				return nil
			})
			a.Close()
			require.NoError(t, err, "%s %s", fsName, name)
			assert.Equal(t, 2, rejected, "%s %s: a walk counts both", fsName, name)
			assert.ElementsMatch(t, []string{"4096", "6"}, walked, "%s %s: and passes the others", fsName, name)
		}
	}
}

// TestListingNamesBound checks that a listing keeps at most MaxDirBytes of
// its children's names: a tar has no directory whose size bounds them, so
// a .tgz of 200,000 names of 4 KiB (a few MB) would make a listing hold
// 800 MB. A member is still read by its path.
func TestListingNamesBound(t *testing.T) {
	ms := append(manyMembers(), testfs.Member{Name: "sub/f.txt", Body: "f\n"}) // 465 bytes of names in the root
	for _, name := range []string{"a.tar", "a.tgz"} {
		fsys := fstest.MapFS{name: {Data: build(t, name, ms)}}
		lim := Limits{MaxDirBytes: 200}
		err := readMember(fsys, name, "", lim)
		assert.Equal(t, errs.TooLarge, errs.CodeOf(err), "%s: %v", name, err)
		assert.ErrorContains(t, err, "Cannot read archive '"+name+"': the names of the entries in its root take more than 200B, Scout's limit for a listing; read a member by its path instead", name)
		assert.NoError(t, readMember(fsys, name, strings.Repeat("m", 30), lim), "%s: a member is read", name)
		assert.NoError(t, readMember(fsys, name, "sub", lim), "%s: a small directory is listed", name)
		assert.NoError(t, readMember(fsys, name, "", Limits{MaxDirBytes: 1 << 10}), "%s: the root is listed under a bound it fits", name)
	}
}

// TestLinkChains: reading a link names the member its links lead to, and
// a link naming itself, links that loop, a chain over maxLinkHops links or
// one leading out of the archive is refused with why, in every format
// (zip links by their Unix mode) and with tar hard links; the advice given
// never names a link. A tar whose links overflow maxTarLinkBytes looks the
// ones left out up by a pass each, with the same results.
func TestLinkChains(t *testing.T) {
	ms := []testfs.Member{
		{Name: "x.txt", Body: "x\n"},
		{Name: "self", Link: "self"},
		{Name: "d/self", Link: "../d/./self"},
		{Name: "l1", Link: "l2"},
		{Name: "l2", Link: "l1"},
		{Name: "a", Link: "b"},
		{Name: "b", Link: "d/c"},
		{Name: "d/c", Link: "../b"},
		{Name: "x1", Link: "d/x2"},
		{Name: "d/x2", Link: "../x.txt"},
		{Name: "o1", Link: "o2"},
		{Name: "o2", Link: "/etc/passwd"},
	}
	chain := func(prefix string, links int) {
		for i := range links {
			ms = append(ms, testfs.Member{Name: fmt.Sprintf("%s%d", prefix, i), Link: fmt.Sprintf("%s%d", prefix, i+1)})
		}
		ms = append(ms, testfs.Member{Name: fmt.Sprintf("%s%d", prefix, links), Body: "end\n"})
	}
	chain("k", maxLinkHops)
	chain("m", maxLinkHops+1)
	want := func(archive string) map[string]string {
		return map[string]string{
			"self":   "Archive entry 'self' is a link to itself ('self'); it cannot be followed and has no data to read",
			"d/self": "Archive entry 'd/self' is a link to itself ('../d/./self'); it cannot be followed and has no data to read",
			"l1":     "Archive entry 'l1' is a link to 'l2' that cannot be followed: its links loop ('l2' leads back to 'l1')",
			"a":      "Archive entry 'a' is a link to 'b' that cannot be followed: its links loop ('d/c' leads back to 'b')",
			"x1":     "Archive entry 'x1' is a link to 'd/x2', which leads through 2 links to 'x.txt'; read " + archive + ":x.txt instead",
			"d/x2":   "Archive entry 'd/x2' is a link to '../x.txt'; read " + archive + ":x.txt instead",
			"o1":     "Archive entry 'o1' is a link to 'o2', which leads out of the archive through 'o2' (a link to '/etc/passwd'); links are not followed",
			"k0":     fmt.Sprintf("Archive entry 'k0' is a link to 'k1', which leads through %d links to 'k%[1]d'; read %s:k%[1]d instead", maxLinkHops, archive),
			"m0":     fmt.Sprintf("Archive entry 'm0' is a link to 'm1' that cannot be followed: it leads through more than %d links", maxLinkHops),
		}
	}
	check := func(what string, fsys fs.FS, name string, cases map[string]string) {
		t.Helper()
		for inner, msg := range cases {
			err := readMember(fsys, name, inner, Limits{})
			assert.Equal(t, errs.Unsupported, errs.CodeOf(err), "%s %s: %v", what, inner, err)
			assert.EqualError(t, err, msg, "%s %s", what, inner)
			if _, to, ok := strings.Cut(msg, "; read "+name+":"); ok {
				to = strings.TrimSuffix(to, " instead")
				assert.NoError(t, readMember(fsys, name, to, Limits{}), "%s %s: the advice %s", what, inner, to)
			}
		}
	}
	for _, name := range formats {
		fsys := fstest.MapFS{name: {Data: build(t, name, ms)}}
		check(name, fsys, name, want(name))
	}

	// Hard links name their target from the archive's root.
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	for _, h := range []*tar.Header{
		{Name: "h", Typeflag: tar.TypeLink, Linkname: "h"},
		{Name: "d/h1", Typeflag: tar.TypeLink, Linkname: "d/s2"},
		{Name: "d/s2", Typeflag: tar.TypeSymlink, Linkname: "h1"},
		{Name: "d/h3", Typeflag: tar.TypeLink, Linkname: "./d/h1"},
	} {
		require.NoError(t, w.WriteHeader(h))
	}
	require.NoError(t, w.Close())
	hard := fstest.MapFS{"links.tar": {Data: b.Bytes()}}
	hardWant := map[string]string{
		"h":    "Archive entry 'h' is a link to itself ('h'); it cannot be followed and has no data to read",
		"d/h1": "Archive entry 'd/h1' is a link to 'd/s2' that cannot be followed: its links loop ('d/s2' leads back to 'd/h1')",
		"d/h3": "Archive entry 'd/h3' is a link to './d/h1' that cannot be followed: its links loop ('d/s2' leads back to 'd/h1')",
	}
	check("hard links", hard, "links.tar", hardWant)

	defer func(n int) { maxTarLinkBytes = n }(maxTarLinkBytes)
	maxTarLinkBytes = 8
	for _, name := range []string{"a.tar", "a.tgz"} {
		check(name+" past maxTarLinkBytes", fstest.MapFS{name: {Data: build(t, name, ms)}}, name, want(name))
	}
	check("hard links past maxTarLinkBytes", hard, "links.tar", hardWant)
}

// cancelFS serves its files and calls cancel once they have served more
// than after bytes; read counts the bytes served.
type cancelFS struct {
	fstest.MapFS
	after  int64
	cancel context.CancelFunc
	read   int64
}

func (c *cancelFS) Open(name string) (fs.File, error) {
	f, err := c.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return &cancelFile{File: f, fs: c}, nil
}

type cancelFile struct {
	fs.File
	fs *cancelFS
}

func (f *cancelFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	if f.fs.read += int64(n); f.fs.read > f.fs.after {
		f.fs.cancel()
	}
	return n, err
}

// TestGzipFloodCanceled: a .tgz of 200,000 empty gzip streams (4 MB, no
// data) before or between its members stops soon after its context is
// canceled, on the first pass (Open's, and a Lookup reading on from it)
// and on a new one: each Read went on through every empty stream, so a
// file of them was read to its end whatever the context said.
func TestGzipFloodCanceled(t *testing.T) {
	plain := buildTar(sample, false)
	flood := bytes.Repeat(testfs.Gzip(nil), 200_000)
	before := append(bytes.Clone(flood), testfs.Gzip(plain)...)
	between := append(append(testfs.Gzip(plain[:1024]), flood...), testfs.Gzip(plain[1024:])...)
	for _, c := range []struct {
		name string
		data []byte
		open bool // the flood is met by Open, before the first header
	}{{"flood first", before, true}, {"flood between members", between, false}} {
		for _, pass := range []string{"open", "lookup on the first pass", "walk on a new pass"} {
			if c.open != (pass == "open") && pass != "walk on a new pass" {
				continue
			}
			ctx, cancel := context.WithCancel(context.Background())
			fsys := &cancelFS{MapFS: fstest.MapFS{"a.tgz": {Data: c.data}}, after: 1 << 20, cancel: cancel}
			var err error
			switch pass {
			case "open":
				_, err = Open(ctx, fsys, "a.tgz", Limits{})
			default:
				var a *Archive
				fsys.after = math.MaxInt64
				a, err = Open(context.Background(), fsys, "a.tgz", Limits{})
				require.NoError(t, err, c.name)
				if pass == "walk on a new pass" {
					it, err := a.Lookup(context.Background(), "README.md")
					require.NoError(t, err, c.name)
					it.Close()
				}
				fsys.read, fsys.after = 0, 1<<20
				if pass == "walk on a new pass" {
					_, err = a.Walk(ctx, "", func(Entry, io.Reader, error) error { return nil })
				} else {
					_, err = a.Lookup(ctx, "src/main.go")
				}
				a.Close()
			}
			cancel()
			assert.Equal(t, errs.Canceled, errs.CodeOf(err), "%s, %s: %v", c.name, pass, err)
			assert.Less(t, fsys.read, int64(2<<20), "%s, %s: bytes read of %d", c.name, pass, len(c.data))
		}
	}
}
