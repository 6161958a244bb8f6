// Package archive reads zip, tar, tar.gz and tgz archives for Scout's read
// and search tools: it finds the archive part of a path such as
// "dist/a.zip:src/f.ts:50-60", lists the immediate children of a directory
// inside an archive, and streams a member's bytes.
//
// A zip is indexed from its central directory through io.ReaderAt; members
// are inflated only when read. A tar has no index, so each Lookup or Walk
// scans it from the start, decompressing a .tar.gz as it goes; a member is
// streamed, never held in memory, and only the entries a listing returns are
// kept.
//
// Entry names are normalised: '\' becomes '/', empty and "." segments are
// dropped (so "/etc/passwd" is listed as "etc/passwd"), and an entry with a
// ".." segment, or a name over MaxNameBytes, is left out and counted in
// Item.Rejected. Nothing is ever extracted or written.
//
// Limits bound the work done for hostile input: the number of entries, the
// size of a zip's central directory, the decompressed bytes read from one
// member, and the decompressed bytes one pass over a .tar.gz may produce.
// Exceeding one is a TOO_LARGE error, and so is a zip whose entries
// overlap, or a tar whose entry is preceded by more than 4 MiB of extended
// or long-name headers.
//
// OpenZip reads a zip from an io.ReaderAt under the same limits, for
// formats that are zips inside (OOXML, EPUB).
package archive

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/selector"
)

// Format is an archive container format.
type Format uint8

// The formats. None is the zero value: not an archive.
const (
	None  Format = iota
	Zip          // .zip
	Tar          // .tar
	TarGz        // .tar.gz or .tgz
)

// exts are the recognised extensions, longest first so that ".tar.gz" wins
// over ".tar" nowhere (".tar" must be followed by ':' or the end).
var exts = []struct {
	ext string
	f   Format
}{{".tar.gz", TarGz}, {".tgz", TarGz}, {".zip", Zip}, {".tar", Tar}}

// FormatOf returns the format named by the extension of name, compared
// without regard to case; None when name has none of .zip, .tar, .tar.gz,
// .tgz.
func FormatOf(name string) Format {
	for _, e := range exts {
		if hasSuffixFold(name, e.ext) {
			return e.f
		}
	}
	return None
}

// hasSuffixFold is strings.HasSuffix without regard to ASCII case; it
// compares bytes, so every index into s stays valid.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// Split is one way to read a path as an archive file and a path inside it.
type Split struct {
	// Archive is the archive file's path, e.g. "dist/a.zip".
	Archive string
	// Inner is what followed the ':' after Archive: a member path, possibly
	// followed by ":selector". "" means the archive root.
	Inner string
}

// Candidates returns every split of p after an archive extension (.tar.gz,
// .tgz, .zip or .tar, any case) that is followed by ':' or the end of p,
// longest archive path first. nil means p names no archive.
func Candidates(p string) []Split {
	var out []Split
	for end := len(p); end > 0; end-- {
		if end < len(p) && p[end] != ':' {
			continue
		}
		if FormatOf(p[:end]) == None {
			continue
		}
		s := Split{Archive: p[:end]}
		if end < len(p) {
			s.Inner = p[end+1:]
		}
		out = append(out, s)
	}
	return out
}

// Resolve returns the first of Candidates(p) whose archive path is a
// regular file in fsys; a directory named like an archive is passed over.
// ok is false when no candidate is a file. err is set only for a stat
// failure other than "does not exist" (a permission error, say).
func Resolve(fsys fs.FS, p string) (s Split, ok bool, err error) {
	for _, c := range Candidates(p) {
		st, err := pathutil.Stat(fsys, c.Archive)
		switch {
		case err == nil && st.Mode().IsRegular():
			return c, true, nil
		case err == nil, errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrInvalid):
			continue
		default:
			return Split{}, false, err
		}
	}
	return Split{}, false, nil
}

// The defaults of Limits.
const (
	DefaultMaxEntries     = 200_000
	DefaultMaxDirBytes    = 64 << 20
	DefaultMaxMemberBytes = 4 << 30
	DefaultMaxScanBytes   = 8 << 30
	DefaultMaxInMemory    = 256 << 20
)

// Limits bounds the work done on one archive. For each field 0 means the
// default named after it and a negative value means no limit.
type Limits struct {
	// MaxEntries is the number of entries an archive may hold
	// (DefaultMaxEntries, 200,000).
	MaxEntries int
	// MaxDirBytes is the size of a zip's central directory, which is read
	// into memory to index the zip, and the bytes of the names a listing
	// of one directory keeps (DefaultMaxDirBytes, 64 MiB).
	MaxDirBytes int64
	// MaxMemberBytes is the number of decompressed bytes read from one
	// member (DefaultMaxMemberBytes, 4 GiB).
	MaxMemberBytes int64
	// MaxScanBytes is the number of decompressed bytes one pass over a
	// .tar.gz, or one Walk over a zip, may produce (DefaultMaxScanBytes,
	// 8 GiB).
	MaxScanBytes int64
	// MaxInMemory is the size of a zip that is read into memory when its
	// file offers no io.ReaderAt (DefaultMaxInMemory, 256 MiB).
	MaxInMemory int64
}

func (l Limits) withDefaults() Limits {
	def := func(v, d int64) int64 {
		switch {
		case v == 0:
			return d
		case v < 0:
			return 0 // 0 inside the package means unlimited
		}
		return v
	}
	l.MaxEntries = int(def(int64(l.MaxEntries), DefaultMaxEntries))
	l.MaxDirBytes = def(l.MaxDirBytes, DefaultMaxDirBytes)
	l.MaxMemberBytes = def(l.MaxMemberBytes, DefaultMaxMemberBytes)
	l.MaxScanBytes = def(l.MaxScanBytes, DefaultMaxScanBytes)
	l.MaxInMemory = def(l.MaxInMemory, DefaultMaxInMemory)
	return l
}

// Entry is a file or directory inside an archive.
type Entry struct {
	// Name is the normalised slash-separated path inside the archive,
	// without a leading or trailing '/'.
	Name string
	// Dir reports a directory, recorded in the archive or implied by the
	// names of other entries.
	Dir bool
	// Size is the uncompressed size in bytes; 0 for directories.
	Size int64
	// ModTime is the recorded modification time; zero when unknown.
	ModTime time.Time
	// Symlink reports a symbolic link.
	Symlink bool
	// Link is the target of a symbolic or hard link (tar), or of a
	// symbolic link (zip) once its data is read; "" otherwise.
	Link string
	// hard marks a hard link, whose target is named from the archive's
	// root (a symbolic link's from its own directory).
	hard bool
}

// Base returns the last element of Name.
func (e Entry) Base() string { return e.Name[strings.LastIndexByte(e.Name, '/')+1:] }

// IsLink reports a symbolic or hard link, which has no data of its own to
// read.
func (e Entry) IsLink() bool { return e.Symlink || e.Link != "" }

// Archive is an opened archive. It is not safe for concurrent use. A zip
// keeps its file open until Close; a tar's first Lookup or Walk goes on
// with the pass Open began (open until then, or until Close), and each
// later one reopens it.
type Archive struct {
	format Format
	name   string
	lim    Limits
	zip    *zipIndex  // Zip only
	file   io.Closer  // the zip's file
	fsys   fs.FS      // Tar and TarGz
	first  *tarStream // the pass Open read the first header of; nil once taken
}

// Open opens the archive name in fsys, with the format given by its
// extension, and reads enough of it to know that it is one: a zip's
// central directory, a tar's first header (a .tar.gz's through its gzip
// stream). A file that is not an archive of its format, or whose directory
// or first header is corrupt, is an UNSUPPORTED error; Why says what
// failed. A tar stays open, for the first Lookup or Walk to read on from
// its first header.
func Open(ctx context.Context, fsys fs.FS, name string, lim Limits) (*Archive, error) {
	a := &Archive{format: FormatOf(name), name: name, lim: lim.withDefaults(), fsys: fsys}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch a.format {
	case None:
		return nil, errs.New(errs.Unsupported, "'%s' is not an archive; Scout reads .zip, .tar, .tar.gz and .tgz", errs.Echo(name))
	case Zip:
		z, file, err := openZip(fsys, name, a.lim)
		if err != nil {
			return nil, err
		}
		a.zip, a.file = z, file
		return a, nil
	}
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, openError(name, err)
	}
	if !st.Mode().IsRegular() {
		return nil, cannotRead(errs.Unsupported, name, nil, "not a regular file")
	}
	s, err := a.openTar(ctx)
	if err != nil {
		return nil, err
	}
	h, err := s.header()
	if err != nil && err != io.EOF {
		s.Close()
		return nil, s.corrupt(err)
	}
	s.head, a.first = h, s
	return a, nil
}

// Close releases the archive's file. Items returned by Lookup must be
// closed first.
func (a *Archive) Close() error {
	if s := a.first; s != nil {
		a.first = nil
		return s.Close()
	}
	if a.file != nil {
		return a.file.Close()
	}
	return nil
}

// Item is what Lookup found: a directory with its children, or a file
// member ready to be read.
type Item struct {
	// Path is the normalised member path; "" is the archive root.
	Path string
	// Selector is what followed the member path in the inner path: the text
	// after a ':' ("50-60", "raw"), or text starting with '?' after a
	// database member ("data.db?q=SELECT 1"). "" when nothing followed.
	Selector string
	// Dir reports a directory; then Children is set and Body is nil.
	Dir bool
	// Entry is the file member when Dir is false.
	Entry Entry
	// Children are a directory's immediate children, sorted by name without
	// regard to case (see Sort).
	Children []Entry
	// Rejected counts the entries left out of the archive root's listing
	// because a segment of their name was "..", or their name was over
	// MaxNameBytes. It is 0 for other items.
	Rejected int
	// Binary reports that the first 8 KiB of a file member hold a NUL byte
	// or invalid UTF-8.
	Binary bool

	body   *bufio.Reader
	closer io.Closer
}

// SniffBytes is how much of a member Lookup inspects for Item.Binary.
const SniffBytes = 8 << 10

// Body returns the file member's bytes, decompressed; nil for a directory.
// Reading past Limits.MaxMemberBytes fails with TOO_LARGE, and a canceled
// context stops the stream.
func (it *Item) Body() io.Reader {
	if it.body == nil {
		return nil
	}
	return it.body
}

// Head returns up to n (at most SniffBytes) first bytes of the file member
// without consuming them, to recognise its format (a SQLite database, say);
// nil for a directory.
func (it *Item) Head(n int) []byte {
	if it.body == nil {
		return nil
	}
	b, _ := it.body.Peek(min(n, SniffBytes))
	return b
}

// Text reads the whole file member as a string, or fails with TOO_LARGE
// past max bytes (max <= 0 means Limits.MaxMemberBytes alone bounds it).
func (it *Item) Text(max int64) (string, error) {
	if it.body == nil {
		return "", errs.New(errs.InvalidParam, "'%s' is a directory inside the archive", errs.Echo(it.Path))
	}
	r := io.Reader(it.body)
	if max > 0 {
		r = io.LimitReader(r, max+1)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return "", err
	}
	if max > 0 && int64(len(b)) > max {
		return "", errs.New(errs.TooLarge, "Archive entry '%s' is larger than %s; read it with a line range (e.g. :1-500)", errs.Echo(it.Path), dirtree.FormatBytes(max))
	}
	return string(b), nil
}

// Close releases what the item holds open. It is safe to call twice.
func (it *Item) Close() error {
	if it.closer == nil {
		return nil
	}
	c := it.closer
	it.closer = nil
	return c.Close()
}

// setBody installs r as the item's body and sniffs it for binary content.
func (it *Item) setBody(r io.Reader, c io.Closer) error {
	it.body = bufio.NewReaderSize(r, 64<<10)
	it.closer = c
	head, err := it.body.Peek(SniffBytes)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		it.Close()
		return err
	}
	it.Binary = IsBinary(head, len(head) == SniffBytes)
	return nil
}

// IsBinary reports whether head, the start of a file, holds a NUL byte or
// invalid UTF-8. cut says head may end inside a character, whose incomplete
// last bytes are then not held against it.
func IsBinary(head []byte, cut bool) bool {
	for i := 0; i < len(head); {
		c := head[i]
		if c == 0 {
			return true
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && n <= 1 {
			return !(cut && !utf8.FullRune(head[i:]))
		}
		i += n
	}
	return false
}

// Lookup resolves inner, a member path optionally followed by a selector,
// to a directory listing or an opened file member. The member path ends at
// the first ':' followed by a selector; for a database member (.db, .db3,
// .sqlite, .sqlite3) at its first ':' or '?'. Other colons belong to the
// name; when no member has the name so cut, a file member named by the
// whole of inner is read ("n:1-2"). "" and "/" are the archive root. A member path
// with a ".." segment is an INVALID_PARAM error, a missing one NOT_FOUND
// ("Path 'x' not found inside archive"). The caller must Close the item.
func (a *Archive) Lookup(ctx context.Context, inner string) (*Item, error) {
	member, sel := cutInner(inner)
	p, ok := Clean(member)
	if !ok {
		return nil, errs.New(errs.InvalidParam, "Archive path '%s' contains '..'; paths inside an archive cannot leave it", errs.Echo(member))
	}
	b := newDirBuilder(p, a.lim.MaxDirBytes)
	b.alt, b.altSel = firstCut(inner, member)
	if w, ok := Clean(inner); ok && w != p && member != inner {
		b.whole = w
	}
	it, err := a.lookup(ctx, b, sel)
	if err != nil && b.wholeSeen {
		// What followed a ':' was no selector: the member's name holds it.
		return a.lookup(ctx, newDirBuilder(b.whole, a.lim.MaxDirBytes), "")
	}
	return it, err
}

func (a *Archive) lookup(ctx context.Context, b *dirBuilder, sel string) (*Item, error) {
	if a.format == Zip {
		return a.zip.lookup(ctx, b, sel, a.name, a.lim)
	}
	return a.lookupTar(ctx, b, sel)
}

// WalkFunc is called by Walk for each file member. r streams the member's
// bytes; it is nil, with err set, for a member that cannot be read
// (encrypted, an unsupported compression method, a link). Returning
// fs.SkipAll stops the walk without error; any other error stops it and is
// returned by Walk.
type WalkFunc func(e Entry, r io.Reader, err error) error

// Walk calls fn for each file member at or under dir ("" means the whole
// archive): a zip's in byte-wise name order (its index is in memory), a
// tar's in archive order (it is one stream, read once). Directories are not
// passed to fn. It returns the number of entries left out for unsafe names.
func (a *Archive) Walk(ctx context.Context, dir string, fn WalkFunc) (rejected int, err error) {
	d, ok := Clean(dir)
	if !ok {
		return 0, errs.New(errs.InvalidParam, "Archive path '%s' contains '..'; paths inside an archive cannot leave it", errs.Echo(dir))
	}
	if a.format == Zip {
		return a.zip.walk(ctx, d, fn, a.lim, a.name)
	}
	return a.walkTar(ctx, d, fn)
}

// cutInner splits inner into a member path and what follows it. The
// member path ends at the first ':' that is followed by a selector (or by
// nothing), or at the first ':' or '?' after a database name; any other
// ':' is part of the name ("a:b.txt", "f.txt:1-5"). Its selector is the
// text after that ':' (a database's after its ':', or from its '?').
func cutInner(inner string) (member, sel string) {
	for i := 0; i < len(inner); i++ {
		switch c := inner[i]; {
		case c == '?' && isDBName(inner[:i]):
			return inner[:i], inner[i:]
		case c != ':':
		case isDBName(inner[:i]) || isSelector(inner[i+1:]):
			return inner[:i], inner[i+1:]
		}
	}
	return inner, ""
}

// isSelector reports whether s, the text after a ':', has the form of a
// selector (a valid one or not) or is empty.
func isSelector(s string) bool {
	_, ok, _ := selector.Parse(s)
	return ok || s == ""
}

// firstCut returns the member path that inner names when it ends at the
// first ':', cleaned, and the text after that ':', when that path differs
// from member (cutInner's); "" otherwise. If member is missing and alt
// exists, sel was meant as a selector and is a mistyped one.
func firstCut(inner, member string) (alt, sel string) {
	m, sel, ok := strings.Cut(inner, ":")
	if !ok || m == member {
		return "", ""
	}
	if c, ok := Clean(m); ok && c != "" {
		return c, sel
	}
	return "", ""
}

func isDBName(name string) bool {
	for _, e := range []string{".sqlite", ".sqlite3", ".db", ".db3"} {
		if hasSuffixFold(name, e) {
			return true
		}
	}
	return false
}

// Clean normalises a path inside an archive: '\' becomes '/', empty and "."
// segments are dropped. ok is false when a segment is "..".
func Clean(name string) (clean string, ok bool) {
	if fastClean(name) {
		return name, true
	}
	name = strings.ReplaceAll(name, `\`, "/")
	parts := strings.Split(name, "/")
	out := parts[:0]
	for _, s := range parts {
		switch s {
		case "", ".":
			continue
		case "..":
			return "", false
		}
		out = append(out, s)
	}
	return strings.Join(out, "/"), true
}

// MaxNameBytes is the longest member name kept, pathutil.MaxPathBytes: a
// longer one could not be named in a path Scout reads, and a tar's header
// may hold a name of up to 1 MiB.
const MaxNameBytes = pathutil.MaxPathBytes

// memberName returns the normalised name of an entry named raw, as Clean
// does; ok is false, and the entry is to be rejected, when a segment is
// ".." or the name is over MaxNameBytes.
func memberName(raw string) (name string, ok bool) {
	name, ok = Clean(raw)
	if !ok || len(name) > MaxNameBytes {
		return "", false
	}
	return name, true
}

// fastClean reports whether name is already clean, so that the common case
// costs no allocation.
func fastClean(name string) bool {
	if name == "" {
		return true
	}
	if name[0] == '/' || name[len(name)-1] == '/' || strings.IndexByte(name, '\\') >= 0 || strings.Contains(name, "//") {
		return false
	}
	for s := range strings.SplitSeq(name, "/") {
		if s == "." || s == ".." {
			return false
		}
	}
	return true
}

// notFound is the error for a member path that names nothing.
func notFound(p string) error {
	return errs.New(errs.NotFound, "Path '%s' not found inside archive", errs.Echo(p))
}

// openError turns an error opening the archive file into a coded error.
func openError(name string, err error) error {
	code := errs.CodeOf(err)
	if code == errs.Internal {
		code = errs.Unsupported
	}
	return cannotRead(code, name, err, "%v", err)
}

// failure is the cause of an error about an archive as a whole: why is
// what failed, said without naming the archive.
type failure struct {
	why string
	err error // the cause; nil when none
}

func (f *failure) Error() string { return f.why }
func (f *failure) Unwrap() error { return f.err }

// cannotRead is the error, with code, of the archive name as a whole:
// "Cannot read archive 'NAME': " and what failed, wrapping cause (nil when
// none).
func cannotRead(code errs.Code, name string, cause error, format string, args ...any) *errs.Error {
	why := errs.Sprintf(format, args...)
	return &errs.Error{Code: code, Message: "Cannot read archive '" + errs.Echo(name) + "': " + why, Err: &failure{why: why, err: cause}}
}

// Why returns what failed in err, an error of this package, for a caller
// that names the archive itself: for an error about the archive as a whole
// ("Cannot read archive 'a.zip': not a valid zip file") what follows the
// name ("not a valid zip file"), else err's message, which names the
// member or archive concerned ("Archive entry 'f.txt' is encrypted; ...").
func Why(err error) string {
	var f *failure
	if errors.As(err, &f) {
		return f.why
	}
	return err.Error()
}

// capReader wraps a decompressing stream: it stops at a byte cap and on
// context cancellation, and turns decoding errors into coded ones.
type capReader struct {
	ctx  context.Context
	r    io.Reader
	what string // "Archive entry 'x'" or "Archive 'a.tgz'", for messages
	max  int64  // the cap; 0 means none
	left int64  // bytes still allowed under the cap
}

// overCap is the error of a stream that decompresses to more than max
// bytes.
func overCap(what string, max int64) error {
	return errs.New(errs.TooLarge, "%s decompresses to more than %s, Scout's limit", what, dirtree.FormatBytes(max))
}

func newCapReader(ctx context.Context, r io.Reader, what string, max int64) *capReader {
	return &capReader{ctx: ctx, r: r, what: what, max: max, left: max}
}

func (c *capReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if c.max > 0 && c.left <= 0 {
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			return 0, overCap(c.what, c.max)
		}
		return 0, c.wrap(err)
	}
	if c.max > 0 && int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, c.wrap(err)
}

// wrap codes a decoding error; nil, io.EOF and coded errors pass through.
func (c *capReader) wrap(err error) error {
	if err == nil || err == io.EOF || errs.CodeOf(err) != errs.Internal {
		return err
	}
	if err == io.ErrUnexpectedEOF {
		return errs.Wrap(errs.Unsupported, err, "%s is truncated", c.what)
	}
	return errs.Wrap(errs.Unsupported, err, "%s is corrupt: %v", c.what, err)
}
