package archive

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/testfs"
)

// peakRSS returns the process's peak resident memory in bytes from
// /proc/self/status, or 0 where that is not available.
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for l := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb * 1024
		}
	}
	return 0
}

// BenchmarkZipListAndReadLast lists the root of a 100,000-entry zip and
// reads its last member, as `unzip -l big.zip` + `unzip -p big.zip LAST`
// would. SCOUT_BENCH_DIR keeps the fixture between runs.
func BenchmarkZipListAndReadLast(b *testing.B) {
	dir := os.Getenv("SCOUT_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	path := filepath.Join(dir, "big.zip")
	const n = 100_000
	if _, err := os.Stat(path); err != nil {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		bw := bufio.NewWriter(f)
		w := zip.NewWriter(bw)
		for i := range n {
			m, err := w.Create(fmt.Sprintf("d%02d/file%06d.txt", i%50, i))
			if err != nil {
				b.Fatal(err)
			}
			fmt.Fprintf(m, "line one of %d\nline two\n", i)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		bw.Flush()
		f.Close()
	}
	fsys, closeFn, err := fsx.OpenDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer closeFn()
	last := fmt.Sprintf("d%02d/file%06d.txt", (n-1)%50, n-1)
	ctx := context.Background()
	for b.Loop() {
		a, err := Open(ctx, fsys, "big.zip", Limits{})
		if err != nil {
			b.Fatal(err)
		}
		dirIt, err := a.Lookup(ctx, "d07")
		if err != nil || len(dirIt.Children) != n/50 {
			b.Fatalf("listing: %v", err)
		}
		it, err := a.Lookup(ctx, last)
		if err != nil {
			b.Fatal(err)
		}
		if s, err := it.Text(0); err != nil || !strings.HasPrefix(s, "line one of 99999") {
			b.Fatalf("last member: %q %v", s, err)
		}
		it.Close()
		a.Close()
	}
	b.ReportMetric(peakRSS()/(1<<20), "peakRSS-MB")
}

// BenchmarkTgzStreamMember streams one large member out of a .tar.gz
// (SCOUT_BENCH_TGZ_MB megabytes, 64 by default; 1024 for the 1 GB case)
// and reports the peak resident memory, which must not grow with it.
func BenchmarkTgzStreamMember(b *testing.B) {
	mb, _ := strconv.Atoi(os.Getenv("SCOUT_BENCH_TGZ_MB"))
	if mb <= 0 {
		mb = 64
	}
	dir := os.Getenv("SCOUT_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	name := fmt.Sprintf("big%d.tgz", mb)
	path := filepath.Join(dir, name)
	size := int64(mb) << 20
	if _, err := os.Stat(path); err != nil {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
		tw := tar.NewWriter(zw)
		tw.WriteHeader(&tar.Header{Name: "small.txt", Mode: 0o644, Size: 3, Typeflag: tar.TypeReg})
		io.WriteString(tw, "hi\n")
		tw.WriteHeader(&tar.Header{Name: "logs/big.log", Mode: 0o644, Size: size, Typeflag: tar.TypeReg})
		line := []byte("2026-11-22T05:00:00Z INFO request served in 12ms path=/api/v1/items status=200\n")
		var written int64
		for written < size {
			chunk := line
			if rest := size - written; rest < int64(len(chunk)) {
				chunk = chunk[:rest]
			}
			tw.Write(chunk)
			written += int64(len(chunk))
		}
		tw.Close()
		zw.Close()
		f.Close()
	}
	fsys, closeFn, err := fsx.OpenDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer closeFn()
	ctx := context.Background()
	b.SetBytes(size)
	for b.Loop() {
		a, err := Open(ctx, fsys, name, Limits{})
		if err != nil {
			b.Fatal(err)
		}
		it, err := a.Lookup(ctx, "logs/big.log")
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, it.Body())
		if err != nil || n != size {
			b.Fatalf("streamed %d of %d: %v", n, size, err)
		}
		it.Close()
		a.Close()
	}
	b.ReportMetric(peakRSS()/(1<<20), "peakRSS-MB")
}

// BenchmarkTarMillionEntries lists a .tar.gz of 1,000,000 empty files with
// the default limits: the scan stops at DefaultMaxEntries with TOO_LARGE.
func BenchmarkTarMillionEntries(b *testing.B) {
	dir := os.Getenv("SCOUT_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	path := filepath.Join(dir, "million.tgz")
	if _, err := os.Stat(path); err != nil {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
		tw := tar.NewWriter(zw)
		for i := range 1_000_000 {
			tw.WriteHeader(&tar.Header{Name: fmt.Sprintf("d%03d/f%07d", i%1000, i), Mode: 0o644, Typeflag: tar.TypeReg})
		}
		tw.Close()
		zw.Close()
		f.Close()
	}
	fsys, closeFn, err := fsx.OpenDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer closeFn()
	ctx := context.Background()
	for b.Loop() {
		a, err := Open(ctx, fsys, "million.tgz", Limits{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := a.Lookup(ctx, ""); errs.CodeOf(err) != errs.TooLarge {
			b.Fatalf("a million entries: %v", err)
		}
		a.Close()
	}
	b.ReportMetric(peakRSS()/(1<<20), "peakRSS-MB")
}

// BenchmarkTarOpenLookup opens a small and a larger .tar and .tar.gz in
// a temp dir and lists the root (Open, then Lookup), or opens it alone
// (what Open costs of a listing).
func BenchmarkTarOpenLookup(b *testing.B) {
	dir := b.TempDir()
	sizes := map[string]int{"small": 5, "large": 2000}
	for size, n := range sizes {
		files := map[string]string{}
		for i := range n {
			files[fmt.Sprintf("d%02d/f%05d.txt", i%20, i)] = strings.Repeat(fmt.Sprintf("line %d of a member\n", i), 20)
		}
		for _, gz := range []bool{false, true} {
			name := size + ".tar"
			if gz {
				name += ".gz"
			}
			if err := os.WriteFile(filepath.Join(dir, name), buildTar(testfs.Files(files), gz), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	fsys, release, err := fsx.OpenDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer release()
	ctx := context.Background()
	for _, size := range []string{"small", "large"} {
		for _, name := range []string{size + ".tar", size + ".tar.gz"} {
			for _, lookup := range []bool{false, true} {
				what := "open"
				if lookup {
					what = "open+lookup"
				}
				b.Run(name+"/"+what, func(b *testing.B) {
					for b.Loop() {
						a, err := Open(ctx, fsys, name, Limits{})
						if err != nil {
							b.Fatal(err)
						}
						if lookup {
							if it, err := a.Lookup(ctx, ""); err != nil || len(it.Children) != min(sizes[size], 20) {
								b.Fatal(err)
							}
						}
						a.Close()
					}
				})
			}
		}
	}
}
