package image

import (
	"bytes"
	stdimage "image"
	"image/png"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/errs"
)

// noisePNG is a PNG of w x h pixels of noise (which does not compress),
// with transparent pixels when alpha is set.
func noisePNG(t *testing.T, w, h int, alpha bool) []byte {
	m := stdimage.NewNRGBA(stdimage.Rect(0, 0, w, h))
	rnd := uint32(7)
	for i := range m.Pix {
		rnd = rnd*1664525 + 1013904223
		m.Pix[i] = byte(rnd >> 24)
		if i%4 == 3 && !alpha {
			m.Pix[i] = 255
		}
	}
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, m))
	return b.Bytes()
}

// TestFit: an image over the limit is scaled down and encoded again within
// it (PNG where it can hold transparency, JPEG otherwise), its metadata
// that of the new image; one within the limit is returned as it is; data
// that does not decode, or a limit no scaling reaches, is an error.
func TestFit(t *testing.T) {
	const limit = 100 << 10
	for _, alpha := range []bool{false, true} {
		data := noisePNG(t, 400, 300, alpha)
		info, err := Inspect(bytes.NewReader(data), int64(len(data)))
		require.NoError(t, err)
		require.Greater(t, len(data), limit)
		out, fit, err := Fit(data, info, limit)
		require.NoError(t, err, "alpha %v", alpha)
		assert.LessOrEqual(t, len(out), limit)
		got, err := Inspect(bytes.NewReader(out), int64(len(out)))
		require.NoError(t, err)
		assert.Equal(t, got, fit, "the metadata is the new image's (alpha %v)", alpha)
		assert.Less(t, fit.Width, 400)
		assert.InDelta(t, 4.0/3, float64(fit.Width)/float64(fit.Height), 0.05, "the aspect ratio is kept")
		wantFormat := map[bool]string{false: "jpeg", true: "png"}[alpha]
		assert.Equal(t, wantFormat, fit.Format)
	}

	small := noisePNG(t, 20, 10, false)
	info, err := Inspect(bytes.NewReader(small), int64(len(small)))
	require.NoError(t, err)
	out, fit, err := Fit(small, info, limit)
	require.NoError(t, err)
	assert.Equal(t, info, fit)
	assert.Equal(t, &small[0], &out[0], "within the limit: the same bytes")

	data := noisePNG(t, 400, 300, false)
	info, err = Inspect(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	_, _, err = Fit(data, info, 10)
	assert.Equal(t, errs.TooLarge, errs.CodeOf(err), "no scaling fits 10 bytes: %v", err)
	cut := data[:len(data)/2]
	_, _, err = Fit(cut, info, limit)
	assert.Equal(t, errs.Unsupported, errs.CodeOf(err), "a truncated image: %v", err)
}
