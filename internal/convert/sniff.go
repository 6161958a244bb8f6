package convert

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
)

// mislabelled returns the converter for what a legacy Office file
// (.doc, .xls, .ppt) really holds when it is not a compound file: many
// programs save RTF, Office Open XML or HTML under the old extensions.
func mislabelled(r io.ReaderAt, size int64) (Func, bool) {
	head := make([]byte, min(size, 512))
	n, _ := r.ReadAt(head, 0)
	head = bytes.TrimLeft(head[:n], "\xef\xbb\xbf \t\r\n")
	switch {
	case bytes.HasPrefix(head, []byte(oleMagic)):
		return nil, false
	case bytes.HasPrefix(head, []byte(`{\rtf`)):
		return convertRTF, true
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return convertZipOffice, true
	case isHTMLStart(head):
		return convertHTML, true
	}
	return nil, false
}

const oleMagic = "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

func isHTMLStart(b []byte) bool {
	l := bytes.ToLower(b[:min(len(b), 64)])
	for _, p := range []string{"<!doctype html", "<html", "<head", "<body", "<table", "<meta"} {
		if bytes.HasPrefix(l, []byte(p)) {
			return true
		}
	}
	return false
}

// convertZipOffice converts a zip-based Office file by the main part it
// holds.
func convertZipOffice(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	p, err := openPkg(ctx, "Office", r, size)
	if err != nil {
		return "", err
	}
	switch {
	case p.has("word/document.xml"):
		return convertDOCX(ctx, r, size)
	case p.has("ppt/presentation.xml"):
		return convertPPTX(ctx, r, size)
	case p.has("xl/workbook.xml"):
		return convertXLSX(ctx, r, size)
	}
	return "", malformed("Office", errMissing("word/document.xml, ppt/presentation.xml or xl/workbook.xml"))
}

// convertHTML converts an HTML file (a web page saved as .doc or .xls).
func convertHTML(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	md, err := HTMLToMarkdown(ctx, io.NewSectionReader(r, 0, size), "")
	var part *errs.Partial
	if err != nil && !errors.As(err, &part) {
		return "", malformed("HTML", err)
	}
	return tidy(strings.TrimLeft(md, "\ufeff \t\r\n")), err
}
