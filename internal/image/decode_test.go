package image

import (
	"bytes"
	stdimage "image"
	"image/jpeg"
	"image/png"
	"io"
	"runtime"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
)

// allocated returns the bytes f allocates, garbage included: what the heap
// grows by before a collection.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// patterned returns images of n x n pixels whose bytes vary, so that
// their encodings are not trivially small.
func patterned(n int) (nrgba *stdimage.NRGBA, n64 *stdimage.NRGBA64, gray *stdimage.Gray, g16 *stdimage.Gray16, cmyk *stdimage.CMYK) {
	r := stdimage.Rect(0, 0, n, n)
	nrgba, n64, gray, g16, cmyk = stdimage.NewNRGBA(r), stdimage.NewNRGBA64(r), stdimage.NewGray(r), stdimage.NewGray16(r), stdimage.NewCMYK(r)
	for _, pix := range [][]byte{nrgba.Pix, n64.Pix, gray.Pix, g16.Pix, cmyk.Pix} {
		for i := range pix {
			pix[i] = byte(i*7 + i>>9)
		}
	}
	return
}

// TestDecodeCost checks that decodeCost bounds what the decoders allocate,
// for the formats and colour models whose decoders hold more than the
// pixels (TIFF's strip buffer, progressive JPEG's coefficients) and those
// that do not. An estimate below the truth let a 521 KB TIFF take 658 MB.
func TestDecodeCost(t *testing.T) {
	nrgba, n64, gray, g16, cmyk := patterned(512)
	deflate := &tiff.Options{Compression: tiff.Deflate}
	tests := []struct {
		name string
		data []byte
	}{
		{"png rgba", encode(t, func(w io.Writer) error { return png.Encode(w, nrgba) })},
		{"png rgba 16-bit", encode(t, func(w io.Writer) error { return png.Encode(w, n64) })},
		{"png gray 16-bit", encode(t, func(w io.Writer) error { return png.Encode(w, g16) })},
		{"tiff rgba 16-bit deflate", encode(t, func(w io.Writer) error { return tiff.Encode(w, n64, deflate) })},
		{"tiff rgba deflate", encode(t, func(w io.Writer) error { return tiff.Encode(w, nrgba, deflate) })},
		{"tiff cmyk deflate", encode(t, func(w io.Writer) error { return tiff.Encode(w, cmyk, deflate) })},
		{"tiff gray deflate", encode(t, func(w io.Writer) error { return tiff.Encode(w, gray, deflate) })},
		{"tiff uncompressed", encode(t, func(w io.Writer) error { return tiff.Encode(w, nrgba, nil) })},
		{"jpeg 4:2:0", encode(t, func(w io.Writer) error { return jpeg.Encode(w, nrgba, nil) })},
		{"jpeg gray", encode(t, func(w io.Writer) error { return jpeg.Encode(w, gray, nil) })},
		{"jpeg progressive 4:4:4", fixture(t, "progressive-444.jpg")},
		{"jpeg progressive 4:2:0", fixture(t, "progressive-420.jpg")},
		{"jpeg progressive gray", fixture(t, "progressive-gray.jpg")},
		{"bmp", encode(t, func(w io.Writer) error { return bmp.Encode(w, nrgba) })},
	}
	for _, tt := range tests {
		cfg, name, err := stdimage.DecodeConfig(bytes.NewReader(tt.data))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		est := uint64(decodeCost(name, cfg, tt.data))
		got := allocated(func() {
			if _, _, err := stdimage.Decode(bytes.NewReader(tt.data)); err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
		})
		// A little over the estimate is the decoders' fixed overhead
		// (Huffman tables, inflate windows), not a per-pixel cost.
		if got > est+est/10+256<<10 && !raceEnabled {
			t.Errorf("%s: decoding allocated %d bytes, over the estimate of %d", tt.name, got, est)
		}
		if est > 6*got {
			t.Errorf("%s: estimate %d is over 6 times the %d bytes decoding allocated: images that could be checked are not", tt.name, est, got)
		}
	}
}

// TestLoadHeaderOnlyOverBudget loads a TIFF whose decode would allocate
// more than MaxDecodeBytes: its header is checked and its bytes returned,
// without decoding its pixels.
func TestLoadHeaderOnlyOverBudget(t *testing.T) {
	const n = 1448 // 16-bit RGBA: 16 MiB of pixels, about 80 MiB to decode
	img := stdimage.NewNRGBA64(stdimage.Rect(0, 0, n, n))
	for i := range img.Pix {
		img.Pix[i] = byte(i>>3 + i>>13)
	}
	data := encode(t, func(w io.Writer) error { return tiff.Encode(w, img, &tiff.Options{Compression: tiff.Deflate}) })
	img = nil
	cfg, _, err := stdimage.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if c := decodeCost("tiff", cfg, data); c <= MaxDecodeBytes {
		t.Fatalf("the test image costs %d, not over MaxDecodeBytes", c)
	}
	var info Info
	var got []byte
	grew := allocated(func() { info, got, err = Load(bytes.NewReader(data), int64(len(data))) })
	if err != nil || info.Width != n || !bytes.Equal(got, data) {
		t.Fatalf("Load = %+v, %d bytes, %v", info, len(got), err)
	}
	if limit := uint64(len(data)) + 1<<20; grew > limit {
		t.Errorf("Load allocated %d bytes for a %d-byte file; its pixels were decoded", grew, len(data))
	}
}

func TestJPEGFrame(t *testing.T) {
	tests := []struct {
		name        string
		data        []byte
		progressive bool
		samples     float64
		comps       int
		ok          bool
	}{
		{"progressive 4:4:4", fixture(t, "progressive-444.jpg"), true, 3, 3, true},
		{"progressive 4:2:0", fixture(t, "progressive-420.jpg"), true, 1.5, 3, true},
		{"progressive gray", fixture(t, "progressive-gray.jpg"), true, 1, 1, true},
		{"baseline", images(t)[5].data, false, 1.5, 3, true},
		{"no frame header", []byte{0xFF, 0xD8, 0xFF, 0xD9}, false, 0, 0, false},
		{"junk after SOI", []byte{0xFF, 0xD8, 'h', 'e', 'l', 'l', 'o'}, false, 0, 0, false},
		{"a frame header cut short", []byte{0xFF, 0xD8, 0xFF, 0xC2, 0, 17, 8, 0}, false, 0, 0, false},
		{"a segment length past the end", []byte{0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF, 0}, false, 0, 0, false},
	}
	for _, tt := range tests {
		p, s, c, ok := jpegFrame(tt.data)
		if p != tt.progressive || s != tt.samples || c != tt.comps || ok != tt.ok {
			t.Errorf("%s: jpegFrame = %v, %v, %d, %v; want %v, %v, %d, %v", tt.name, p, s, c, ok, tt.progressive, tt.samples, tt.comps, tt.ok)
		}
	}
}
