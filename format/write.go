package format

import (
	"io"

	"github.com/scoutkit/scout"
)

// write writes text to w for the renderer named fn ("Search"): a nil w is
// a CodeInvalidParam error, not a panic; w's own error is returned as it
// is, and a short write that w does not explain is io.ErrShortWrite, as
// io.Copy reports it.
func write(fn string, w io.Writer, text string) error {
	if w == nil {
		return &scout.Error{Code: scout.CodeInvalidParam,
			Message: "format." + fn + ": the io.Writer is nil; pass one to write to, or call " + fn + "Text for the text"}
	}
	n, err := io.WriteString(w, text)
	if err == nil && n < len(text) {
		err = io.ErrShortWrite
	}
	return err
}
