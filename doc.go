// Package scout gives LLM coding agents and Go programs three read-only
// file tools:
//
//   - [Searcher]: regex content search over files, directories, globs and
//     archive members, with context lines and paging, as fast as ripgrep.
//   - [Reader]: one path string with selectors ("f.go:50-100", ":raw",
//     ":conflicts") that reads text files, directories, archives, SQLite
//     databases, notebooks, images, documents and URLs.
//   - [Finder]: glob discovery, gitignore-aware, newest first, bounded by
//     limits and timeouts.
//
// Each tool is a struct whose zero value works, configured by documented
// fields (nil or 0 means the documented default), called with a request
// value and returning a typed result. Results are data: truncation,
// skipped files, counts and continuation cursors are fields, and the
// [github.com/scoutkit/scout/format] package renders them as text. Agent
// frameworks use [github.com/scoutkit/scout/tool], which exposes the tools
// as toolsets with JSON Schemas and returns the Standard [Envelope]; the
// `scout` command serves the same over MCP and on the command line.
//
// # File systems
//
// Every tool works on an [io/fs.FS] held in its [Workspace]. With no FS,
// the OS directory Workspace.Root (default: the current directory) is
// opened traversal-safe: ".." and symlinks cannot leave it (on Linux with
// openat2 RESOLVE_BENEATH, elsewhere with [os.Root]). Any fs.FS works,
// including [testing/fstest.MapFS], an [archive/zip.Reader] or a remote
// tree; optional abilities are used when present: [io/fs.ReadLinkFS]
// (symlinks are listed but never followed), [io/fs.StatFS],
// [io/fs.ReadDirFS], and [io.ReaderAt] on opened files (archives and
// databases are then read in place).
//
// # Paths and coordinates
//
// Paths in requests and results are slash-separated and relative to the
// root, as in io/fs; "." is the root. An absolute OS path is accepted when
// it lies inside Workspace.Root and refused with [CodeAccessDenied]
// otherwise. Line numbers are 1-based; byte spans are half-open offsets
// into the line's text; line text never includes its terminator.
//
// Read, Search and Find read a request path (a Read path, a Search path, a
// Find pattern or Base) by the same input rules. A path that exists as
// written is that path. Otherwise surrounding white space (a trailing
// newline) and one pair of surrounding double quotes are dropped, a '@'
// before '/' or '~' is dropped, Unicode spaces become ' ', a file:// URL
// is its path, and a leading "~" or "~/" is the home directory, an
// absolute path placed as above. A '\' is not a separator: it is a name's
// byte, and in a glob it quotes the next character ("a\*" matches "a*");
// a missing path whose reading with '/' for '\' exists says so in its
// error.
//
// The paths of results hold a name's exact bytes, whatever they are. Text
// (the format package, the toolsets' text) shows a name that is not valid
// UTF-8 or holds a control character (a newline, an escape), an invisible
// format character (a bidi override) or a line separator in Go's
// double-quoted form, "a\n*1|fake", so that it cannot forge a line; the
// toolsets' JSON data carries a name that is not valid UTF-8 in that form
// too, and a valid one exact. A request path (a Read path, a Search path, a
// Find pattern or Base) that does not exist as written and holds such a
// quoted name, whole or as a segment between '/' and ':' (`dir/"x\ty"`,
// `a.zip:"m\n"`), is read back unquoted, that name taken literally.
//
// A local file's lines are its text as the file holds it, control
// characters included. A web page's text is a server's: the control
// characters a terminal acts on (ESC and the rest of C0 but tab and
// newline, DEL, C1) are shown as symbols (ESC as '␛', C1 as U+FFFD) with
// a note that counts them, :raw too; and a URL's password (a username
// without one, often an access token, too) is shown as "xxxxx" wherever
// a result, an error or the arguments echoed show the URL, though the
// fetch sends it. Paging that shown URL ("url:301") pages the page read
// with the credentials while a URLCache keeps it.
//
// # Selectors
//
// A Read path may end in a selector after its last colon:
//
//	:N  :LN  :N-      from line N to the end
//	:A-B  :A..B       lines A to B (inclusive)
//	:A+C              C lines from A
//	:R1,R2,...        several ranges, sorted and merged ("5-10, 20-30")
//	:raw              the bytes as they are: no summary, no line prefixes
//	:conflicts        the file's unresolved merge conflicts
//	:A-B:raw          a range, raw (also raw:A-B)
//
// The grammar is the same after a file, a directory, an archive member, a
// web URL and an internal URL; raw and conflicts may be written in any
// case. A range reads exactly its lines ("f.go:30-40" gives lines 30 to
// 40); [ReadRequest] Before and After add context around it. A suffix
// that is not a selector stays part of the path, so archive members
// ("a.zip:dir/f.go:10-20") and database selectors ("app.db:users?limit=5")
// work. See [ParseSelector] and [SplitPathSelector].
//
// # Limits and truncation
//
// Every limit has a documented default (the Default constants, such as
// [DefaultMaxFiles] and [DefaultFindLimit]): a limit left at 0 means its
// default, and a negative limit means no limit. A result cut by a limit, a
// timeout or a byte cap says why in its Truncated field, of the one type
// [Truncation] shared by the three results ("" means complete; each
// reason says which totals become lower bounds), and the rendered text
// ends with a notice whose continuation hint always works when followed.
// Nothing is skipped silently: entries left out (ignored, hidden, binary,
// too large, unreadable, symlinks) are counted by [SkipReason] in the
// result's Skipped map, and those a result can name are listed as
// [SkippedPath] values. Results encode to snake_case JSON, like the
// [Envelope].
//
// # Errors
//
// A call returns an error only for a bad request (pattern, selector, glob,
// limits), a missing or escaping path, a path the request names that
// cannot be opened, a failure of a host's hook (a resolver, a fetcher, a
// FindOperations), a read of something that cannot be
// shown (a document that cannot be converted, a URL that cannot be fetched:
// an HTTP error status, a private address), or cancellation; per-file
// failures are counted in the result. A document converted in part is
// read as far as it goes, and its ReadResult.Incomplete says why. Errors
// are [*Error] values with a stable [Code] (INVALID_PARAM, NOT_FOUND,
// ACCESS_DENIED, TIMEOUT, ...) and a message that says how to fix the
// call. A Code is itself an [errors.Is] target:
// errors.Is(err, scout.CodeNotFound) reports a missing path without
// matching message text, and [CodeOf] returns the code of any error.
//
// # Output formats
//
// [github.com/scoutkit/scout/format] prints search, read and summary lines
// in three styles. "hashline" (the pi default) heads a file's lines with
// ¶path#TAG, where TAG is four hex digits derived from the whole file's
// content (xxHash32 of the LF-normalised text with trailing blanks and a
// leading UTF-8 byte-order mark removed, low 16 bits; none for files over
// 4 MiB), and prints lines as "N:text" (search marks matches "*N:").
// "numbered" prints "N|text", "plain" the text alone. Tool calls return
// the Standard [Envelope]: status, data, text, stats, context, and error
// when the status is "error".
//
// # Building
//
// SQLite databases and the code summaries of languages other than Go
// (tree-sitter) need cgo: a C compiler, CGO_ENABLED=1. Built without it,
// everything else works the same; a database read is then a
// CodeUnsupported error, and a source file of those languages read
// without a selector is shown as lines.
package scout
