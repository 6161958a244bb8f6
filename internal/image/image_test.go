package image

import (
	"bytes"
	"errors"
	stdimage "image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/internal/errs"
)

func fill(img interface {
	Set(x, y int, c color.Color)
	Bounds() stdimage.Rectangle
}, alpha uint8) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			img.Set(x, y, color.NRGBA{uint8(x * 30), uint8(y * 50), 90, alpha})
		}
	}
}

func encode(t testing.TB, enc func(io.Writer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := enc(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// images builds one file of each kind, in memory.
func images(t testing.TB) []struct {
	name   string
	data   []byte
	want   Info
	reason string
} {
	rect := stdimage.Rect(0, 0, 5, 3)
	nrgba := stdimage.NewNRGBA(rect)
	fill(nrgba, 128)
	opaque := stdimage.NewNRGBA(rect)
	fill(opaque, 255)
	gray := stdimage.NewGray(rect)
	fill(gray, 255)
	pal := stdimage.NewPaletted(rect, palette.Plan9[:16])
	fill(pal, 255)
	transparent := append(color.Palette{color.NRGBA{}}, palette.Plan9[:15]...)
	palT := stdimage.NewPaletted(rect, transparent)
	fill(palT, 255)
	return []struct {
		name   string
		data   []byte
		want   Info
		reason string
	}{
		{"png rgba", encode(t, func(w io.Writer) error { return png.Encode(w, nrgba) }),
			Info{MIME: "image/png", Format: "png", Width: 5, Height: 3, Channels: 4, Alpha: true}, "PNG colour type 6"},
		{"png rgb", encode(t, func(w io.Writer) error { return png.Encode(w, opaque) }),
			Info{MIME: "image/png", Format: "png", Width: 5, Height: 3, Channels: 3}, "an opaque NRGBA is written as colour type 2"},
		{"png gray", encode(t, func(w io.Writer) error { return png.Encode(w, gray) }),
			Info{MIME: "image/png", Format: "png", Width: 5, Height: 3, Channels: 1}, "PNG colour type 0"},
		{"png palette", encode(t, func(w io.Writer) error { return png.Encode(w, pal) }),
			Info{MIME: "image/png", Format: "png", Width: 5, Height: 3, Channels: 3}, "a palette without tRNS has no alpha"},
		{"png palette trns", encode(t, func(w io.Writer) error { return png.Encode(w, palT) }),
			Info{MIME: "image/png", Format: "png", Width: 5, Height: 3, Channels: 4, Alpha: true}, "a tRNS chunk adds alpha"},
		{"jpeg", encode(t, func(w io.Writer) error { return jpeg.Encode(w, opaque, nil) }),
			Info{MIME: "image/jpeg", Format: "jpeg", Width: 5, Height: 3, Channels: 3}, "JPEG colour is YCbCr"},
		{"jpeg gray", encode(t, func(w io.Writer) error { return jpeg.Encode(w, gray, nil) }),
			Info{MIME: "image/jpeg", Format: "jpeg", Width: 5, Height: 3, Channels: 1}, "grayscale JPEG"},
		{"gif", encode(t, func(w io.Writer) error { return gif.Encode(w, pal, nil) }),
			Info{MIME: "image/gif", Format: "gif", Width: 5, Height: 3, Channels: 3}, "GIF without transparency"},
		{"gif transparent", encode(t, func(w io.Writer) error {
			return gif.EncodeAll(w, &gif.GIF{Image: []*stdimage.Paletted{palT}, Delay: []int{0}})
		}), Info{MIME: "image/gif", Format: "gif", Width: 5, Height: 3, Channels: 4, Alpha: true},
			"a graphic control extension with a transparent index"},
		{"bmp 24", encode(t, func(w io.Writer) error { return bmp.Encode(w, opaque) }),
			Info{MIME: "image/bmp", Format: "bmp", Width: 5, Height: 3, Channels: 3}, "opaque BMP is 24-bit"},
		{"bmp 32", encode(t, func(w io.Writer) error { return bmp.Encode(w, nrgba) }),
			Info{MIME: "image/bmp", Format: "bmp", Width: 5, Height: 3, Channels: 4},
			"32-bit BMP with a 40-byte BITMAPINFOHEADER: its alpha byte is ignored, as decoders do"},
		{"tiff rgba", encode(t, func(w io.Writer) error { return tiff.Encode(w, nrgba, nil) }),
			Info{MIME: "image/tiff", Format: "tiff", Width: 5, Height: 3, Channels: 4, Alpha: true}, "TIFF SamplesPerPixel 4"},
		{"tiff gray", encode(t, func(w io.Writer) error { return tiff.Encode(w, gray, nil) }),
			Info{MIME: "image/tiff", Format: "tiff", Width: 5, Height: 3, Channels: 1}, "TIFF SamplesPerPixel 1"},
		{"webp lossy", fixture(t, "lossy.webp"),
			Info{MIME: "image/webp", Format: "webp", Width: 6, Height: 4, Channels: 3}, "VP8 has no alpha"},
		{"webp lossy alpha", fixture(t, "lossy-alpha.webp"),
			Info{MIME: "image/webp", Format: "webp", Width: 6, Height: 4, Channels: 4, Alpha: true}, "VP8X alpha flag"},
		{"webp lossless", fixture(t, "lossless.webp"),
			Info{MIME: "image/webp", Format: "webp", Width: 6, Height: 4, Channels: 3}, "VP8L alpha bit clear"},
		{"webp lossless alpha", fixture(t, "lossless-alpha.webp"),
			Info{MIME: "image/webp", Format: "webp", Width: 6, Height: 4, Channels: 4, Alpha: true}, "VP8L alpha bit set"},
	}
}

func TestInspectAndLoad(t *testing.T) {
	for _, tt := range images(t) {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.Bytes = int64(len(tt.data))
			mime, ok := Detect(tt.data[:min(len(tt.data), HeadBytes)])
			if !ok || mime != tt.want.MIME {
				t.Errorf("Detect = %q, %v; want %q", mime, ok, tt.want.MIME)
			}
			got, err := Inspect(bytes.NewReader(tt.data), int64(len(tt.data)))
			if assert.NoError(t, err, "%s: Inspect", tt.reason) {
				assert.Equal(t, tt.want, got, "%s: Inspect", tt.reason)
			}
			got, data, err := Load(bytes.NewReader(tt.data), int64(len(tt.data)))
			if assert.NoError(t, err, "%s: Load", tt.reason) {
				assert.Equal(t, tt.want, got, "%s: Load", tt.reason)
				assert.True(t, bytes.Equal(data, tt.data), "%s: Load gives the file's bytes (%d of %d)", tt.reason, len(data), len(tt.data))
			}
		})
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		head   string
		want   string
		reason string
	}{
		{"", "", "nothing is no image"},
		{"hello world, this is text", "", "text is no image"},
		{"BMW cars are fast and quite expensive", "", `"BM" without a DIB header size is text`},
		{"RIFF\x00\x00\x00\x00WAVEfmt ", "", "a RIFF that is not WEBP"},
		{"\x89PNG\r\n\x1a\n", "image/png", "the PNG signature alone is enough"},
		{"GIF87a", "image/gif", "old GIF"},
		{"MM\x00*", "image/tiff", "big-endian TIFF"},
		{"\xff\xd8\xff\xe0", "image/jpeg", "JPEG SOI and a marker"},
	}
	for _, tt := range tests {
		got, ok := Detect([]byte(tt.head))
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("%s: Detect(%q) = %q, %v; want %q", tt.reason, tt.head, got, ok, tt.want)
		}
	}
}

type sized struct{}

func (s sized) ReadAt(p []byte, off int64) (int, error) {
	panic("nothing may be read from an image over the cap")
}

func TestErrors(t *testing.T) {
	png := images(t)[0].data
	jpg := images(t)[5].data
	tests := []struct {
		name    string
		data    []byte
		size    int64
		code    errs.Code
		substr  string
		inspect bool // whether Inspect fails too, or only Load's full decode
		reason  string
	}{
		{"text", []byte("just some text"), -1, errs.Unsupported, "not a supported image", true, "not an image"},
		{"empty", nil, -1, errs.Unsupported, "not a supported image", true, "an empty file"},
		{"png header cut", png[:20], -1, errs.Unsupported, "PNG image header cannot be decoded", true, "a PNG cut inside IHDR"},
		{"png data cut", png[:len(png)-20], -1, errs.Unsupported, "PNG image data cannot be decoded", false, "a PNG cut inside IDAT passes the header check only"},
		{"jpeg data cut", jpg[:len(jpg)-10], -1, errs.Unsupported, "JPEG image data cannot be decoded", false, "a truncated JPEG"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			size := int64(len(tt.data))
			_, err := Inspect(bytes.NewReader(tt.data), size)
			if tt.inspect != (err != nil) {
				t.Fatalf("%s: Inspect error = %v, want failure %v", tt.reason, err, tt.inspect)
			}
			_, data, err := Load(bytes.NewReader(tt.data), size)
			var e *errs.Error
			if !errors.As(err, &e) || e.Code != tt.code || !strings.Contains(e.Message, tt.substr) || data != nil {
				t.Errorf("%s: Load error = %v, want %s containing %q", tt.reason, err, tt.code, tt.substr)
			}
		})
	}
	_, err := Inspect(sized{}, MaxBytes+1)
	if errs.CodeOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "20.0MB limit") {
		t.Errorf("an image over 20 MiB is TooLarge before any read; got %v", err)
	}
}

func TestLoadFromTempFile(t *testing.T) {
	data := images(t)[0].data
	path := filepath.Join(t.TempDir(), "a.png")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, got, err := Load(f, int64(len(data)))
	if err != nil || !bytes.Equal(got, data) || info.Width != 5 {
		t.Errorf("a real *os.File works as the ReaderAt: %+v, %v", info, err)
	}
}

// FuzzInspect checks that no input panics Inspect or Load and that a
// success reports the detected MIME type and positive dimensions.
func FuzzInspect(f *testing.F) {
	for _, tt := range images(f) {
		f.Add(tt.data)
	}
	f.Add([]byte("GIF89a\x01\x00\x01\x00\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := Inspect(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		if mime, _ := Detect(data); mime != info.MIME || info.Width < 0 || info.Height < 0 {
			t.Fatalf("inconsistent info %+v", info)
		}
		if int64(info.Width)*int64(info.Height) <= 1<<16 {
			_, _, _ = Load(bytes.NewReader(data), int64(len(data)))
		}
	})
}
