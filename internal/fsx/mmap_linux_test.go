package fsx

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"unsafe"
)

// TestMap maps a file of the OS FS of OpenDir and refuses the others.
func TestMap(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("mapped line\n"), 100000)
	if err := os.WriteFile(filepath.Join(dir, "big"), want, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "empty"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, closeFn, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	if _, ok := fsys.(*beneathFS); !ok {
		t.Skip("openat2 unavailable: files of the os.Root fallback are read, not mapped")
	}
	f, err := OpenRegular(fsys, "big")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Map(f)
	f.Close() // the mapping outlives the descriptor
	if err != nil {
		t.Fatalf("Map: %v", err)
	}
	if !bytes.Equal(m.Data, want) {
		t.Fatalf("mapped %d bytes, not the file's %d", len(m.Data), len(want))
	}
	if err := m.Close(); err != nil || m.Data != nil {
		t.Fatalf("Close: %v, Data %d bytes", err, len(m.Data))
	}
	if err := m.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}

	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range []struct {
		what, name string
		fsys       fs.FS
	}{
		{"an empty file", "empty", fsys},
		{"a file of an fstest.MapFS", "big", fstest.MapFS{"big": {Data: want}}},
		{"a file of the os.Root fallback", "big", &rootFS{FS: r.FS(), dir: dir}},
	} {
		f, err := OpenRegular(c.fsys, c.name)
		if err != nil {
			t.Fatal(err)
		}
		if m, err := Map(f); !errors.Is(err, ErrNoMap) {
			t.Errorf("%s: Map = %v, %v; want ErrNoMap", c.what, m, err)
		}
		f.Close()
	}
}

// TestMapDrop checks that Drop takes the pages read from the process's
// resident memory, a step at a time.
func TestMapDrop(t *testing.T) {
	dir := t.TempDir()
	size := 4 * dropStep
	if err := os.WriteFile(filepath.Join(dir, "big"), bytes.Repeat([]byte{'x'}, size), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, closeFn, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	f, err := OpenRegular(fsys, "big")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := Map(f)
	if errors.Is(err, ErrNoMap) {
		t.Skip("not mapped here:", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sum := 0
	for i := 0; i < len(m.Data); i += 4096 {
		sum += int(m.Data[i])
	}
	if sum != 'x'*size/4096 {
		t.Fatal("bad data")
	}
	if rss := mappingRSS(t, m.Data); rss < size/2 {
		t.Skipf("only %d of %d bytes resident after reading them all: cannot tell what Drop releases", rss, size)
	}
	m.Drop(dropStep - 1) // less than a step: nothing
	if rss := mappingRSS(t, m.Data); rss < size-dropStep/2 {
		t.Errorf("after Drop of less than a step: %d bytes resident, want about %d", rss, size)
	}
	m.Drop(3*dropStep + 100)
	if rss := mappingRSS(t, m.Data); rss > dropStep {
		t.Errorf("after Drop of three steps: %d bytes resident, want at most %d", rss, dropStep)
	}
}

// mappingRSS returns the resident bytes of the mapping that starts at
// b's first byte, from /proc/self/smaps.
func mappingRSS(t *testing.T, b []byte) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	start := fmt.Sprintf("%x-", uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) == 0:
		case !strings.HasSuffix(fields[0], ":"): // a mapping's header: start-end perms ...
			in = strings.HasPrefix(fields[0], start)
		case in && fields[0] == "Rss:" && len(fields) == 3:
			kb, err := strconv.Atoi(fields[1])
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Skip("mapping not found in /proc/self/smaps")
	return 0
}

// TestMapPays checks that Mapping.Pays reads what it measures (the
// mapping's first bytes not dropped), and says false, without a fault,
// where it cannot tell: an empty buffer, a file truncated under its
// mapping.
func TestMapPays(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("line\n"), (dropStep+64<<10)/5)
	mapped := func(name string) *Mapping {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		fsys, closeFn, err := OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { closeFn() })
		f, err := OpenRegular(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		m, err := Map(f)
		if errors.Is(err, ErrNoMap) {
			t.Skip("not mapped here:", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close() })
		return m
	}

	m := mapped("file")
	buf := make([]byte, 128<<10)
	pays := m.Pays(buf)
	if !bytes.Equal(buf, data[:len(buf)]) {
		t.Error("Pays did not read the bytes it measured into buf")
	}
	t.Logf("mapping a file of %d bytes pays here: %v", len(data), pays)
	if m.Pays(nil) {
		t.Error("Pays with an empty buffer: true")
	}
	m.Drop(dropStep)
	clear(buf)
	m.Pays(buf)
	if rest := data[dropStep:]; !bytes.Equal(buf[:len(rest)], rest) {
		t.Error("Pays after Drop did not read the bytes not dropped into buf")
	}

	shrunk := mapped("shrunk")
	if err := os.Truncate(filepath.Join(dir, "shrunk"), 0); err != nil {
		t.Fatal(err)
	}
	if shrunk.Pays(buf) {
		t.Error("Pays of a file truncated under its mapping: true")
	}
}

// TestAnon: Anon gives n zeroed, writable bytes outside the Go heap, and
// nothing for n <= 0.
func TestAnon(t *testing.T) {
	for _, n := range []int{0, -1} {
		if b := Anon(n); b != nil {
			t.Errorf("Anon(%d) = %d bytes, want nil", n, len(b))
		}
	}
	const n = 3<<20 + 5 // not a whole number of pages
	b := Anon(n)
	if len(b) != n || cap(b) != n {
		t.Fatalf("Anon(%d): len %d cap %d", n, len(b), cap(b))
	}
	if i := bytes.IndexFunc(b, func(r rune) bool { return r != 0 }); i >= 0 {
		t.Errorf("byte %d is not zero", i)
	}
	for i := range b {
		b[i] = byte(i)
	}
	if want := byte((n - 1) % 256); b[n-1] != want {
		t.Errorf("last byte %d, want %d", b[n-1], want)
	}
	FreeAnon(b[:10]) // any slice of it that starts where it starts
}
