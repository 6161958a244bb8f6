package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/search"
)

func init() {
	define(Amplifier, "grep", ampGrepDescription, runAmpGrep)
}

const ampGrepDescription = `Search file contents with regex patterns (RE2 syntax), ripgrep-style.

- output_mode: "files_with_matches" (default, file paths), "content" (matching lines) or "count" (matching lines per file).
- path: file or directory to search (default: the project root).
- glob ("*.py", "*.{ts,tsx}") and type ("py", "js", "go", "rust", ...) filter files.
- -i case-insensitive; -n line numbers (content, default true); -A/-B/-C context lines (content).
- multiline: patterns may span lines and '.' matches newlines; without it no match crosses a line, and a pattern that spells a newline (\n) is an error, as in ripgrep.
- head_limit limits the results (0 = unlimited), offset skips the first ones: use total_matches to page.
Binary files and files over the size cap (10 MB by default) are skipped and counted.`

// ampGrepArgs are the arguments of amplifier grep (seed 003). -A, -B and
// -C are nil when absent: -A and -B override -C.
type ampGrepArgs struct {
	Pattern     string `json:"pattern" required:"true" missing:"Missing argument 'pattern': pass the regular expression to search for, e.g. {\"pattern\": \"TODO\"}." desc:"Regular expression pattern to search for"`
	Path        string `json:"path" desc:"File or directory to search (default: current directory)"`
	OutputMode  string `json:"output_mode" enum:"content,files_with_matches,count" default:"files_with_matches" desc:"Output format (default files_with_matches)"`
	IgnoreCase  bool   `json:"-i" default:"false" desc:"Case insensitive search"`
	LineNumbers bool   `json:"-n" default:"true" desc:"Show line numbers (default: true for content mode)"`
	After       *int   `json:"-A" min:"0" desc:"Lines of context after each match"`
	Before      *int   `json:"-B" min:"0" desc:"Lines of context before each match"`
	Context     *int   `json:"-C" min:"0" desc:"Lines of context before and after each match"`
	Glob        string `json:"glob" desc:"Glob pattern to filter files (e.g. \"*.py\", \"*.{ts,tsx}\")"`
	Type        string `json:"type" desc:"File type to search (e.g. \"js\", \"py\", \"rust\")"`
	Multiline   bool   `json:"multiline" default:"false" desc:"Enable multiline mode for cross-line patterns"`
	HeadLimit   int    `json:"head_limit" default:"0" min:"0" desc:"Limit output to the first N results (default 0 = unlimited)"`
	Offset      int    `json:"offset" default:"0" min:"0" desc:"Skip the first N results before applying head_limit (default 0)"`
}

// ampTotalBudget bounds the counting pass that computes total_matches when
// head_limit is set: past this many matching lines the total is a lower
// bound (total_is_lower_bound), so a page of 10 over a huge tree returns
// at once.
const ampTotalBudget = 100_000

// ampGrepData is what every mode's JSON output starts with.
type ampGrepData struct {
	Pattern      string `json:"pattern"`
	OutputMode   string `json:"output_mode"`
	TotalMatches int    `json:"total_matches"`
	MatchesCount int    `json:"matches_count"`
	// LowerBound reports that counting total_matches stopped at
	// ampTotalBudget lines (content mode with head_limit only).
	LowerBound bool `json:"total_is_lower_bound,omitempty"`

	hits    *ampHits       // content
	files   []string       // files_with_matches
	counts  *orderedCounts // count
	skipped map[string]int // files left out, by reason (for the text)
	// shown and total count the units offset and head_limit apply to:
	// lines in content mode, files otherwise.
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

// MarshalJSON writes the counts as one JSON object, keys in page order.
func (o *orderedCounts) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range o.paths {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(o.counts[i]))
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
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
	s := c.Searcher
	s.Workspace = c.workspace()
	req := scout.SearchRequest{
		Pattern:           g.Pattern,
		IgnoreCase:        g.IgnoreCase,
		Multiline:         g.Multiline,
		DotAll:            g.Multiline,
		Hidden:            false,
		MaxColumns:        -1,
		MaxFiles:          -1,
		MaxMatches:        -1,
		MaxMatchesPerFile: -1,
	}
	if g.Path != "" && g.Path != "." {
		req.Paths = []string{g.Path}
	}
	if g.Glob != "" {
		req.Globs = []string{g.Glob}
	}
	if g.Type != "" {
		req.Types = []string{g.Type}
	}
	d := &ampGrepData{Pattern: g.Pattern, OutputMode: g.OutputMode}
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
			d.counts = &orderedCounts{}
			d.TotalMatches = res.TotalMatchLines
			for _, f := range res.Files {
				d.counts.paths = append(d.counts.paths, f.Path)
				d.counts.counts = append(d.counts.counts, f.MatchLines)
				d.MatchesCount += f.MatchLines
			}
		} else {
			d.TotalMatches = res.TotalFiles
			d.files = []string{}
			for _, f := range res.Files {
				d.files = append(d.files, f.Path)
			}
			d.MatchesCount = len(d.files)
		}
		d.shown, d.total = len(res.Files), res.TotalFiles
		partial = res.NextSkip > 0
		st = scout.Stats{Files: res.Searched, Skipped: res.SkippedTotal()}
		d.skipped = skippedMap(res.Skipped)
	default:
		if err := ampContent(ctx, &s, req, g, d, &st); err != nil {
			return nil, err
		}
		d.shown, d.total = d.MatchesCount, d.TotalMatches
		partial = g.Offset+d.MatchesCount < d.TotalMatches || d.LowerBound
	}
	st.Matched = d.MatchesCount
	env := okEnvelope(partial, d.shape(), ampGrepText(g, d))
	env.Stats = st
	// The search has already refused a path resolveArg fails on; "." is
	// only a fallback.
	env.Context.PathResolved = "."
	if p, err := resolveArg(c, g.Path); err == nil {
		env.Context.PathResolved = pathutil.Display(p)
	}
	return env, nil
}

// ampContent fills the content-mode results: matching lines in path and
// line order, offset and head_limit applied to lines, each with its
// context when -A/-B/-C was given.
func ampContent(ctx context.Context, s *scout.Searcher, req scout.SearchRequest, g *ampGrep, d *ampGrepData, st *scout.Stats) error {
	req.Before, req.After = g.before, g.after
	want := -1 // lines to collect, offset included
	if g.HeadLimit > 0 {
		want = g.Offset + g.HeadLimit
		req.MaxMatchesPerFile = want
	}
	var files []scout.FileMatch
	seen := 0 // matching lines in files
	if want < 0 {
		// Everything is wanted: one exhaustive search, walk and search
		// overlapping.
		res, err := s.Search(ctx, req)
		if err != nil {
			return err
		}
		files = res.Files
		*st = scout.Stats{Files: res.Searched, Skipped: res.SkippedTotal()}
		d.skipped = skippedMap(res.Skipped)
	} else {
		for f, err := range s.Stream(ctx, req) {
			if err != nil {
				return err
			}
			files = append(files, *f)
			for _, l := range f.Lines {
				if l.Match {
					seen++
				}
			}
			if seen >= want {
				break
			}
		}
	}
	count := -1
	if g.HeadLimit > 0 {
		count = g.HeadLimit
	}
	d.hits = newAmpHits(files, g.Offset, count, g.contextSet, g.before, g.after)
	d.MatchesCount = d.hits.count
	if want < 0 {
		d.TotalMatches = d.hits.starts[len(files)]
		return nil
	}
	// A page was asked for: count every matching line, within a budget.
	req.Mode, req.MaxFiles, req.MaxMatches = scout.SearchCount, -1, ampTotalBudget
	req.Before, req.After = 0, 0
	res, err := s.Search(ctx, req)
	if err != nil {
		return err
	}
	d.TotalMatches = max(res.TotalMatchLines, seen)
	d.LowerBound = res.Truncated == scout.TruncBudget
	*st = scout.Stats{Files: res.Searched, Skipped: res.SkippedTotal()}
	d.skipped = skippedMap(res.Skipped)
	return nil
}

func skippedMap(m map[scout.SkipReason]int) map[string]int {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[string(k)] = v
	}
	return out
}

// ampGrepText renders the result ripgrep-style for the model: path:line:text
// for content (path-line-text for context), one path per line for files,
// path:count for counts; then a paging note. The text stops at the last
// whole item within format.MaxBytes (data keeps everything), with a note.
func ampGrepText(g *ampGrep, d *ampGrepData) string {
	var b strings.Builder
	var item strings.Builder
	shown := 0 // items written
	put := func() bool {
		if b.Len()+item.Len() > format.MaxBytes {
			return false
		}
		b.WriteString(item.String())
		item.Reset()
		shown++
		return true
	}
	switch g.OutputMode {
	case "content":
		h := d.hits
		h.each(0, len(h.files), func(n int, f *scout.FileMatch, j int) bool {
			if !h.context {
				ampLine(&item, f.Path, f.Lines[j].Line, ':', f.Lines[j].Text, g.LineNumbers)
			} else {
				if n > 0 {
					item.WriteString("--\n")
				}
				lo, hi := h.window(f, j)
				for _, c := range f.Lines[lo:hi] {
					sep := byte('-')
					if c.Match {
						sep = ':'
					}
					ampLine(&item, f.Path, c.Line, sep, c.Text, g.LineNumbers)
				}
			}
			return put()
		})
	case "files_with_matches":
		for _, f := range d.files {
			item.WriteString(f + "\n")
			if !put() {
				break
			}
		}
	case "count":
		for i, p := range d.counts.paths {
			fmt.Fprintf(&item, "%s:%d\n", p, d.counts.counts[i])
			if !put() {
				break
			}
		}
	}
	text := strings.TrimSuffix(b.String(), "\n")
	if d.shown == 0 {
		text = "No matches found"
		if d.total > 0 {
			text += fmt.Sprintf(" at offset %d (there are %d; use a smaller offset)", g.Offset, d.total)
		}
		if n := skippedNote(d.skipped); n != "" {
			text += "\n" + n
		}
		return text
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
			unit, g.Offset+1, g.Offset+shown, total, format.KB(format.MaxBytes), d.shown, shown, g.Offset+shown)
	case g.Offset+d.shown < d.total || d.LowerBound:
		text += fmt.Sprintf("\n\n[Showing %s %d-%d of %s. Use offset=%d for more]", unit, g.Offset+1, g.Offset+d.shown, total, g.Offset+d.shown)
	}
	return text
}

func ampLine(b *strings.Builder, file string, n int, sep byte, text string, numbers bool) {
	b.WriteString(file)
	b.WriteByte(sep)
	if numbers {
		b.WriteString(strconv.Itoa(n))
		b.WriteByte(sep)
	}
	b.WriteString(text)
	b.WriteByte('\n')
}

// skippedNote says what was left out of an empty result, or "".
func skippedNote(skipped map[string]int) string {
	if len(skipped) == 0 {
		return ""
	}
	var parts []string
	for _, k := range []string{search.SkipBinary, "ignored", "hidden", search.SkipTooLarge, search.SkipError, search.SkipSymlink, search.SkipSpecial} {
		if n := skipped[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, strings.ReplaceAll(k, "_", " ")))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Not searched: " + strings.Join(parts, ", ") + "."
}
