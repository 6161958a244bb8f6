package tool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/pitext"
	"github.com/scoutkit/scout/internal/redact"
)

func init() {
	define(Amplifier, "grep", ampGrepDescription, runAmpGrep)
}

const ampGrepDescription = `Search file contents with regex patterns (RE2 syntax), ripgrep-style.

- output_mode: "files_with_matches" (default, file paths), "content" (matching lines) or "count" (matching lines per file).
- path: file or directory to search (default: the project root).
- glob ("*.py", "*.{ts,tsx}") and type ("py", "js", "go", "rust", ...) filter files. A glob with '/' matches the path from the project root, as results show it ("src/**/*.go"), whatever path is.
- -i case-insensitive; -n line numbers (content, default true); -A/-B/-C context lines (content).
- multiline: patterns may span lines and '.' matches newlines; without it no match crosses a line, and a pattern that spells a newline (\n) is an error, as in ripgrep.
  When the pattern can match a newline, a content result is a run of consecutive matching lines (line_number its first, content its lines), and count counts matches.
- head_limit limits the results (0 = unlimited), offset skips the first ones: use total_matches to page.
- content: a reply holds at most 256 KB of results (then "truncated": true; continue with offset), and lines are cut at 2048 characters.
Hidden files and files that .gitignore, .ignore or .rgignore exclude are skipped unless glob matches them (as in ripgrep), and so are binary files and files over the size cap (10 MB by default); each is counted.`

// ampGrepArgs are the arguments of amplifier grep. -A, -B and
// -C are nil when absent: -A and -B override -C.
type ampGrepArgs struct {
	Pattern     string `json:"pattern" required:"true" missing:"Missing argument 'pattern': pass the regular expression to search for, e.g. {\"pattern\": \"TODO\"}." desc:"Regular expression pattern to search for"`
	Path        string `json:"path" desc:"File or directory to search (default: current directory)"`
	OutputMode  string `json:"output_mode" enum:"content,files_with_matches,count" default:"files_with_matches" desc:"Output format - \"content\" (matching lines), \"files_with_matches\" (file paths only), or \"count\" (match counts). Default: files_with_matches"`
	IgnoreCase  bool   `json:"-i" default:"false" desc:"Case insensitive search"`
	LineNumbers bool   `json:"-n" default:"true" desc:"Show line numbers (default: true for content mode)"`
	After       *int   `json:"-A" min:"0" desc:"Lines of context after each match"`
	Before      *int   `json:"-B" min:"0" desc:"Lines of context before each match"`
	Context     *int   `json:"-C" min:"0" desc:"Lines of context before and after each match"`
	Glob        string `json:"glob" desc:"Glob pattern to filter files (e.g., \"*.py\", \"*.{ts,tsx}\")"`
	Type        string `json:"type" desc:"File type to search (e.g., \"js\", \"py\", \"rust\") - more efficient than glob"`
	Multiline   bool   `json:"multiline" default:"false" desc:"Enable multiline mode for cross-line patterns"`
	HeadLimit   int    "json:\"head_limit\" default:\"0\" min:\"0\" desc:\"Limit output to first N results (default: 0 = unlimited). Use with `total_matches` to implement pagination.\""
	Offset      int    `json:"offset" default:"0" min:"0" desc:"Skip first N results before applying head_limit (default: 0)"`
}

// ampTotalBudget bounds the counting pass that computes total_matches when
// head_limit is set: past this many results (matching lines, or runs of
// them when a match can span lines) the total is a lower bound
// (total_is_lower_bound), so a page of 10 over a huge tree returns at
// once.
const ampTotalBudget = 100_000

// ampGrepData is what every mode's JSON output starts with.
type ampGrepData struct {
	Pattern      string `json:"pattern"`
	OutputMode   string `json:"output_mode"`
	TotalMatches int    `json:"total_matches"`
	MatchesCount int    `json:"matches_count"`
	// LowerBound reports that counting total_matches stopped at
	// ampTotalBudget lines past the offset (content mode only).
	LowerBound bool `json:"total_is_lower_bound,omitempty"`
	// Truncated reports a content page cut short by ampMaxBytes, the
	// reply's size cap, before head_limit results (or, without head_limit,
	// before the last one): offset+matches_count continues it.
	Truncated bool `json:"truncated,omitempty"`
	// CutAt is ampMaxColumns when the content of some line of the page was
	// cut to that many characters; 0 otherwise.
	CutAt int `json:"content_cut_at,omitempty"`

	hits     *ampHits                 // content
	files    []string                 // files_with_matches
	counts   *orderedCounts           // count
	skipped  map[scout.SkipReason]int // files left out, by reason (for the text)
	searched int                      // files searched (for the text)
	where    string                   // the path searched, as text shows it
	resolved string                   // the path searched, relative to the root
	gitPath  string                   // the path searched as gitSearchPaths names it (for the text)
	inPart   []string                 // the notes on files searched only in part (for the text)
	backend  *scout.Backend           // how the search was answered (for the context)
	// shown and total count the units offset and head_limit apply to:
	// results in content mode, files otherwise.
	shown, total int
}

// ampContentData, ampFilesData and ampCountData are the three JSON shapes.
type ampContentData struct {
	*ampGrepData
	hits *ampHits // written as "results" (see amp_json.go)
}

type ampFilesData struct {
	*ampGrepData
	Files []string `json:"files"`
}

type ampCountData struct {
	*ampGrepData
	Counts *orderedCounts `json:"counts"`
}

// shape returns the JSON value of the mode.
func (d *ampGrepData) shape() any {
	switch d.OutputMode {
	case "content":
		return ampContentData{d, d.hits}
	case "count":
		return ampCountData{d, d.counts}
	}
	return ampFilesData{d, d.files}
}

// orderedCounts holds the per-file counts of the page in path order.
type orderedCounts struct {
	paths  []string
	counts []int
}

// ampGrep is a grep call: its arguments and the context lines they ask for.
type ampGrep struct {
	*ampGrepArgs
	before, after int
	contextSet    bool // -A, -B or -C was given
}

func newAmpGrep(in *ampGrepArgs) *ampGrep {
	g := &ampGrep{ampGrepArgs: in}
	for _, p := range []*int{in.Context, in.Before, in.After} {
		g.contextSet = g.contextSet || p != nil
	}
	if in.Context != nil {
		g.before, g.after = *in.Context, *in.Context
	}
	if in.Before != nil {
		g.before = *in.Before
	}
	if in.After != nil {
		g.after = *in.After
	}
	return g
}

func runAmpGrep(ctx context.Context, c *Config, in *ampGrepArgs) (_ *scout.Envelope, err error) {
	defer func() {
		if errors.Is(err, grep.ErrNewline) {
			err = errs.Wrap(errs.InvalidParam, err, "Invalid regex: the pattern spells a newline (\\n), but without multiline no match crosses a line: pass \"multiline\": true to match across lines, or take the \\n out")
		}
	}()
	g := newAmpGrep(in)
	s := c.searcher(c.workspace())
	req := scout.SearchRequest{
		Pattern:    g.Pattern,
		IgnoreCase: g.IgnoreCase,
		Multiline:  g.Multiline,
		DotAll:     g.Multiline,
		Hidden:     false,
		// ripgrep reads .rgignore files, and matches --glob against the
		// path it prints, which is relative to its working directory
		// (the root), not to the path searched, ahead of the hidden and
		// ignore rules.
		RgIgnore:          true,
		RipgrepGlobs:      true,
		MaxColumns:        -1,
		MaxFiles:          -1,
		MaxMatches:        -1,
		MaxMatchesPerFile: -1,
	}
	if g.Path != "" && g.Path != "." {
		p, err := ampPath(c, g.Path)
		if err != nil {
			return nil, err
		}
		req.Paths = []string{p}
	}
	if g.Glob != "" {
		req.Globs = []string{g.Glob}
	}
	if g.Type != "" {
		req.Types = []string{g.Type}
	}
	d := &ampGrepData{Pattern: redact.Text(g.Pattern), OutputMode: g.OutputMode} // echoed as the arguments are
	runs := ampSpansLines(req)
	var partial bool
	var st scout.Stats
	switch g.OutputMode {
	case "files_with_matches", "count":
		req.Mode = scout.SearchFiles
		if g.OutputMode == "count" {
			req.Mode = scout.SearchCount
		}
		req.Skip = g.Offset
		if g.HeadLimit > 0 {
			req.MaxFiles = g.HeadLimit
		}
		res, err := s.Search(ctx, req)
		if err != nil {
			return nil, err
		}
		if g.OutputMode == "count" {
			d.counts = &orderedCounts{paths: make([]string, 0, len(res.Files)), counts: make([]int, 0, len(res.Files))}
			// ripgrep's count of a search whose matches can span lines
			// counts matches, not lines.
			d.TotalMatches = res.TotalMatchLines
			if runs {
				d.TotalMatches = res.TotalMatches
			}
			for _, f := range res.Files {
				n := f.MatchLines
				if runs {
					n = f.Matches
				}
				d.counts.paths = append(d.counts.paths, f.Path)
				d.counts.counts = append(d.counts.counts, n)
				d.MatchesCount += n
			}
		} else {
			d.TotalMatches = res.TotalFiles
			d.files = make([]string, 0, len(res.Files))
			for _, f := range res.Files {
				d.files = append(d.files, f.Path)
			}
			d.MatchesCount = len(d.files)
		}
		d.shown, d.total = len(res.Files), res.TotalFiles
		partial = res.NextSkip > 0
		st = scout.Stats{Files: res.Searched, Skipped: res.SkippedTotal()}
		d.skipped, d.searched, d.inPart = res.Skipped, res.Searched, pitext.InPartNotes(res)
		d.backend = res.Backend
	default:
		if err := ampContent(ctx, s, req, g, d, &st, runs); err != nil {
			return nil, err
		}
		d.shown, d.total = d.MatchesCount, d.TotalMatches
		partial = g.Offset+d.MatchesCount < d.TotalMatches || d.LowerBound
	}
	st.Matched = d.MatchesCount
	// The search has already refused a path resolveArg fails on; "." is
	// only a fallback.
	resolved := "."
	if p, err := resolveArg(c, g.Path); err == nil {
		resolved = pathutil.Display(p)
	}
	d.where, d.resolved = fname.Quote(resolved), resolved
	d.gitPath = strings.ReplaceAll(g.Path, `\`, "/")
	if d.skipped[scout.SkipIgnored] == 0 || d.shown > 0 {
		// No note on the ignored files is printed.
	} else if fsys, _, release, err := c.open(); err == nil {
		d.gitPath = gitSearchPaths(fsys, searchRoot(c), []string{d.gitPath}, d.skipped)[0]
		release()
	}
	env := okEnvelope(partial, d.shape(), ampGrepText(g, d))
	env.Stats = st
	env.Context.Backend = d.backend
	env.Context.PathResolved = wire(resolved)
	return env, nil
}

// ampSpansLines reports whether a match of req can span lines (a multiline
// search whose pattern can match a newline), as the search decides it: its
// results are then runs of matching lines, and its counts count matches,
// as ripgrep reports a search that is not line by line. false when the
// pattern does not compile (the search reports the error).
func ampSpansLines(req scout.SearchRequest) bool {
	return grep.SpansLines(grep.Options{Pattern: req.Pattern, IgnoreCase: req.IgnoreCase, Multiline: req.Multiline, DotAll: req.DotAll})
}

// ampPath is the path argument as the search takes it. Amplifier's path is
// ripgrep's, a name: one that ends in what the search reads as a line
// selector ("src/a.go:10") and does not exist as written is NOT_FOUND, as
// any missing path, where the search would search those lines. A quoted
// name (argEntry) is passed as written, for the search to unquote.
func ampPath(c *Config, arg string) (string, error) {
	p, quoted := argEntry(c, arg)
	if quoted {
		return p, nil // the search unquotes it
	}
	if _, _, ok, err := scout.SplitPathSelector(p); !ok && err == nil {
		return p, nil
	}
	fsys, _, release, err := c.open()
	if err != nil {
		return "", err
	}
	defer release()
	root := searchRoot(c)
	if entryExists(fsys, root, p) {
		return p, nil
	}
	if _, err := pathutil.Resolve(root, p); err != nil {
		return "", err
	}
	if err := pathutil.ContainerOutside(fsys, root, p); err != nil {
		return "", err
	}
	return "", &errs.Error{Code: errs.NotFound, Path: p, Message: "Path not found: " + errs.Echo(p)}
}

// The bounds of a content-mode reply. Without them, results were kept
// whole: two 9 MB files of matching lines gave a 347 MB reply and 1.8 GB
// of memory with -C 3.
const (
	// ampMaxBytes caps the JSON of the results of one reply; a page cut by
	// it says so (truncated) and offset continues it.
	ampMaxBytes = 256 << 10
	// ampMaxColumns cuts the content of a result or context line to this
	// many characters (content_cut_at).
	ampMaxColumns = 2048
	// ampMinResult is the JSON size of the smallest result,
	// {"file":"","content":""} (-n false): no reply holds more than
	// ampMaxBytes/ampMinResult results, which bounds the lines kept per file.
	ampMinResult = 24
)

// ampContent fills the content-mode results: results (matching lines, or
// with runs the runs of matching lines with consecutive numbers) in path
// and line order, offset and head_limit applied to results, each with its
// context when -A/-B/-C was given, within ampMaxBytes of JSON.
//
// A counting pass comes first: it gives total_matches (a lower bound past
// offset+ampTotalBudget results), the files left out, and the file where
// the offset falls. The page is then streamed from there, each file
// keeping at most the results one reply can hold, so that memory is
// bounded by the reply, not by the matches: the files before the offset
// are searched again but dropped, and the lines of the file the offset
// falls in are read from the first wanted result (found by counting over
// line ranges, or by the counting pass with runs), not from its start.
func ampContent(ctx context.Context, s *scout.Searcher, req scout.SearchRequest, g *ampGrep, d *ampGrepData, st *scout.Stats, runs bool) error {
	want := ampMaxBytes/ampMinResult + 1 // results one reply may hold
	if g.HeadLimit > 0 {
		want = min(want, g.HeadLimit)
	}
	var t *ampTally
	var err error
	if runs {
		t, err = ampCountRuns(ctx, s, req, g.Offset, want, g.Offset+ampTotalBudget)
	} else {
		t, err = ampCount(ctx, s, req, g.Offset+ampTotalBudget)
	}
	if err != nil {
		return err
	}
	*st = scout.Stats{Files: t.res.Searched, Skipped: t.res.SkippedTotal()}
	d.skipped, d.searched, d.inPart = t.res.Skipped, t.res.Searched, pitext.InPartNotes(t.res)
	d.backend = t.res.Backend
	d.TotalMatches = t.total
	d.LowerBound = t.lower
	req.Before, req.After, req.MaxColumns = g.before, g.after, ampMaxColumns
	// The matching lines a file keeps: a result is one, or a run of them.
	req.MaxMatchesPerFile = want
	if runs {
		req.MaxMatchesPerFile = t.lines
	}
	page := &ampPage{hits: ampHits{context: g.contextSet, before: g.before, after: g.after, noNumbers: !g.LineNumbers, runs: runs}, want: want}
	// Find the file the offset falls in: skipFiles matching files come
	// before it, and skip of its results.
	skipFiles, skip, acc := len(t.files), 0, 0
	for i, f := range t.files {
		if acc+f.n > g.Offset {
			skipFiles, skip = i, g.Offset-acc
			break
		}
		acc += f.n
	}
	if skipFiles < len(t.files) {
		// The files the page can need: from that one on, until they hold
		// the wanted results. When each can be named alone, only they are
		// searched, not the whole scope again.
		var names []string
		need := skip + want
		for _, f := range t.files[skipFiles:] {
			if need <= 0 {
				break
			}
			names = append(names, f.path)
			need -= f.n
		}
		plain := !slices.ContainsFunc(names, func(p string) bool { return !ampPlainName(p) })
		if skip > 0 {
			f, before, ok, err := ampFrom(ctx, s, req, names[0], skip, t.from, runs)
			switch {
			case scout.CodeOf(err) == scout.CodeNotFound:
				// The file is gone since it was counted, and its results
				// with it; a stream of the scope no longer lists it.
				names = names[1:]
			case err != nil:
				return err
			case ok:
				page.add(f, before)
				skipFiles++
				names = names[1:]
			default:
				// The file cannot be named alone (a glob character in its
				// name): its lines are kept from its start.
				req.MaxMatchesPerFile = skip + want
				if runs {
					req.MaxMatchesPerFile = max(t.lines, t.upto)
				}
				page.skip = skip
			}
		}
		stream := s.Stream(ctx, req)
		switch {
		case plain && len(names) == 0:
			stream = func(func(*scout.FileMatch, error) bool) {} // the first file held the page
		case plain:
			named := req
			named.Paths = names
			stream = s.Stream(ctx, named)
		}
		if err := page.stream(stream, plain && len(names) > 0, skipFiles); scout.CodeOf(err) == scout.CodeNotFound && plain && len(names) > 0 {
			// Every file named is gone since it was counted: the page comes
			// from the scope, as it is now.
			if err := page.stream(s.Stream(ctx, req), false, skipFiles); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
	}
	d.hits = page.hitsOf()
	d.MatchesCount = d.hits.count
	d.Truncated = page.capped
	if page.cut {
		d.CutAt = ampMaxColumns
	}
	if d.MatchesCount > 0 {
		// The page shows results past offset: there are at least that
		// many, whatever the counting pass saw. An empty page says nothing.
		d.TotalMatches = max(d.TotalMatches, g.Offset+d.MatchesCount)
	}
	return nil
}

// stream adds the matching files of stream to the page until it is full,
// after the first skipFiles of them unless named (stream then searches the
// files the page needs, by name).
func (p *ampPage) stream(stream iter.Seq2[*scout.FileMatch, error], named bool, skipFiles int) error {
	if named {
		skipFiles = 0
	}
	seen := 0 // matching files streamed
	for f, err := range stream {
		if err != nil {
			return err
		}
		if seen++; seen <= skipFiles {
			continue
		}
		if p.full() {
			p.capped = p.capped || p.n < p.want // more results wait
			break
		}
		p.add(f, p.skip)
		p.skip = 0
	}
	return nil
}

// ampTally is what the counting pass of a content page learns: the
// search's totals, and the results of each matching file in order.
type ampTally struct {
	res   *scout.SearchResult // the totals, the files left out, the notes
	files []ampFileCount
	total int  // results
	lower bool // total is a lower bound: the pass stopped at its budget
	// With runs: from is the first line of the result the offset names,
	// lines the most matching lines the page's results take in one file,
	// and upto the matching lines of the offset's file from its start to
	// the end of its last result in the page.
	from, lines, upto int
}

// ampFileCount is a matching file and its number of results.
type ampFileCount struct {
	path string
	n    int
}

// ampCount counts the matching lines of every file, in the order the
// content is streamed, until budget lines have been seen.
func ampCount(ctx context.Context, s *scout.Searcher, req scout.SearchRequest, budget int) (*ampTally, error) {
	req.Mode, req.MaxFiles, req.MaxMatches, req.MaxMatchesPerFile = scout.SearchCount, -1, budget, -1
	res, err := s.Search(ctx, req)
	if err != nil {
		return nil, err
	}
	t := &ampTally{res: res, total: res.TotalMatchLines, lower: res.Truncated == scout.TruncBudget}
	t.files = make([]ampFileCount, len(res.Files))
	for i, f := range res.Files {
		t.files[i] = ampFileCount{f.Path, f.MatchLines}
	}
	return t, nil
}

// ampCountRuns counts the runs of matching lines of every file, in the
// order the content is streamed, until budget runs have been seen, and
// where the page of want runs from offset lies. It reads the lines (cut to
// one character), as runs need line numbers; a file keeps at most budget+1
// matching lines, past which the total is a lower bound.
func ampCountRuns(ctx context.Context, s *scout.Searcher, req scout.SearchRequest, offset, want, budget int) (*ampTally, error) {
	req.Mode, req.Before, req.After, req.MaxColumns, req.MaxMatchesPerFile = scout.SearchContent, 0, 0, 1, budget+1
	t := &ampTally{}
	res, err := s.StreamFunc(ctx, req, func(f *scout.FileMatch) bool {
		if t.total >= budget {
			t.lower = true // one more matching file
			return false
		}
		n, page := 0, 0 // runs, and matching lines in the page's runs
		for j, l := range f.Lines {
			if !l.Match {
				continue
			}
			if ampFirst(f.Lines, j, true) {
				if n++; t.total+n-1 == offset {
					t.from = l.Line
				}
			}
			if k := t.total + n - 1; k >= offset && k < offset+want {
				page++
				if t.total <= offset {
					t.upto = j + 1
				}
			}
		}
		t.files = append(t.files, ampFileCount{f.Path, n})
		t.total += n
		t.lines = max(t.lines, page)
		t.lower = f.Limited
		return !f.Limited
	})
	if err != nil {
		return nil, err
	}
	t.res = res
	return t, nil
}

// ampPlainName reports whether the path p of a matching file names that
// file alone when given as a path to search: no glob character, no ':' (an
// archive member, or a selector), no '\' (a separator in search paths).
func ampPlainName(p string) bool {
	return !glob.HasMeta(p) && !strings.ContainsAny(p, `:\`)
}

// ampFrom returns the lines of the file name from its (skip+1)-th result
// on, with the context before it: the result's first line is from with
// runs (a whole-file search whose ranges only filter the lines it reports
// finds the same matches), or else found by counting the matching lines up
// to a line (a binary search over line ranges); then the file is searched
// from there. before tells how many of the returned results come before
// the wanted one (they are context only). ok is false when name cannot be
// searched alone as one file.
func ampFrom(ctx context.Context, s *scout.Searcher, req scout.SearchRequest, name string, skip, from int, runs bool) (f *scout.FileMatch, before int, ok bool, err error) {
	if glob.HasMeta(name) {
		return nil, 0, false, nil
	}
	req.Paths = []string{name}
	if runs {
		return ampFromLine(ctx, s, req, from, runs)
	}
	count := req
	count.Mode, count.MaxFiles, count.MaxMatches, count.MaxMatchesPerFile = scout.SearchCount, -1, -1, -1
	// The smallest line L with skip+1 matching lines in 1..L.
	lo, hi := 1, 1
	for {
		n, err := ampLines(ctx, s, count, hi)
		if err != nil {
			return nil, 0, false, err
		}
		if n > skip {
			break
		}
		if hi > math.MaxInt/2 {
			return nil, 0, false, nil // the file changed since it was counted
		}
		lo, hi = hi+1, 2*hi
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		n, err := ampLines(ctx, s, count, mid)
		if err != nil {
			return nil, 0, false, err
		}
		if n > skip {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return ampFromLine(ctx, s, req, lo, runs)
}

// ampFromLine searches the one file of req from line lo on, with the
// context before it; before counts the results that start before lo.
func ampFromLine(ctx context.Context, s *scout.Searcher, req scout.SearchRequest, lo int, runs bool) (f *scout.FileMatch, before int, ok bool, err error) {
	req.Lines = []scout.Range{{Start: max(1, lo-req.Before)}}
	req.MaxMatchesPerFile += req.Before // matching lines in the context before it
	res, err := s.Search(ctx, req)
	if err != nil || len(res.Files) != 1 {
		return nil, 0, false, err
	}
	f = &res.Files[0]
	for j, l := range f.Lines {
		if l.Line < lo && ampFirst(f.Lines, j, runs) {
			before++
		}
	}
	return f, before, true, nil
}

// ampLines counts the matching lines in lines 1..last of the one file of
// req.
func ampLines(ctx context.Context, s *scout.Searcher, req scout.SearchRequest, last int) (int, error) {
	req.Lines = []scout.Range{{Start: 1, End: last}}
	res, err := s.Search(ctx, req)
	if err != nil {
		return 0, err
	}
	return res.TotalMatchLines, nil
}

// textSize is about the bytes of ampGrepText's list of files or counts,
// up to pitext.MaxBytes, for its buffer (grown twofold, it would touch
// twice what it holds); 0 in content mode.
func (d *ampGrepData) textSize() int {
	paths, extra := d.files, 1
	if d.counts != nil {
		paths, extra = d.counts.paths, 8
	}
	n := 0
	for _, p := range paths {
		if n += len(p) + extra; n > pitext.MaxBytes {
			break
		}
	}
	return n
}

// ampGrepText renders the result ripgrep-style for the model: path:line:text
// for content (path-line-text for context), one path per line for files,
// path:count for counts; then a paging note. The text stops at the last
// whole item within pitext.MaxBytes (data keeps everything), with a note.
func ampGrepText(g *ampGrep, d *ampGrepData) string {
	var b strings.Builder
	b.Grow(min(pitext.MaxBytes, d.textSize()))
	var item bytes.Buffer // reused from item to item
	shown := 0            // items written
	put := func() bool {
		if b.Len()+item.Len() > pitext.MaxBytes {
			return false
		}
		b.Write(item.Bytes())
		item.Reset()
		shown++
		return true
	}
	switch g.OutputMode {
	case "content":
		h := d.hits
		// As ripgrep prints context: a line shared by the windows of
		// several results is printed once, and "--" separates windows
		// that do not touch. last is the last line printed of file prev
		// (-1 before its first, so that "--" also separates files).
		var prev *scout.FileMatch
		last, name := 0, ""
		h.each(0, len(h.files), func(n int, f *scout.FileMatch, j int) bool {
			if f != prev {
				prev, last, name = f, -1, fname.Quote(f.Path)
			}
			if !h.context {
				for _, l := range f.Lines[j:h.end(f, j)] {
					ampLine(&item, name, l.Line, ':', l.Text, g.LineNumbers)
				}
				return put()
			}
			lo, hi := h.window(f, j)
			for lo < hi && f.Lines[lo].Line <= last {
				lo++
			}
			if lo < hi && n > 0 && f.Lines[lo].Line != last+1 && h.before+h.after > 0 {
				item.WriteString("--\n")
			}
			for _, c := range f.Lines[lo:hi] {
				sep := byte('-')
				if c.Match {
					sep = ':'
				}
				ampLine(&item, name, c.Line, sep, c.Text, g.LineNumbers)
				last = c.Line
			}
			return put()
		})
	case "files_with_matches":
		for _, f := range d.files {
			item.WriteString(fname.Quote(f))
			item.WriteByte('\n')
			if !put() {
				break
			}
		}
	case "count":
		for i, p := range d.counts.paths {
			item.WriteString(fname.Quote(p))
			item.WriteByte(':')
			item.Write(strconv.AppendInt(item.AvailableBuffer(), int64(d.counts.counts[i]), 10))
			item.WriteByte('\n')
			if !put() {
				break
			}
		}
	}
	text := strings.TrimSuffix(b.String(), "\n")
	if d.shown == 0 {
		text = "No matches found"
		switch {
		case d.total > 0 && d.LowerBound:
			// Runs of lines are counted up to a budget of lines per file,
			// which the offset can lie past.
			text += fmt.Sprintf(" at offset %d: counting stopped at %d results (a lower bound) before reaching it; narrow path, glob or pattern to page further", g.Offset, d.total)
		case d.total > g.Offset:
			// The files counted were gone when the page was read.
			text += " (the files changed while they were searched; search again)"
		case d.total > 0:
			text += fmt.Sprintf(" at offset %d (there are %d; use a smaller offset)", g.Offset, d.total)
		}
		for _, n := range append([]string{pitext.NotSearched(d.skipped, ampSkipOrder, ampGitHint(g, d)), ampFiltered(g, d)}, d.inPart...) {
			if n != "" {
				text += "\n" + n
			}
		}
		return text
	}
	// Files that may hold a match the search could not read, or not
	// whole, are named even when something matched.
	for _, n := range append([]string{pitext.NotSearched(d.skipped, ampMissed, nil)}, d.inPart...) {
		if n != "" {
			text += "\n\n" + n
		}
	}
	unit := "files"
	if g.OutputMode == "content" {
		unit = "results"
	}
	total := strconv.Itoa(d.total)
	if d.LowerBound {
		total = "at least " + total
	}
	switch {
	case shown < d.shown:
		text += fmt.Sprintf("\n\n[Text shows %s %d-%d of %s (%s limit); data holds the %d of this page. Use head_limit=%d with offset=%d for the next ones]",
			unit, g.Offset+1, g.Offset+shown, total, pitext.KB(pitext.MaxBytes), d.shown, shown, g.Offset+shown)
	case d.Truncated:
		text += fmt.Sprintf("\n\n[Showing %s %d-%d of %s (a reply holds at most %s of results). Use offset=%d for more, and head_limit to page in smaller steps]",
			unit, g.Offset+1, g.Offset+d.shown, total, pitext.KB(ampMaxBytes), g.Offset+d.shown)
	case g.Offset+d.shown < d.total:
		text += fmt.Sprintf("\n\n[Showing %s %d-%d of %s. Use offset=%d for more]", unit, g.Offset+1, g.Offset+d.shown, total, g.Offset+d.shown)
	case d.LowerBound:
		// The page ends where counting stopped (runs counted up to a
		// budget of lines per file): a next offset would find nothing.
		text += fmt.Sprintf("\n\n[Showing %s %d-%d of %s: counting stopped there; narrow path, glob or pattern to page further]", unit, g.Offset+1, g.Offset+d.shown, total)
	}
	if d.CutAt > 0 {
		text += fmt.Sprintf("\n\n[Some lines cut to %d characters]", d.CutAt)
	}
	return text
}

// ampFiltered says that glob or type left no file to search, when they
// did: the empty result is then the filter's, not the pattern's (ripgrep
// says "No files were searched"). Hidden and ignored files are left out
// before the filter and do not count; a file left out after it (binary,
// too large, unreadable, ...) was a candidate, and so was any file when
// an index answered (it reads no file that cannot match). "" otherwise.
func ampFiltered(g *ampGrep, d *ampGrepData) string {
	if d.searched > 0 || g.Glob == "" && g.Type == "" || d.backend != nil && d.backend.Index {
		return ""
	}
	for r, n := range d.skipped {
		if n > 0 && r != scout.SkipHidden && r != scout.SkipIgnored {
			return ""
		}
	}
	var what []string
	if g.Type != "" {
		what = append(what, fmt.Sprintf("type '%s'", errs.Echo(g.Type)))
	}
	hint := ""
	if g.Glob != "" {
		what = append(what, fmt.Sprintf("glob '%s'", errs.Echo(g.Glob)))
		if gl := strings.TrimPrefix(g.Glob, "/"); hasHiddenDir(gl) {
			// '**/' would not help: hidden files are searched only below
			// a path that names them.
			// The glob matches paths from the root: its directory is
			// taken from there when it lies below the path searched,
			// else below that path, as the caller must have meant. The
			// rest alone serves when it has no '/' (it then matches at
			// any depth below the directory); otherwise the glob names
			// the directory too.
			dir, rest := literalDirs(gl)
			if d.resolved != "." && dir != d.resolved && !strings.HasPrefix(dir, d.resolved+"/") {
				dir = path.Join(d.resolved, dir)
			}
			if strings.Contains(strings.TrimSuffix(rest, "/"), "/") {
				rest = glob.QuoteMeta(dir) + "/" + rest
			}
			hint = fmt.Sprintf(" (hidden files are searched only where path names them: pass \"path\": \"%s\", \"glob\": \"%s\")", fname.Quote(dir), fname.Quote(rest))
		} else if strings.HasSuffix(g.Glob, "/") {
			// As ripgrep's -g: such a glob selects the directories, and
			// no file below them matches it.
			hint = fmt.Sprintf(" (a glob selects files by their paths, and one that ends in '/' matches directories only: use '%s' for the files below those directories)", fname.Quote(filesBelow(g.Glob)))
		} else if strings.Contains(strings.TrimSuffix(g.Glob, "/"), "/") {
			if d.resolved == "." {
				hint = " (a glob with '/' matches paths from the project root, as results show them; start it with '**/' to match at any depth)"
			} else {
				hint = fmt.Sprintf(" (a glob with '/' matches paths from the project root, as results show them, not from '%s': start it with '%s/' to match below it, or with '**/' to match at any depth)", d.where, fname.Quote(glob.QuoteMeta(d.resolved)))
			}
		}
	}
	filters := strings.Join(what, " and ")
	return fmt.Sprintf("%s%s left no file to search under '%s'%s.", strings.ToUpper(filters[:1]), filters[1:], d.where, hint)
}

// ampLine writes one line as ripgrep prints it; file is the name as text
// shows it (fname.Quote).
func ampLine(b *bytes.Buffer, file string, n int, sep byte, text string, numbers bool) {
	b.WriteString(file)
	b.WriteByte(sep)
	if numbers {
		b.WriteString(strconv.Itoa(n))
		b.WriteByte(sep)
	}
	b.WriteString(text)
	b.WriteByte('\n')
}

// The skip reasons named by an empty result, in order, and those named by
// any result: files that were to be searched and could not be.
var (
	ampSkipOrder = []scout.SkipReason{scout.SkipBinary, scout.SkipIgnored, scout.SkipHidden, scout.SkipTooLarge, scout.SkipUnreadable, scout.SkipSymlink, scout.SkipSpecial}
	ampMissed    = []scout.SkipReason{scout.SkipTooLarge, scout.SkipUnreadable}
)

// ampGitHint is the hint on the ignored count of a search whose path names
// .git, or leads to one through a symlink (gitSearchPaths), which is never
// searched (pitext.SearchGitHint); nil otherwise.
func ampGitHint(g *ampGrep, d *ampGrepData) map[scout.SkipReason]string {
	if h := pitext.SearchGitHint(d.skipped, []string{d.gitPath}, ""); h != "" {
		return map[scout.SkipReason]string{scout.SkipIgnored: h}
	}
	return nil
}

// filesBelow is the filter glob of the files below the directories that
// g, a filter glob ending in '/', matches: "src/*/" is "src/*/**", and one
// without another '/', which matches at any depth, "**/testdata/**".
func filesBelow(g string) string {
	d := strings.TrimSuffix(g, "/")
	if !strings.Contains(d, "/") && !strings.HasPrefix(d, "**") {
		d = "**/" + d
	}
	return d + "/**"
}
