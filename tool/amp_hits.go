package tool

import "github.com/scoutkit/scout"

// ampHits are the content-mode results, read in place from the search's
// files rather than copied: the results of files in order, from the
// (skip+1)-th to the (skip+count)-th, each with the lines within
// before/after of it when context is set. A result is a matching line or,
// with runs set, a run of matching lines with consecutive numbers (as
// ripgrep reports a multiline search: the lines of a match that spans
// lines, and of matches on touching lines, make one result).
type ampHits struct {
	files         []scout.FileMatch
	skip, count   int
	context       bool
	before, after int
	runs          bool
	// noNumbers leaves line_number out of the results (-n false); the
	// lines of their context keep theirs.
	noNumbers bool
	starts    []int // results before files[i]; len(files)+1 entries
}

// newAmpHits indexes files; count < 0 means every result after skip.
func newAmpHits(files []scout.FileMatch, skip, count int, context bool, before, after int, runs bool) *ampHits {
	h := &ampHits{files: files, skip: skip, context: context, before: before, after: after, runs: runs}
	h.starts = make([]int, len(files)+1)
	for i := range files {
		h.starts[i+1] = h.starts[i] + ampResults(files[i].Lines, runs)
	}
	total := max(h.starts[len(files)]-skip, 0)
	if count < 0 || count > total {
		count = total
	}
	h.count = count
	return h
}

// ampFirst reports whether lines[j] starts a result: a matching line that,
// with runs, does not follow a matching line.
func ampFirst(lines []scout.LineMatch, j int, runs bool) bool {
	return lines[j].Match && !(runs && j > 0 && lines[j-1].Match && lines[j-1].Line == lines[j].Line-1)
}

// ampResults counts the results that lines start.
func ampResults(lines []scout.LineMatch, runs bool) int {
	n := 0
	for j := range lines {
		if ampFirst(lines, j, runs) {
			n++
		}
	}
	return n
}

// end returns the index past the last line of the result that starts at
// line j of f: j+1, or the end of its run.
func (h *ampHits) end(f *scout.FileMatch, j int) int {
	k := j + 1
	for h.runs && k < len(f.Lines) && f.Lines[k].Match && f.Lines[k].Line == f.Lines[k-1].Line+1 {
		k++
	}
	return k
}

// each calls fn, in order, for the results among files[lo:hi]: the result's
// index (0 for the first result), its file and the index of its first line
// in the file's Lines. fn returning false stops.
func (h *ampHits) each(lo, hi int, fn func(n int, f *scout.FileMatch, j int) bool) {
	for i := lo; i < hi; i++ {
		n := h.starts[i] - h.skip // index of the file's next result
		if n >= h.count {
			return
		}
		if h.starts[i+1]-h.skip <= 0 {
			continue
		}
		f := &h.files[i]
		for j := range f.Lines {
			if !ampFirst(f.Lines, j, h.runs) {
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

// window returns the lines of f around the result at its line j: [lo, hi)
// within before/after of the result's lines, or just those lines without
// context.
func (h *ampHits) window(f *scout.FileMatch, j int) (lo, hi int) {
	lo, hi = j, h.end(f, j)
	if !h.context {
		return lo, hi
	}
	first, last := f.Lines[lo].Line, f.Lines[hi-1].Line
	for lo > 0 && f.Lines[lo-1].Line >= first-h.before {
		lo--
	}
	for hi < len(f.Lines) && f.Lines[hi].Line <= last+h.after {
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
	skip   int  // results of the next file that come before the page (the caller's)
	n      int  // results gathered
	size   int  // their JSON size, with the commas between them
	capped bool // ampMaxBytes ended the page before want results
	cut    bool // a line of a result was cut to ampMaxColumns
	buf    []byte
}

// full reports that the page takes no more results.
func (p *ampPage) full() bool { return p.n >= p.want || p.size >= ampMaxBytes }

// add takes the results of f after its first skip results, as far
// as the page has room; skip may be set for the first file only.
func (p *ampPage) add(f *scout.FileMatch, skip int) {
	if len(p.hits.files) == 0 {
		p.hits.skip = skip
	}
	p.hits.files = append(p.hits.files, *f)
	fm := &p.hits.files[len(p.hits.files)-1]
	seen := 0
	for j := range fm.Lines {
		if !ampFirst(fm.Lines, j, p.hits.runs) {
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
	h := newAmpHits(p.hits.files, p.hits.skip, p.n, p.hits.context, p.hits.before, p.hits.after, p.hits.runs)
	h.noNumbers = p.hits.noNumbers
	return h
}
