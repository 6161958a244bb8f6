package archive

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/testfs"
)

// paxRecords returns pax records of about size bytes made by rec(i) for
// i = 0, 1, ...
func paxRecords(size int, rec func(i int) (k, v string)) []byte {
	var b []byte
	for i := 0; ; i++ {
		k, v := rec(i)
		r := paxRecord(k, v)
		if len(b)+len(r) > size {
			return b
		}
		b = append(b, r...)
	}
}

// paxRecord formats one pax record.
func paxRecord(k, v string) string {
	n := len(k) + len(v) + 3
	n += len(strconv.Itoa(n))
	if len(strconv.Itoa(n)) != len(strconv.Itoa(n-1)) {
		n++
	}
	return fmt.Sprintf("%d %s=%s\n", n, k, v)
}

// paxFloods are the per-entry pax payloads of the flood benchmarks, each
// at most 1 KiB: with its header block and the entry's, 2 KiB an entry.
var paxFloods = map[string][]byte{
	"keys":    paxRecords(1024, func(i int) (string, string) { return strconv.FormatInt(int64(i)+36, 36), "1" }),
	"comment": paxRecords(1024, func(int) (string, string) { return "comment", "x" }),
	"xattr":   paxRecords(1024, func(i int) (string, string) { return "SCHILY.xattr." + strconv.FormatInt(int64(i), 36), "1" }),
	"tiny":    paxRecords(1024, func(int) (string, string) { return "a", "" }),
	// what GNU tar --format=posix writes for each entry
	"gnu": []byte(paxRecord("atime", "1764300000.123456789") + paxRecord("ctime", "1764300000.123456789") + paxRecord("mtime", "1764300000.123456789")),
}

// writePaxFlood writes a tar of n empty members, each after a pax header
// of payload.
func writePaxFlood(w io.Writer, n int, payload []byte) error {
	x := testfs.TarHeader(tar.TypeXHeader, payload)
	tw := tar.NewWriter(w)
	for i := range n {
		if _, err := w.Write(x); err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: fmt.Sprintf("d%03d/f%07d", i%1000, i), Mode: 0o644, Typeflag: tar.TypeReg, Format: tar.FormatUSTAR}); err != nil {
			return err
		}
	}
	return tw.Close()
}

// cpuTime returns the CPU time the process has used, user and system, in
// nanoseconds: on a busy machine a pass's wall time says little.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkTarPaxFlood reads a missing member of a .tar.gz of 200,000
// empty members, each after a pax header of 1 KiB of tiny records (what
// the header bound lets through), or of GNU tar's usual records.
func BenchmarkTarPaxFlood(b *testing.B) {
	dir := os.Getenv("SCOUT_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	const n = DefaultMaxEntries
	kinds := []string{"gnu", "tiny", "comment", "keys", "xattr", "keys32", "xattr32"}
	if k := os.Getenv("SCOUT_BENCH_PAX"); k != "" {
		kinds = strings.Split(k, ",")
	}
	for _, kind := range kinds {
		name := "paxflood-" + kind + ".tgz"
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); err != nil {
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			bw := bufio.NewWriterSize(f, 1<<20)
			zw, _ := gzip.NewWriterLevel(bw, gzip.BestCompression)
			if err := writePaxFlood(zw, n, paxFloods[kind]); err != nil {
				b.Fatal(err)
			}
			zw.Close()
			bw.Flush()
			f.Close()
		}
		fsys, release, err := fsx.OpenDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		for _, bound := range []string{"before", "after"} {
			b.Run(kind+"/"+bound, func(b *testing.B) {
				if bound == "before" {
					defer func(n int64) { maxTarRecords = n }(maxTarRecords)
					maxTarRecords = 1 << 62
				}
				cpu, refused := cpuTime(), 0.0
				for b.Loop() {
					a, err := Open(ctx, fsys, name, Limits{})
					if err != nil {
						b.Fatal(err)
					}
					_, err = a.Lookup(ctx, "missing")
					if c := errs.CodeOf(err); c != errs.NotFound && c != errs.TooLarge {
						b.Fatalf("%s: %v", kind, err)
					} else if c == errs.TooLarge {
						refused = 1
					}
					a.Close()
				}
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e9, "cpu-s/op")
				b.ReportMetric(refused, "refused")
			})
		}
		release()
	}
}
