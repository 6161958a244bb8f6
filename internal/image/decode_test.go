package image

import (
	"bytes"
	"hash/crc32"
	stdimage "image"
	"image/jpeg"
	"image/png"
	"io"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"

	"github.com/scoutkit/scout/internal/errs"
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

// TestHugeHeaders loads images whose headers claim 100,000 x 100,000
// pixels (or the most the format can say) over a few bytes of data: the
// header is read and the bytes returned, or the data refused, without
// allocating for the pixels.
func TestHugeHeaders(t *testing.T) {
	be32 := func(v uint32) string { return string([]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}) }
	le32 := func(v uint32) string { return string([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}) }
	chunk := func(typ, data string) string {
		return be32(uint32(len(data))) + typ + data + be32(crc32.ChecksumIEEE([]byte(typ+data)))
	}
	tests := []struct {
		name, data string
		w, h       int // 0 when the data is refused
	}{
		{"png 16-bit RGBA", "\x89PNG\r\n\x1a\n" + chunk("IHDR", be32(100000)+be32(100000)+"\x10\x06\x00\x00\x00") +
			chunk("IDAT", "\x78\x9c\x03\x00\x00\x00\x00\x01") + chunk("IEND", ""), 100000, 100000},
		{"gif", "GIF89a\xff\xff\xff\xff\x00\x00\x00,\x00\x00\x00\x00\xff\xff\xff\xff\x00\x02\x02L\x01\x00;", 65535, 65535},
		{"jpeg (no scan: refused)", "\xff\xd8\xff\xc2\x00\x11\x08\xff\xdc\xff\xdc\x03\x01\x11\x00\x02\x11\x00\x03\x11\x00\xff\xd9", 0, 0},
		{"bmp 32-bit", "BM" + le32(54) + "\x00\x00\x00\x00" + le32(54) + le32(40) + le32(100000) + le32(100000) + "\x01\x00\x20\x00" + strings.Repeat("\x00", 24), 100000, 100000},
	}
	for _, tt := range tests {
		var info Info
		var data []byte
		var err error
		grew := allocated(func() { info, data, err = Load(strings.NewReader(tt.data), int64(len(tt.data))) })
		if grew > 1<<20 {
			t.Errorf("%s: Load allocated %d bytes", tt.name, grew)
		}
		if tt.w == 0 {
			if errs.CodeOf(err) != errs.Unsupported {
				t.Errorf("%s: %v, want UNSUPPORTED", tt.name, err)
			}
			continue
		}
		if err != nil || info.Width != tt.w || info.Height != tt.h || string(data) != tt.data {
			t.Errorf("%s: %+v, %d bytes, %v; want %dx%d and the file's bytes", tt.name, info, len(data), err, tt.w, tt.h)
		}
	}
}
