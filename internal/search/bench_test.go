package search

import (
	"context"
	"io/fs"
	"math/rand"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/scoutkit/scout/internal/walk"
)

// benchRoot opens the tree the benchmarks search: $SCOUT_BENCH_ROOT when
// set (scale.sh's 16 copies of the Go tree, say), else $GOROOT/src.
func benchRoot(b *testing.B) (fs.FS, string) {
	root := os.Getenv("SCOUT_BENCH_ROOT")
	if root == "" {
		root = testfs.GoSrc(b)
	}
	if _, err := os.Stat(root); err != nil {
		b.Skipf("no tree to search: %v", err)
	}
	fsys, release, err := fsx.OpenDir(root)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(release)
	return fsys, root
}

// BenchmarkSortedWalk times the sorted walk that feeds the ordered scan
// (walkSorted over the bench tree, every file passed on in path order and
// dropped): the one goroutine that bounds an ordered search on many cores.
func BenchmarkSortedWalk(b *testing.B) {
	fsys, _ := benchRoot(b)
	for b.Loop() {
		n := 0
		err := walkSorted(context.Background(), fsys, Target{Path: "."}, walk.Options{}, Filter{}, map[string]int{}, func(file) error { n++; return nil })
		if err != nil || n == 0 {
			b.Fatal(err, n)
		}
	}
}

// BenchmarkGoroot searches the bench tree (benchRoot) as the comparison
// scripts' cases do (compare.sh, scale.sh): a literal listing files, counts
// (exhaustive: walk and search overlap), every line of a common word, and
// the first pi page of it (with hashline tags too, and of a rare word) and
// the amplifier grep's budgeted counting pass (ordered scans with early
// stop).
func BenchmarkGoroot(b *testing.B) {
	fsys, root := benchRoot(b)
	cases := []struct {
		name string
		req  Request
	}{
		{"lit-files", Request{Grep: grep.Options{Pattern: "ErrUnexpectedEOF", FirstOnly: true}, MaxFileSize: 10 << 20, MaxFiles: -1, Budget: -1}},
		{"casei-count", Request{Grep: grep.Options{Pattern: "errunexpectedeof", IgnoreCase: true, CountOnly: true}, MaxFileSize: 10 << 20, MaxFiles: -1, Budget: -1}},
		{"common-count", Request{Grep: grep.Options{Pattern: "return", CountOnly: true}, MaxFileSize: 10 << 20, MaxFiles: -1, Budget: -1, PerFile: -1, PerFileOne: -1}},
		{"nolit-count", Request{Grep: grep.Options{Pattern: "[A-Z][a-z]+[0-9]{2,}[a-z]", CountOnly: true}, MaxFileSize: 10 << 20, MaxFiles: -1, Budget: -1, PerFile: -1, PerFileOne: -1}},
		{"many-content", Request{Grep: grep.Options{Pattern: "return"}, MaxFileSize: 10 << 20, MaxFiles: -1, Budget: -1, PerFile: -1, PerFileOne: -1}},
		{"budget-count", Request{Grep: grep.Options{Pattern: "return", CountOnly: true}, MaxFileSize: 10 << 20, MaxFiles: -1, Budget: 100_000, PerFile: -1, PerFileOne: -1}},
		{"first-page", Request{Grep: grep.Options{Pattern: "return", Before: 1, After: 3, MaxColumns: 512}, PerFile: 20, PerFileOne: 200, MaxFileSize: 10 << 20, MaxFiles: 20, Budget: 2000}},
		{"first-page-tags", Request{Grep: grep.Options{Pattern: "return", Before: 1, After: 3, MaxColumns: 512}, PerFile: 20, PerFileOne: 200, MaxFileSize: 10 << 20, MaxFiles: 20, Budget: 2000, Tags: true}},
		{"rare-page-tags", Request{Grep: grep.Options{Pattern: "FileInfoToDirEntry", Before: 1, After: 3, MaxColumns: 512}, PerFile: 20, PerFileOne: 200, MaxFileSize: 10 << 20, MaxFiles: 20, Budget: 2000, Tags: true}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(context.Background(), fsys, root, c.req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCancel cancels a no-literal search of the bench tree (benchRoot)
// at random moments, uniform over the time a whole search takes (measured
// first), and reports the worst and the median time from the cancel to
// Run's return (the target is 100 ms at most), checking that Run says
// CANCELED: an exhaustive count, and one with a match budget, which takes
// the ordered scan that may stop early.
func BenchmarkCancel(b *testing.B) {
	fsys, root := benchRoot(b)
	nolit := grep.Options{Pattern: "[A-Z][a-z]+[0-9]{2,}[a-z]", CountOnly: true}
	cases := []struct {
		name string
		req  Request
	}{
		{"exhaustive", Request{Grep: nolit, MaxFileSize: -1, MaxFiles: -1, Budget: -1}},
		{"ordered", Request{Grep: nolit, MaxFileSize: -1, MaxFiles: -1, Budget: 1 << 30}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			start := time.Now()
			if _, err := Run(context.Background(), fsys, root, c.req); err != nil {
				b.Fatal(err)
			}
			whole := time.Since(start)
			r := rand.New(rand.NewSource(1))
			var lat []time.Duration
			for b.Loop() {
				ctx, cancel := context.WithCancel(context.Background())
				var at time.Time
				timer := time.AfterFunc(time.Duration(r.Int63n(int64(whole))), func() { at = time.Now(); cancel() })
				_, err := Run(ctx, fsys, root, c.req)
				done := time.Now()
				timer.Stop()
				cancel()
				if at.IsZero() {
					continue // finished before the cancel
				}
				if errs.CodeOf(err) != errs.Canceled {
					b.Fatalf("error %v, want CANCELED", err)
				}
				lat = append(lat, done.Sub(at))
			}
			if len(lat) == 0 {
				b.Skip("every search finished before its cancel")
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "worst-ms")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
		})
	}
}
