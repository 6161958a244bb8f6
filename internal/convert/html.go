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
// is parsed into take about a kilobyte per element and a quarter of that
// per attribute, and several times the size of the text (a page of a
// million links took 1.5 GB; a tag of 700,000 attributes, 7.5 MiB, 206
// MiB). Variables so that the tests lower them.
var (
	maxHTMLBytes = 8 << 20 // bytes of HTML
	maxHTMLTags  = 100_000 // start tags ('<' and a letter)
	maxHTMLAttrs = 400_000 // attributes of the start tags
)

// CutHTML returns the start of page that HTMLToMarkdown converts whole: at
// most 8 MiB, ending before the 100,001st start tag and before the start
// tag that holds the 400,001st attribute. why says where page was cut
// ("at 8.0MB", "at 100000 tags", "at 400000 attributes"), "" when it was
// not.
func CutHTML(page string) (head, why string) {
	if len(page) > maxHTMLBytes {
		page, why = cutUTF8(page, maxHTMLBytes), "at "+dirtree.FormatBytes(int64(maxHTMLBytes))
	}
	tags, attrs, scanned := 0, 0, 0 // scanned: the end of the last tag whose attributes were counted
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
			if i < scanned {
				continue // a '<' inside a tag counted: its attributes are that tag's
			}
			n, end := tagAttrs(page[i+1:])
			if attrs += n; attrs > maxHTMLAttrs {
				return page[:i], fmt.Sprintf("at %d attributes", maxHTMLAttrs)
			}
			scanned = i + 1 + end
		}
	}
}

// tagAttrs counts the attributes of the start tag that s begins (after
// its '<'), as HTML's tokenizer reads them, and returns the offset of the
// '>' that ends it, len(s) when none does.
func tagAttrs(s string) (n, end int) {
	name := func(c byte) bool { return !isHTMLSpace(c) && c != '/' && c != '>' }
	i := 0
	for i < len(s) && name(s[i]) {
		i++
	}
	for i < len(s) {
		switch c := s[i]; {
		case c == '>':
			return n, i
		case isHTMLSpace(c) || c == '/':
			i++
			continue
		}
		n++
		for i++; i < len(s) && name(s[i]) && s[i] != '='; i++ {
		}
		for i < len(s) && isHTMLSpace(s[i]) {
			i++
		}
		if i == len(s) || s[i] != '=' {
			continue
		}
		for i++; i < len(s) && isHTMLSpace(s[i]); i++ {
		}
		if i < len(s) && (s[i] == '"' || s[i] == '\'') {
			k := strings.IndexByte(s[i+1:], s[i])
			if k < 0 {
				return n, len(s)
			}
			i += k + 2
			continue
		}
		for i < len(s) && !isHTMLSpace(s[i]) && s[i] != '>' {
			i++
		}
	}
	return n, len(s)
}

func isHTMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

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
