package read

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/scoutkit/scout/internal/web"
)

// TestWebRead checks the web path of read: site handlers carried by the
// fetcher, images through the image path, paging from the cache.
func TestWebRead(t *testing.T) {
	var pngBuf bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	if err := png.Encode(&pngBuf, img); err != nil {
		t.Fatal(err)
	}
	// Noise does not compress: a photo of 700x500 is a PNG of about 1 MB.
	photo := image.NewRGBA(image.Rect(0, 0, 700, 500))
	rnd := uint32(1)
	for i := range photo.Pix {
		rnd = rnd*1664525 + 1013904223
		photo.Pix[i] = byte(rnd >> 24)
		if i%4 == 3 {
			photo.Pix[i] = 255 // opaque
		}
	}
	var photoBuf bytes.Buffer
	if err := png.Encode(&photoBuf, photo); err != nil {
		t.Fatal(err)
	}
	if photoBuf.Len() <= maxURLImageBytes {
		t.Fatalf("the photo is %d bytes, within the inline cap", photoBuf.Len())
	}
	hits := 0
	mux := http.NewServeMux()
	mux.HandleFunc("/logo.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(pngBuf.Bytes())
	})
	mux.HandleFunc("/photo.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(photoBuf.Bytes())
	})
	mux.HandleFunc("/page.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("<html><body><p>not a png</p></body></html>"))
	})
	mux.HandleFunc("/noise.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x00\x01\x02 no image format"))
	})
	mux.HandleFunc("/lines", func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.Header().Set("Content-Type", "text/plain")
		for i := 1; i <= 400; i++ {
			w.Write([]byte("line\n"))
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	site := web.HandlerFunc(func(ctx context.Context, f web.Fetcher, u *url.URL) (*web.Page, error) {
		if u.Path != "/handled" {
			return nil, nil
		}
		return &web.Page{Content: "from the handler\n", Method: "test-site"}, nil
	})
	fetcher := &web.Client{Fetcher: &web.HTTPFetcher{AllowPrivate: true}, Handlers: map[string]web.Handler{"test": site}}
	tests := []struct {
		reason   string
		path     string
		metaOnly bool
		check    func(t *testing.T, res *Result)
	}{
		{"a site handler carried by the fetcher reads the page", srv.URL + "/handled", false, func(t *testing.T, res *Result) {
			if res.URL.Method != "test-site" || !strings.Contains(res.Blocks[0].Lines[len(res.Blocks[0].Lines)-1].Text, "from the handler") {
				t.Errorf("method %q blocks %+v", res.URL.Method, res.Blocks)
			}
		}},
		{"an image URL goes through the image path, bytes kept", srv.URL + "/logo.png", false, func(t *testing.T, res *Result) {
			if res.Image == nil || res.Image.Width != 3 || res.Image.Height != 2 || !bytes.Equal(res.ImageData, pngBuf.Bytes()) {
				t.Errorf("image %+v, %d bytes", res.Image, len(res.ImageData))
			}
		}},
		{"an image over the inline cap is scaled down to fit (opaque: JPEG), with a note", srv.URL + "/photo.png", false, func(t *testing.T, res *Result) {
			cfg, format, err := image.DecodeConfig(bytes.NewReader(res.ImageData))
			if err != nil || format != "jpeg" || len(res.ImageData) > maxURLImageBytes || res.Image == nil ||
				res.Image.Bytes != int64(len(res.ImageData)) || res.Image.Width != cfg.Width || res.Image.Width >= 700 || res.Image.MIME != "image/jpeg" {
				t.Errorf("image %+v, %d bytes (%s %+v %v)", res.Image, len(res.ImageData), format, cfg, err)
			}
			note := fmt.Sprintf("Image resized from 700x500 (%s) to %dx%d JPEG", dirtree.FormatBytes(int64(photoBuf.Len())), cfg.Width, cfg.Height)
			if len(res.URL.Notes) != 1 || !strings.HasPrefix(res.URL.Notes[0], note) || !strings.HasSuffix(res.URL.Notes[0], "to fit the 300.0KB inline cap") {
				t.Errorf("notes %q, want %q...", res.URL.Notes, note)
			}
		}},
		{"metadata only keeps the image's own metadata, no note", srv.URL + "/photo.png", true, func(t *testing.T, res *Result) {
			if res.Image == nil || res.Image.Width != 700 || res.ImageData != nil || len(res.URL.Notes) != 0 {
				t.Errorf("image %+v, %d bytes, notes %q", res.Image, len(res.ImageData), res.URL.Notes)
			}
		}},
		{"metadata only drops the bytes", srv.URL + "/logo.png", true, func(t *testing.T, res *Result) {
			if res.Image == nil || res.ImageData != nil {
				t.Errorf("image %+v, %d bytes", res.Image, len(res.ImageData))
			}
		}},
		// Both were shown as "[Image: image/png, 42B]" and nothing else.
		{"bytes that are no image are noted, text with :raw", srv.URL + "/page.png", false, func(t *testing.T, res *Result) {
			want := []string{"Image not shown: not a supported image (PNG, JPEG, GIF, WebP, BMP or TIFF by its first bytes); the body is text: :raw shows it"}
			if res.Image != nil || res.ImageData != nil || !slices.Equal(res.URL.Notes, want) {
				t.Errorf("image %+v, notes %q, want %q", res.Image, res.URL.Notes, want)
			}
		}},
		{"binary bytes that are no image are noted", srv.URL + "/noise.png", true, func(t *testing.T, res *Result) {
			want := []string{"Image not shown: not a supported image (PNG, JPEG, GIF, WebP, BMP or TIFF by its first bytes)"}
			if res.Image != nil || !slices.Equal(res.URL.Notes, want) {
				t.Errorf("image %+v, notes %q, want %q", res.Image, res.URL.Notes, want)
			}
		}},
		{"a long page is cut at 300 lines of URL output", srv.URL + "/lines", false, func(t *testing.T, res *Result) {
			if b := res.Blocks[0]; res.Source != SourceURL || res.Truncated != TruncLimit || b.Lines[len(b.Lines)-1].N != 300 || res.Next != 301 {
				t.Errorf("source %q truncated %q next %d", res.Source, res.Truncated, res.Next)
			}
		}},
		{"a range pages the cached render without a refetch", srv.URL + "/lines:350-352", false, func(t *testing.T, res *Result) {
			if hits != 1 || len(res.Blocks) != 1 || res.Blocks[0].Lines[0].N != 350 {
				t.Errorf("hits %d blocks %+v", hits, res.Blocks)
			}
		}},
	}
	cache := &web.Cache{}
	for _, tt := range tests {
		c := &Config{FS: fstest.MapFS{}, Fetcher: fetcher, WebCache: cache, ImageMetadataOnly: tt.metaOnly}
		res, err := Run(context.Background(), c, tt.path)
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		t.Run(tt.reason, func(t *testing.T) { tt.check(t, res) })
	}
}

// TestWebDocuments reads documents from a URL: one built to exhaust memory
// (a DOCX of 2 Mi nested paragraphs) and one that is not what it claims
// are errors, one over the output cap is partial; Scout's own fetcher
// reaches the test server only with AllowPrivateNetwork.
func TestWebDocuments(t *testing.T) {
	docs := map[string][]byte{
		"/deep.docx": testfs.Zip(testfs.Member{Name: "word/document.xml", Body: `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + strings.Repeat("<w:p>", 2<<20)}),
		"/bad.pdf":   []byte("%PDF-1.4\nnot really\n"),
		"/big.rtf":   []byte(`{\rtf1 ` + strings.Repeat("word ", 7<<19) + `}`), // over the output cap, under the fetcher's
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(docs[r.URL.Path])
	}))
	t.Cleanup(srv.Close)
	c := &Config{FS: fstest.MapFS{}}
	if _, err := Run(context.Background(), c, srv.URL+"/big.rtf"); errs.CodeOf(err) != errs.AccessDenied {
		t.Fatalf("without AllowPrivateNetwork: err = %v", err)
	}
	c.AllowPrivateNetwork = true
	tests := []struct {
		path string
		code errs.Code
		want string // in the error, or the result's Incomplete
	}{
		{"/deep.docx", errs.TooLarge, "Cannot convert the .docx document at " + srv.URL + "/deep.docx: part word/document.xml nests elements more than 256 deep"},
		{"/bad.pdf", errs.Unsupported, "Cannot convert the .pdf document at " + srv.URL + "/bad.pdf: not a valid PDF document"},
		{"/big.rtf", "", "conversion stopped after 16.0MB of text; the rest of the document is not shown"},
	}
	for _, tt := range tests {
		res, err := Run(context.Background(), c, srv.URL+tt.path)
		got := fmt.Sprint(err)
		if err == nil {
			got = res.Incomplete
			if res.Incomplete == "" || !strings.Contains(strings.Join(res.URL.Notes, "; "), "Converted in part: "+tt.want) {
				t.Errorf("%s: incomplete %q notes %q", tt.path, res.Incomplete, res.URL.Notes)
			}
		}
		if errs.CodeOf(err) != tt.code || !strings.Contains(got, tt.want) {
			t.Errorf("%s: %s %q, want %s %q", tt.path, errs.CodeOf(err), got, tt.code, tt.want)
		}
	}
}
