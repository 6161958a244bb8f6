package textio

import (
	"context"
	"io"
)

// ContextReader returns a reader of r whose reads fail with ctx's error
// once ctx is done, so that a parser reading it stops.
func ContextReader(ctx context.Context, r io.Reader) io.Reader {
	return ctxReader{ctx, r}
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (r ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}
