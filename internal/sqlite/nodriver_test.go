//go:build !cgo

package sqlite

import (
	"context"
	"testing"

	"github.com/scoutkit/scout/internal/errs"
)

func TestNoCgo(t *testing.T) {
	data := append([]byte(Magic), make([]byte, 100)...)
	_, err := ReadBytes(context.Background(), data, "")
	if errs.CodeOf(err) != errs.Unsupported {
		t.Errorf("without cgo: %v", err)
	}
}
