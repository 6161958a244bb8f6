package archive

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headerFlood returns a .tgz whose member "after" is preceded by n gzip
// streams that each hold one header of typeflag flag with 1 MiB (less a
// block) of payload: pax records of 64 KiB for 'x' and 'g' (few, so that
// the bound on their bytes is met before the one on their number), a name
// for 'L'.
// Each stream compresses to a few KB: 200 of them are 200 MB of headers
// in under 1 MB.
func headerFlood(flag byte, n int, gz bool) []byte {
	var payload []byte
	switch flag {
	case tar.TypeXHeader, tar.TypeXGlobalHeader:
		rec := paxRecord("comment", strings.Repeat("c", 64<<10-20))
		payload = []byte(strings.Repeat(rec, (1<<20-512)/len(rec)))
	default:
		payload = bytes.Repeat([]byte("n"), 1<<20-512)
	}
	one := testfs.TarHeader(flag, payload)
	body := testfs.Tar(testfs.Member{Name: "after", Body: "found\n"})
	first := testfs.Tar(testfs.Member{Name: "first", Body: "first\n"})
	first = first[:len(first)-1024] // without its end marker
	if !gz {
		return append(append(first, bytes.Repeat(one, n)...), body...)
	}
	out := testfs.Gzip(first)
	out = append(out, bytes.Repeat(testfs.Gzip(one), n)...)
	return append(out, testfs.Gzip(body)...)
}

// TestHeaderFlood: a tar whose member is preceded by a run of extended
// (pax), global or GNU long-name headers is TOO_LARGE once the run passes
// maxTarHeaderBytes, for a read, a listing and a walk: archive/tar merges
// the run inside one Next, so a .tgz of 300 KB holding 200 MB of tiny pax
// records took 7.5 s for each read, bounded only by the scan cap (8 GiB,
// minutes for a 12 MB file).
func TestHeaderFlood(t *testing.T) {
	want := "its headers are too large: a run of extended (pax) or long-name headers takes more than 4.0MB, Scout's limit"
	for _, c := range []struct {
		name string
		flag byte
		n    int
	}{
		{"a.tgz", tar.TypeXHeader, 200},
		{"g.tgz", tar.TypeXGlobalHeader, 200},
		{"l.tgz", tar.TypeGNULongName, 200},
		{"k.tar.gz", tar.TypeGNULongLink, 200},
		{"a.tar", tar.TypeXHeader, 24},
	} {
		data := headerFlood(c.flag, c.n, FormatOf(c.name) == TarGz)
		fsys := &cancelFS{MapFS: fstest.MapFS{c.name: {Data: data}}, after: 1 << 40, cancel: func() {}}
		assert.NoError(t, readMember(fsys, c.name, "first", Limits{}), "%s: the member before the run is read", c.name)
		// each pass stops within maxTarHeaderBytes of the run, where each
		// read all of it
		for _, inner := range []string{"after", ""} {
			fsys.read = 0
			err := readMember(fsys, c.name, inner, Limits{})
			require.Error(t, err, "%s %q", c.name, inner)
			assert.Equal(t, errs.TooLarge, errs.CodeOf(err), "%s %q: %v", c.name, inner, err)
			assert.EqualError(t, err, "Cannot read archive '"+c.name+"': "+want, "%s %q", c.name, inner)
			assert.Equal(t, want, Why(err), c.name)
			assert.Less(t, fsys.read, int64(len(data)/2), "%s %q: read %d of %d bytes", c.name, inner, fsys.read, len(data))
		}
		a, err := Open(context.Background(), fsys, c.name, Limits{})
		require.NoError(t, err, c.name)
		var walked []string
		_, err = a.Walk(context.Background(), "", func(e Entry, r io.Reader, err error) error {
			walked = append(walked, e.Name)
			return nil
		})
		a.Close()
		assert.Equal(t, errs.TooLarge, errs.CodeOf(err), "%s walk: %v", c.name, err)
		assert.Equal(t, []string{"first"}, walked, c.name)
	}

	// the run met by Open, before the first header
	data := headerFlood(tar.TypeXHeader, 200, true)
	data = data[bytes.Index(data[10:], []byte{0x1f, 0x8b, 8})+10:] // without "first"
	fsys := &cancelFS{MapFS: fstest.MapFS{"o.tgz": {Data: data}}, after: 1 << 40, cancel: func() {}}
	_, err := Open(context.Background(), fsys, "o.tgz", Limits{})
	assert.Equal(t, errs.TooLarge, errs.CodeOf(err), "open: %v", err)
	assert.ErrorContains(t, err, want)
	assert.Less(t, fsys.read, int64(len(data)/2), "open reads %d of %d bytes", fsys.read, len(data))
}

// TestHeaderFloodCanceled: a run of headers read inside one Next stops
// when the pass's context ends, before the bound on their bytes.
func TestHeaderFloodCanceled(t *testing.T) {
	defer func(n int64) { maxTarHeaderBytes = n }(maxTarHeaderBytes)
	maxTarHeaderBytes = 1 << 40
	// records that compress little, so that the file is read as they are
	var rec bytes.Buffer
	for i := 0; rec.Len() < 64<<10; i++ {
		fmt.Fprintf(&rec, "16 k%08x=%02x\n", uint32(i)*2654435761, i%97)
	}
	one := testfs.TarHeader(tar.TypeXHeader, rec.Bytes())
	first := testfs.Tar(testfs.Member{Name: "first", Body: "first\n"})
	data := testfs.Gzip(append(append(first[:len(first)-1024], bytes.Repeat(one, 24)...), testfs.Tar(testfs.Member{Name: "after", Body: "x"})...))
	ctx, cancel := context.WithCancel(context.Background())
	fsys := &cancelFS{MapFS: fstest.MapFS{"a.tgz": {Data: data}}, after: 1 << 40, cancel: cancel}
	a, err := Open(context.Background(), fsys, "a.tgz", Limits{})
	require.NoError(t, err)
	defer a.Close()
	fsys.read, fsys.after = 0, 1 // the pass reads on from Open's buffer
	_, err = a.Lookup(ctx, "after")
	assert.Equal(t, errs.Canceled, errs.CodeOf(err), "%v", err)
	assert.Less(t, fsys.read, int64(len(data)/4), "reads %d of %d bytes", fsys.read, len(data))
}

// TestLargeHeaders: tars whose headers are large in the usual ways read as
// before: pax and GNU long names, a pax record near archive/tar's 1 MiB,
// global headers, and many entries each with an extended header, which
// take more than maxTarHeaderBytes in all.
func TestLargeHeaders(t *testing.T) {
	long := strings.Repeat("d/", 300) + "f.txt"
	huge := strings.Repeat("v", 1<<20-200)
	write := func(format tar.Format, n int, big bool, gz bool) []byte {
		var b bytes.Buffer
		w := tar.NewWriter(&b)
		hdrs := []*tar.Header{
			{Name: "global", Typeflag: tar.TypeXGlobalHeader, PAXRecords: map[string]string{"comment": huge}, Format: tar.FormatPAX},
			{Name: long, Typeflag: tar.TypeReg, Size: 5, Format: format},
			{Name: "link", Linkname: long, Typeflag: tar.TypeSymlink, Format: format},
		}
		if format == tar.FormatPAX && big {
			hdrs = append(hdrs, &tar.Header{Name: "xattr", Typeflag: tar.TypeReg, Size: 5, PAXRecords: map[string]string{"SCHILY.xattr.user.big": huge}, Format: format})
		} else {
			hdrs = hdrs[1:]
		}
		for i := range n {
			hdrs = append(hdrs, &tar.Header{Name: fmt.Sprintf("many/%s%d", strings.Repeat("é", 60), i), Typeflag: tar.TypeReg, Size: 5, Format: format})
		}
		for _, h := range hdrs {
			require.NoError(t, w.WriteHeader(h), h.Name)
			if h.Size > 0 {
				io.WriteString(w, "body\n")
			}
		}
		require.NoError(t, w.Close())
		if gz {
			return testfs.Gzip(b.Bytes())
		}
		return b.Bytes()
	}
	defer func(n int64) { maxTarHeaderBytes = n }(maxTarHeaderBytes)
	// the default bound, with headers near archive/tar's 1 MiB; then 2,000
	// entries of 1.5 KiB of headers each under a bound of 64 KiB, which
	// they take 45 times over
	for _, c := range []struct {
		bound int64
		n     int
	}{{maxTarHeaderBytes, 100}, {64 << 10, 2_000}} {
		maxTarHeaderBytes = c.bound
		for _, format := range []tar.Format{tar.FormatPAX, tar.FormatGNU} {
			for _, name := range []string{"a.tar", "a.tgz"} {
				big := c.bound > 1<<20
				data := write(format, c.n, big, name == "a.tgz")
				what := fmt.Sprintf("%s %s, bound %d", format, name, c.bound)
				fsys := fstest.MapFS{name: {Data: data}}
				inners := []string{long, fmt.Sprintf("many/%s%d", strings.Repeat("é", 60), c.n-1)}
				if format == tar.FormatPAX && big {
					inners = append(inners, "xattr")
				}
				for _, inner := range inners {
					assert.NoError(t, readMember(fsys, name, inner, Limits{}), "%s: %.20s", what, inner)
				}
				err := readMember(fsys, name, "link", Limits{})
				assert.ErrorContains(t, err, "Archive entry 'link' is a link to 'd/d/", what)
			}
		}
	}
}

// TestPaxRecordFlood: a tar whose every entry carries an extended (pax)
// header of tiny records, within the bound on header bytes, is TOO_LARGE
// within maxTarRecords of them: 200,000 such entries took 3 to 6 s a pass
// (archive/tar parses each record into a map), 3 times a tar of the same
// entries with GNU tar's usual records. Entries with the records GNU tar
// and bsdtar write, extended attributes included, read to any number.
func TestPaxRecordFlood(t *testing.T) {
	assert.Equal(t, "its headers are too large: its extended (pax) headers hold more than 131072 records, and 32 for each entry, Scout's limit",
		Why(readMember(fstest.MapFS{"f.tgz": {Data: testfs.Gzip(headerFloodTar(t, 10_000, paxFloods["keys"]))}}, "f.tgz", "", Limits{})))
	// a lower bound, so that fewer entries pass it
	defer func(n int64) { maxTarRecords = n }(maxTarRecords)
	maxTarRecords = 64 << 10
	want := "its headers are too large: its extended (pax) headers hold more than 65536 records, and 32 for each entry, Scout's limit"
	const n = 3_000
	for kind, payload := range map[string][]byte{
		"keys":    paxFloods["keys"],
		"comment": paxFloods["comment"],
		"tiny":    paxFloods["tiny"],
	} {
		tarData := headerFloodTar(t, n, payload)
		for _, name := range []string{"a.tar", "a.tgz"} {
			data := tarData
			if name == "a.tgz" {
				data = testfs.Gzip(data)
			}
			fsys := &cancelFS{MapFS: fstest.MapFS{name: {Data: data}}, after: 1 << 40, cancel: func() {}}
			last := fmt.Sprintf("d%03d/f%07d", (n-1)%1000, n-1)
			for _, inner := range []string{last, ""} {
				fsys.read = 0
				err := readMember(fsys, name, inner, Limits{})
				require.Error(t, err, "%s %s %q", kind, name, inner)
				assert.Equal(t, errs.TooLarge, errs.CodeOf(err), "%s %s %q: %v", kind, name, inner, err)
				assert.Equal(t, want, Why(err), "%s %s %q", kind, name, inner)
				if name == "a.tar" {
					assert.Less(t, fsys.read, int64(len(data)/2), "%s %s %q: read %d of %d bytes", kind, name, inner, fsys.read, len(data))
				}
			}
		}
	}

	// usual records, 20 to 30 an entry, under a bound of 1,024 records
	maxTarRecords = 1 << 10
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	for i := range n {
		recs := map[string]string{
			"SCHILY.dev": "16777233", "SCHILY.ino": fmt.Sprint(1e7 + i), "SCHILY.nlink": "1",
			"LIBARCHIVE.creationtime": "1764300000", "SCHILY.fflags": "hidden",
		}
		for j := range 2 + i%5 {
			x := fmt.Sprintf("com.apple.attr%d", j)
			recs["SCHILY.xattr."+x] = "0081;6929f1c3;Safari;\n"
			recs["LIBARCHIVE.xattr."+x] = "MDA4MTs2OTI5ZjFjMztTYWZhcmk7"
		}
		h := &tar.Header{Name: fmt.Sprintf("d/%s%d", strings.Repeat("n", 120), i), Typeflag: tar.TypeReg, Size: 5, Format: tar.FormatPAX,
			PAXRecords: recs, ModTime: time.Unix(1764300000, 123456789), AccessTime: time.Unix(1764300000, 5), ChangeTime: time.Unix(1764300000, 7)}
		require.NoError(t, w.WriteHeader(h))
		io.WriteString(w, "body\n")
	}
	require.NoError(t, w.Close())
	for _, name := range []string{"u.tar", "u.tgz"} {
		data := b.Bytes()
		if name == "u.tgz" {
			data = testfs.Gzip(data)
		}
		fsys := fstest.MapFS{name: {Data: data}}
		assert.NoError(t, readMember(fsys, name, fmt.Sprintf("d/%s%d", strings.Repeat("n", 120), n-1), Limits{}), name)
		assert.NoError(t, readMember(fsys, name, "", Limits{}), name)
	}
}

// headerFloodTar returns a tar of n empty members, each after an extended
// header of payload.
func headerFloodTar(t *testing.T, n int, payload []byte) []byte {
	var b bytes.Buffer
	require.NoError(t, writePaxFlood(&b, n, payload))
	return b.Bytes()
}

// sparseTar returns a tar of n sparse files of holes holes each, as GNU
// tar --sparse --format=pax writes them (sparse format 1.0): pax records
// naming the file and its real size, then a member whose data is the map
// (the count of segments, then each segment's offset and length, a line
// each, padded to a block) and the segments' bytes, one each.
func sparseTar(n, holes int) []byte {
	var b bytes.Buffer
	for i := range n {
		name := fmt.Sprintf("d/f%04d", i)
		recs := paxRecord("GNU.sparse.major", "1") + paxRecord("GNU.sparse.minor", "0") + paxRecord("GNU.sparse.name", name) +
			paxRecord("GNU.sparse.realsize", fmt.Sprint(holes*8192)) + paxRecord("mtime", "1764300000.123456789")
		b.Write(testfs.TarHeader(tar.TypeXHeader, []byte(recs)))
		m := fmt.Sprintf("%d\n", holes)
		for h := range holes {
			m += fmt.Sprintf("%d\n1\n", h*8192+4096)
		}
		data := append([]byte(m), make([]byte, (512-len(m)%512)%512)...)
		data = append(data, bytes.Repeat([]byte("x"), holes)...)
		b.Write(testfs.TarHeader(tar.TypeReg, data))
	}
	b.Write(make([]byte, 1024))
	return b.Bytes()
}

// TestSparseMaps: the map of a sparse file, which archive/tar reads with
// its header (two lines of digits a hole), does not count against the
// bound on pax records: a tar of 300 sparse files of 300 holes each, as
// GNU tar writes them, was TOO_LARGE ("more than 131072 records").
func TestSparseMaps(t *testing.T) {
	data := sparseTar(300, 300)
	for _, name := range []string{"s.tar", "s.tgz"} {
		if name == "s.tgz" {
			data = testfs.Gzip(data)
		}
		fsys := fstest.MapFS{name: {Data: data}}
		err := readMember(fsys, name, "missing", Limits{})
		assert.Equal(t, errs.NotFound, errs.CodeOf(err), "%s: %v", name, err)
		require.NoError(t, readMember(fsys, name, "d/f0299", Limits{}), name)
		require.NoError(t, readMember(fsys, name, "", Limits{}), name)
	}
}

// TestCountRecords counts the lines that hold an '=' however the reads
// split them.
func TestCountRecords(t *testing.T) {
	tests := []struct {
		reads []string
		want  int64
	}{
		{[]string{"5 a=\n5 b=\n"}, 2},
		{[]string{"5 a", "=\n5 b=", "\n"}, 2},
		{[]string{"12 a=b=c=d\n"}, 1},
		{[]string{"3\n4096\n1\n8192\n1\n"}, 0},
		{[]string{"20 x=", "=", "=\n", "\n", "=\n"}, 2},
		{[]string{"", "no record"}, 0},
	}
	for _, tt := range tests {
		in := &tarInput{}
		n := int64(0)
		for _, r := range tt.reads {
			n += in.countRecords([]byte(r))
		}
		assert.Equal(t, tt.want, n, "%q", tt.reads)
	}
}
