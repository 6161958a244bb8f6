package scout_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/scoutkit/scout/tool"
)

// readBoth reads path over files as a MapFS and as a temporary directory
// and returns the text (or "error CODE: message") of each run; both must
// agree.
func readBoth(t *testing.T, files map[string][]byte, path string, setup func(*scout.Reader)) string {
	t.Helper()
	m := fstest.MapFS{}
	for name, data := range files {
		m[name] = &fstest.MapFile{Data: data, Mode: 0o644, ModTime: testfs.Epoch}
	}
	var outs [2]string
	for i, mode := range []string{"mapfs", "dir"} {
		r := scout.Reader{Now: func() time.Time { return goldenNow }}
		if mode == "mapfs" {
			r.FS, r.Root = m, "/scout-root"
		} else {
			r.Root = testfs.WriteDir(t, m)
		}
		if setup != nil {
			setup(&r)
		}
		res, err := r.Read(context.Background(), scout.ReadRequest{Path: path})
		if err != nil {
			var se *scout.Error
			if !errors.As(err, &se) {
				t.Fatalf("%s: %v is not a *scout.Error", mode, err)
			}
			outs[i] = "error " + string(se.Code) + ": " + se.Message
			continue
		}
		outs[i] = format.ReadText(res, nil)
	}
	if outs[0] != outs[1] {
		t.Fatalf("MapFS and directory runs differ:\n--- mapfs\n%s\n--- dir\n%s", outs[0], outs[1])
	}
	return outs[0]
}

func pngBytes(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	img.Set(0, 0, color.NRGBA{R: 255, A: 128})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func numbered(n int, width int) []byte {
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%04d %s\n", i, strings.Repeat("日", width))
	}
	return b.Bytes()
}

func goSource(funcs int) []byte {
	var b bytes.Buffer
	b.WriteString("package big\n")
	for i := range funcs {
		fmt.Fprintf(&b, "\n// F%d does things.\nfunc F%d() int {\n\tx := %d\n\tx++\n\tx++\n\treturn x\n}\n", i, i, i)
	}
	return b.Bytes()
}

type upper struct{}

func (upper) Convert(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	b := make([]byte, size)
	if _, err := r.ReadAt(b, 0); err != nil && err != io.EOF {
		return "", err
	}
	return strings.ToUpper(string(b)), nil
}

type failing struct{}

func (failing) Convert(context.Context, io.ReaderAt, int64) (string, error) {
	return "", errors.New("no text layer")
}

type memResolver map[string]*scout.Resource

func (m memResolver) Resolve(_ context.Context, url string) (*scout.Resource, error) {
	if r, ok := m[url]; ok {
		return r, nil
	}
	return nil, &scout.Error{Code: scout.CodeNotFound, Message: "Not found: " + url}
}

func TestReadKinds(t *testing.T) {
	archive := testfs.Zip(testfs.Files(map[string]string{"src/": "", "src/a.txt": "one\ntwo\nthree\n", "src/bin.dat": "\x00\x01\x02\x00", "top.txt": "top\n", "t:1.txt": "colon\nname\n"})...)
	big := bytes.Repeat([]byte("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n"), (5<<20)/64)
	var long strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&long, "l%d\n", i)
	}
	resources := func(r *scout.Reader) {
		res := &scout.Resource{Text: long.String(), Immutable: true}
		m := memResolver{"memory://long": res, "skill://long": res, "agent://r/reports/0": res, "agent://r?q=.x": res}
		r.Resolvers = map[string]scout.Resolver{"memory": m, "skill": m, "agent": m}
	}
	tests := []struct {
		name   string
		files  map[string][]byte
		path   string
		setup  func(*scout.Reader)
		want   []string // substrings of the text, in order
		not    []string // substrings that must not appear
		reason string
	}{
		{"binary", map[string][]byte{"b.bin": append([]byte("PK\x03\x04"), make([]byte, 100)...)}, "b.bin", nil,
			[]string{"[Cannot display binary file 'b.bin' (104B, application/zip)"}, nil, "a NUL in the head means binary: one notice, no garbage"},
		{"utf16", map[string][]byte{"u.txt": {0xFF, 0xFE, 'h', 0, 'i', 0, '\n', 0, 'x', 0}}, "u.txt", nil,
			[]string{"1:hi\n2:x"}, nil, "UTF-16 with a BOM is decoded, not binary"},
		{"lossy", map[string][]byte{"l.txt": []byte("a\xffb\n")}, "l.txt", nil,
			[]string{"1:a\uFFFDb", "Invalid UTF-8 bytes shown as U+FFFD"}, nil, "invalid UTF-8 is replaced and reported"},
		{"crlf", map[string][]byte{"c.txt": []byte("a\r\nb\r\n")}, "c.txt", nil,
			[]string{"1:a\n2:b"}, []string{"\r"}, "display drops the CR of CRLF"},
		{"crlf raw", map[string][]byte{"c.txt": []byte("a\r\nb\r\n")}, "c.txt:raw", nil,
			[]string{"a\r\nb\r"}, nil, ":raw keeps the bytes"},
		{"byte budget", map[string][]byte{"w.txt": numbered(400, 700)}, "w.txt", nil,
			[]string{"1:0001", "(150KB limit). Use :"}, []string{"300:0300"}, "multi-byte lines exhaust the 150KB budget before 300 lines"},
		{"over 4 MiB", map[string][]byte{"big.txt": big}, "big.txt:81919", nil,
			[]string{"81919:", "81920:"}, []string{"¶"}, "files over 4 MiB are streamed and get no tag, but rows keep numbers"},
		{"zip listing", map[string][]byte{"a.zip": archive}, "a.zip", nil,
			[]string{"src/", "top.txt (4B)"}, nil, "an archive lists its root"},
		{"zip member range", map[string][]byte{"a.zip": archive}, "a.zip:src/a.txt:2", nil,
			[]string{"¶a.zip:src/a.txt#", "\n2:two\n3:three"}, []string{"1:one"}, "member text goes through the normal text path: exactly the lines asked"},
		{"zip binary member", map[string][]byte{"a.zip": archive}, "a.zip:src/bin.dat", nil,
			[]string{"[Cannot read binary archive entry 'src/bin.dat' (4B)]"}, nil, "binary members are a notice"},
		{"zip by suffix", map[string][]byte{"pkg/dist/a.zip": archive}, "dist/a.zip:top.txt", suffixMatch,
			[]string{"[Path 'dist/a.zip' not found; resolved to 'pkg/dist/a.zip' via suffix match]", "1:top"}, nil, "a missing archive is found by suffix match too"},
		{"zip by suffix off", map[string][]byte{"pkg/dist/a.zip": archive}, "dist/a.zip:top.txt", nil,
			[]string{"error NOT_FOUND: Path 'dist/a.zip:top.txt' not found"}, nil, "without SuffixMatch a missing archive is NOT_FOUND"},
		{"zip by suffix listing", map[string][]byte{"pkg/dist/a.zip": archive}, "dist/a.zip", suffixMatch,
			[]string{"[Path 'dist/a.zip' not found; resolved to 'pkg/dist/a.zip' via suffix match]", "src/\nt:1.txt (11B)\ntop.txt (4B)"}, []string{"binary"}, "an archive found by suffix lists its root, not a binary notice"},
		{"zip member with a colon", map[string][]byte{"a.zip": archive}, "a.zip:t:1.txt:2", nil,
			[]string{"¶a.zip:t:1.txt#", "\n2:name"}, []string{"1:colon"}, "a ':' not followed by a selector is part of the member's name"},
		{"zip mistyped selector", map[string][]byte{"a.zip": archive}, "a.zip:top.txt:2-x", nil,
			[]string{"error INVALID_PARAM: Invalid selector ':2-x' after 'a.zip:top.txt'"}, nil, "a member that exists, then no selector: the selector is reported"},
		{"zip link member", map[string][]byte{"l.zip": testfs.Zip(testfs.Member{Name: "src/a.txt", Body: "a\n"}, testfs.Member{Name: "cur", Link: "src/a.txt"})}, "l.zip:cur", nil,
			[]string{"error UNSUPPORTED: Archive entry 'cur' is a link to 'src/a.txt'; read l.zip:src/a.txt instead"}, nil, "a zip's symbolic link is refused with its target to read, as a tar's"},
		{"zip missing member", map[string][]byte{"a.zip": archive}, "a.zip:nope.txt", nil,
			[]string{"error NOT_FOUND"}, nil, "a missing member is NOT_FOUND"},
		{"summary", map[string][]byte{"big.go": goSource(30)}, "big.go", nil,
			[]string{"¶big.go#", "lines elided"}, nil, "a large Go file without selector is summarised"},
		{"summary off", map[string][]byte{"big.go": goSource(30)}, "big.go", func(r *scout.Reader) { r.NoSummaries = true },
			[]string{"1:package big", "3:// F0 does things."}, []string{"elided"}, "NoSummaries reads lines"},
		{"summary not with selector", map[string][]byte{"big.go": goSource(30)}, "big.go:1-3", nil,
			[]string{"1:package big"}, []string{"elided"}, "a selector disables the summary"},
		{"image", map[string][]byte{"p.png": pngBytes(t)}, "p.png", nil,
			[]string{"Read image file [image/png]"}, nil, "images are detected by magic bytes"},
		{"image metadata", map[string][]byte{"p.png": pngBytes(t)}, "p.png", func(r *scout.Reader) { r.ImageMetadataOnly = true },
			[]string{"image/png", "3", "2"}, []string{"Read image file"}, "metadata only on request"},
		{"image corrupt", map[string][]byte{"p.png": pngBytes(t)[:30]}, "p.png", nil,
			[]string{"error UNSUPPORTED: Cannot read image 'p.png'"}, nil, "a truncated image is a clear error"},
		{"image named png holding text", map[string][]byte{"t.png": []byte("just text\n")}, "t.png", nil,
			[]string{"1:just text"}, nil, "a .png that holds text is read as text"},
		{"document hook", map[string][]byte{"d.pdf": []byte("hello pdf")}, "d.pdf", func(r *scout.Reader) { r.Converters = map[string]scout.Converter{".PDF": upper{}} },
			[]string{"HELLO PDF"}, []string{"¶"}, "a host converter replaces the built-in one; converted text has no anchors"},
		{"document failure", map[string][]byte{"d.pdf": []byte("x")}, "d.pdf", func(r *scout.Reader) { r.Converters = map[string]scout.Converter{".pdf": failing{}} },
			[]string{"error UNSUPPORTED: Cannot read .pdf file: d.pdf: no text layer. Read 'd.pdf:raw' to get the file as it is."}, nil, "a failed conversion is an error"},
		{"document in part", map[string][]byte{"deck.pptx": deckMissingSlide(t)}, "deck.pptx", nil,
			[]string{"# First slide", "[Note: Converted in part: 1 of the 2 slides listed in the presentation are missing from the file]"}, nil,
			"a document converted in part shows its text and says what is left out"},
		{"internal virtual", nil, "memory://notes:2", func(r *scout.Reader) {
			r.Resolvers = map[string]scout.Resolver{"memory": memResolver{"memory://notes": {Text: "a\nb\nc\n", Immutable: true}}}
		}, []string{"b\nc"}, []string{"¶", "1:", "a\n"}, "an immutable resource is paged without anchors"},
		{"internal backing file", map[string][]byte{"skills/x.md": []byte("# X\n")}, "skill://x", func(r *scout.Reader) {
			r.Resolvers = map[string]scout.Resolver{"skill": memResolver{"skill://x": {SourcePath: "skills/x.md"}}}
		}, []string{"¶skills/x.md#", "1:# X"}, nil, "a mutable resource with a backing file is read as the file"},
		{"internal backing file missing", nil, "skill://x", func(r *scout.Reader) {
			r.Resolvers = map[string]scout.Resolver{"skill": memResolver{"skill://x": {SourcePath: "gone.md"}}}
		}, []string{"error NOT_FOUND: Cannot read skill://x: its backing file 'gone.md' does not exist"}, nil, "a missing backing file is an error, not an empty text"},
		{"internal backing file missing, with text", nil, "skill://x", func(r *scout.Reader) {
			r.Resolvers = map[string]scout.Resolver{"skill": memResolver{"skill://x": {SourcePath: "gone.md", Text: "the text\n"}}}
		}, []string{"the text", "[Note: The resource's backing file 'gone.md' does not exist; showing its text]"}, nil, "the resource's text is shown, saying why"},
		{"internal backing directory", map[string][]byte{"skills/x.md": []byte("# X\n")}, "skill://all", func(r *scout.Reader) {
			r.Resolvers = map[string]scout.Resolver{"skill": memResolver{"skill://all": {SourcePath: "skills"}}}
		}, []string{"x.md"}, nil, "a backing directory without text is listed"},
		{"internal unregistered", nil, "skill://x", nil, []string{"error UNSUPPORTED"}, nil, "an internal URL with no resolver is refused"},
		{"internal long resource", nil, "memory://long", resources, []string{"\nl3000\n\n[Showing lines 1-3000 of 5000. Use :3001 to continue]"}, []string{"l3001"}, "an in-memory resource is head-cut at 3000 lines"},
		{"internal next page", nil, "memory://long:3001", resources, []string{"l3001\n", "l5000"}, []string{"l3000"}, "the continuation hint works"},
		{"internal range", nil, "memory://long:10-12", resources, []string{"l10\nl11\nl12\n\n[4988 more lines in resource. Use :13 to continue]"}, []string{"¶", "l9"}, "a range of an immutable resource: its lines, the resource label, no anchors"},
		{"internal beyond end", nil, "memory://long:6000", resources, []string{"Line 6000 is beyond end of resource (5000 lines total). Use :1 to read from the start, or :5000 to read the last line."}, nil, "the beyond-end message names the resource"},
		{"skill unlimited", nil, "skill://long", resources, []string{"l1\n", "\nl5000"}, []string{"Showing"}, "skill:// is paged only by explicit selectors"},
		{"skill range", nil, "skill://long:4990", resources, []string{"l4990\n", "l5000"}, []string{"l4989"}, "an explicit selector pages a skill"},
		{"agent extraction", nil, "agent://r/reports/0", resources, []string{"l1\n", "\nl5000"}, []string{"Showing"}, "an agent:// /path extraction is not paged"},
		{"agent query", nil, "agent://r?q=.x", resources, []string{"\nl5000"}, []string{"Showing"}, "an agent:// ?q= extraction is not paged"},
		{"agent extraction with range", nil, "agent://r/reports/0:5", resources, []string{"error INVALID_PARAM: Cannot combine query extraction with offset/limit"}, nil, "extraction and a selector do not mix"},
		{"web off", nil, "https://example.com/", func(r *scout.Reader) { r.NoWeb = true }, []string{"error UNSUPPORTED"}, nil, "the host can turn web reads off"},
		{"nul", nil, "a\x00b", nil, []string{"error INVALID_PARAM: Invalid path: it contains a NUL byte"}, nil, "a NUL byte is refused"},
		{"empty path", nil, "  ", nil, []string{"error INVALID_PARAM: Path must not be empty"}, nil, "an empty path is refused"},
		{"notebook big cell", map[string][]byte{"n.ipynb": []byte(`{"nbformat":4,"cells":[{"cell_type":"code","source":"` + strings.Repeat("x", 10<<20) + `"}]}`)}, "n.ipynb", nil,
			[]string{"error TOO_LARGE"}, nil, "a 10 MB cell is a clear error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := readBoth(t, tt.files, tt.path, tt.setup)
			rest := got
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing %q (%s) in:\n%s", w, tt.reason, clipText(got))
				}
				rest = rest[i+len(w):]
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Fatalf("unexpected %q (%s) in:\n%s", n, tt.reason, clipText(got))
				}
			}
		})
	}
}

func clipText(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

// TestReadBackingFileOutside: a resolver whose backing file lies outside
// the root is refused, as a search refuses it; the read was an empty text.
func TestReadBackingFileOutside(t *testing.T) {
	for _, p := range []string{"../x.md", "sub/../../x.md", "/etc/passwd"} {
		r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{"sub/a": {}}, Root: "/scout-root"},
			Resolvers: map[string]scout.Resolver{"skill": memResolver{"skill://x": {SourcePath: p}}}}
		_, err := r.Read(context.Background(), scout.ReadRequest{Path: "skill://x"})
		if scout.CodeOf(err) != scout.CodeAccessDenied || !strings.HasPrefix(fmt.Sprint(err), "Cannot read skill://x: its backing file '"+p+"' cannot be read: Access denied:") {
			t.Errorf("%s: %s %v, want ACCESS_DENIED naming the backing file", p, scout.CodeOf(err), err)
		}
	}
}

// TestReadResourceNotesShared: the note on a resource's unreadable backing
// file is added to a copy of the resolver's notes, which a resolver may
// keep and hand out again (it was written into their spare capacity, where
// the next read's note or the resolver's own append overwrote it).
func TestReadResourceNotesShared(t *testing.T) {
	notes := make([]string, 1, 4)
	notes[0] = "from the resolver"
	res := &scout.Resource{SourcePath: "gone.md", Text: "the text\n", Notes: notes}
	r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{}}, Resolvers: map[string]scout.Resolver{"skill": memResolver{"skill://x": res}}}
	got, err := r.Read(context.Background(), scout.ReadRequest{Path: "skill://x"})
	require.NoError(t, err)
	require.Len(t, got.Notes, 2)
	assert.Equal(t, []string{"from the resolver", ""}, notes[:2], "the resolver's slice was written to")
	_ = append(notes, "the resolver's own note")
	assert.Contains(t, got.Notes[1], "backing file 'gone.md' does not exist", "the result's notes changed with the resolver's")
}

// TestReadWeb reads URLs from a local server: the header, paging from the
// cache without refetching, a failed fetch reported as an error, and the
// private network allowed only on request.
func TestReadWeb(t *testing.T) {
	srvURL, hits := testfs.PageServer(t)
	r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{}}, URLCache: &scout.URLCache{}}
	_, err := r.Read(context.Background(), scout.ReadRequest{Path: srvURL + "/t.txt"})
	if scout.CodeOf(err) != scout.CodeAccessDenied || !strings.Contains(err.Error(), "127.0.0.1 is a loopback address") || hits.Load() != 0 {
		t.Fatalf("a loopback address without AllowPrivateNetwork: err = %v, %d hits", err, hits.Load())
	}
	r.AllowPrivateNetwork = true
	res, err := r.Read(context.Background(), scout.ReadRequest{Path: srvURL + "/t.txt"})
	if err != nil {
		t.Fatal(err)
	}
	text := format.ReadText(res, nil)
	if !strings.HasPrefix(text, "URL: "+srvURL+"/t.txt\n") || strings.Contains(text, "¶") || !strings.Contains(text, "Use :301 to continue") {
		t.Fatalf("first page:\n%s", clipText(text))
	}
	res, err = r.Read(context.Background(), scout.ReadRequest{Path: srvURL + "/t.txt:301"})
	if err != nil {
		t.Fatal(err)
	}
	if text := format.ReadText(res, nil); !strings.Contains(text, "line 400") || hits.Load() != 1 {
		t.Fatalf("second page (hits %d):\n%s", hits.Load(), clipText(text))
	}
	_, err = r.Read(context.Background(), scout.ReadRequest{Path: srvURL + "/missing"})
	if scout.CodeOf(err) != scout.CodeNotFound || err.Error() != "HTTP 404 Not Found from "+srvURL+"/missing: gone" {
		t.Fatalf("missing page: %v", err)
	}
}

// TestReadSpecialFiles checks that a named pipe and a device are refused at
// once, never opened (opening a FIFO blocks until a writer comes).
func TestReadSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, kind string
		make       func(string) error
	}{{"pipe", "named pipe", mkfifo}, {"null", "character device", mknodNull}} {
		if err := tt.make(dir + "/" + tt.name); err != nil {
			t.Logf("skipping %s: %v", tt.name, err)
			continue
		}
		done := make(chan error, 1)
		go func() {
			_, err := (&scout.Reader{Workspace: scout.Workspace{Root: dir}}).Read(context.Background(), scout.ReadRequest{Path: tt.name})
			done <- err
		}()
		select {
		case err := <-done:
			if scout.CodeOf(err) != scout.CodeUnsupported || !strings.Contains(err.Error(), tt.kind) {
				t.Errorf("%s: err = %v", tt.name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("reading %s blocked", tt.name)
		}
	}
}

// TestReadCanceled checks that a canceled context stops a read.
func TestReadCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := fstest.MapFS{"a.txt": {Data: []byte("a\n")}}
	_, err := (&scout.Reader{Workspace: scout.Workspace{FS: m}}).Read(ctx, scout.ReadRequest{Path: "a.txt"})
	if scout.CodeOf(err) != scout.CodeCanceled {
		t.Fatalf("err = %v", err)
	}
}

// TestReadArchiveListings checks the text of listings inside archives: a
// line selector bounds them as it bounds a local directory listing, the
// 500 cap is a partial result whose notice continues where it stopped,
// and the hints name the directory in the archive.
func TestReadArchiveListings(t *testing.T) {
	var names, many []string
	for i := range 30 {
		names = append(names, fmt.Sprintf("d/f%02d.txt", i))
	}
	names = append(names, "d/", "top.txt", "İç/é.txt", "e/", "../evil.txt")
	for i := range 620 {
		many = append(many, fmt.Sprintf("f%03d", i))
	}
	var long []string // 600 names of 3,000 bytes: 85 fit the 500 rows' 250 KB
	for i := range 600 {
		long = append(long, fmt.Sprintf("%03d", i)+strings.Repeat("n", 2997))
	}
	files := map[string][]byte{"a.zip": testfs.Zip(testfs.SelfNamed(names...)...), "dİr/b.zip": testfs.Zip(testfs.SelfNamed("x.txt")...), "big.zip": testfs.Zip(testfs.SelfNamed(many...)...),
		"long.zip": testfs.Zip(testfs.SelfNamed(long...)...), "huge.zip": testfs.Zip(testfs.SelfNamed("ok.txt", strings.Repeat("h", 4097))...),
		"two.zip": testfs.Zip(testfs.SelfNamed("ok.txt", "../a", strings.Repeat("h", 4097))...)}
	n3k := strings.Repeat("n", 2997) + " (2.9KB)"
	tests := []struct {
		path, first, last string // the first and last lines of the text
		lines             int
		partial           bool
		reason            string
	}{
		{"a.zip:d/:10-14", "f09.txt (10B)", "[16 more lines in listing. Use a.zip:d/:15 to continue]", 7, false, "a range end bounds the listing exactly"},
		{"a.zip:d/:10+2", "f09.txt (10B)", "[19 more lines in listing. Use a.zip:d/:12 to continue]", 4, false, "A+C is a range too"},
		{"a.zip:d/:28", "f27.txt (10B)", "f29.txt (10B)", 3, false, "an open range shows the rest; reaching the end needs no notice"},
		{"a.zip:d/:29-40", "f28.txt (10B)", "f29.txt (10B)", 2, false, "an end past the last child is clamped"},
		{"a.zip:d/:31", "Line 31 is beyond end of listing (30 lines total). Use a.zip:d/:1 to read from the start, or a.zip:d/:30 to read the last line.", "", 1, false, "past the end, with the local text and the archive path"},
		{"a.zip:/:1-1", "d/", "[1 archive entry with '..' in its name, or a name over 4096 bytes, was left out]", 5, false, "the root, named a.zip:/ in the hint; the '..' entry counted"},
		{"a.zip", "d/", "[1 archive entry with '..' in its name, or a name over 4096 bytes, was left out]", 6, false, "no selector lists everything under the cap"},
		{"a.zip:e/", "(empty archive directory)", "", 1, false, "an empty directory"},
		{"a.zip:İç/", "é.txt (12B)", "é.txt (12B)", 1, false, "a non-ASCII directory"},
		{"dİr/b.zip", "x.txt (6B)", "x.txt (6B)", 1, false, "a non-ASCII directory before the archive (İ lower-cases to more bytes)"},
		{"big.zip", "f000 (5B)", "[Showing lines 1-500 of 620. Use big.zip:/:501 to continue]", 502, true, "open-ended: the cap, and a hint that works"},
		{"big.zip:/:2-600", "f001 (5B)", "[Showing lines 2-501 of 620. Use big.zip:/:502 to continue]", 502, true, "a window wider than the cap is capped"},
		{"big.zip:/:501", "f500 (5B)", "f619 (5B)", 120, false, "the continuation reads the rest"},
		{"long.zip", "000" + n3k, "[Showing lines 1-85 of 600 (byte limit: the names are long). Use long.zip:/:86 to continue]", 87, true, "long names: the byte budget of 500 rows ends the listing first"},
		{"long.zip:/:86", "085" + n3k, "[Showing lines 86-170 of 600 (byte limit: the names are long). Use long.zip:/:171 to continue]", 87, true, "its continuation goes on from there"},
		{"long.zip:/:1-10", "000" + n3k, "[590 more lines in listing. Use long.zip:/:11 to continue]", 12, false, "a range that fits its budget shows whole"},
		{"huge.zip", "ok.txt (7B)", "[1 archive entry with '..' in its name, or a name over 4096 bytes, was left out]", 3, false, "a name longer than a read path may be is left out and counted"},
		{"two.zip", "ok.txt (7B)", "[2 archive entries with '..' in their names, or names over 4096 bytes, were left out]", 3, false, "two left out: the plural"},
	}
	for _, tt := range tests {
		got := readBoth(t, files, tt.path, nil)
		lines := strings.Split(got, "\n")
		assert.Equal(t, tt.first, lines[0], "%s: %s", tt.path, tt.reason)
		if tt.last != "" {
			assert.Equal(t, tt.last, lines[len(lines)-1], "%s: %s", tt.path, tt.reason)
		}
		assert.Len(t, lines, tt.lines, "%s: %s", tt.path, tt.reason)
		env := tool.Call(context.Background(), tool.Config{FS: mapFS(files)}, tool.Pi, "read", []byte(`{"path":"`+tt.path+`"}`))
		assert.Equal(t, tt.partial, env.Status == scout.StatusPartial, "%s: %s", tt.path, tt.reason)
	}
}

// deniedFS refuses to open one file, as an unreadable file does.
type deniedFS struct {
	fstest.MapFS
	name string
}

func (d deniedFS) Open(name string) (fs.File, error) {
	if name == d.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.MapFS.Open(name)
}

func TestReadUnreadable(t *testing.T) {
	m := fstest.MapFS{"secret.txt": {Data: []byte("s\n")}, "ok.txt": {Data: []byte("k\n")}}
	r := scout.Reader{Workspace: scout.Workspace{FS: deniedFS{m, "secret.txt"}}}
	_, err := r.Read(context.Background(), scout.ReadRequest{Path: "secret.txt"})
	if scout.CodeOf(err) != scout.CodeAccessDenied || !strings.Contains(err.Error(), "Cannot read 'secret.txt'") {
		t.Fatalf("err = %v", err)
	}
	if _, err := r.Read(context.Background(), scout.ReadRequest{Path: "ok.txt"}); err != nil {
		t.Fatal(err)
	}
}

// TestReadArchiveBigMember streams a tar.gz member over 4 MiB: the window
// is found without holding the member, and there is no tag.
func TestReadArchiveBigMember(t *testing.T) {
	var body strings.Builder
	for i := 1; i <= 100000; i++ {
		fmt.Fprintf(&body, "member line %06d padding padding padding\n", i)
	}
	got := readBoth(t, map[string][]byte{"a.tgz": testfs.Tgz(testfs.Member{Name: "big.txt", Body: body.String()})}, "a.tgz:big.txt:99999", nil)
	if strings.Contains(got, "¶") || !strings.Contains(got, "99999:member line 099999") || strings.Contains(got, "99998:") || !strings.Contains(got, "100000:member line 100000") {
		t.Fatalf("got:\n%s", clipText(got))
	}
}

// TestReadConcurrent uses one Reader from many goroutines (run with -race):
// calls share nothing but the Reader's read-only fields.
func TestReadConcurrent(t *testing.T) {
	m := fstest.MapFS{"a.txt": {Data: numbered(500, 3)}, "d/b.txt": {Data: []byte("b\n")}}
	r := scout.Reader{Workspace: scout.Workspace{FS: m}, URLCache: &scout.URLCache{}}
	paths := []string{"a.txt", "a.txt:100-120", "d", "a.txt:1-2,400", "d/b.txt:raw"}
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := r.Read(context.Background(), scout.ReadRequest{Path: paths[i%len(paths)]})
			if err == nil {
				format.ReadText(res, nil)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadStatus checks the Envelope status of reads that do not give the
// whole source: a document converted in part and a notebook over the
// output cap are partial and say why (data.result.incomplete); a document
// that cannot be converted is the pi tool's notice, not an error (the
// Reader's error is checked by the golden case document_failed).
func TestReadStatus(t *testing.T) {
	// Cells of 1 MiB: 17 fill the 16 MiB a notebook shows, 3 are left out.
	cell := `{"cell_type":"code","source":"` + strings.Repeat("x", 1<<20-100) + `"}`
	nb := `{"cells":[` + strings.Repeat(cell+",", 19) + cell + `]}`
	root := testfs.WriteDir(t, fstest.MapFS{
		"deck.pptx":   {Data: deckMissingSlide(t)},
		"many.ipynb":  {Data: []byte(nb)},
		"broken.pdf":  {Data: []byte("%PDF-1.4\nnot really\n")},
		"broken.docx": {Data: []byte("PK\x03\x04 broken")},
	})
	tests := []struct {
		path, status, want string
	}{
		{"deck.pptx", "partial", `"incomplete":"1 of the 2 slides listed in the presentation are missing from the file"`},
		{"many.ipynb", "partial", `"incomplete":"the notebook renders to more than 16.0MB of text: cells from 17 on are not shown`},
		{"broken.pdf", "success", "[Cannot read .pdf file: broken.pdf: not a valid PDF document"},
		{"broken.docx", "success", "[Cannot read .docx file: broken.docx: not a valid DOCX document"},
	}
	for _, tt := range tests {
		env := tool.Call(context.Background(), tool.Config{Root: root}, tool.Pi, "read", []byte(`{"path":"`+tt.path+`"}`))
		got := env.Text
		if env.Status == scout.StatusPartial {
			data, err := json.Marshal(env.Data)
			if err != nil {
				t.Fatal(err)
			}
			got = string(data) // the reason is in data.result.incomplete
		}
		if string(env.Status) != tt.status || !strings.Contains(got, tt.want) {
			t.Errorf("%s: %s %q, want %s %q", tt.path, env.Status, got, tt.status, tt.want)
		}
	}
}

// deckMissingSlide is a PPTX whose presentation lists two slides, of which
// only the first is in the file.
func deckMissingSlide(t *testing.T) []byte {
	const ns = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, f := range [][2]string{
		{"ppt/presentation.xml", `<p:presentation ` + ns + `><p:sldIdLst><p:sldId id="256" r:id="rId1"/><p:sldId id="257" r:id="rId2"/></p:sldIdLst></p:presentation>`},
		{"ppt/_rels/presentation.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="slide" Target="slides/slide1.xml"/><Relationship Id="rId2" Type="slide" Target="slides/slide2.xml"/></Relationships>`},
		{"ppt/slides/slide1.xml", `<p:sld ` + ns + `><p:cSld><p:spTree><p:sp><p:nvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr>` +
			`<p:txBody><a:p><a:r><a:t>First slide</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`},
	} {
		fw, err := w.Create(f[0])
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(f[1]))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReadConflictsTyped checks the typed conflict blocks: the sides'
// lines and counts (at most 6 lines kept), an equal side named, the base
// of a diff3 block, and the blocks a window shows.
func TestReadConflictsTyped(t *testing.T) {
	long := "1\n2\n3\n4\n5\n6\n7\n8\n"
	text := "a\n<<<<<<< HEAD\n" + long + "||||||| base\n" + long + "=======\nz\n>>>>>>> topic\nb\n<<<<<<< HEAD\nsame\n=======\nsame\n>>>>>>> topic\n"
	r := scout.Reader{Workspace: scout.Workspace{FS: mapFS(map[string][]byte{"m.txt": []byte(text)})}}
	res, err := r.Read(context.Background(), scout.ReadRequest{Path: "m.txt:conflicts"})
	require.NoError(t, err)
	require.Equal(t, scout.ReadKindConflicts, res.Kind)
	want := &scout.ReadConflicts{Total: 2, Blocks: []scout.ConflictBlock{
		{ID: 1, Start: 2, End: 22,
			Ours:   scout.ConflictSide{Label: "HEAD", Start: 3, Count: 8, Lines: []string{"1", "2", "3", "4", "5", "6"}},
			Base:   &scout.ConflictSide{Label: "base", Start: 12, Count: 8, Lines: []string{"1", "2", "3", "4", "5", "6"}, SameAs: "ours"},
			Theirs: scout.ConflictSide{Label: "topic", Start: 21, Count: 1, Lines: []string{"z"}}},
		{ID: 2, Start: 24, End: 28,
			Ours:   scout.ConflictSide{Label: "HEAD", Start: 25, Count: 1, Lines: []string{"same"}},
			Theirs: scout.ConflictSide{Label: "topic", Start: 27, Count: 1, Lines: []string{"same"}, SameAs: "ours"}},
	}}
	assert.Equal(t, want, res.Conflicts)
	res, err = r.Read(context.Background(), scout.ReadRequest{Path: "m.txt:20-30"})
	require.NoError(t, err)
	require.NotNil(t, res.Conflicts, "a window that shows a block")
	assert.Equal(t, 2, res.Conflicts.Total)
	assert.Equal(t, []int{2}, []int{res.Conflicts.Blocks[0].ID}, "only the block wholly inside lines 20-30")
	res, err = r.Read(context.Background(), scout.ReadRequest{Path: "m.txt:1"})
	require.NoError(t, err)
	assert.Len(t, res.Conflicts.Blocks, 2)
	res, err = r.Read(context.Background(), scout.ReadRequest{Path: "m.txt:1-2"})
	require.NoError(t, err)
	assert.Nil(t, res.Conflicts, "no block wholly in view")
}

// TestArchiveLinkEntries: a symbolic link member of a zip or tar lists as
// a link (DirEntry.Symlink), as one in a local directory does.
func TestArchiveLinkEntries(t *testing.T) {
	ms := []testfs.Member{{Name: "a.txt", Body: "a\n"}, {Name: "cur", Link: "a.txt"}}
	for name, data := range map[string][]byte{"l.zip": testfs.Zip(ms...), "l.tar": testfs.Tar(ms...)} {
		r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{name: {Data: data}}}}
		res, err := r.Read(context.Background(), scout.ReadRequest{Path: name})
		require.NoError(t, err, name)
		require.Len(t, res.Entries, 2, name)
		assert.Equal(t, [2]bool{false, true}, [2]bool{res.Entries[0].Symlink, res.Entries[1].Symlink}, name)
		assert.Equal(t, "cur", res.Entries[1].Path, name)
	}
}
