package tool

import (
	"context"
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// findTree is a random tree for the find walks: files ending in ".txt"
// (no directory does) whose modification times are drawn from a few, so
// that most tie, and the naive answers in each order.
type findTree struct {
	fs     fstest.MapFS
	newest []string // newest first, then byte-wise path order
	byPath []string // byte-wise path order
	tree   []string // a sorted top-down walk's order
}

func newFindTree(seed int64) findTree {
	r := rand.New(rand.NewSource(seed))
	base := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	times := 1 + r.Intn(4) // 1: every file ties
	ft := findTree{fs: fstest.MapFS{}}
	mtime := map[string]time.Time{}
	for _, p := range testfs.PathOrderTree(seed, 3) {
		p += ".txt"
		mt := base.Add(time.Duration(r.Intn(times)) * time.Hour)
		ft.fs[p] = &fstest.MapFile{Data: []byte(p), ModTime: mt}
		mtime[p] = mt
		ft.byPath = append(ft.byPath, p)
	}
	slices.Sort(ft.byPath)
	ft.newest = slices.Clone(ft.byPath)
	slices.SortStableFunc(ft.newest, func(a, b string) int { return mtime[b].Compare(mtime[a]) })
	ft.tree = slices.Clone(ft.byPath)
	slices.SortFunc(ft.tree, func(a, b string) int {
		da, db := strings.Count(a, "/"), strings.Count(b, "/")
		// Below the common directory, a file of it comes before the
		// contents of its subdirectories.
		pa, pb := strings.Split(a, "/"), strings.Split(b, "/")
		for i := 0; ; i++ {
			switch {
			case i == da && i == db:
				return strings.Compare(pa[i], pb[i])
			case i == da:
				return -1
			case i == db:
				return 1
			case pa[i] != pb[i]:
				return strings.Compare(pa[i], pb[i])
			}
		}
	})
	return ft
}

var findLimitHint = regexp.MustCompile(`Use limit=(\d+) for more`)

// TestFollowPiFindLimit follows pi find's "Use limit=N for more" from
// small limits over random trees whose files mostly share a modification
// time, as MapFS and as a directory: each result goes on from the last
// (the same paths first, in the same order: ties are ordered by path,
// never by the walk), the hint never passes the maximum of 200, and the
// last result is the naive newest-first list, cut at 200.
func TestFollowPiFindLimit(t *testing.T) {
	for seed := range int64(16) {
		ft := newFindTree(seed)
		for _, tr := range testfs.Trees(t, ft.fs) {
			c := Config{FS: tr.FS, Root: tr.Root}
			limit := 1 + int(seed)%5
			t.Run(fmt.Sprintf("seed%d/%s/limit%d", seed, tr.Name, limit), func(t *testing.T) {
				var prev []string
				for step := 0; ; step++ {
					if step > followMaxSteps {
						t.Fatalf("no end after %d steps", step)
					}
					env := followCall(t, c, Pi, "find", map[string]any{"paths": []string{"**/*.txt"}, "limit": limit})
					var d piFindData
					decodeData(t, env, &d)
					if len(d.Files) > limit {
						t.Fatalf("limit %d: %d files", limit, len(d.Files))
					}
					if !slices.Equal(d.Files[:len(prev)], prev) {
						t.Fatalf("limit %d does not go on from the last result:\n got %q\nlast %q", limit, d.Files, prev)
					}
					if want := ft.newest[:len(d.Files)]; !slices.Equal(d.Files, want) {
						t.Fatalf("limit %d: not newest first, then by path:\n got %q\nwant %q", limit, d.Files, want)
					}
					for _, p := range d.Files {
						if !strings.Contains(env.Text, p[strings.LastIndexByte(p, '/')+1:]) {
							t.Errorf("limit %d: %s is in the data, not in the text", limit, p)
						}
					}
					prev = d.Files
					m := findLimitHint.FindStringSubmatch(env.Text)
					if m == nil {
						if want := min(len(ft.newest), piFindMaxLimit); len(d.Files) != want {
							t.Errorf("limit %d: %d of %d files with no hint to go on:\n%s", limit, len(d.Files), len(ft.newest), tail(env.Text))
						}
						break
					}
					next, _ := strconv.Atoi(m[1])
					if next <= limit || next > piFindMaxLimit || len(d.Files) < limit {
						t.Fatalf("limit %d, %d files: the hint says limit=%d", limit, len(d.Files), next)
					}
					limit = next
				}
			})
		}
	}
}

// TestFollowFinderLimit checks that a Finder's result at each limit is the
// head of its result without a limit, in each order, over random trees
// whose files mostly share a modification time: a caller that raises the
// limit sees the same entries first, and Matched counts them all.
func TestFollowFinderLimit(t *testing.T) {
	for seed := range int64(16) {
		ft := newFindTree(seed)
		for _, tr := range testfs.Trees(t, ft.fs) {
			f := &scout.Finder{Workspace: scout.Workspace{FS: tr.FS, Root: tr.Root}}
			for order, want := range map[scout.FindOrder][]string{scout.NewestFirst: ft.newest, scout.ByPath: ft.byPath, scout.TreeOrder: ft.tree} {
				t.Run(fmt.Sprintf("seed%d/%s/%s", seed, tr.Name, order), func(t *testing.T) {
					for limit := 1; ; limit = limit*2 + 1 {
						res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"**/*.txt"}, Order: order, Limit: limit})
						if err != nil {
							t.Fatal(err)
						}
						got := make([]string, len(res.Entries))
						for i, e := range res.Entries {
							got[i] = e.Path
						}
						if n := min(limit, len(want)); !slices.Equal(got, want[:n]) {
							t.Fatalf("limit %d:\n got %q\nwant %q", limit, got, want[:n])
						}
						if res.Matched != len(want) {
							t.Errorf("limit %d: Matched %d, want %d", limit, res.Matched, len(want))
						}
						if (res.Truncated == scout.TruncLimit) != (limit < len(want)) {
							t.Errorf("limit %d of %d: Truncated %q", limit, len(want), res.Truncated)
						}
						if limit >= len(want) {
							break
						}
					}
				})
			}
		}
	}
}

// TestFollowGlobLimits checks the globs that do not page (amplifier glob,
// at most 100 newest; standardized Glob, at most limit in walk order)
// against the naive answers: the matches shown are the head of the full
// list, and the total the notice gives is the full count.
func TestFollowGlobLimits(t *testing.T) {
	for seed := range int64(12) {
		ft := newFindTree(seed)
		for _, tr := range testfs.Trees(t, ft.fs) {
			c := Config{FS: tr.FS, Root: tr.Root}
			t.Run(fmt.Sprintf("seed%d/%s", seed, tr.Name), func(t *testing.T) {
				env := followCall(t, c, Amplifier, "glob", map[string]any{"pattern": "**/*.txt"})
				var ad struct {
					Matches []struct {
						Path string `json:"path"`
					} `json:"matches"`
				}
				decodeData(t, env, &ad)
				var got []string
				for _, m := range ad.Matches {
					got = append(got, m.Path)
				}
				if n := min(len(ft.newest), ampGlobLimit); !slices.Equal(got, ft.newest[:n]) {
					t.Errorf("amplifier glob:\n got %q\nwant %q", got, ft.newest[:n])
				}
				if len(ft.newest) > ampGlobLimit && !strings.Contains(env.Text, fmt.Sprintf("of %d matches", len(ft.newest))) {
					t.Errorf("amplifier glob: the notice does not count %d matches:\n%s", len(ft.newest), tail(env.Text))
				}
				limit := 1 + int(seed)*7
				env = followCall(t, c, Standardized, "Glob", map[string]any{"pattern": "**/*.txt", "limit": limit})
				var sd stdGlobData
				decodeData(t, env, &sd)
				if n := min(len(ft.tree), limit); !slices.Equal(sd.Paths, ft.tree[:n]) || sd.Truncated != (n < len(ft.tree)) {
					t.Errorf("Glob limit %d (truncated %v):\n got %q\nwant %q", limit, sd.Truncated, sd.Paths, ft.tree[:n])
				}
				if len(ft.tree) > limit && !strings.Contains(env.Text, fmt.Sprintf("of %d matches", len(ft.tree))) {
					t.Errorf("Glob limit %d: the notice does not count %d matches:\n%s", limit, len(ft.tree), tail(env.Text))
				}
			})
		}
	}
}
