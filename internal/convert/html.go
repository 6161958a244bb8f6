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
	"golang.org/x/net/html"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/textio"
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
// says so. The markdown is valid UTF-8 whatever the HTML's bytes.
func HTMLToMarkdown(ctx context.Context, r io.Reader, baseURL string) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, int64(maxHTMLBytes)+1))
	if err != nil {
		return "", err
	}
	page, why := CutHTML(string(b))
	b = nil
	// As HTML decoding does, and the parser does not: each invalid UTF-8
	// sequence becomes U+FFFD.
	page = strings.ToValidUTF8(page, "\uFFFD")
	doc, err := html.Parse(textio.ContextReader(ctx, strings.NewReader(page)))
	if err != nil {
		return "", err
	}
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(),
	))
	// The converter never looks at ctx: once it ends, the passes over the
	// tree find it empty and the renderer skips every node.
	for _, at := range []int{converter.PriorityEarly - 1, converter.PriorityStandard, converter.PriorityLate + 1} {
		conv.Register.PreRenderer(func(_ converter.Context, doc *html.Node) {
			if ctx.Err() != nil {
				for c := doc.FirstChild; c != nil; c = doc.FirstChild {
					doc.RemoveChild(c)
				}
			}
		}, at)
	}
	conv.Register.Renderer(func(converter.Context, converter.Writer, *html.Node) converter.RenderStatus {
		if ctx.Err() != nil {
			return converter.RenderSuccess
		}
		return converter.RenderTryNext
	}, converter.PriorityEarly-1)
	opts := []converter.ConvertOptionFunc{converter.WithContext(ctx)}
	if baseURL != "" {
		opts = append(opts, converter.WithDomain(baseURL))
	}
	md, err := conv.ConvertNode(doc, opts...)
	switch {
	case err != nil:
		return "", err
	case ctx.Err() != nil:
		return "", ctx.Err()
	case why != "":
		return string(md), &errs.Partial{Reason: "the HTML was cut " + why + " (the rest is not shown)"}
	}
	return string(md), nil
}
