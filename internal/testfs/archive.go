package testfs

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"time"
)

// Member is one entry of an archive built by Zip, Tar or Tgz.
type Member struct {
	Name    string    // slash path; a trailing '/' makes a directory
	Body    string    // a file's content
	Link    string    // when not "", the entry is a symbolic link to Link and Body is unused
	ModTime time.Time // the entry's time; zero means none (a zip's 1980, a tar's epoch)
}

// Files returns the members of files (name to content) in name order.
func Files(files map[string]string) []Member {
	ms := make([]Member, 0, len(files))
	for _, name := range slices.Sorted(maps.Keys(files)) {
		ms = append(ms, Member{Name: name, Body: files[name]})
	}
	return ms
}

// SelfNamed returns a member per name, in the order given, each file
// holding its own name and a newline ("d/" is a directory).
func SelfNamed(names ...string) []Member {
	ms := make([]Member, len(names))
	for i, n := range names {
		ms[i] = Member{Name: n}
		if !strings.HasSuffix(n, "/") {
			ms[i].Body = n + "\n"
		}
	}
	return ms
}

// Zip returns a zip of the members in the order given: files deflated,
// directories and links stored. It panics on a name the zip writer
// refuses, a mistake in the test itself.
func Zip(ms ...Member) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, m := range ms {
		h := &zip.FileHeader{Name: m.Name, Method: zip.Deflate, Modified: m.ModTime}
		body := m.Body
		switch {
		case strings.HasSuffix(m.Name, "/"):
			h.Method, body = zip.Store, ""
		case m.Link != "":
			h.SetMode(fs.ModeSymlink | 0o777)
			h.Method, body = zip.Store, m.Link
		}
		f, err := w.CreateHeader(h)
		must(err)
		_, err = io.WriteString(f, body)
		must(err)
	}
	must(w.Close())
	return b.Bytes()
}

// Tar returns a tar of the members in the order given.
func Tar(ms ...Member) []byte {
	var b bytes.Buffer
	writeTar(&b, ms)
	return b.Bytes()
}

// Tgz returns a gzipped tar of the members in the order given.
func Tgz(ms ...Member) []byte {
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	writeTar(gz, ms)
	must(gz.Close())
	return b.Bytes()
}

// Gzip returns data gzipped.
func Gzip(data []byte) []byte {
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	_, err := gz.Write(data)
	must(err)
	must(gz.Close())
	return b.Bytes()
}

func writeTar(out io.Writer, ms []Member) {
	w := tar.NewWriter(out)
	for _, m := range ms {
		h := &tar.Header{Name: m.Name, Mode: 0o644, Size: int64(len(m.Body)), ModTime: m.ModTime, Typeflag: tar.TypeReg}
		switch {
		case strings.HasSuffix(m.Name, "/"):
			h.Typeflag, h.Mode, h.Size = tar.TypeDir, 0o755, 0
		case m.Link != "":
			h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, m.Link, 0
		}
		must(w.WriteHeader(h))
		if h.Size > 0 {
			_, err := io.WriteString(w, m.Body)
			must(err)
		}
	}
	must(w.Close())
}

func must(err error) {
	if err != nil {
		panic("testfs: " + err.Error())
	}
}

// TarHeader returns a raw tar header block of typeflag flag (a pax 'x' or
// 'g' header, a GNU 'L' or 'K' long name) followed by payload, padded to
// whole blocks: archive/tar writes no such header on its own.
func TarHeader(flag byte, payload []byte) []byte {
	blk := make([]byte, 512)
	copy(blk, "././@LongLink")
	copy(blk[100:], "0000644\x00")
	copy(blk[108:], "0000000\x00")
	copy(blk[116:], "0000000\x00")
	copy(blk[124:], fmt.Sprintf("%011o\x00", len(payload)))
	copy(blk[136:], "00000000000\x00")
	blk[156] = flag
	copy(blk[257:], "ustar\x0000")
	copy(blk[148:], "        ")
	sum := 0
	for _, c := range blk {
		sum += int(c)
	}
	copy(blk[148:], fmt.Sprintf("%06o\x00 ", sum))
	out := append(blk, payload...)
	return append(out, make([]byte, (512-len(payload)%512)%512)...)
}
