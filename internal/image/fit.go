package image

import (
	"bytes"
	stdimage "image"
	"image/jpeg"
	"image/png"
	"math"
	"strings"

	"golang.org/x/image/draw"

	"github.com/scoutkit/scout/internal/errs"
)

// fitTries bounds the scalings Fit tries; each aims at the cap from the
// size the last one encoded to.
const fitTries = 6

// Fit returns data, an image whose metadata is info, scaled down and
// encoded again so that it takes at most maxBytes, with the metadata of
// the new image: PNG where the image can hold transparency, JPEG (quality
// 85) otherwise. Data within maxBytes is returned as it is. Errors are
// *errs.Error: TooLarge when decoding it would take more than
// MaxDecodeBytes or no scaling fits, Unsupported when it does not decode.
func Fit(data []byte, info Info, maxBytes int) ([]byte, Info, error) {
	if len(data) <= maxBytes {
		return data, info, nil
	}
	_, cfg, err := inspect(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, Info{}, err
	}
	if decodeCost(info.Format, cfg, data) > MaxDecodeBytes {
		return nil, Info{}, errs.New(errs.TooLarge, "the %dx%d image is too large to decode for resizing.", cfg.Width, cfg.Height)
	}
	src, _, err := stdimage.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, Info{}, errs.Wrap(errs.Unsupported, err, "the %s image data cannot be decoded (%v); the file may be corrupt or truncated.",
			strings.ToUpper(info.Format), err)
	}
	b := src.Bounds()
	// The bytes shrink about as the pixels do: aim a tenth under the cap.
	scale := math.Sqrt(float64(maxBytes)/float64(len(data))) * 0.9
	var out bytes.Buffer
	for range fitTries {
		w, h := int(float64(b.Dx())*scale), int(float64(b.Dy())*scale)
		if w < 1 || h < 1 {
			break
		}
		dst := stdimage.NewNRGBA(stdimage.Rect(0, 0, w, h))
		draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
		out.Reset()
		fit := Info{MIME: "image/jpeg", Format: "jpeg", Width: w, Height: h, Channels: 3}
		if info.Alpha {
			fit.MIME, fit.Format, fit.Channels, fit.Alpha = "image/png", "png", 4, true
			err = png.Encode(&out, dst)
		} else {
			err = jpeg.Encode(&out, dst, &jpeg.Options{Quality: 85})
		}
		if err != nil {
			return nil, Info{}, errs.Wrap(errs.Internal, err, "encoding the resized image: %v", err)
		}
		if out.Len() <= maxBytes {
			fit.Bytes = int64(out.Len())
			return out.Bytes(), fit, nil
		}
		scale *= math.Sqrt(float64(maxBytes)/float64(out.Len())) * 0.9
	}
	return nil, Info{}, errs.New(errs.TooLarge, "the %dx%d image does not fit in %d bytes at any size tried.", b.Dx(), b.Dy(), maxBytes)
}
