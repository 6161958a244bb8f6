// Package image detects images by their magic bytes and reads their
// metadata (MIME type, size, dimensions, channels, alpha) and bytes, for
// the read tool. PNG, JPEG, GIF, WebP, BMP and TIFF are supported; the
// header is decoded with the standard library and golang.org/x/image.
//
// Images over MaxBytes are refused before anything is read. Scout never
// resizes or re-encodes: the bytes returned are the file's own.
package image

import (
	"bytes"
	"encoding/binary"
	stdimage "image"
	"image/color"
	_ "image/gif"  // registers the GIF decoder
	_ "image/jpeg" // registers the JPEG decoder
	_ "image/png"  // registers the PNG decoder
	"io"
	"strings"

	_ "golang.org/x/image/bmp"  // registers the BMP decoder
	_ "golang.org/x/image/tiff" // registers the TIFF decoder
	_ "golang.org/x/image/webp" // registers the WebP decoder

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
)

// MaxBytes is the largest image file Inspect and Load accept (20 MiB).
const MaxBytes = 20 << 20

// HeadBytes is how many leading bytes Detect needs to recognise every
// supported format; fewer may still be enough for some.
const HeadBytes = 32

// MaxDecodePixels bounds the full decode Load runs to prove that the data
// is intact: images with more pixels are checked by their header only,
// which keeps memory near 4 bytes per pixel at most (64 MiB).
const MaxDecodePixels = 16 << 20

// Info is an image's metadata.
type Info struct {
	MIME     string `json:"mime"`     // e.g. "image/png"
	Format   string `json:"format"`   // png, jpeg, gif, webp, bmp or tiff
	Bytes    int64  `json:"bytes"`    // file size
	Width    int    `json:"width"`    // pixels
	Height   int    `json:"height"`   // pixels
	Channels int    `json:"channels"` // 1 gray, 2 gray+alpha, 3 colour, 4 colour+alpha or CMYK
	Alpha    bool   `json:"alpha"`    // whether the image can hold transparency
}

type format struct {
	name, mime string
	match      func(head []byte) bool
}

var formats = []format{
	{"png", "image/png", func(h []byte) bool { return bytes.HasPrefix(h, []byte("\x89PNG\r\n\x1a\n")) }},
	{"jpeg", "image/jpeg", func(h []byte) bool { return bytes.HasPrefix(h, []byte{0xFF, 0xD8, 0xFF}) }},
	{"gif", "image/gif", func(h []byte) bool {
		return bytes.HasPrefix(h, []byte("GIF87a")) || bytes.HasPrefix(h, []byte("GIF89a"))
	}},
	{"webp", "image/webp", func(h []byte) bool {
		return len(h) >= 12 && string(h[:4]) == "RIFF" && string(h[8:12]) == "WEBP"
	}},
	{"bmp", "image/bmp", func(h []byte) bool {
		// "BM" alone is too weak (text can start so): require a known DIB header size.
		if len(h) < 18 || string(h[:2]) != "BM" {
			return false
		}
		switch binary.LittleEndian.Uint32(h[14:18]) {
		case 12, 40, 52, 56, 64, 108, 124:
			return true
		}
		return false
	}},
	{"tiff", "image/tiff", func(h []byte) bool {
		return bytes.HasPrefix(h, []byte("II*\x00")) || bytes.HasPrefix(h, []byte("MM\x00*"))
	}},
}

// Detect reports the MIME type of the image whose first bytes are head
// (HeadBytes are enough), and false when head is no supported image.
func Detect(head []byte) (mime string, ok bool) {
	if f, ok := detect(head); ok {
		return f.mime, true
	}
	return "", false
}

func detect(head []byte) (format, bool) {
	for _, f := range formats {
		if f.match(head) {
			return f, true
		}
	}
	return format{}, false
}

// Inspect reads the metadata of the size-byte image in r from its header.
// Errors are *errs.Error: TooLarge over MaxBytes, Unsupported for data
// that is not a supported image or whose header does not decode.
func Inspect(r io.ReaderAt, size int64) (Info, error) {
	if size < 0 {
		return Info{}, errs.New(errs.Internal, "image size %d is negative.", size)
	}
	if size > MaxBytes {
		return Info{}, errs.New(errs.TooLarge, "image is %s, over the %s limit for images.", dirtree.FormatBytes(size), dirtree.FormatBytes(MaxBytes))
	}
	head := make([]byte, min(size, 64))
	if _, err := r.ReadAt(head, 0); err != nil && err != io.EOF {
		return Info{}, errs.Wrap(errs.Internal, err, "reading the image header: %v", err)
	}
	f, ok := detect(head)
	if !ok {
		return Info{}, errs.New(errs.Unsupported, "not a supported image (PNG, JPEG, GIF, WebP, BMP or TIFF by its first bytes).")
	}
	cfg, _, err := stdimage.DecodeConfig(io.NewSectionReader(r, 0, size))
	if err != nil {
		return Info{}, errs.Wrap(errs.Unsupported, err, "the %s image header cannot be decoded (%v); the file may be corrupt or truncated.",
			strings.ToUpper(f.name), err)
	}
	info := Info{MIME: f.mime, Format: f.name, Bytes: size, Width: cfg.Width, Height: cfg.Height}
	info.Channels, info.Alpha = channels(f.name, cfg.ColorModel, r, size, head)
	return info, nil
}

// Load returns the metadata and the bytes of the size-byte image in r.
// Images of at most MaxDecodePixels pixels are decoded in full, so a
// truncated or corrupt file is an Unsupported error rather than bytes a
// model cannot see. Errors are as for Inspect.
func Load(r io.ReaderAt, size int64) (Info, []byte, error) {
	info, err := Inspect(r, size)
	if err != nil {
		return Info{}, nil, err
	}
	data := make([]byte, size)
	if n, err := r.ReadAt(data, 0); int64(n) != size {
		return Info{}, nil, errs.Wrap(errs.Internal, err, "reading the image: got %d of %d bytes: %v", n, size, err)
	}
	if int64(info.Width)*int64(info.Height) <= MaxDecodePixels {
		if _, _, err := stdimage.Decode(bytes.NewReader(data)); err != nil {
			return Info{}, nil, errs.Wrap(errs.Unsupported, err, "the %s image data cannot be decoded (%v); the file may be corrupt or truncated.",
				strings.ToUpper(info.Format), err)
		}
	}
	return info, data, nil
}

// channels works out the channel count and alpha. The decoders' colour
// models blur the answer (PNG and BMP report RGBA for plain RGB), so the
// headers are read where they say more.
func channels(name string, model color.Model, r io.ReaderAt, size int64, head []byte) (int, bool) {
	switch name {
	case "png":
		return pngChannels(r, size, head)
	case "gif":
		return gifChannels(r, size, head)
	case "webp":
		return webpChannels(head)
	case "bmp":
		if len(head) >= 30 && binary.LittleEndian.Uint16(head[28:30]) == 32 {
			return 4, binary.LittleEndian.Uint32(head[14:18]) > 40 // headers after BITMAPINFOHEADER carry an alpha mask
		}
		return 3, false
	case "tiff":
		if model == color.CMYKModel {
			return 4, false
		}
		spp := tiffSamples(r, size, head)
		return spp, spp == 2 || spp >= 4
	}
	switch model {
	case color.GrayModel, color.Gray16Model:
		return 1, false
	case color.CMYKModel:
		return 4, false
	}
	return 3, false // JPEG: YCbCr
}

// pngChannels reads the IHDR colour type and looks for a tRNS chunk before
// the first IDAT.
func pngChannels(r io.ReaderAt, size int64, head []byte) (int, bool) {
	if len(head) < 26 {
		return 0, false
	}
	var n int
	var alpha bool
	switch head[25] {
	case 0:
		n = 1
	case 4:
		n, alpha = 2, true
	case 2, 3:
		n = 3
	case 6:
		n, alpha = 4, true
	}
	if alpha {
		return n, true
	}
	var hdr [8]byte
	for off, i := int64(8), 0; off+8 <= size && i < 256; i++ {
		if _, err := r.ReadAt(hdr[:], off); err != nil {
			break
		}
		switch string(hdr[4:]) {
		case "tRNS":
			return n + 1, true
		case "IDAT", "IEND":
			return n, false
		}
		off += 12 + int64(binary.BigEndian.Uint32(hdr[:4]))
	}
	return n, false
}

// gifChannels reports 4 channels with alpha when a graphic control
// extension before the first frame marks a transparent colour.
func gifChannels(r io.ReaderAt, size int64, head []byte) (int, bool) {
	if len(head) < 13 {
		return 3, false
	}
	off := int64(13)
	if head[10]&0x80 != 0 {
		off += 3 << ((head[10] & 7) + 1)
	}
	var b [3]byte
	for i := 0; off < size && i < 256; i++ {
		if _, err := r.ReadAt(b[:2], off); err != nil || b[0] != 0x21 {
			break // an image descriptor, the trailer or junk: no transparency found first
		}
		off += 2
		if b[1] == 0xF9 {
			if _, err := r.ReadAt(b[:2], off); err == nil && b[0] >= 1 && b[1]&1 != 0 {
				return 4, true
			}
		}
		for { // skip the extension's sub-blocks
			if _, err := r.ReadAt(b[:1], off); err != nil {
				return 3, false
			}
			off += 1 + int64(b[0])
			if b[0] == 0 {
				break
			}
		}
	}
	return 3, false
}

// webpChannels reads the alpha flag of the first chunk: none for lossy
// VP8, a header bit for lossless VP8L, a flag for extended VP8X.
func webpChannels(head []byte) (int, bool) {
	if len(head) < 25 {
		return 3, false
	}
	switch string(head[12:16]) {
	case "VP8L":
		if binary.LittleEndian.Uint32(head[21:25])>>28&1 == 1 {
			return 4, true
		}
	case "VP8X":
		if head[20]&0x10 != 0 {
			return 4, true
		}
	}
	return 3, false
}

// tiffSamples reads SamplesPerPixel (tag 277) from the first IFD; 1 when
// absent, as the TIFF specification defaults it.
func tiffSamples(r io.ReaderAt, size int64, head []byte) int {
	if len(head) < 8 {
		return 1
	}
	var order binary.ByteOrder = binary.LittleEndian
	if head[0] == 'M' {
		order = binary.BigEndian
	}
	ifd := int64(order.Uint32(head[4:8]))
	var b [12]byte
	if ifd+2 > size {
		return 1
	}
	if _, err := r.ReadAt(b[:2], ifd); err != nil {
		return 1
	}
	count := min(int(order.Uint16(b[:2])), 4096)
	for i := range count {
		if _, err := r.ReadAt(b[:], ifd+2+int64(i)*12); err != nil {
			return 1
		}
		if order.Uint16(b[:2]) == 277 {
			if order.Uint16(b[2:4]) == 4 { // LONG
				return int(min(order.Uint32(b[8:12]), 64))
			}
			return int(order.Uint16(b[8:10])) // SHORT, left-justified
		}
	}
	return 1
}
