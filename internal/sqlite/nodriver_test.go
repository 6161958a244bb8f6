//go:build !cgo || !unix

package sqlite

import (
	"bytes"
	"context"
	"testing"

	"github.com/scoutkit/scout/internal/errs"
)

func TestNoCgo(t *testing.T) {
	data := append([]byte(Magic), make([]byte, 100)...)
	_, err := ReadReader(context.Background(), "x.db", bytes.NewReader(data), int64(len(data)), "", Options{})
	if errs.CodeOf(err) != errs.Unsupported {
		t.Errorf("without cgo: %v", err)
	}
}
