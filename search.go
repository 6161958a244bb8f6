package scout

import (
	"context"
	"iter"
	"slices"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/par"
	"github.com/scoutkit/scout/internal/search"
	"github.com/scoutkit/scout/internal/walk"
)

// Searcher runs regex content searches. Its zero value searches the current
// directory with the documented defaults (a nil *Searcher searches as the
// zero value does); it is safe for concurrent use and calls never modify it.
// A call's ctx must not be nil: a nil one is a CodeInvalidParam error.
type Searcher struct {
	Workspace
	// MaxFileSize skips files larger than this many bytes when the request
	// does not set its own cap. 0 means DefaultMaxFileSize (10 MB);
	// negative means no cap.
	MaxFileSize int64
	// Workers is the number of files searched at once, at most 256 (more
	// count as 256). 0 (or negative) means the number of CPUs Go uses, at
	// most 16, for a search that may stop early (a page, a match budget),
	// twice that for one that reads every file, with as many more on more
	// than two CPUs that take files from busy ones: more would hold more
	// descriptors than a Linux process's table starts with, and growing it
	// stalls every thread that opens a file (about 20 ms on a 16-core
	// virtual machine).
	Workers int
	// Resolvers resolve internal URLs given in SearchRequest.Paths, by
	// scheme ("skill", "memory", ... without "://"): a resource with a
	// backing file is searched as that file, a virtual one in memory (so is
	// one whose backing file cannot be read but that has Text; without
	// Text that is an error, CodeNotFound when the file is missing). nil
	// means only the built-in omp:// (Scout's own documentation: omp://
	// searches every document, omp://README.md one); an internal URL of
	// another known scheme (agent, artifact, issue, local, mcp, memory, pr,
	// rule, skill, vault) is then a CodeUnsupported error. A resolver
	// registered for "omp" replaces the built-in one; a nil Resolver is
	// ignored, as if its scheme were not in the map.
	Resolvers map[string]Resolver
	// Index, when set, answers searches from a prebuilt index of a commit
	// of the workspace's repository where that is exact and likely faster
	// than a scan (see Index); the result's Backend says whether it did.
	// nil means every search scans. Stream always scans.
	Index Index
}

// SearchMode says what a search reports for each matching file.
type SearchMode int

// The search modes.
const (
	// SearchContent reports the matching lines with their context.
	SearchContent SearchMode = iota
	// SearchFiles reports only which files match; each file is read up to
	// its first match.
	SearchFiles
	// SearchCount reports per-file counts of matching lines and matches,
	// without lines.
	SearchCount
)

// searchModes are the names of the search modes.
var searchModes = enum[SearchMode]{"search mode", "content", "files", "count"}

// String returns "content", "files" or "count"; a value other than the
// named modes gives its number ("9"), which UnmarshalText refuses.
func (m SearchMode) String() string { return searchModes.name(m) }

// MarshalText encodes the mode as its String, so JSON says "count".
func (m SearchMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes "content", "files" or "count" ("" is content).
func (m *SearchMode) UnmarshalText(b []byte) error { return searchModes.parse(b, m) }

// Span is a half-open range [Start, End) of byte offsets into a line's Text.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// LineMatch is one line of a search result: a matching line or a context
// line around one.
type LineMatch struct {
	// Line is the 1-based line number.
	Line int `json:"line"`
	// Text is the line without its terminator (LF or CRLF), valid UTF-8
	// (invalid bytes decoded as U+FFFD), cut when longer than the request's
	// MaxColumns (see Cut).
	Text string `json:"text"`
	// Match is true for a matching line and false for a context line.
	Match bool `json:"match"`
	// Spans are the matches on a matching line, in order, each the whole
	// match (not its capture groups) as byte offsets into Text; nil for
	// context lines. A span that ran past a cut ends at len(Text); a match
	// wholly past the cut has none.
	Spans []Span `json:"spans,omitempty"`
	// Cut reports that Text was shortened to MaxColumns characters.
	Cut bool `json:"cut,omitempty"`
}

// FileMatch is one matching file of a search result.
type FileMatch struct {
	// Path is the file's slash path relative to the root. An archive
	// member is "archive.zip:member/path"; an internal-URL resource is its
	// URL.
	Path string `json:"path"`
	// Lines are the matching and context lines in line order, at most
	// MaxMatchesPerFile matching lines, fewer where the page's MaxMatches
	// budget cut them; nil in the SearchFiles and SearchCount modes.
	Lines []LineMatch `json:"lines,omitempty"`
	// MatchLines is the number of matching lines found in the file, at
	// most MaxMatchesPerFile unless the mode is SearchCount, which counts
	// them all; in SearchContent mode, the matching lines in Lines.
	MatchLines int `json:"match_lines"`
	// Matches is the number of individual matches on the MatchLines
	// matching lines (a match that spans lines counts once). In the
	// SearchFiles mode they are the matches of the first matching line,
	// and of a line longer than 4 MiB only those of its windows up to the
	// first that holds one: the rest of the line is not read.
	Matches int `json:"matches"`
	// Limited reports that the file has more matching lines than Lines
	// holds: MaxMatchesPerFile, or the page's MaxMatches budget, let no
	// more through.
	Limited bool `json:"limited,omitempty"`
	// Tag is the hashline tag of the whole file (see the hashline style)
	// when the request asked for tags (SearchRequest.Tags); "" without
	// them, and for files over 4 MiB, archive members and in-memory
	// resources. It is the tag ReadResult.Tag gives the same text, so a
	// line cited from a search and from a read carries one tag; a notebook
	// is searched as its JSON but read as its cells, and those texts have
	// different lines and different tags.
	Tag string `json:"tag,omitempty"`
	// Virtual reports a result that is not an editable workspace file: an
	// archive member, an in-memory resource or an immutable source.
	Virtual bool `json:"virtual,omitempty"`
	// More reports a part of the file that more parts follow: with
	// SearchRequest.PartLines, Stream and StreamFunc yield a file of more
	// matching lines in consecutive parts, in line order, whose MatchLines
	// and Matches count the part's own lines. false on a file's last part,
	// and in Search's Files.
	More bool `json:"more,omitempty"`
	// Single reports, on a file that Stream or StreamFunc yields, that the
	// search is of this file alone, as SearchResult.Single says at the end.
	// false in Search's Files (SearchResult.Single says it there).
	Single bool `json:"single,omitempty"`
}

// SearchRequest is one search: the pattern, where to look and how much to
// return. Its zero value (with a Pattern) searches the whole root with the
// defaults below.
type SearchRequest struct {
	// Pattern is the regular expression (Go RE2 syntax). An empty pattern
	// matches every line.
	Pattern string `json:"pattern"`
	// Paths are the files, directories and globs to search, slash paths
	// relative to the root ("src", "src/**/*.go", "*.md"), or archive
	// members ("a.zip:src/x.ts"), or internal URLs ("omp://", see
	// Searcher.Resolvers). An archive (.zip, .tar, .tar.gz, .tgz) named
	// as an entry ("a.zip"), or a directory or glob inside one
	// ("a.zip:src/", "a.zip:src/**/*.ts"), is searched member by member,
	// each shown as "a.zip:member" (a zip's in name order, a tar's in
	// archive order, at the archive's place); its members are counted in
	// SearchResult.Skipped as files are (binary, too large, hidden, links,
	// unreadable). An archive met while walking a directory is searched as
	// a file, as ripgrep does without -z. nil or empty means the root. An entry
	// that does not exist is left out and listed in
	// SearchResult.MissingPaths; when every entry is missing, Search fails
	// with CodeNotFound. A glob that ends in '/' ("src/*/",
	// "**/testdata/") searches the files below the directories it
	// matches. A directory named .git, or one below it (".git",
	// ".git/*"), is never searched: nothing is, and it is counted as
	// SkipIgnored; a file in it named as an entry (".git/config") is
	// searched, as ripgrep searches a file it is given.
	//
	// An entry naming a file, an archive member or an internal URL may end
	// in line ranges, as a path given to Reader.Read does
	// ("src/a.go:50-100", "src/a.go:5-16,960-973", "a.zip:src/x.ts:10-20",
	// "skill://x:5-9"; see ParseSelector and SplitPathSelector): that file
	// is searched in those lines only, matches and context alike, while
	// the other entries are searched whole. An entry that names an
	// existing path as written is that path (a file named "a:1-2"). Ranges
	// after a glob, a directory or a whole archive, or a selector other
	// than ranges (":raw"), are a CodeInvalidParam error; ranges after a
	// missing path the CodeNotFound error "Path not found for line-range
	// selector: src/a.go", even among other entries. A file that another
	// entry asks for whole (named again without ranges, or held by a
	// directory, a glob or an archive entry) is searched whole, and the
	// ranges of several entries naming one file are joined.
	Paths []string `json:"paths,omitempty"`
	// IgnoreCase matches letters of either case.
	IgnoreCase bool `json:"ignore_case,omitempty"`
	// Multiline makes ^ and $ match at line ends and lets a pattern that
	// can match a newline span lines.
	Multiline bool `json:"multiline,omitempty"`
	// DotAll lets '.' match a newline too.
	DotAll bool `json:"dot_all,omitempty"`
	// Before and After are the context lines around each matching line;
	// 0 means none. Negative values are a CodeInvalidParam error.
	Before int `json:"before,omitempty"`
	After  int `json:"after,omitempty"`
	// Globs filter the files of directories: a glob without '/' matches
	// base names at any depth; "!glob" excludes, ahead of any including
	// glob, and an excluded directory ("!node_modules", "!src/gen",
	// "!build/", which matches directories only) all it holds. A glob
	// with '/' matches the path relative to the searched directory
	// ("sub/*.go" with Paths {"pkg"} selects pkg/sub/a.go). Files named
	// in Paths are not filtered. Hidden files and the ignore rules are
	// applied first. RipgrepGlobs changes all this to ripgrep's rules.
	// nil means every file.
	Globs []string `json:"globs,omitempty"`
	// RipgrepGlobs applies Globs as ripgrep's -g run from the root does:
	//   - a glob with '/' matches the path from the root, the path a
	//     result shows: "pkg/*.go" with Paths {"pkg"} selects pkg/a.go,
	//     and "sub/*.go" selects nothing there;
	//   - the globs decide ahead of Hidden and the ignore rules, for
	//     directories too: a file or directory an including glob matches
	//     is searched even when hidden or ignored ("*.go" searches a
	//     gitignored x.go; the walk enters no ignored or hidden directory
	//     that no glob matches), and one an excluding glob matches is
	//     left out, a directory with its contents ("!vendor"), not
	//     counted in Skipped;
	//   - of several globs the last that matches decides; a file none
	//     matches is searched only when all are excluding.
	// The members of an archive are filtered as without it.
	RipgrepGlobs bool `json:"ripgrep_globs,omitempty"`
	// Types filter files by type, as ripgrep's -t ("go", "py", "ts") or a
	// language name ("Python"). nil means every type.
	Types []string `json:"types,omitempty"`
	// Hidden includes files and directories whose name starts with '.'.
	// false skips them (counted as SkipHidden). ".git" is never walked
	// (see Paths).
	Hidden bool `json:"hidden,omitempty"`
	// NoIgnore disables .gitignore, .ignore, .rgignore and the git
	// excludes. false honours them (skipped files are counted as
	// SkipIgnored): .ignore files everywhere, .gitignore files and the
	// excludes only inside a git work tree (at or below a directory that
	// holds .git), as git and ripgrep do, so a .gitignore in an fs.FS
	// without .git is not applied. .rgignore files are read only with
	// RgIgnore.
	NoIgnore bool `json:"no_ignore,omitempty"`
	// RgIgnore also honours .rgignore files, as ripgrep does (its own
	// ignore files, which git, fd and the ignore crate's defaults do not
	// read): in every directory, in a git work tree or not, with
	// precedence over .ignore and .gitignore files, so that "!name" in a
	// .rgignore searches what they exclude, and "name" there skips what a
	// deeper .ignore re-includes (counted as SkipIgnored). false does not
	// read them. NoIgnore overrides it.
	RgIgnore bool `json:"rgignore,omitempty"`
	// PruneDirs are directory names never entered below the searched
	// directories (counted as SkipIgnored), e.g. "node_modules". nil
	// prunes nothing.
	PruneDirs []string `json:"prune_dirs,omitempty"`
	// MaxFileSize skips larger files (counted as SkipTooLarge). 0 means
	// the Searcher's MaxFileSize; negative means no cap.
	MaxFileSize int64 `json:"max_file_size,omitempty"`
	// Lines restricts matches, and the context shown, to these line
	// ranges. It needs Paths to name exactly one file (or archive member
	// or internal URL), without ranges of its own: Paths
	// {"src/a.go"} with Lines {{50, 100}} is Paths {"src/a.go:50-100"}
	// (giving both is a CodeInvalidParam error). With several paths, give
	// each its own ranges in Paths instead. nil means every line.
	Lines []Range `json:"lines,omitempty"`
	// Mode chooses lines, files or counts. The zero value is SearchContent;
	// a value other than the named ones is a CodeInvalidParam error.
	Mode SearchMode `json:"mode,omitempty"`
	// Skip passes over this many matching files: the page cursor (see
	// SearchResult.NextSkip). It is ignored when the scope is one file;
	// negative is a CodeInvalidParam error.
	Skip int `json:"skip,omitempty"`
	// MaxFiles is the number of matching files in a page. 0 means
	// DefaultMaxFiles (20); negative means all.
	MaxFiles int `json:"max_files,omitempty"`
	// MaxMatchesPerFile caps the matching lines returned per file. 0 means
	// DefaultMaxMatchesPerFile (20), or 200 when the scope is one file
	// (SearchResult.Single); negative means all. SearchCount always counts
	// every line.
	MaxMatchesPerFile int `json:"max_matches_per_file,omitempty"`
	// MaxMatches is the line budget of one call: the scan stops once this
	// many matching lines were seen from the page start (and one more
	// matching file shows the result is incomplete), and in SearchContent
	// mode a page holding more lines is cut to it round robin across its
	// files (the counts of the other modes are never cut). 0 means
	// DefaultMaxMatches (2000); negative means unlimited (totals are then
	// exact).
	MaxMatches int `json:"max_matches,omitempty"`
	// MaxColumns cuts longer lines to this many characters (LineMatch.Cut).
	// 0 means DefaultMaxColumns (512); negative means no cut.
	MaxColumns int `json:"max_columns,omitempty"`
	// Tags fills FileMatch.Tag with the hashline tag of each file of at
	// most 4 MiB. false leaves every Tag "", and the format package then
	// prints numbered rows ("N|text") and headings without a tag, not a
	// tag of another kind.
	Tags bool `json:"tags,omitempty"`
	// Unordered makes Stream and StreamFunc yield each matching file as
	// soon as it is searched, in no particular order, as ripgrep prints
	// without --sort: the first results come sooner. false yields them in
	// byte-wise path order. Search ignores it.
	Unordered bool `json:"unordered,omitempty"`
	// Progress, when not nil, is called with the size in bytes of each
	// file searched, as the search goes (never from two goroutines at
	// once): a progress display counts files and bytes with it. It must
	// return quickly. nil means no calls.
	Progress func(size int64) `json:"-"`
	// PartLines makes Stream and StreamFunc yield a file with more
	// matching lines than this in consecutive parts of at most this many
	// matching lines each, with their context (FileMatch.More set on all
	// but the last), so that a file of millions of matching lines takes the
	// memory of one part at a time; the other files wait meanwhile. Joined,
	// the parts are the file whole (Limited and Tag: every part carries
	// the tag of the whole file, Limited is on the last). Never split: the
	// SearchFiles and SearchCount modes, a Multiline or DotAll search
	// whose pattern can match a newline (it reads the whole file), archive
	// members and in-memory resources, files decoded from UTF-16 or UTF-32,
	// and, from a file's first line over 4 MiB on, the rest of it (one
	// part). The parts after the first are searched in the file as far as
	// it reached when its search began (what was appended since is not
	// searched); a file that shrank, or that another file took the place
	// of, meanwhile ends with a last part without lines and counts as
	// unreadable (SkippedPaths says why). 0 means each file whole;
	// negative is a CodeInvalidParam error. Search ignores it: a page holds
	// files whole.
	PartLines int `json:"part_lines,omitempty"`
}

// SearchResult is the outcome of a search.
type SearchResult struct {
	// Mode is the request's mode: whether Files carry lines or counts.
	Mode SearchMode `json:"mode"`
	// Files are the page's matching files in byte-wise path order; empty
	// when none matched, nil in the totals StreamFunc returns.
	Files []FileMatch `json:"files"`
	// Single reports that the scope was one file (or one archive member):
	// Skip and MaxFiles did not apply.
	Single bool `json:"single,omitempty"`
	// Skip is the request's Skip as applied (0 for a single file).
	Skip int `json:"skip,omitempty"`
	// TotalFiles counts the matching files, the skipped ones included; a
	// lower bound when Truncated is TruncBudget.
	TotalFiles int `json:"total_files"`
	// TotalMatchLines and TotalMatches count matching lines (as capped per
	// file, except in SearchCount mode) and matches over the matching files
	// seen, the skipped ones included; lower bounds when Truncated is
	// TruncBudget.
	TotalMatchLines int `json:"total_match_lines"`
	TotalMatches    int `json:"total_matches"`
	// Truncated says why the result is not complete: TruncFiles,
	// TruncBudget or TruncMatches; "" when it is complete.
	Truncated Truncation `json:"truncated,omitempty"`
	// NextSkip is the Skip of the next page; 0 when there is none.
	NextSkip int `json:"next_skip,omitempty"`
	// Searched counts the files searched.
	Searched int `json:"searched"`
	// LongLines, MultilineCut and NULStops count the files searched only
	// in part; 0 means none. LongLines: files that hold a line longer than
	// 4 MiB, which is searched in windows of 4 MiB that overlap by 64 KiB,
	// when the pattern can match more than 64 KiB: such a match that
	// crosses a window edge is missed (a pattern whose matches are at most
	// 64 KiB long, one without unbounded repetitions such as * or +, misses
	// none and counts no file). MultilineCut: files over 16 MiB, of
	// which a Multiline search read only the first 16 MiB. NULStops:
	// matching files in which a NUL byte past the first 64 KiB ended the
	// search, the rest being binary (a file with no match before its NUL
	// is counted in Skipped as binary).
	LongLines    int `json:"long_lines,omitempty"`
	MultilineCut int `json:"multiline_cut,omitempty"`
	NULStops     int `json:"nul_stops,omitempty"`
	// Skipped counts the files left out, by reason.
	Skipped map[SkipReason]int `json:"skipped,omitempty"`
	// MissingPaths are the request's entries that do not exist.
	MissingPaths []string `json:"missing_paths,omitempty"`
	// SkippedPaths name first the entries of Paths naming an archive
	// member, a directory or a glob inside an archive that were left out
	// (Named; not counted in Skipped, which counts what a walk left out):
	// the member is not UTF-8 text (SkipBinary) or too large, its archive
	// is over a limit (SkipTooLarge, with the limit in Message), or the
	// archive or the member cannot be read (SkipUnreadable, with Code and
	// Message: "not a valid zip file", corrupt, truncated, encrypted).
	// Then come samples (at most 10) of the files counted as
	// SkipUnreadable, with their failures (Named false).
	SkippedPaths []SkippedPath `json:"skipped_paths,omitempty"`
	// MaxColumns is the character length lines were cut to (see LineMatch.Cut);
	// 0 when lines are not cut.
	MaxColumns int `json:"max_columns,omitempty"`
	// Backend says whether the Searcher's Index answered, and why not when
	// it did not; nil when the Searcher has no Index. Searched and Skipped
	// count only the files read when the index answered.
	Backend *Backend `json:"backend,omitempty"`
}

// MatchLines returns the number of matching lines in the page.
func (r *SearchResult) MatchLines() int {
	n := 0
	for _, f := range r.Files {
		n += f.MatchLines
	}
	return n
}

// LinesCut reports whether a line of the page was cut at MaxColumns.
func (r *SearchResult) LinesCut() bool {
	for _, f := range r.Files {
		for _, l := range f.Lines {
			if l.Cut {
				return true
			}
		}
	}
	return false
}

// Limited reports whether a file of the page was cut at MaxMatchesPerFile
// or by the MaxMatches budget (FileMatch.Limited).
func (r *SearchResult) Limited() bool {
	for _, f := range r.Files {
		if f.Limited {
			return true
		}
	}
	return false
}

// SkippedTotal returns the number of files left out, all reasons together.
func (r *SearchResult) SkippedTotal() int {
	n := 0
	for _, c := range r.Skipped {
		n += c
	}
	return n
}

// Search runs req and returns one page of results. The error is a *Error:
// CodeInvalidParam for a bad pattern, glob, type, line range or limit,
// CodeNotFound when no entry of Paths exists (or one with line ranges
// does not), CodeAccessDenied for a path outside the
// root, CodeCanceled or CodeTimeout when ctx ends, and the code of its
// failure (CodeAccessDenied for a permission, CodeInternal for an I/O or a
// host failure) when an entry of Paths cannot be opened. Files found below
// the entries that cannot be searched are counted in SearchResult.Skipped,
// never returned as errors.
func (s *Searcher) Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	if s == nil {
		s = &Searcher{}
	}
	ctx, c, in, err := s.begin(ctx, &req)
	if err != nil {
		return nil, err
	}
	defer c.end()
	var (
		out     *search.Outcome
		backend *Backend
	)
	if s.Index != nil {
		out, backend, err = s.indexed(ctx, c.fsys, c.root, in)
	} else {
		out, err = search.Run(ctx, c.fsys, c.root, in)
	}
	if err != nil {
		return nil, fail(ctx, "Search", err)
	}
	r := totals(&req, &in, out)
	r.Backend = backend
	r.Files = make([]FileMatch, len(out.Files))
	r.Truncated = Truncation(out.Truncated)
	r.NextSkip = out.NextSkip
	if !r.Single {
		r.Skip = max(req.Skip, 0)
	}
	// A search can return hundreds of thousands of lines: convert on all
	// processors.
	par.Range(len(out.Files), 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			r.Files[i] = fileMatch(out.Files[i], nil)
		}
	})
	return r, nil
}

// totals is the result of a search without its page: the mode, the
// counts and the notes.
func totals(req *SearchRequest, in *search.Request, out *search.Outcome) *SearchResult {
	return &SearchResult{
		Mode:            req.Mode,
		MaxColumns:      max(in.Grep.MaxColumns, 0),
		Single:          out.Scope.Single(),
		TotalFiles:      out.TotalFiles,
		TotalMatchLines: out.TotalLines,
		TotalMatches:    out.TotalMatches,
		Searched:        out.Searched,
		LongLines:       out.LongLines,
		MultilineCut:    out.MultilineCut,
		NULStops:        out.NULStops,
		MissingPaths:    out.Scope.Missing,
		Skipped:         skipped(out.Skipped),
		SkippedPaths:    skippedPaths(out),
	}
}

// skippedPaths names the archive entries left out and the sampled per-file
// failures.
func skippedPaths(out *search.Outcome) []SkippedPath {
	var ps []SkippedPath
	for _, m := range out.Scope.BadMembers {
		ps = append(ps, SkippedPath{Path: m.Path, Reason: SkipReason(m.Reason), Code: Code(m.Code), Message: m.Why, Named: true})
	}
	for _, err := range out.Errors {
		sp := SkippedPath{Reason: SkipUnreadable, Code: CodeOf(err), Message: err.Error()}
		if e, ok := err.(*errs.Error); ok {
			sp.Path = e.Path
		}
		ps = append(ps, sp)
	}
	return ps
}

// Stream runs req and yields each matching file as soon as it is known, in
// byte-wise path order (as searched with req.Unordered), a file of many
// matching lines in parts with req.PartLines; Skip, MaxFiles and
// MaxMatches do not apply. An error (Search's: a bad request, or ctx
// ending with CodeCanceled or CodeTimeout) is yielded once, last, with a nil
// FileMatch; files found before ctx ended may come first. Stopping the loop
// stops the search.
func (s *Searcher) Stream(ctx context.Context, req SearchRequest) iter.Seq2[*FileMatch, error] {
	return func(yield func(*FileMatch, error) bool) {
		stopped := false
		_, err := s.StreamFunc(ctx, req, func(fm *FileMatch) bool {
			stopped = !yield(fm, nil)
			return !stopped
		})
		if err != nil && !stopped {
			yield(nil, err)
		}
	}
}

// StreamFunc is Stream with a callback, and the totals at the end: it
// calls fn for each matching file, or part of one (see
// SearchRequest.PartLines), never from two goroutines at once,
// until fn returns false, then returns a SearchResult without Files that
// counts the search (TotalFiles, TotalMatchLines, TotalMatches, Searched,
// LongLines, MultilineCut, NULStops, Skipped) and holds its notes (Single, MissingPaths, SkippedPaths,
// MaxColumns). When fn stops the search, the counts cover the
// files seen until then. A nil fn takes every file and drops it: the
// totals alone. The errors are Search's. A panic in fn (or in
// SearchRequest.Progress), which may run on a goroutine of the search's,
// stops the search and is raised again from StreamFunc, on the caller's
// goroutine (from the loop of Stream), where it can be recovered.
func (s *Searcher) StreamFunc(ctx context.Context, req SearchRequest, fn func(*FileMatch) bool) (*SearchResult, error) {
	if s == nil {
		s = &Searcher{}
	}
	if fn == nil {
		fn = func(*FileMatch) bool { return true }
	}
	ctx, c, in, err := s.begin(ctx, &req)
	if err != nil {
		return nil, err
	}
	defer c.end()
	var lent *lineScratch // the lines lent to fn (search.Lend)
	if search.Lent(ctx) {
		lent = new(lineScratch)
	}
	out, err := search.Stream(ctx, c.fsys, c.root, in, func(h search.Hit) bool {
		fm := fileMatch(h, lent)
		return c.hc.guard(func() bool { return fn(&fm) })
	})
	if err != nil {
		return nil, fail(ctx, "Search", err)
	}
	return totals(&req, &in, out), nil
}

// begin is the start that Search and StreamFunc share: it refuses a nil
// ctx, opens the tree (begin), and turns req into the internal request,
// its Progress guarded. When it returns no error, the caller defers
// c.end().
func (s *Searcher) begin(ctx context.Context, req *SearchRequest) (context.Context, *call, search.Request, error) {
	if err := nilContext(ctx, "Search"); err != nil {
		return nil, nil, search.Request{}, err
	}
	ctx, c, err := begin(ctx, s.open)
	if err != nil {
		return nil, nil, search.Request{}, err
	}
	in, err := s.internal(req)
	if err != nil {
		c.end()
		return nil, nil, search.Request{}, err
	}
	in.Progress = progress(c.hc, in.Progress)
	return ctx, c, in, nil
}

// internal turns the request into the internal one, with defaults.
func (s *Searcher) internal(req *SearchRequest) (search.Request, error) {
	if req.Skip < 0 {
		return search.Request{}, &Error{Code: CodeInvalidParam, Message: "Skip must be a non-negative number"}
	}
	if err := contextLines(req.Before, req.After); err != nil {
		return search.Request{}, err
	}
	if req.PartLines < 0 {
		return search.Request{}, &Error{Code: CodeInvalidParam, Message: "PartLines must be 0 (files whole) or more"}
	}
	if err := searchModes.check(req.Mode); err != nil {
		return search.Request{}, err
	}
	size := req.MaxFileSize
	if size == 0 {
		size = s.MaxFileSize
	}
	if size == 0 {
		size = DefaultMaxFileSize
	}
	g := grep.Options{
		Pattern:    req.Pattern,
		IgnoreCase: req.IgnoreCase,
		Multiline:  req.Multiline,
		DotAll:     req.DotAll,
		Before:     req.Before,
		After:      req.After,
		MaxColumns: limit(req.MaxColumns, DefaultMaxColumns),
		CountOnly:  req.Mode != SearchContent, // no lines to report in files mode either
		FirstOnly:  req.Mode == SearchFiles,
		PartLines:  req.PartLines,
	}
	for _, r := range req.Lines {
		g.LineRanges = append(g.LineRanges, [2]int{r.Start, r.End})
	}
	reg := registry(s.Resolvers)
	return search.Request{
		Paths:        req.Paths,
		Grep:         g,
		PerFile:      limit(req.MaxMatchesPerFile, DefaultMaxMatchesPerFile),
		PerFileOne:   limit(req.MaxMatchesPerFile, defaultMaxMatchesOneFile),
		Walk:         walk.Options{Hidden: req.Hidden, NoIgnore: req.NoIgnore, RgIgnore: req.RgIgnore, PruneDirs: req.PruneDirs},
		Globs:        req.Globs,
		RipgrepGlobs: req.RipgrepGlobs,
		Types:        req.Types,
		MaxFileSize:  size,
		Skip:         req.Skip,
		MaxFiles:     limit(req.MaxFiles, DefaultMaxFiles),
		Budget:       limit(req.MaxMatches, DefaultMaxMatches),
		Tags:         req.Tags,
		Workers:      min(s.Workers, maxWorkers),
		Registry:     reg,
		Unordered:    req.Unordered,
		Progress:     req.Progress,
	}, nil
}

// lineScratch is the memory of the lines lent to a StreamFunc's fn, reused
// from file to file.
type lineScratch struct {
	lines []LineMatch
	spans []Span
}

// fileMatch converts an internal hit; its lines are in sc when not nil,
// valid until the next call with sc, else in memory of their own.
func fileMatch(h search.Hit, sc *lineScratch) FileMatch {
	fm := FileMatch{
		Path:       h.Path,
		MatchLines: h.MatchLines,
		Matches:    h.Matches,
		Limited:    h.Stop == grep.StopLimit,
		Tag:        h.Tag,
		Virtual:    h.Mem || h.NoTag,
		More:       h.More,
		Single:     h.Single,
	}
	if len(h.Lines) == 0 {
		return fm
	}
	// One allocation for the lines and one for all their spans.
	n := 0
	for _, l := range h.Lines {
		n += len(l.Spans)
	}
	var spans []Span
	if sc != nil {
		sc.lines = slices.Grow(sc.lines[:0], len(h.Lines))[:len(h.Lines)]
		sc.spans = slices.Grow(sc.spans[:0], n)
		fm.Lines, spans = sc.lines, sc.spans
	} else {
		fm.Lines = make([]LineMatch, len(h.Lines))
		spans = make([]Span, 0, n)
	}
	for i, l := range h.Lines {
		lm := LineMatch{Line: l.Number, Text: l.Text, Match: l.Match, Cut: l.Cut}
		if len(l.Spans) > 0 {
			k := len(spans)
			for _, sp := range l.Spans {
				spans = append(spans, Span{Start: sp[0], End: sp[1]})
			}
			lm.Spans = spans[k:len(spans):len(spans)]
		}
		fm.Lines[i] = lm
	}
	return fm
}

// skipped converts the skip counts, dropping zeros.
func skipped(m map[string]int) map[SkipReason]int {
	var out map[SkipReason]int
	for k, n := range m {
		if n == 0 {
			continue
		}
		if out == nil {
			out = map[SkipReason]int{}
		}
		out[SkipReason(k)] = n
	}
	return out
}
