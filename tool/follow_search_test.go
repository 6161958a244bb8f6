package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"

	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// These tests follow every continuation hint a paging tool gives, until
// it says the result is complete, over seeded random trees: each step
// must make progress, no item may be shown twice or left out, and the
// pages joined must be what a naive reference finds.

// followMaxSteps bounds the hints followed in one walk: a hint that does
// not make progress fails the test rather than looping.
const followMaxSteps = 2000

// followCall calls a tool of c with args and fails the test on an error
// envelope.
func followCall(t *testing.T, c Config, toolset, name string, args any) *scout.Envelope {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	env := Call(context.Background(), c, toolset, name, raw)
	if env.Status == "error" {
		t.Fatalf("%s %s: %s", name, raw, env.Text)
	}
	return env
}

// decodeData decodes env's data into v.
func decodeData(t *testing.T, env *scout.Envelope, v any) {
	t.Helper()
	raw, err := json.Marshal(env.Data)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("data %s: %v", raw, err)
	}
}

// searchTree is a random tree for the search walks: files named to sort
// around '/', each holding a random number of lines of which some match
// "needle", some lines far over the 512-character cut, and the naive
// answer: the matching files in byte-wise path order with their matching
// line counts.
type searchTree struct {
	fs      fstest.MapFS
	files   []string         // the matching files, in path order
	lines   map[string]int   // matching lines per matching file
	hits    map[string][]int // the numbers of the matching lines per matching file
	total   int              // matching lines over all files
	longest int              // the longest line in bytes
}

func newSearchTree(seed int64, maxFiles int) searchTree {
	r := rand.New(rand.NewSource(seed))
	paths := testfs.PathOrderTree(seed, 3)
	if len(paths) > maxFiles {
		paths = paths[:maxFiles]
	}
	st := searchTree{fs: fstest.MapFS{}, lines: map[string]int{}, hits: map[string][]int{}}
	// Some seeds make many matches per file, some long lines, some
	// both: the caps of a page (20 files, 20 lines a file, 2000 lines,
	// 50 KB of text) are each reached by some.
	dense := r.Intn(3)
	long := r.Intn(3)
	huge := seed%4 == 3 // every line long, most matching: the byte caps cut the first file of a page
	if huge {
		dense, long = 3, 6
	}
	for _, p := range paths {
		var b strings.Builder
		n, hits := r.Intn(60), 0
		for i := range n {
			line := "line " + strconv.Itoa(i)
			if r.Intn(4) < dense {
				line = "a needle " + line
				hits++
				st.hits[p] = append(st.hits[p], i+1)
			}
			if r.Intn(6) < long {
				line += strings.Repeat("x", r.Intn(3000))
				if huge {
					line += strings.Repeat("y", 2000)
				}
			}
			st.longest = max(st.longest, len(line))
			b.WriteString(line + "\n")
		}
		st.fs[p] = &fstest.MapFile{Data: []byte(b.String())}
		if hits > 0 {
			st.files = append(st.files, p)
			st.lines[p] = hits
			st.total += hits
		}
	}
	slices.Sort(st.files) // byte-wise, as the search orders them
	return st
}

// zipped returns a tree of one archive, z.zip, holding st's files under
// m/, and the matching members as a search of z.zip names them.
func (st searchTree) zipped() searchTree {
	z := searchTree{fs: fstest.MapFS{}}
	var members []testfs.Member
	for p, f := range st.fs {
		members = append(members, testfs.Member{Name: "m/" + p, Body: string(f.Data)})
	}
	slices.SortFunc(members, func(a, b testfs.Member) int { return strings.Compare(a.Name, b.Name) })
	for _, p := range st.files {
		z.files = append(z.files, "z.zip:m/"+p)
	}
	z.fs["z.zip"] = &fstest.MapFile{Data: testfs.Zip(members...)}
	return z
}

var (
	skipHint   = regexp.MustCompile(`skip=(\d+)`)
	pageNotice = regexp.MustCompile(`Showing files (\d+)-(\d+) of (at least )?(\d+)\.`)
)

// TestFollowPiSearchPages follows pi search's skip hints (the page notice,
// and the byte cap's "use skip=N to continue from ...") over random trees,
// as MapFS and as a directory, with and without context lines: the files
// each page consumes (those before the next skip, all of the last page)
// are shown in its text with every matching line, and joined they are the
// matching files in path order, each once.
func TestFollowPiSearchPages(t *testing.T) {
	seen := map[string]int{}
	defer func() {
		for _, k := range piSearchHints[:2] {
			if seen[k] == 0 {
				t.Errorf("no page said %q: the fixtures no longer test that hint (%v)", k, seen)
			}
		}
	}()
	for seed := range int64(8) {
		st := newSearchTree(seed, 90)
		for _, tr := range testfs.Trees(t, st.fs) {
			for _, ctxLines := range [][2]int{{-1, -1}, {0, 0}, {3, 5}} {
				t.Run(fmt.Sprintf("seed%d/%s/context%d", seed, tr.Name, ctxLines[1]), func(t *testing.T) {
					c := Config{FS: tr.FS, Root: tr.Root, ContextBefore: ctxLines[0], ContextAfter: ctxLines[1]}
					followPiSearch(t, c, st, seen)
				})
			}
		}
		// The same files as the text members of an archive.
		z := st.zipped()
		for _, tr := range testfs.Trees(t, z.fs) {
			// No context lines for even seeds, 3 and 5 for odd ones.
			ctxLines := [2]int{int(seed%2)*4 - 1, int(seed%2)*6 - 1}
			t.Run(fmt.Sprintf("seed%d/%s/zip/context%d", seed, tr.Name, ctxLines[1]), func(t *testing.T) {
				c := Config{FS: tr.FS, Root: tr.Root, ContextBefore: ctxLines[0], ContextAfter: ctxLines[1]}
				followPiSearchIn(t, c, "z.zip", z, seen)
			})
		}
	}
}

// TestFollowPiSearchWideFiles follows pi search's hints over files whose
// sections alone outgrow the 50 KB text cap (20 sparse matches, each with
// its context, on lines cut at 512 characters): a page cut in its first
// file must still say how to reach the files after it.
func TestFollowPiSearchWideFiles(t *testing.T) {
	long := strings.Repeat("z", 700)
	wide := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i%9 == 4 {
				b.WriteString("needle ")
			}
			b.WriteString(long + "\n")
		}
		return b.String()
	}
	st := searchTree{fs: fstest.MapFS{}, lines: map[string]int{}}
	seen := map[string]int{}
	for i := range 45 {
		p := fmt.Sprintf("d/f%02d.txt", i)
		body := "needle\n"
		if i%7 == 0 {
			body = wide(300)
		}
		st.fs[p] = &fstest.MapFile{Data: []byte(body)}
		st.files = append(st.files, p)
	}
	for _, tr := range testfs.Trees(t, st.fs) {
		for _, ctxLines := range [][2]int{{0, 0}, {3, 5}} {
			t.Run(fmt.Sprintf("%s/context%d", tr.Name, ctxLines[1]), func(t *testing.T) {
				followPiSearch(t, Config{FS: tr.FS, Root: tr.Root, ContextBefore: ctxLines[0], ContextAfter: ctxLines[1]}, st, seen)
			})
		}
	}
	if seen["to see the rest of"] == 0 {
		t.Errorf("no page was cut in its first file: the fixture no longer tests that hint (%v)", seen)
	}
}

// piSearchHints are the continuation hints of pi search's text, counted
// by followPiSearch in seen.
var piSearchHints = []string{"Showing files", "to continue from", "to see the rest of"}

// followPiSearch follows the hints of pi search over st, counting in seen
// the kinds of hint (piSearchHints) it met.
func followPiSearch(t *testing.T, c Config, st searchTree, seen map[string]int) {
	followPiSearchIn(t, c, ".", st, seen)
}

// followPiSearchIn is followPiSearch of paths.
func followPiSearchIn(t *testing.T, c Config, paths string, st searchTree, seen map[string]int) {
	var got []string
	skip := 0
	for step := 0; ; step++ {
		if step > followMaxSteps {
			t.Fatalf("no end after %d pages", step)
		}
		env := followCall(t, c, Pi, "search", map[string]any{"pattern": "needle", "paths": paths, "skip": skip})
		var d piSearchData
		decodeData(t, env, &d)
		sections := piSections(env.Text)
		for _, k := range piSearchHints {
			if strings.Contains(env.Text, k) {
				seen[k]++
			}
		}
		next := -1
		if m := skipHint.FindAllStringSubmatch(env.Text, -1); m != nil {
			next, _ = strconv.Atoi(m[len(m)-1][1])
			for _, o := range m {
				if o[1] != m[0][1] {
					t.Fatalf("skip=%d: two different skips in one text:\n%s", skip, tail(env.Text))
				}
			}
		}
		if m := pageNotice.FindStringSubmatch(env.Text); m != nil {
			from, _ := strconv.Atoi(m[1])
			to, _ := strconv.Atoi(m[2])
			total, _ := strconv.Atoi(m[4])
			if from != skip+1 || to != skip+len(d.Files) {
				t.Errorf("skip=%d: notice %q, page of %d files", skip, m[0], len(d.Files))
			}
			if m[3] == "" && total != len(st.files) {
				t.Errorf("skip=%d: notice says %d files, %d match", skip, total, len(st.files))
			}
			if m[3] != "" && total > len(st.files) {
				t.Errorf("skip=%d: notice says at least %d files, %d match", skip, total, len(st.files))
			}
		}
		consumed := d.Files
		if next >= 0 {
			if next <= skip || next > skip+len(d.Files) {
				t.Fatalf("skip=%d: the hint says skip=%d with %d files on the page:\n%s", skip, next, len(d.Files), tail(env.Text))
			}
			consumed = d.Files[:next-skip]
		} else if strings.Contains(env.Text, "narrow paths or pattern to see the rest") && skip+len(d.Files) < len(st.files) {
			t.Errorf("skip=%d: the text is cut with no skip to go on with, and files %d-%d of %d are not shown\n%s",
				skip, skip+1, len(st.files), len(st.files), tail(env.Text))
		}
		for i, p := range consumed {
			n, ok := sections[p]
			if !ok {
				t.Errorf("skip=%d: page file %d (%s) is not in the text, and the next skip passes it", skip, skip+i+1, p)
			}
			// A page cut in its first file names it, to be searched alone.
			if want := d.FileMatches[i].Count; ok && n != want && !strings.Contains(env.Text, "to see the rest of "+p+",") {
				t.Errorf("skip=%d: %s shows %d matching lines, data says %d", skip, p, n, want)
			}
		}
		got = append(got, consumed...)
		if next < 0 {
			break
		}
		skip = next
	}
	if !slices.Equal(got, st.files) {
		t.Errorf("pages joined: %d files, want %d\n got %q\nwant %q", len(got), len(st.files), got, st.files)
	}
}

// piSections maps each "# path" heading of a pi search text to the
// number of matching lines ('*') under it.
func piSections(text string) map[string]int {
	out := map[string]int{}
	for _, block := range strings.Split(text, "\n\n") {
		head, body, _ := strings.Cut(block, "\n")
		name, ok := strings.CutPrefix(head, "# ")
		if !ok {
			continue
		}
		if i := strings.LastIndexByte(name, '#'); i >= 0 {
			name = name[:i]
		}
		out[name] = strings.Count("\n"+body, "\n*")
	}
	return out
}

// tail is the end of a text, for failure messages.
func tail(s string) string {
	if len(s) > 600 {
		return "…" + s[len(s)-600:]
	}
	return s
}

// TestFollowSearchNextSkip follows SearchResult.NextSkip of the Go API
// with small pages and budgets, over random trees: the pages joined are
// the files of one exhaustive search, in order, each once; TotalFiles is
// exact unless the budget cut the scan (then a lower bound); and each
// page's files hold the lines the exhaustive search found (up to the
// per-file cap).
func TestFollowSearchNextSkip(t *testing.T) {
	for seed := range int64(10) {
		st := newSearchTree(seed, 120)
		for _, tr := range testfs.Trees(t, st.fs) {
			s := &scout.Searcher{Workspace: scout.Workspace{FS: tr.FS, Root: tr.Root}}
			all, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "needle", MaxFiles: -1, MaxMatches: -1, MaxMatchesPerFile: -1})
			if err != nil {
				t.Fatal(err)
			}
			if all.NextSkip != 0 || all.Truncated != "" || len(all.Files) != len(st.files) {
				t.Fatalf("seed %d: exhaustive search: %d files, next %d, truncated %q; want %d files", seed, len(all.Files), all.NextSkip, all.Truncated, len(st.files))
			}
			r := rand.New(rand.NewSource(seed))
			for _, mode := range []scout.SearchMode{scout.SearchContent, scout.SearchFiles, scout.SearchCount} {
				req := scout.SearchRequest{Pattern: "needle", Mode: mode, MaxFiles: 1 + r.Intn(7), MaxMatches: r.Intn(40) - 1, MaxMatchesPerFile: r.Intn(5) - 1, Before: r.Intn(3), After: r.Intn(3)}
				t.Run(fmt.Sprintf("seed%d/%s/%s/files%d/budget%d", seed, tr.Name, mode, req.MaxFiles, req.MaxMatches), func(t *testing.T) {
					var got []string
					for step := 0; ; step++ {
						if step > followMaxSteps {
							t.Fatalf("no end after %d pages", step)
						}
						res, err := s.Search(context.Background(), req)
						if err != nil {
							t.Fatal(err)
						}
						if res.Skip != req.Skip {
							t.Errorf("skip %d: result says skip %d", req.Skip, res.Skip)
						}
						switch {
						case res.Truncated == scout.TruncBudget && res.TotalFiles > len(st.files):
							t.Errorf("skip %d: TotalFiles %d over the %d matching files", req.Skip, res.TotalFiles, len(st.files))
						case res.Truncated != scout.TruncBudget && res.TotalFiles != len(st.files):
							t.Errorf("skip %d: TotalFiles %d (truncated %q), want %d", req.Skip, res.TotalFiles, res.Truncated, len(st.files))
						}
						for _, f := range res.Files {
							got = append(got, f.Path)
							if f.MatchLines != st.lines[f.Path] && (mode == scout.SearchContent && req.MaxMatchesPerFile < 0 || mode == scout.SearchCount) {
								t.Errorf("skip %d: %s has %d matching lines, want %d", req.Skip, f.Path, f.MatchLines, st.lines[f.Path])
							}
						}
						if res.NextSkip == 0 {
							if end := req.Skip + len(res.Files); end != len(st.files) {
								t.Errorf("skip %d: no next page after file %d of %d (truncated %q)", req.Skip, end, len(st.files), res.Truncated)
							}
							break
						}
						if res.NextSkip != req.Skip+len(res.Files) || len(res.Files) == 0 {
							t.Fatalf("skip %d: %d files, next skip %d", req.Skip, len(res.Files), res.NextSkip)
						}
						req.Skip = res.NextSkip
					}
					want := make([]string, len(all.Files))
					for i, f := range all.Files {
						want[i] = f.Path
					}
					if !slices.Equal(got, want) {
						t.Errorf("pages joined:\n got %q\nwant %q", got, want)
					}
				})
			}
		}
	}
}

// ampFollowPage is the part of amplifier grep's data the walks read.
type ampFollowPage struct {
	TotalMatches int  `json:"total_matches"`
	MatchesCount int  `json:"matches_count"`
	LowerBound   bool `json:"total_is_lower_bound"`
	Truncated    bool `json:"truncated"`
}

var (
	ampOffsetHint = regexp.MustCompile(`(?:head_limit=(\d+) with )?offset=(\d+)`)
	ampNotice     = regexp.MustCompile(`(?:Showing|Text shows) (?:results|files) (\d+)-(\d+) of (at least )?(\d+)`)
)

// TestFollowAmpGrepPages follows amplifier grep's offset hints in its three
// modes, with and without head_limit, as seed 003 pages ("use
// total_matches to know if more exist"), through the 256 KB reply cap and
// the 50 KB text cap: the pages joined are the results of a naive search,
// each once; total_matches and the notices' totals are the same on every
// page; and a page with no hint ends at the last result.
func TestFollowAmpGrepPages(t *testing.T) {
	seen := map[string]int{}
	defer func() {
		if seen["Text shows"] == 0 || seen["Use offset="] == 0 {
			t.Errorf("the walks met no text cap or no page notice: the fixtures no longer test them (%v)", seen)
		}
	}()
	for seed := range int64(4) {
		st := newSearchTree(seed, 50)
		want := map[string][]string{}
		for _, p := range st.files {
			want["files_with_matches"] = append(want["files_with_matches"], p)
			want["count"] = append(want["count"], fmt.Sprintf("%s:%d", p, st.lines[p]))
			for _, n := range st.hits[p] {
				want["content"] = append(want["content"], fmt.Sprintf("%s:%d", p, n))
			}
		}
		totals := map[string]int{"files_with_matches": len(st.files), "count": st.total, "content": st.total}
		for _, tr := range testfs.Trees(t, st.fs) {
			c := Config{FS: tr.FS, Root: tr.Root}
			r := rand.New(rand.NewSource(seed))
			for _, mode := range []string{"content", "files_with_matches", "count"} {
				base := map[string]any{"pattern": "needle", "output_mode": mode}
				if mode == "content" && r.Intn(2) == 0 {
					base["-C"] = r.Intn(3)
				}
				// A small head_limit, at most 40 pages of one, and a large one.
				small := max(1+r.Intn(9), len(want[mode])/40)
				for _, limit := range []int{0, small, 1 + r.Intn(200)} {
					t.Run(fmt.Sprintf("seed%d/%s/%s/head_limit%d", seed, tr.Name, mode, limit), func(t *testing.T) {
						var got []string
						offset := 0
						for step := 0; ; step++ {
							if step > followMaxSteps {
								t.Fatalf("no end after %d pages", step)
							}
							args := map[string]any{"offset": offset, "head_limit": limit}
							for k, v := range base {
								args[k] = v
							}
							env := followCall(t, c, Amplifier, "grep", args)
							var d ampFollowPage
							decodeData(t, env, &d)
							page := ampFollowResults(t, env)
							if d.TotalMatches != totals[mode] || d.LowerBound {
								t.Errorf("offset %d: total_matches %d (lower bound %v), want %d", offset, d.TotalMatches, d.LowerBound, totals[mode])
							}
							if n := ampFollowNotice(t, env.Text, offset); n >= 0 && n != len(want[mode]) {
								t.Errorf("offset %d: the notice counts %d, want %d:\n%s", offset, n, len(want[mode]), tail(env.Text))
							}
							for _, k := range []string{"Text shows", "Use offset="} {
								if strings.Contains(env.Text, k) {
									seen[k]++
								}
							}
							m := ampOffsetHint.FindStringSubmatch(env.Text)
							if m == nil {
								got = append(got, page...)
								if offset+len(page) != len(want[mode]) {
									t.Errorf("offset %d: the page ends at %d of %d with no hint to go on:\n%s", offset, offset+len(page), len(want[mode]), tail(env.Text))
								}
								break
							}
							next, _ := strconv.Atoi(m[2])
							if next <= offset || next > offset+len(page) {
								t.Fatalf("offset %d: the hint says offset=%d after %d results:\n%s", offset, next, len(page), tail(env.Text))
							}
							got = append(got, page[:next-offset]...)
							if m[1] != "" {
								limit, _ = strconv.Atoi(m[1])
							}
							offset = next
						}
						if !slices.Equal(got, want[mode]) {
							t.Errorf("pages joined: %d results, want %d\n got %.600q\nwant %.600q", len(got), len(want[mode]), got, want[mode])
						}
					})
				}
			}
		}
	}
}

// ampFollowNotice checks the first number of the page notice of an
// amplifier grep text at offset and returns its total; -1 when the text
// has no notice.
func ampFollowNotice(t *testing.T, text string, offset int) int {
	m := ampNotice.FindStringSubmatch(text)
	if m == nil {
		return -1
	}
	if from, _ := strconv.Atoi(m[1]); from != offset+1 {
		t.Errorf("offset %d: notice %q", offset, m[0])
	}
	n, _ := strconv.Atoi(m[4])
	return n
}

// ampFollowResults is the page of an amplifier grep reply as one string
// per result: a file, "file:count", or a content result's "file:line".
func ampFollowResults(t *testing.T, env *scout.Envelope) []string {
	t.Helper()
	raw, err := json.Marshal(env.Data)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Files   []string        `json:"files"`
		Counts  json.RawMessage `json:"counts"`
		Results []struct {
			File string `json:"file"`
			Line int    `json:"line_number"`
		} `json:"results"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	var out []string
	switch {
	case d.Results != nil:
		for _, r := range d.Results {
			out = append(out, fmt.Sprintf("%s:%d", r.File, r.Line))
		}
	case d.Counts != nil:
		// The counts object keeps the page's order in its JSON.
		dec := json.NewDecoder(strings.NewReader(string(d.Counts)))
		dec.Token()
		for dec.More() {
			k, _ := dec.Token()
			var n int
			if err := dec.Decode(&n); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s:%d", k, n))
		}
	default:
		out = append(out, d.Files...)
	}
	return out
}
