package tool

import "github.com/scoutkit/scout"

// ampHits are the content-mode results, read in place from the search's
// files rather than copied: the matching lines of files in order, from
// the (skip+1)-th to the (skip+count)-th, each with the lines within
// before/after of it when context is set.
type ampHits struct {
	files         []scout.FileMatch
	skip, count   int
	context       bool
	before, after int
	// noNumbers leaves line_number out of the results (-n false); the
	// lines of their context keep theirs.
	noNumbers bool
	starts    []int // matching lines before files[i]; len(files)+1 entries
}

// newAmpHits indexes files; count < 0 means every matching line after skip.
func newAmpHits(files []scout.FileMatch, skip, count int, context bool, before, after int) *ampHits {
	h := &ampHits{files: files, skip: skip, context: context, before: before, after: after}
	h.starts = make([]int, len(files)+1)
	for i := range files {
		h.starts[i+1] = h.starts[i]
		for _, l := range files[i].Lines {
			if l.Match {
				h.starts[i+1]++
			}
		}
	}
	total := max(h.starts[len(files)]-skip, 0)
	if count < 0 || count > total {
		count = total
	}
	h.count = count
	return h
}

// each calls fn, in order, for the results among files[lo:hi]: the result's
// index (0 for the first result), its file and the index of its line in
// the file's Lines. fn returning false stops.
func (h *ampHits) each(lo, hi int, fn func(n int, f *scout.FileMatch, j int) bool) {
	for i := lo; i < hi; i++ {
		n := h.starts[i] - h.skip // index of the file's next matching line
		if n >= h.count {
			return
		}
		if h.starts[i+1]-h.skip <= 0 {
			continue
		}
		f := &h.files[i]
		for j, l := range f.Lines {
			if !l.Match {
				continue
			}
			if n >= 0 && !fn(n, f, j) {
				return
			}
			if n++; n >= h.count {
				return
			}
		}
	}
}

// window returns the lines of f around its line j: [lo, hi) within
// before/after of it, or just j without context.
func (h *ampHits) window(f *scout.FileMatch, j int) (lo, hi int) {
	if !h.context {
		return j, j + 1
	}
	n := f.Lines[j].Line
	lo, hi = j, j+1
	for lo > 0 && f.Lines[lo-1].Line >= n-h.before {
		lo--
	}
	for hi < len(f.Lines) && f.Lines[hi].Line <= n+h.after {
		hi++
	}
	return lo, hi
}

// ampPage gathers the files of a content page as they are streamed, and
// the JSON size of their results, until it is full: want results, or
// ampMaxBytes of JSON. The first result is taken whatever its size, so
// that a page always moves the offset on.
type ampPage struct {
	hits   ampHits // the files gathered, and the context settings
	want   int
	skip   int  // matching lines of the next file that come before the page (the caller's)
	n      int  // results gathered
	size   int  // their JSON size, with the commas between them
	capped bool // ampMaxBytes ended the page before want results
	cut    bool // a line of a result was cut to ampMaxColumns
	buf    []byte
}

// full reports that the page takes no more results.
func (p *ampPage) full() bool { return p.n >= p.want || p.size >= ampMaxBytes }

// add takes the results of f after its first skip matching lines, as far
// as the page has room; skip may be set for the first file only.
func (p *ampPage) add(f *scout.FileMatch, skip int) {
	if len(p.hits.files) == 0 {
		p.hits.skip = skip
	}
	p.hits.files = append(p.hits.files, *f)
	fm := &p.hits.files[len(p.hits.files)-1]
	seen := 0
	for j, l := range fm.Lines {
		if !l.Match {
			continue
		}
		if seen++; seen <= skip {
			continue
		}
		if p.full() {
			p.capped = p.n < p.want
			return
		}
		p.buf = p.hits.appendResult(p.buf[:0], fm, j)
		sep := min(p.n, 1) // the comma before it
		if p.n > 0 && p.size+sep+len(p.buf) > ampMaxBytes {
			p.capped, p.size = true, ampMaxBytes
			return
		}
		p.size += sep + len(p.buf)
		p.n++
		lo, hi := p.hits.window(fm, j)
		for _, c := range fm.Lines[lo:hi] {
			p.cut = p.cut || c.Cut
		}
	}
}

// hitsOf returns the page's results.
func (p *ampPage) hitsOf() *ampHits {
	h := newAmpHits(p.hits.files, p.hits.skip, p.n, p.hits.context, p.hits.before, p.hits.after)
	h.noNumbers = p.hits.noNumbers
	return h
}
