package convert

import (
	"context"
	"io"

	"github.com/KSpaceer/goppt"
)

// convertPPT extracts the text of a PowerPoint 97-2003 presentation.
func convertPPT(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	if c, ok := mislabelled(r, size); ok {
		return c(ctx, r, size)
	}
	s, err := goppt.ExtractText(io.NewSectionReader(r, 0, size))
	if err != nil {
		return "", malformed("PPT", err)
	}
	return tidy(s), ctx.Err()
}
