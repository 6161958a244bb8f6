package tool

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

var (
	// readLineHint is the hint of a paged read: ":N" after the path read
	// (group 1 empty), or a whole path, as a listing of an archive's
	// directory gives it.
	readLineHint = regexp.MustCompile(`Use (\S*?):(\d+) to continue`)
	// sqliteHint is the hint of a table page or of the table list.
	sqliteHint = regexp.MustCompile(`(?i)append ([:?].+?) to the database path to (?:continue|list more)`)
	// readShowing is the range notice of a paged read.
	readShowing = regexp.MustCompile(`Showing lines (\d+)-(\d+) of (\d+)`)
	// numbered is a numbered line of a text read ("12:text", "12|text").
	numbered = regexp.MustCompile(`^(\d+)[:|]`)
)

// readPage is one read of a walk: the path read and its text, split into
// the lines shown and the notices after them.
type readPage struct {
	path, text, notice string
	lines              []string
	env                *scout.Envelope
}

// splitRead splits a pi read text into its lines (without a "¶path#TAG"
// heading) and its closing "[...]" notice.
func splitRead(text string) (lines []string, notice string) {
	if i := strings.LastIndex(text, "\n\n["); i >= 0 && strings.HasSuffix(text, "]") {
		text, notice = text[:i], text[i+2:]
	}
	if strings.HasPrefix(text, "¶") {
		_, text, _ = strings.Cut(text, "\n")
	}
	return strings.Split(text, "\n"), notice
}

// followRead reads start with c and follows each continuation hint of the
// text (":N" after base, a whole "dir:N" path, or a table's ":t?...")
// until a read gives none, and returns the reads. A hint must name a new
// read: the walk fails on a path it already read.
func followRead(t *testing.T, c Config, base, start string) []readPage {
	t.Helper()
	var pages []readPage
	seen := map[string]bool{}
	for p := start; ; {
		if seen[p] {
			t.Fatalf("the hints lead back to %s:\n%s", p, tail(pages[len(pages)-1].text))
		}
		if len(pages) > followMaxSteps {
			t.Fatalf("no end after %d reads", len(pages))
		}
		seen[p] = true
		env := followCall(t, c, Pi, "read", map[string]any{"path": p})
		lines, notice := splitRead(env.Text)
		pages = append(pages, readPage{path: p, text: env.Text, notice: notice, lines: lines, env: env})
		if m := readLineHint.FindStringSubmatch(env.Text); m != nil {
			if m[1] == "" {
				p = base + ":" + m[2]
			} else {
				p = m[1] + ":" + m[2]
			}
			continue
		}
		if m := sqliteHint.FindStringSubmatch(env.Text); m != nil {
			p = base + m[1]
			continue
		}
		return pages
	}
}

// checkNumbered checks the pages of a walk from line from over a
// numbered text of want's lines: the first shows from (or a line before
// it, as pi widens a range), each page goes on at the line after the last
// one shown, no line is shown twice or left out up to the last, each line
// is want's (a cut line, ending in "…", its start), and each "Showing
// lines a-b of N" notice agrees.
func checkNumbered(t *testing.T, pages []readPage, want []string, from int) {
	t.Helper()
	next := 0
	for _, pg := range pages {
		first := true
		for _, l := range pg.lines {
			m := numbered.FindStringSubmatch(l)
			if m == nil {
				continue // a cell marker or a blank line around the lines
			}
			n, _ := strconv.Atoi(m[1])
			if next == 0 {
				if n > from {
					t.Fatalf("%s: the first line shown is %d", pg.path, n)
				}
				next = n
			}
			if first && n == next-1 {
				// pi widens a range by the line before it: the
				// line shown last is shown again, once.
				first = false
				continue
			}
			first = false
			if n != next {
				t.Fatalf("%s: line %d after line %d:\n%s", pg.path, n, next-1, tail(pg.text))
			}
			next++
			text := l[len(m[0]):]
			if n > len(want) || text != want[n-1] && !(strings.HasSuffix(text, "…") && strings.HasPrefix(want[n-1], strings.TrimSuffix(text, "…"))) {
				t.Fatalf("%s: line %d is %.80q, want %.80q", pg.path, n, text, want[min(n, len(want))-1])
			}
		}
		if m := readShowing.FindStringSubmatch(pg.notice); m != nil {
			if total, _ := strconv.Atoi(m[3]); total != len(want) {
				t.Errorf("%s: %q, the text has %d lines", pg.path, m[0], len(want))
			}
			if to, _ := strconv.Atoi(m[2]); to != next-1 {
				t.Errorf("%s: %q, the last line shown is %d", pg.path, m[0], next-1)
			}
		}
	}
	if next-1 != len(want) {
		t.Errorf("the walk ended at line %d of %d", next-1, len(want))
	}
}

// randomLines returns n lines of random lengths, some over the 50 KB
// read's average (long=true makes most of them a few KB).
func randomLines(r *rand.Rand, n int, long bool) []string {
	lines := make([]string, n)
	for i := range lines {
		w := r.Intn(40)
		if long && r.Intn(3) > 0 {
			w = 1000 + r.Intn(3000)
		}
		lines[i] = fmt.Sprintf("l%d %s", i+1, strings.Repeat("ab", w/2))
	}
	return lines
}

// TestFollowReadInMemory follows the hints of in-memory texts (archive
// members of a zip and a tar, a resource of an internal URL) over random
// texts that outgrow 3000 lines or 50 KB, from their start and from a
// random line, as MapFS and as a directory: each read goes on from the
// line after the last shown, every line is shown once, as it is.
func TestFollowReadInMemory(t *testing.T) {
	for seed := range int64(4) {
		r := rand.New(rand.NewSource(seed))
		long := seed%2 == 1 // long lines, fewer: the 50 KB cap pages them
		n := 1 + r.Intn(4000)
		if long {
			n = 100 + r.Intn(400)
		}
		lines := randomLines(r, n, long)
		body := strings.Join(lines, "\n") + "\n"
		tree := fstest.MapFS{
			"a.zip":      {Data: testfs.Zip(testfs.Files(map[string]string{"deep/er/m.txt": body, "x.txt": "x\n"})...)},
			"b/c.tar.gz": {Data: testfs.Tgz(testfs.Files(map[string]string{"m.txt": body})...)},
		}
		for _, tr := range testfs.Trees(t, tree) {
			c := Config{FS: tr.FS, Root: tr.Root, Resolvers: map[string]scout.Resolver{"memory": memResolver{"memory://m": body}}}
			for _, base := range []string{"a.zip:deep/er/m.txt", "b/c.tar.gz:m.txt", "memory://m"} {
				t.Run(fmt.Sprintf("seed%d/%s/%s", seed, tr.Name, base), func(t *testing.T) {
					checkNumbered(t, followRead(t, c, base, base), lines, 1)
					from := 1 + r.Intn(len(lines))
					checkNumbered(t, followRead(t, c, base, base+":"+strconv.Itoa(from)), lines, from)
				})
			}
		}
	}
}

// readRows are the numbered rows of a read's typed result (data.result):
// the lines of a text or a directory listing, else the entries of an
// archive listing, and the total it counts.
func readRows(t *testing.T, env *scout.Envelope) (rows []readRow, total int) {
	t.Helper()
	var d struct {
		Result struct {
			TotalLines int `json:"total_lines"`
			Blocks     []struct {
				Lines []struct {
					N    int    `json:"n"`
					Text string `json:"text"`
				} `json:"lines"`
			} `json:"blocks"`
			Entries []struct {
				Line  int    `json:"line"`
				Path  string `json:"path"`
				Depth int    `json:"depth"`
				Dir   bool   `json:"dir"`
			} `json:"entries"`
		} `json:"result"`
	}
	decodeData(t, env, &d)
	for _, b := range d.Result.Blocks {
		for _, l := range b.Lines {
			rows = append(rows, readRow{l.N, l.Text})
		}
	}
	if rows != nil {
		return rows, d.Result.TotalLines // a directory's entries are its lines
	}
	for _, e := range d.Result.Entries {
		rows = append(rows, readRow{e.Line, fmt.Sprintf("%d %s %v", e.Depth, e.Path, e.Dir)})
	}
	return rows, d.Result.TotalLines
}

// readRow is a numbered row of a read.
type readRow struct {
	n    int
	text string
}

// followRows follows the hints of a listing or text read from start (see
// followRead) and checks the rows of the reads (readRows): the first read
// shows row from (or the row before, as pi widens a range), each goes on
// at the row after the last shown (the row before it again, at most), no
// row is shown twice or left out, each row is ref's (when ref is not nil),
// and the walk ends at the last row of ref (or, without ref, at the total
// the reads count). It returns the rows joined and the number of reads.
func followRows(t *testing.T, c Config, base, start string, from int, ref []readRow) (joined []readRow, reads int) {
	t.Helper()
	next, total := 0, len(ref)
	pages := followRead(t, c, base, start)
	for _, pg := range pages {
		rows, n := readRows(t, pg.env)
		if ref == nil {
			total = n
		}
		for i, r := range rows {
			if next == 0 {
				if r.n > from || r.n < from-1 {
					t.Fatalf("%s: the first row shown is %d", pg.path, r.n)
				}
				next = r.n
			}
			if i == 0 && r.n == next-1 && next > from {
				continue // the row before the range, shown again
			}
			if r.n != next {
				t.Fatalf("%s: row %d after row %d:\n%s", pg.path, r.n, next-1, tail(pg.text))
			}
			if ref != nil && (r.n > len(ref) || ref[r.n-1] != r) {
				t.Fatalf("%s: row %v, the whole read has %v", pg.path, r, ref[min(r.n, len(ref))-1])
			}
			joined = append(joined, r)
			next++
		}
	}
	if max(next-1, 0) != total {
		t.Errorf("the walk from %s ended at row %d of %d:\n%s", start, next-1, total, tail(pages[len(pages)-1].text))
	}
	return joined, len(pages)
}

// listingTree is a random tree of directories of many entries, some deep,
// for the listing walks.
func listingTree(seed int64) fstest.MapFS {
	r := rand.New(rand.NewSource(seed))
	m := fstest.MapFS{}
	for _, p := range testfs.PathOrderTree(seed, 4) {
		m["top/"+p+".txt"] = &fstest.MapFile{Data: []byte(strings.Repeat("x", r.Intn(3000)))}
	}
	for i := range r.Intn(400) {
		m[fmt.Sprintf("top/many/f%03d", i)] = &fstest.MapFile{Data: []byte("x")}
	}
	// Long names: a read reaches the byte limit before the line limit.
	for i := range 100 + r.Intn(300) {
		m[fmt.Sprintf("top/long/%s%03d", strings.Repeat("n", 150+r.Intn(90)), i)] = &fstest.MapFile{Data: []byte("x")}
	}
	return m
}

// TestFollowReadListings follows the hints of directory listings and
// archive listings (the root of a zip and a tar, a deep directory in
// them, listings of many entries and of long names that reach the byte
// limit) read with small line limits, as MapFS and as a directory: the
// rows joined are the rows of one read with the largest limit.
func TestFollowReadListings(t *testing.T) {
	paged := 0
	for seed := range int64(4) {
		tree := listingTree(seed)
		r := rand.New(rand.NewSource(seed))
		var members []testfs.Member
		for p := range tree {
			members = append(members, testfs.Member{Name: p, Body: "x\n"})
		}
		// Long names: a page reaches the byte limit before the line limit.
		for i := range 40 + r.Intn(200) {
			members = append(members, testfs.Member{Name: fmt.Sprintf("long/%s%04d", strings.Repeat("n", 200+r.Intn(600)), i), Body: "y\n"})
		}
		for i := range 3100 * int(seed%2) {
			members = append(members, testfs.Member{Name: fmt.Sprintf("wide/m%05d", i), Body: ""})
		}
		slices.SortFunc(members, func(a, b testfs.Member) int { return strings.Compare(a.Name, b.Name) })
		tree["a.zip"] = &fstest.MapFile{Data: testfs.Zip(members...)}
		tree["b.tar"] = &fstest.MapFile{Data: testfs.Tar(members...)}
		for _, tr := range testfs.Trees(t, tree) {
			limit := 3 + r.Intn(40)
			// One clock for all the reads of a tree: the ages that the rows
			// show do not change from "just now" to "1m ago" between the
			// reference and the pages (the files written now, a slow run
			// read them for over a minute).
			now := time.Now()
			clock := func() time.Time { return now }
			c := Config{FS: tr.FS, Root: tr.Root, ReadLimit: limit, Now: clock}
			whole := Config{FS: tr.FS, Root: tr.Root, ReadLimit: 3000, Now: clock}
			for _, base := range []string{"top", "top/many", "top/long", "a.zip", "a.zip:top/", "a.zip:long/", "a.zip:wide/", "b.tar:top/many/", "b.tar:long/"} {
				if strings.HasSuffix(base, "wide/") && seed%2 == 0 {
					continue
				}
				t.Run(fmt.Sprintf("seed%d/%s/%s/limit%d", seed, tr.Name, base, limit), func(t *testing.T) {
					sel := base + ":"
					if strings.HasSuffix(base, ".zip") || strings.HasSuffix(base, ".tar") {
						sel = base + ":/:"
					}
					// The reference: the listing in the largest pages.
					ref, _ := followRows(t, whole, strings.TrimSuffix(sel, ":"), sel+"1", 1, nil)
					from := 1 + r.Intn(max(len(ref), 1))
					for _, start := range []int{1, from} {
						if _, n := followRows(t, c, strings.TrimSuffix(sel, ":"), sel+strconv.Itoa(start), start, ref); n > 1 {
							paged++
						}
					}
				})
			}
		}
	}
	if paged == 0 {
		t.Error("no listing took more than one read: the walks test no hint")
	}
}

// notebook returns a random notebook of code and markdown cells, some
// with long lines and outputs.
func notebook(r *rand.Rand, cells int) []byte {
	var b strings.Builder
	b.WriteString(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [`)
	for i := range cells {
		if i > 0 {
			b.WriteString(",")
		}
		var src []string
		for j := range 1 + r.Intn(30) {
			line := fmt.Sprintf("x%d_%d = %d", i, j, r.Intn(100))
			if r.Intn(25) == 0 {
				line += " # " + strings.Repeat("w", r.Intn(4000))
			}
			src = append(src, strconv.Quote(line+"\n"))
		}
		kind := "code"
		if r.Intn(4) == 0 {
			kind = "markdown"
		}
		fmt.Fprintf(&b, `{"cell_type": %q, "metadata": {}, "source": [%s]`, kind, strings.Join(src, ","))
		if kind == "code" {
			fmt.Fprintf(&b, `, "execution_count": %d, "outputs": [{"output_type": "stream", "name": "stdout", "text": ["out %d\n"]}]`, i, i)
		}
		b.WriteString("}")
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// TestFollowReadNotebook follows the hints of notebook reads (an
// in-memory text of 3000 lines or 50 KB a read) over random notebooks,
// from the start and from a random line, as MapFS and as a directory:
// each read goes on at the line after the last shown, no line is shown
// twice or left out, and the walk from a line shows the lines of the
// walk from the start.
func TestFollowReadNotebook(t *testing.T) {
	for seed := range int64(4) {
		r := rand.New(rand.NewSource(seed))
		tree := fstest.MapFS{"nb/n.ipynb": {Data: notebook(r, 20+r.Intn(200))}}
		for _, tr := range testfs.Trees(t, tree) {
			t.Run(fmt.Sprintf("seed%d/%s", seed, tr.Name), func(t *testing.T) {
				c := Config{FS: tr.FS, Root: tr.Root}
				ref, reads := followRows(t, c, "nb/n.ipynb", "nb/n.ipynb", 1, nil)
				if reads < 2 && len(ref) > 3000 {
					t.Errorf("%d lines in %d read", len(ref), reads)
				}
				from := 1 + r.Intn(len(ref))
				followRows(t, c, "nb/n.ipynb", "nb/n.ipynb:"+strconv.Itoa(from), from, ref)
			})
		}
	}
}

// TestFollowReadURLCredentials follows the hints of a URL read with a
// password from the URL the read shows ("user:xxxxx@"), as a model copies
// it: the pages come from the URL cache, read with the password, the
// server asked once; every line is shown once, in order. A shown URL
// that no cached page matches is an error that says to give the
// credentials, not a fetch that sends "xxxxx"; other credentials fetch.
func TestFollowReadURLCredentials(t *testing.T) {
	for seed := range int64(3) {
		r := rand.New(rand.NewSource(seed))
		lines := randomLines(r, 301+r.Intn(1500), seed == 2)
		body := strings.Join(lines, "\n") + "\n"
		var requests, wrong atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			requests.Add(1)
			if u, p, _ := req.BasicAuth(); u != "user" || p != "secret" {
				wrong.Add(1)
				http.Error(w, "who are you", http.StatusUnauthorized)
				return
			}
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, body)
		}))
		secret := strings.Replace(srv.URL, "://", "://user:secret@", 1) + "/t.txt"
		shown := strings.Replace(srv.URL, "://", "://user:xxxxx@", 1) + "/t.txt"
		c := Config{FS: fstest.MapFS{}, Root: "/r", AllowPrivateNetwork: true, URLCache: &scout.URLCache{}}
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			pages := followRead(t, c, shown, secret)
			if len(pages) < 2 {
				t.Fatalf("one page: %s", tail(pages[0].text))
			}
			head := pages[0].lines[:6]
			if head[0] != "URL: "+shown || head[4] != "---" {
				t.Fatalf("the read's header: %q", head)
			}
			full := append(slices.Clip(head), lines...)
			next := 1
			for i, pg := range pages {
				from, to := len(full)-len(pg.lines)+1, len(full) // the last page: to the end
				if m := readShowing.FindStringSubmatch(pg.notice); m != nil {
					from, _ = strconv.Atoi(m[1])
					to, _ = strconv.Atoi(m[2])
				} else if i < len(pages)-1 {
					t.Fatalf("%s: no range notice: %s", pg.path, pg.notice)
				}
				if from != next && from != next-1 { // pi widens a range by the line before
					t.Fatalf("%s: shows from line %d, the last page ended at %d", pg.path, from, next-1)
				}
				if len(pg.lines) != to-from+1 {
					t.Fatalf("%s: %d lines, its range is %d-%d", pg.path, len(pg.lines), from, to)
				}
				for j, l := range pg.lines {
					// A long line is cut to its start and "…".
					if want := full[from-1+j]; l != want && !(strings.HasSuffix(l, "…") && strings.HasPrefix(want, strings.TrimSuffix(l, "…"))) {
						t.Fatalf("%s: line %d is %.80q, want %.80q", pg.path, from+j, l, want)
					}
				}
				next = to + 1
			}
			if next-1 != len(full) {
				t.Errorf("the walk ended at line %d of %d", next-1, len(full))
			}
			if requests.Load() != 1 {
				t.Errorf("%d requests for one page paged: the shown URL must page it from the cache", requests.Load())
			}

			miss := Call(context.Background(), Config{FS: fstest.MapFS{}, Root: "/r", AllowPrivateNetwork: true}, Pi, "read", fmt.Appendf(nil, `{"path":%q}`, shown+":301"))
			if miss.Status != scout.StatusError || miss.Error.Code != scout.CodeInvalidParam || !strings.Contains(miss.Text, "Read the URL with its credentials") {
				t.Errorf("a shown URL without a cache: %s %s", miss.Status, miss.Text)
			}
			other := Call(context.Background(), c, Pi, "read", fmt.Appendf(nil, `{"path":%q}`, strings.Replace(secret, "secret", "guess", 1)+":301"))
			if !strings.Contains(other.Text, "HTTP 401") { // pi shows a failed fetch as a page
				t.Errorf("other credentials must not get the cached page: %s %s", other.Status, tail(other.Text))
			}
			if requests.Load() != 2 || wrong.Load() != 1 {
				t.Errorf("%d requests, %d with the wrong credentials; want 2 and 1 (the guess, never \"xxxxx\")", requests.Load(), wrong.Load())
			}
		})
		srv.Close()
	}
}
