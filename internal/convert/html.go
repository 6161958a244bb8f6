package convert

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
)

// The bounds of the HTML that HTMLToMarkdown converts: the DOMs that HTML
// is parsed into take about a kilobyte per element, and several times the
// size of the text (a page of a million links took 1.5 GB). Variables so
// that the tests lower them.
var (
	maxHTMLBytes = 8 << 20 // bytes of HTML
	maxHTMLTags  = 100_000 // start tags ('<' and a letter)
)

// CutHTML returns the start of page that HTMLToMarkdown converts whole: at
// most 8 MiB, ending before the 100,001st start tag. why says where page
// was cut ("at 8.0MB", "at 100000 tags"), "" when it was not.
func CutHTML(page string) (head, why string) {
	if len(page) > maxHTMLBytes {
		page, why = cutUTF8(page, maxHTMLBytes), "at "+dirtree.FormatBytes(int64(maxHTMLBytes))
	}
	tags := 0
	for i := 0; ; i++ {
		j := strings.IndexByte(page[i:], '<')
		if j < 0 {
			return page, why
		}
		i += j
		if i+1 < len(page) && isASCIILetter(page[i+1]) {
			if tags++; tags > maxHTMLTags {
				return page[:i], fmt.Sprintf("at %d tags", maxHTMLTags)
			}
		}
	}
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// HTMLToMarkdown converts an HTML document or fragment to markdown, tables
// kept as markdown tables. baseURL, when not "", makes relative links
// absolute ("https://example.com/docs/"). HTML over CutHTML's bounds is
// converted up to them, and the text comes with an *errs.Partial that
// says so.
func HTMLToMarkdown(ctx context.Context, r io.Reader, baseURL string) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, int64(maxHTMLBytes)+1))
	if err != nil {
		return "", err
	}
	page, why := CutHTML(string(b))
	b = nil
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(),
	))
	opts := []converter.ConvertOptionFunc{converter.WithContext(ctx)}
	if baseURL != "" {
		opts = append(opts, converter.WithDomain(baseURL))
	}
	md, err := conv.ConvertString(page, opts...)
	switch {
	case err != nil:
		return "", err
	case why != "":
		return md, &errs.Partial{Reason: "the HTML was cut " + why + " (the rest is not shown)"}
	}
	return md, nil
}
