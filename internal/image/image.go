// Package image detects images by their magic bytes and reads their
// metadata (MIME type, size, dimensions, channels, alpha) and bytes, for
// the read tool. PNG, JPEG, GIF, WebP, BMP and TIFF are supported; the
// header is decoded with the standard library and golang.org/x/image.
//
// Images over MaxBytes are refused before anything is read. The bytes
// returned are the file's own; only Fit, for an image fetched from a URL
// and shown inline, scales one down and encodes it again.
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

// MaxDecodeBytes bounds the full decode Load runs to prove that the data
// is intact: an image whose decoder would allocate more (by decodeCost's
// estimate: the pixels at their colour model's size and the decoder's
// working buffers) is checked by its header only.
const MaxDecodeBytes = 64 << 20

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
	info, _, err := inspect(r, size)
	return info, err
}

// inspect is Inspect that also returns the decoded header.
func inspect(r io.ReaderAt, size int64) (Info, stdimage.Config, error) {
	if err := checkSize(size); err != nil {
		return Info{}, stdimage.Config{}, err
	}
	head := make([]byte, min(size, 64))
	if _, err := r.ReadAt(head, 0); err != nil && err != io.EOF {
		return Info{}, stdimage.Config{}, errs.Wrap(errs.Internal, err, "reading the image header: %v", err)
	}
	f, ok := detect(head)
	if !ok {
		return Info{}, stdimage.Config{}, errs.New(errs.Unsupported, "not a supported image (PNG, JPEG, GIF, WebP, BMP or TIFF by its first bytes).")
	}
	cfg, _, err := stdimage.DecodeConfig(io.NewSectionReader(r, 0, size))
	if err != nil {
		return Info{}, stdimage.Config{}, errs.Wrap(errs.Unsupported, err, "the %s image header cannot be decoded (%v); the file may be corrupt or truncated.",
			strings.ToUpper(f.name), err)
	}
	info := Info{MIME: f.mime, Format: f.name, Bytes: size, Width: cfg.Width, Height: cfg.Height}
	info.Channels, info.Alpha = channels(f.name, cfg.ColorModel, r, size, head)
	return info, cfg, nil
}

// checkSize refuses a size no image may have.
func checkSize(size int64) error {
	if size < 0 {
		return errs.New(errs.Internal, "image size %d is negative.", size)
	}
	if size > MaxBytes {
		return errs.New(errs.TooLarge, "image is %s, over the %s limit for images.", dirtree.FormatBytes(size), dirtree.FormatBytes(MaxBytes))
	}
	return nil
}

// Load returns the metadata and the bytes of the size-byte image in r.
// Images whose decode needs at most MaxDecodeBytes are decoded in full, so
// a truncated or corrupt file is an Unsupported error rather than bytes a
// model cannot see. Errors are as for Inspect.
func Load(r io.ReaderAt, size int64) (Info, []byte, error) {
	if err := checkSize(size); err != nil {
		return Info{}, nil, err
	}
	data := make([]byte, size)
	if n, err := r.ReadAt(data, 0); int64(n) != size {
		return Info{}, nil, errs.Wrap(errs.Internal, err, "reading the image: got %d of %d bytes: %v", n, size, err)
	}
	// The header is read from the bytes decoded, so that a file changed
	// under the read cannot pass a small header and a large image.
	info, cfg, err := inspect(bytes.NewReader(data), size)
	if err != nil {
		return Info{}, nil, err
	}
	if decodeCost(info.Format, cfg, data) <= MaxDecodeBytes {
		if _, _, err := stdimage.Decode(bytes.NewReader(data)); err != nil {
			return Info{}, nil, errs.Wrap(errs.Unsupported, err, "the %s image data cannot be decoded (%v); the file may be corrupt or truncated.",
				strings.ToUpper(info.Format), err)
		}
	}
	return info, data, nil
}

// decodeCost estimates the bytes the standard decoders allocate to decode
// the image data of format name and header cfg: the pixels at their colour
// model's size, and the working buffers that can match them. A TIFF strip
// or tile is read decompressed into a buffer grown by doubling (up to four
// times the pixels' size allocated on the way); a progressive JPEG keeps four
// bytes per sample until its last scan, and a CMYK JPEG is converted into
// a second image; an interlaced PNG decodes each pass into an image of its
// own; a lossless WebP holds its pixels as 32-bit words first.
func decodeCost(name string, cfg stdimage.Config, data []byte) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	bpp := pixelBytes(cfg.ColorModel)
	switch name {
	case "tiff":
		return px * bpp * 5
	case "png":
		if len(data) > 28 && data[28] == 1 { // IHDR interlace method: Adam7
			return px * bpp * 2
		}
	case "webp":
		return px * bpp * 2
	case "jpeg":
		if progressive, samples, comps, ok := jpegFrame(data); ok {
			cost := samples
			if progressive {
				cost += 4 * samples
			}
			if comps == 4 {
				cost += 4
			}
			return int64(float64(px) * cost)
		}
	}
	return px * bpp
}

// pixelBytes is the size of a pixel of the colour model m in the images
// the decoders return: 8 for a model it does not know.
func pixelBytes(m color.Model) int64 {
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel:
		return 3
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel, color.NYCbCrAModel:
		return 4
	}
	return 8
}

// jpegFrame reads the frame header (SOFn) of JPEG data: whether the image
// is progressive, its samples per pixel (a component subsampled 2x2 counts
// a quarter) and its number of components; ok is false when no frame
// header is found before the data ends or stops looking like markers.
func jpegFrame(data []byte) (progressive bool, samples float64, comps int, ok bool) {
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xFF {
			return false, 0, 0, false
		}
		m := data[i+1]
		switch {
		case m == 0xFF: // a fill byte
			i++
			continue
		case m == 0x01, m >= 0xD0 && m <= 0xD8: // markers without a length
			i += 2
			continue
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC {
			seg := data[i+4 : min(len(data), i+2+n)] // P, Y, X, Nf, then C, HV, Tq per component
			if len(seg) < 6 {
				return false, 0, 0, false
			}
			comps = int(seg[5])
			var hv []byte
			hmax, vmax := 1, 1
			for c := 0; c < comps && 6+3*c+2 < len(seg); c++ {
				f := seg[6+3*c+1]
				hv = append(hv, f)
				hmax, vmax = max(hmax, int(f>>4)), max(vmax, int(f&15))
			}
			for _, f := range hv {
				samples += float64(int(f>>4)*int(f&15)) / float64(hmax*vmax)
			}
			progressive = m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE
			return progressive, samples, comps, true
		}
		i += 2 + n
	}
	return false, 0, 0, false
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
