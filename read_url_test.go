package scout_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	pngenc "image/png"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

// urlServer serves /page (text/plain, "line 1" to "line 400"), /short
// ("a", "b", "c"), /old (a redirect to /short) and /missing (a 404). It
// counts the requests for /page.
func urlServer(t *testing.T) (string, *atomic.Int32) {
	pageHits := new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			pageHits.Add(1)
			w.Header().Set("Content-Type", "text/plain")
			for i := 1; i <= 400; i++ {
				fmt.Fprintf(w, "line %d\n", i)
			}
		case "/short":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "a\nb\nc\n")
		case "/old":
			http.Redirect(w, r, "/short", http.StatusFound)
		default:
			http.Error(w, "gone", http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, pageHits
}

// urlView is what a test compares of a web read: the first and last line
// shown ("N:text"), the total, the next page, a line beyond the end, the
// header's line count.
type urlView struct {
	First, Last                    string
	Total, Next, BeyondEnd, Header int
}

func viewOf(res *scout.ReadResult) urlView {
	v := urlView{Total: res.TotalLines, BeyondEnd: res.BeyondEnd}
	if res.URL != nil {
		v.Header = res.URL.HeaderLines
	}
	if len(res.Blocks) > 0 {
		b := res.Blocks[0]
		v.Next = b.Next
		if n := len(b.Lines); n > 0 {
			v.First = fmt.Sprintf("%d:%s", b.Lines[0].N, b.Lines[0].Text)
			v.Last = fmt.Sprintf("%d:%s", b.Lines[n-1].N, b.Lines[n-1].Text)
		}
	}
	return v
}

// TestReadURLHeaderLines checks Reader.URLHeaderLines: off (the default),
// line selectors, totals and the next page count the body's lines; on (the
// pi read tool's setting), the header's lines come first and are counted.
// format renders the header either way.
func TestReadURLHeaderLines(t *testing.T) {
	srvURL, pageHits := urlServer(t)
	header := "URL: " + srvURL + "/page\nContent-Type: text/plain\nMethod: text\n\n---\n\n"
	tests := []struct {
		name string
		on   bool
		path string // after the server's URL
		want urlView
		text []string // in format.ReadText's text, in order, the last one ending it
	}{
		{"off first page", false, "/page", urlView{"1:line 1", "300:line 300", 400, 301, 0, 0},
			[]string{header + "line 1\n", "\nline 300\n\n[Showing lines 1-300 of 400. Use :301 to continue]"}},
		{"on first page", true, "/page", urlView{"1:URL: " + srvURL + "/page", "300:line 294", 406, 301, 0, 6},
			[]string{header + "line 1\n", "\nline 294\n\n[Showing lines 1-300 of 406. Use :301 to continue]"}},
		{"off from line 2", false, "/page:2", urlView{"2:line 2", "301:line 301", 400, 302, 0, 0},
			[]string{header + "line 2\n", "\nline 301\n\n[Showing lines 2-301 of 400. Use :302 to continue]"}},
		{"on from line 2", true, "/page:2", urlView{"2:Content-Type: text/plain", "301:line 295", 406, 302, 0, 6},
			[]string{"Content-Type: text/plain\nMethod: text\n", "\nline 295\n\n[Showing lines 2-301 of 406. Use :302 to continue]"}},
		{"off range", false, "/page:3-4", urlView{"3:line 3", "4:line 4", 400, 5, 0, 0},
			[]string{header + "line 3\nline 4\n\n[396 more lines in URL output. Use :5 to continue]"}},
		{"on range", true, "/page:3-4", urlView{"3:Method: text", "4:", 406, 5, 0, 6},
			[]string{"Method: text\n\n\n[402 more lines in URL output. Use :5 to continue]"}},
		{"off last page", false, "/page:301", urlView{"301:line 301", "400:line 400", 400, 0, 0, 0},
			[]string{header + "line 301\n", "\nline 400"}},
		{"on last page", true, "/page:301", urlView{"301:line 295", "406:line 400", 406, 0, 0, 6},
			[]string{"line 295\n", "\nline 400"}},
		{"off beyond the body", false, "/page:401", urlView{"", "", 400, 0, 401, 0},
			[]string{header + "Line 401 is beyond end of URL output (400 lines total). Use :1 to read from the start, or :400 to read the last line."}},
		{"on body's end", true, "/page:401", urlView{"401:line 395", "406:line 400", 406, 0, 0, 6},
			[]string{"line 395\n", "\nline 400"}},
		{"off notes", false, "/old", urlView{"1:a", "3:c", 3, 0, 0, 0},
			[]string{"Notes: Redirected: " + srvURL + "/old -> " + srvURL + "/short\n\n---\n\na\nb\nc"}},
		{"on notes", true, "/old", urlView{"1:URL: " + srvURL + "/short", "10:c", 10, 0, 0, 7},
			[]string{"Notes: Redirected: " + srvURL + "/old -> " + srvURL + "/short\n\n---\n\na\nb\nc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{}}, AllowPrivateNetwork: true, URLHeaderLines: tt.on}
			res, err := r.Read(context.Background(), scout.ReadRequest{Path: srvURL + tt.path})
			require.NoError(t, err)
			assert.Equal(t, tt.want, viewOf(res))
			require.NotNil(t, res.URL)
			assert.Equal(t, "text/plain", res.URL.ContentType, "the header's fields are data in both settings")
			text := format.ReadText(res, nil)
			if !tt.on {
				assert.True(t, strings.HasPrefix(text, "URL: "), "the text starts with the header:\n%s", clipText(text))
			}
			rest := text
			for _, w := range tt.text {
				i := strings.Index(rest, w)
				require.GreaterOrEqual(t, i, 0, "missing %q in:\n%s", w, clipText(text))
				rest = rest[i+len(w):]
			}
			assert.Empty(t, rest, "after the last text wanted")
		})
	}

	t.Run("same text for a whole page", func(t *testing.T) {
		var texts [2]string
		for i, on := range []bool{false, true} {
			r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{}}, AllowPrivateNetwork: true, URLHeaderLines: on}
			res, err := r.Read(context.Background(), scout.ReadRequest{Path: srvURL + "/old"})
			require.NoError(t, err)
			texts[i] = format.ReadText(res, nil)
		}
		assert.Equal(t, texts[1], texts[0], "format renders the header from the payload when the lines lack it")
	})

	t.Run("failed read", func(t *testing.T) {
		for _, on := range []bool{false, true} {
			r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{}}, AllowPrivateNetwork: true, URLHeaderLines: on}
			res, err := r.Read(context.Background(), scout.ReadRequest{Path: srvURL + "/missing:2"})
			assert.Nil(t, res)
			assert.Equal(t, scout.CodeNotFound, scout.CodeOf(err), "on=%v", on)
			assert.EqualError(t, err, "HTTP 404 Not Found from "+srvURL+"/missing: gone", "on=%v", on)
		}
	})

	t.Run("one cached page for both settings", func(t *testing.T) {
		cache := &scout.URLCache{}
		off := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{}}, AllowPrivateNetwork: true, URLCache: cache}
		on := off
		on.URLHeaderLines = true
		before := pageHits.Load()
		_, err := off.Read(context.Background(), scout.ReadRequest{Path: srvURL + "/page"})
		require.NoError(t, err)
		res, err := on.Read(context.Background(), scout.ReadRequest{Path: srvURL + "/page:7"})
		require.NoError(t, err)
		assert.Equal(t, urlView{"7:line 1", "306:line 300", 406, 307, 0, 6}, viewOf(res))
		res, err = off.Read(context.Background(), scout.ReadRequest{Path: srvURL + "/page:7"})
		require.NoError(t, err)
		assert.Equal(t, urlView{"7:line 7", "306:line 306", 400, 307, 0, 0}, viewOf(res))
		assert.Equal(t, int32(1), pageHits.Load()-before, "the ranges page the cached render")
	})
}

// TestURLCacheConcurrent reads the same URLs through one URLCache from
// many goroutines, paged, raw, redirected and with both header settings
// (run with -race): each read shows its own lines, and the ranges page
// the render one of the first reads stored. A URL read after a redirect
// to it has its own header: the redirected page was kept under it with
// its "Notes: Redirected: ..." line, so that "/short:9" showed line 2 or
// 3 as another read had come first.
func TestURLCacheConcurrent(t *testing.T) {
	srvURL, pageHits := urlServer(t)
	cache := &scout.URLCache{}
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{}}, AllowPrivateNetwork: true, URLCache: cache, URLHeaderLines: g%2 == 0}
			header, notes := 0, 0 // the header's lines, its Notes: line
			if r.URLHeaderLines {
				header, notes = 6, 1
			}
			for i := range 20 {
				n := 1 + (g*20+i)%390
				for _, tt := range []struct{ path, first string }{
					{fmt.Sprintf("/page:%d", n+header), fmt.Sprintf("%d:line %d", n+header, n)},
					{fmt.Sprintf("/page:%d:raw", n+header), fmt.Sprintf("%d:line %d", n+header, n)},
					{"/old:" + strconv.Itoa(2+header+notes), fmt.Sprintf("%d:b", 2+header+notes)}, // Notes: Redirected: ...
					{"/short:" + strconv.Itoa(3+header), fmt.Sprintf("%d:c", 3+header)},
				} {
					res, err := r.Read(context.Background(), scout.ReadRequest{Path: srvURL + tt.path})
					if !assert.NoError(t, err, tt.path) {
						return
					}
					assert.Equal(t, tt.first, viewOf(res).First, "%s (header %v)", tt.path, r.URLHeaderLines)
				}
			}
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, pageHits.Load(), int32(2*16), "at most a fetch per goroutine and mode: the ranges page the cached render")
}

// TestReadURLCredentials: a URL's password is sent (as HTTP basic auth)
// but never shown: the result's URLs, notes and text, and the errors,
// show it as net/url's URL.Redacted does ("user:xxxxx@"). They showed it
// whole: in the header, the Path, the redirect note, a probe's note and
// the message of an HTTP error.
func TestReadURLCredentials(t *testing.T) {
	var srvURL string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "user" || (p != "secret" && p != "other") {
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/old": // relative: the client keeps the credentials
			http.Redirect(w, r, "/short", http.StatusFound)
		case "/abs": // a Location with credentials of its own
			http.Redirect(w, r, strings.Replace(srvURL, "://", "://user:other@", 1)+"/short", http.StatusFound)
		case "/short":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "a\nb\nc\n")
		case "/html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><head><link rel="alternate" type="text/markdown" href="/html.md"></head><body><p>x</p></body></html>`)
		case "/html.md":
			w.Header().Set("Content-Type", "text/markdown")
			fmt.Fprint(w, "# md\n")
		case "/bad":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write([]byte{0, 1, 2, 3})
		default:
			http.Error(w, "gone", http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	srvURL = srv.URL
	secret := strings.Replace(srv.URL, "://", "://user:secret@", 1)
	shown := strings.Replace(srv.URL, "://", "://user:xxxxx@", 1)
	tests := []struct {
		path string
		want []string // in the JSON of the result and its text, or in the error
		code scout.Code
	}{
		{"/short", []string{"URL: " + shown + "/short\n", `"resolved_path":"` + shown + `/short"`, `"input":"` + shown + `/short"`, `"url":"` + shown + `/short"`, `"final_url":"` + shown + `/short"`}, ""},
		{"/old", []string{"URL: " + shown + "/short\n", "Redirected: " + shown + "/old -> " + shown + "/short"}, ""},
		{"/abs", []string{"URL: " + shown + "/short\n", "Redirected: " + shown + "/abs -> " + shown + "/short"}, ""},
		{"/html", []string{"Used markdown alternate: " + shown + "/html.md"}, ""},
		{"/missing", []string{"HTTP 404 Not Found from " + shown + "/missing: gone"}, scout.CodeNotFound},
		{"/bad", []string{"Cannot read " + shown + "/bad: its content is binary"}, scout.CodeUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			for _, on := range []bool{false, true} {
				r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{}}, AllowPrivateNetwork: true, URLHeaderLines: on, URLCache: &scout.URLCache{}}
				res, err := r.Read(context.Background(), scout.ReadRequest{Path: secret + tt.path})
				var out string
				if tt.code != "" {
					require.Error(t, err)
					assert.Equal(t, tt.code, scout.CodeOf(err))
					out = err.Error()
				} else {
					require.NoError(t, err)
					data, err := json.Marshal(res)
					require.NoError(t, err)
					out = string(data) + "\n" + format.ReadText(res, nil)
				}
				for _, w := range tt.want {
					assert.Contains(t, out, w, "header lines %v", on)
				}
				assert.NotContains(t, out, "secret", "header lines %v", on)
				assert.NotContains(t, out, "other", "header lines %v", on)
			}
		})
	}
}

// TestReadURLControls: a web page's control characters are shown as
// symbols with a note that counts them, in the lines and the text; a
// local file's lines keep theirs (its bytes, as the file holds them).
func TestReadURLControls(t *testing.T) {
	const body = "a\x1b[31mred\x1b[0m\x07\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{"f.txt": {Data: []byte(body)}}}, AllowPrivateNetwork: true}
	res, err := r.Read(context.Background(), scout.ReadRequest{Path: srv.URL + "/x"})
	require.NoError(t, err)
	assert.Equal(t, "1:a␛[31mred␛[0m␇", viewOf(res).First)
	assert.Equal(t, []string{"Control characters shown as symbols: 3 (C0 and DEL as their Unicode control pictures, ESC as ␛; C1 as U+FFFD)"}, res.URL.Notes)
	assert.NotContains(t, format.ReadText(res, nil), "\x1b")
	res, err = r.Read(context.Background(), scout.ReadRequest{Path: "f.txt"})
	require.NoError(t, err)
	assert.Equal(t, "a\x1b[31mred\x1b[0m\x07", res.Blocks[0].Lines[0].Text, "a local file is shown as it is")
}

// TestReaderWebSettings checks Reader.FetchTimeout and
// Reader.URLImageMaxBytes, set and left at 0 or negative (the defaults:
// 30 s, 300 KiB).
func TestReaderWebSettings(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 160, 160))
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(rnd.Uint32())
	}
	var png bytes.Buffer
	require.NoError(t, pngenc.Encode(&png, img))
	require.Greater(t, png.Len(), 64<<10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hang":
			<-r.Context().Done()
		case "/img":
			w.Header().Set("Content-Type", "image/png")
			w.Write(png.Bytes())
		default:
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "hello\n")
		}
	}))
	t.Cleanup(srv.Close)
	read := func(r scout.Reader, path string) (*scout.ReadResult, error) {
		r.Workspace, r.AllowPrivateNetwork = scout.Workspace{FS: fstest.MapFS{}}, true
		return r.Read(context.Background(), scout.ReadRequest{Path: srv.URL + path})
	}

	start := time.Now()
	_, err := read(scout.Reader{FetchTimeout: 200 * time.Millisecond}, "/hang")
	assert.Equal(t, scout.CodeTimeout, scout.CodeOf(err))
	assert.ErrorContains(t, err, "no answer within 200ms, the fetch deadline")
	assert.Less(t, time.Since(start), 10*time.Second)
	res, err := read(scout.Reader{FetchTimeout: -time.Second}, "/page")
	require.NoError(t, err, "a negative FetchTimeout means the default")
	assert.Equal(t, "1:hello", viewOf(res).First)

	for _, tt := range []struct {
		max  int
		note string // "" for none: the image whole
	}{
		{0, ""},
		{-1, ""},
		{32 << 10, "to fit the 32.0KB inline cap"},
	} {
		res, err := read(scout.Reader{URLImageMaxBytes: tt.max}, "/img")
		require.NoError(t, err, tt.max)
		require.NotNil(t, res.Image, tt.max)
		if tt.note == "" {
			assert.Equal(t, png.Bytes(), res.ImageData, tt.max)
			assert.Empty(t, res.URL.Notes, tt.max)
			continue
		}
		assert.LessOrEqual(t, len(res.ImageData), tt.max)
		require.Len(t, res.URL.Notes, 1, tt.max)
		assert.Contains(t, res.URL.Notes[0], tt.note)
	}
}
