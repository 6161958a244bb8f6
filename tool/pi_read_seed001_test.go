package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// seed001Row is a row of the seed 001 (read) acceptance tables: the rule
// quoted, the path read, the host's settings, and what the Envelope must
// hold. text is the whole text, or a prefix when it ends in "…"; has
// lists pieces of the text or the data's JSON; lacks, pieces of neither.
type seed001Row struct {
	rule       string
	cfg        Config
	path       string
	status     scout.Status
	code       string
	text       string
	has, lacks []string
}

// check runs the row through Call with the row's settings over base's
// FS and Root, and base's Fetcher and URLCache where the row has none,
// and reports a mismatch.
func (r seed001Row) check(t *testing.T, base Config) {
	t.Helper()
	cfg := r.cfg
	cfg.FS, cfg.Root = base.FS, base.Root
	if cfg.Fetcher == nil {
		cfg.Fetcher = base.Fetcher
	}
	if cfg.URLCache == nil {
		cfg.URLCache = base.URLCache
	}
	args, _ := json.Marshal(map[string]string{"path": r.path})
	env := Call(context.Background(), cfg, Pi, "read", args)
	code, data, fail := mismatch(env, r.status, r.code, r.text, r.has, r.lacks)
	if fail {
		t.Errorf("read %q\n got %s %s %q\ndata %.600s\nrule: %s", r.path, env.Status, code, env.Text, data, r.rule)
	}
}

// docx returns a minimal .docx whose body has one paragraph per line.
func docx(lines []string) []byte {
	var body strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&body, "<w:p><w:r><w:t>%s</w:t></w:r></w:p>", l)
	}
	return testfs.Zip(
		testfs.Member{Name: "[Content_Types].xml", Body: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`},
		testfs.Member{Name: "_rels/.rels", Body: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`},
		testfs.Member{Name: "word/document.xml", Body: `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body.String() + `</w:body></w:document>`},
	)
}

// lines returns n lines "l1" to "ln".
func lines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "l%d\n", i)
	}
	return b.String()
}

// goFuncs returns a Go file of n small functions, 8 lines each after
// the package clause.
func goFuncs(n int) string {
	var b strings.Builder
	b.WriteString("package big\n")
	for i := range n {
		fmt.Fprintf(&b, "\n// F%d does things.\nfunc F%d() int {\n\tx := %d\n\tx++\n\tx++\n\treturn x\n}\n", i, i, i)
	}
	return b.String()
}

// TestPiReadSeed001 checks seed 001's statements about archives,
// documents and images that no other pi read test pins through the tool:
// every archive container, entry path normalisation and non-UTF-8
// entries, every convertible extension, the shared head limits on
// converted output, the 20 MiB image cap and metadata-only images. Over
// MapFS and a directory.
func TestPiReadSeed001(t *testing.T) {
	var x99 strings.Builder
	for i := 1; i <= 99; i++ {
		fmt.Fprintf(&x99, "x%d\n", i)
	}
	paras := make([]string, 4000)
	for i := range paras {
		paras[i] = fmt.Sprintf("para %d", i+1)
	}
	img := image.NewNRGBA(image.Rect(0, 0, 2, 3))
	img.Set(0, 0, color.NRGBA{R: 255, A: 128})
	var pngBuf bytes.Buffer
	if err := png.Encode(&pngBuf, img); err != nil {
		t.Fatal(err)
	}
	const mib20 = 20 << 20
	pad := func(n int) []byte { return append(bytes.Clone(pngBuf.Bytes()), make([]byte, n-pngBuf.Len())...) }
	tarMembers := []testfs.Member{{Name: "d/a.txt", Body: "a\n"}, {Name: "d/b.txt", Body: "bb\n"}, {Name: "top.txt"}}
	m := fstest.MapFS{
		"t.tar":    {Data: testfs.Tar(testfs.Member{Name: "p.txt", Body: "p\n"})},
		"t.tar.gz": {Data: testfs.Tgz(tarMembers...)},
		"t.tgz":    {Data: testfs.Tgz(tarMembers...)},
		"a.zip": {Data: testfs.Zip(
			testfs.Member{Name: "src/x.txt", Body: x99.String()},
			testfs.Member{Name: "latin.txt", Body: "caf\xe9\n"},
			testfs.Member{Name: "./dot/./y.txt", Body: "y\n"},
		)},
		"long.zip":  {Data: testfs.Zip(testfs.Member{Name: "l.txt", Body: lines(4000)})},
		"ten.txt":   {Data: []byte(lines(10))},
		"big.go":    {Data: []byte(goFuncs(30))},
		"big.docx":  {Data: docx(paras)},
		"p.png":     {Data: pngBuf.Bytes()},
		"edge.png":  {Data: pad(mib20)},
		"huge.png":  {Data: pad(mib20 + 1)},
		"trunc.png": {Data: pngBuf.Bytes()[:40]},
	}
	for _, ext := range []string{"pdf", "doc", "docx", "ppt", "pptx", "xls", "xlsx", "rtf", "epub"} {
		m["bad."+ext] = &fstest.MapFile{Data: []byte("garbage\n")}
	}
	rows := []seed001Row{
		// Archives
		{rule: "Supported archive containers: .tar (Directory reads list immediate children; files show name plus (size) when size > 0)",
			path: "t.tar", status: scout.StatusSuccess, text: "p.txt (2B)", has: []string{`"isDirectory":true`}},
		{rule: "Supported archive containers: .tar; File entries are UTF-8 decoded",
			path: "t.tar:p.txt", status: scout.StatusSuccess, text: "¶t.tar:p.txt#BC16\n1:p"},
		{rule: "Supported archive containers: .tar.gz (no size for an empty file)",
			path: "t.tar.gz", status: scout.StatusSuccess, text: "d/\ntop.txt"},
		{rule: "Syntax: archive.ext:path/inside (a directory inside a .tar.gz)",
			path: "t.tar.gz:d", status: scout.StatusSuccess, text: "a.txt (2B)\nb.txt (3B)"},
		{rule: "Supported archive containers: .tgz; Syntax: archive.ext:path/inside:50-60",
			path: "t.tgz:d/b.txt:1-1", status: scout.StatusSuccess, text: "¶t.tgz:d/b.txt#BAB7\n1:bb"},
		{rule: "Archive paths normalize /, drop . segments",
			path: "a.zip:./src/./x.txt:50-50", status: scout.StatusSuccess,
			text: "¶a.zip:src/x.txt#8C15\n49:x49\n50:x50\n51:x51\n52:x52\n53:x53\n\n[46 more lines in archive entry. Use :54 to continue]"},
		{rule: "Archive paths normalize / (a doubled or leading slash, a backslash)",
			path: `a.zip:/src//x.txt:2-2`, status: scout.StatusSuccess, text: "¶a.zip:src/x.txt#8C15\n1:x1\n2:x2\n3:x3\n4:x4\n5:x5…"},
		{rule: "Archive paths normalize /, drop . segments (a member stored as ./dot/./y.txt)",
			path: "a.zip:dot", status: scout.StatusSuccess, text: "y.txt (2B)"},
		{rule: "Archive paths ... reject ..",
			path: "a.zip:src/../latin.txt", status: scout.StatusError, code: "INVALID_PARAM", text: "Archive path 'src/../latin.txt' contains '..'…"},
		{rule: "Non-UTF-8 entries return [Cannot read binary archive entry '...' (...)] instead of bytes",
			path: "a.zip:latin.txt", status: scout.StatusSuccess, text: "[Cannot read binary archive entry 'latin.txt' (5B)]"},

		{rule: "Text archive entries reuse the normal in-memory pagination path (DEFAULT_MAX_LINES = 3000 without a selector, not read.defaultLimit)",
			path: "long.zip:l.txt", status: scout.StatusPartial, text: "¶long.zip:l.txt#…",
			has: []string{"\n3000:l3000\n\n[Showing lines 1-3000 of 4000. Use :3001 to continue]"}, lacks: []string{"3001:"}},

		// Selector grammar, through the tool
		{rule: ":N- Start at 1-indexed line N, open-ended (leading context only)",
			path: "ten.txt:8-", status: scout.StatusSuccess, text: "¶ten.txt#6E7D\n7:l7\n8:l8\n9:l9\n10:l10"},
		{rule: ":LA-LB Inclusive 1-indexed line range (widened on both constrained sides)",
			path: "ten.txt:L3-L4", status: scout.StatusSuccess, text: "¶ten.txt#6E7D\n2:l2\n3:l3\n4:l4\n5:l5\n6:l6\n7:l7\n\n[3 more lines in file. Use :8 to continue]"},
		{rule: ":range:raw or :raw:range: same line selection, but raw output",
			path: "ten.txt:raw:L3-L4", status: scout.StatusSuccess, text: "l3\nl4\n\n[6 more lines in file. Use :5 to continue]"},
		{rule: "Selector parsing intentionally falls through for unrecognized trailing :... (read as part of the path)",
			path: "ten.txt:3-x", status: scout.StatusError, code: "NOT_FOUND", text: "Path 'ten.txt:3-x' not found"},

		// Summaries
		{rule: "No selector: #trySummarize() ... the text content ends with a footer like [NN lines elided; re-read needed ranges, e.g. <path>:5-16,40-80]; merged brace-pair lines",
			path: "big.go", status: scout.StatusSuccess, text: "¶big.go#F7AB\n1:package big\n2:\n3:// F0 does things.\n4-9:func F0() int { .. }\n…",
			has: []string{"\n\n[120 lines elided; re-read needed ranges, e.g. big.go:4-9,12-17]", `"summary":{"lines":`, `"elidedSpans":30,"elidedLines":120`}},
		{rule: ":raw Raw/verbatim mode. Disables structural summaries and line prefixes",
			path: "big.go:raw", status: scout.StatusSuccess, text: goFuncs(30)[:len(goFuncs(30))-1], lacks: []string{"elided", `"summary"`}},

		// Documents
		{rule: "Converted output is then head-truncated with normal shared limits (DEFAULT_MAX_LINES = 3000)",
			path: "big.docx", status: scout.StatusPartial, text: "para 1\n\npara 2\n\n…",
			has: []string{"\n\n[Showing lines 1-3000 of 7999. Use :3001 to continue]"}, lacks: []string{"para 1501\n", "¶"}},

		// Images
		{rule: "Max accepted image size is 20 MiB",
			path: "edge.png", status: scout.StatusSuccess, text: "Read image file [image/png]"},
		{rule: "Max accepted image size is 20 MiB ... Larger files throw",
			path: "huge.png", status: scout.StatusError, code: "TOO_LARGE", text: "Cannot read image 'huge.png': …"},
		{rule: "Image oversize/unsupported/invalid cases throw (an undecodable PNG)",
			path: "trunc.png", status: scout.StatusError, code: "UNSUPPORTED", text: "Cannot read image 'trunc.png': …"},
		{rule: "read returns metadata only (MIME, bytes, dimensions, channels, alpha) (the host's metadata-only setting)",
			cfg: Config{ImageMetadataOnly: true}, path: "p.png", status: scout.StatusSuccess,
			text: fmt.Sprintf("Image metadata [image/png]\n- bytes: %d (%dB)\n- dimensions: 2x3\n- channels: 4\n- alpha: yes", pngBuf.Len(), pngBuf.Len())},
	}
	for _, ext := range []string{"pdf", "doc", "docx", "ppt", "pptx", "xls", "xlsx", "rtf", "epub"} {
		rows = append(rows, seed001Row{rule: "CONVERTIBLE_EXTENSIONS covers ." + ext + "; Conversion failures return a text block like [Cannot read .pdf file: ...]",
			path: "bad." + ext, status: scout.StatusSuccess, text: "[Cannot read ." + ext + " file: bad." + ext + ": …", has: []string{`"contentUnavailable":{"reason":"conversion-failed"}`}})
	}
	for _, tr := range testfs.Trees(t, m) {
		for i, r := range rows {
			t.Run(fmt.Sprintf("%02d_%s/%s", i, r.path, tr.Name), func(t *testing.T) {
				r.check(t, Config{FS: tr.FS, Root: tr.Root})
			})
		}
	}
}

// seedFetcher serves pages from a map (a 404 for any other URL) and
// records the URLs asked for.
type seedFetcher struct {
	pages map[string]string // URL to Content-Type, a newline, then the body
	asked []string
}

func (f *seedFetcher) Fetch(_ context.Context, url string) (*scout.FetchResponse, error) {
	f.asked = append(f.asked, url)
	page, ok := f.pages[url]
	if !ok {
		return &scout.FetchResponse{URL: url, FinalURL: url, Status: 404, ContentType: "text/plain"}, nil
	}
	ct, body, _ := strings.Cut(page, "\n")
	return &scout.FetchResponse{URL: url, FinalURL: url, Status: 200, ContentType: ct, Body: []byte(body)}, nil
}

// TestPiReadSeed001URL checks seed 001's web URL statements through the
// tool, with a fetcher that serves fixed pages: www. targets, the header,
// the methods, :raw, line selectors after a trailing slash on a bare host,
// the 300-line cut and inline images.
func TestPiReadSeed001URL(t *testing.T) {
	var ten, long strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&ten, "t%d\n", i)
	}
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	var pngBuf bytes.Buffer
	if err := png.Encode(&pngBuf, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	const html = `<html><head><title>T</title></head><body><h1>Hello</h1><p>para one</p></body></html>`
	f := &seedFetcher{pages: map[string]string{
		"https://www.x.example/docs": "text/plain\na\nb\nc\n",
		"https://x.example/":         "text/plain\n" + ten.String(),
		"https://x.example/p.html":   "text/html\n" + html,
		"https://x.example/j.json":   "application/json\n{\"a\":1}",
		"https://x.example/long":     "text/plain\n" + long.String(),
		"https://x.example/i.png":    "image/png\n" + pngBuf.String(),
	}}
	base := Config{FS: fstest.MapFS{}, Root: "/r", Fetcher: f}
	rows := []seed001Row{
		{rule: "parseReadUrlTarget() accepts ... www. targets; normalize scheme (https:// added for bare www.); URL output is wrapped with a small header",
			path: "www.x.example/docs", status: scout.StatusSuccess,
			text: "URL: https://www.x.example/docs\nContent-Type: text/plain\nMethod: text\n\n---\n\na\nb\nc",
			has:  []string{`"kind":"url"`, `"url":"https://www.x.example/docs"`, `"finalUrl":"https://www.x.example/docs"`, `"contentType":"text/plain"`, `"method":"text"`, `"source":{"type":"url","value":"https://www.x.example/docs"}`}},
		{rule: "add a trailing slash before a selector on a host/port URL, e.g. https://example.com/:80",
			path: "https://x.example/:14", status: scout.StatusSuccess, text: "t7\nt8\nt9\nt10"},
		{rule: "handle JSON directly (method json)",
			path: "https://x.example/j.json", status: scout.StatusSuccess, text: "URL: https://x.example/j.json\nContent-Type: application/json\nMethod: json\n\n---\n\n…"},
		{rule: ":raw means raw HTML/body fallback path (method raw-html)",
			path: "https://x.example/p.html:raw", status: scout.StatusSuccess,
			text: "URL: https://x.example/p.html\nContent-Type: text/html\nMethod: raw-html\n\n---\n\n" + html},
		{rule: "plain URL reads prefer rendered/reader-friendly output",
			path: "https://x.example/p.html", status: scout.StatusSuccess, has: []string{"# Hello\n\npara one"}, lacks: []string{"<h1>", "Method: raw"}},
		{rule: "URL read result shown to the model is truncated to 300 lines",
			path: "https://x.example/long", status: scout.StatusPartial, has: []string{"\n\n[Showing lines 1-300 of 406. Use :301 to continue]"}, lacks: []string{"line 295\n"}},
		{rule: ":N ... page over cached output",
			path: "https://x.example/long:301", status: scout.StatusSuccess, text: "line 294\nline 295…", has: []string{"line 400"}, lacks: []string{"line 293\n"}},
		{rule: "URL reads may return an inline image block when the fetched resource is a supported image",
			path: "https://x.example/i.png", status: scout.StatusSuccess, text: "URL: https://x.example/i.png\nContent-Type: image/png\nMethod: image\n\n---\n\n…"},
	}
	for i, r := range rows {
		t.Run(fmt.Sprintf("%02d_%s", i, r.path), func(t *testing.T) {
			r.check(t, base)
		})
	}
	// Paging reads the cached render; the raw body is cached apart.
	f.asked = nil
	cached := base
	cached.URLCache = &scout.URLCache{}
	for _, r := range []seed001Row{
		{path: "https://x.example/long", status: scout.StatusPartial, has: []string{"Use :301 to continue]"}},
		{path: "https://x.example/long:301", status: scout.StatusSuccess, has: []string{"line 400"}},
		{path: "https://x.example/long:9-10", status: scout.StatusSuccess, text: "line 2\nline 3\nline 4\nline 5\nline 6\nline 7\n\n[393 more lines in URL output. Use :14 to continue]"},
		{path: "https://x.example/long:raw", status: scout.StatusPartial, has: []string{"Method: raw"}},
		{path: "https://x.example/long:9-10:raw", status: scout.StatusSuccess, text: "line 3\nline 4\n\n[396 more lines in URL output. Use :11 to continue]"},
	} {
		r.rule = "URL line-range reads ... do not refetch when cached output is usable; cache keys are normalized by requested URL + raw/rendered mode; :range:raw is the same line selection, raw"
		r.check(t, cached)
	}
	if want := []string{"https://x.example/long", "https://x.example/long"}; !slices.Equal(f.asked, want) {
		t.Errorf("fetched %q, want %q: paging uses the cache, keyed by URL and raw/rendered mode", f.asked, want)
	}
	args, _ := json.Marshal(map[string]string{"path": "https://x.example/i.png"})
	if env := Call(context.Background(), base, Pi, "read", args); len(env.Images) != 1 || !bytes.Equal(env.Images[0].Data, pngBuf.Bytes()) {
		t.Errorf("an image URL: %d images in the Envelope, want its bytes as one", len(env.Images))
	}
}

// TestPiReadTilde checks seed 001's "resolveReadPath() expands ~": a
// path under the home directory inside the root is read, one outside it
// is refused.
func TestPiReadTilde(t *testing.T) {
	home := isolateGit(t)
	writeTree(t, home, map[string]string{"proj/a.txt": "a\nb\nc\n", "x.txt": "x\n"})
	cfg := Config{Root: filepath.Join(home, "proj")}
	for _, r := range []seed001Row{
		{path: "~/proj/a.txt:3", status: scout.StatusSuccess, text: "¶a.txt#D988\n2:b\n3:c"},
		{path: "~/x.txt", status: scout.StatusError, code: "ACCESS_DENIED", text: "Access denied: '" + filepath.Join(home, "x.txt") + "' is outside the project root…"},
	} {
		r.rule = "resolveReadPath() expands ~, resolves relative to session cwd"
		r.check(t, cfg)
	}
}
