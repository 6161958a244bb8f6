package convert

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/scoutkit/scout/internal/errs"
)

func TestCutHTML(t *testing.T) {
	defer func(b, n, a int) { maxHTMLBytes, maxHTMLTags, maxHTMLAttrs = b, n, a }(maxHTMLBytes, maxHTMLTags, maxHTMLAttrs)
	maxHTMLBytes, maxHTMLTags, maxHTMLAttrs = 64, 3, 4
	tests := []struct {
		page, head, why string
		reason          string
	}{
		{"<p>a<p>b<p>c", "<p>a<p>b<p>c", "", "three start tags are the cap"},
		{"<p>a<p>b<p>c<p>d", "<p>a<p>b<p>c", "at 3 tags", "the cut falls before the fourth start tag"},
		{"<p>a</p><p>b</p><p>c</p><!-- x --><", "<p>a</p><p>b</p><p>c</p><!-- x --><", "", "end tags, comments and a lone '<' are no start tags"},
		{"1 < 2 < 3 <= 4 <5 <p>x", "1 < 2 < 3 <= 4 <5 <p>x", "", "a '<' before no letter is text"},
		{"<B>a<I>b<Q>c<U>", "<B>a<I>b<Q>c", "at 3 tags", "upper-case tags count"},
		{strings.Repeat("é", 40), strings.Repeat("é", 32), "at 64B", "the byte cut keeps whole characters"},
		{strings.Repeat("x", 60) + "<p>a<p>b", strings.Repeat("x", 60) + "<p>a", "at 64B", "the byte cut comes first"},
		{`<p a b=c d = 'e>'>x<p f g>y`, `<p a b=c d = 'e>'>x`, "at 4 attributes", "the cut falls before the tag holding the fifth attribute; a quoted '>' ends no tag"},
		{`<p a/b/c/d>x<p>y`, `<p a/b/c/d>x<p>y`, "", "slashes part attributes"},
		{`<p a=x>b c d e</p>`, `<p a=x>b c d e</p>`, "", "text holds no attributes"},
		{`<p a b <e>x<p>y<q>`, `<p a b <e>x<p>y`, "at 3 tags", "a '<' and a letter inside a tag counts as a tag too (its attributes are the outer tag's)"},
		{`<p a b c d e`, ``, "at 4 attributes", "an unclosed tag counts to the end"},
	}
	for _, tt := range tests {
		head, why := CutHTML(tt.page)
		if head != tt.head || why != tt.why {
			t.Errorf("%s: CutHTML(%q) = %q, %q; want %q, %q", tt.reason, tt.page, head, why, tt.head, tt.why)
		}
	}
}

func TestHTMLToMarkdownCut(t *testing.T) {
	defer func(n int) { maxHTMLTags = n }(maxHTMLTags)
	maxHTMLTags = 4
	md, err := HTMLToMarkdown(context.Background(), strings.NewReader("<p>one</p><p>two</p><p>three</p><p>four</p><p>five</p>"), "")
	var part *errs.Partial
	if !errors.As(err, &part) || part.Reason != "the HTML was cut at 4 tags (the rest is not shown)" {
		t.Fatalf("err = %v, want a *errs.Partial naming the cut", err)
	}
	if md != "one\n\ntwo\n\nthree\n\nfour" {
		t.Errorf("markdown = %q, want the four paragraphs before the cut", md)
	}
	md, err = HTMLToMarkdown(context.Background(), strings.NewReader("<p>one</p>"), "")
	if err != nil || md != "one" {
		t.Errorf("under the caps: %q, %v", md, err)
	}
}

func TestHTMLToMarkdownInvalidUTF8(t *testing.T) {
	tests := []struct{ page, want, reason string }{
		{"<p>a\xffb</p>", "a\uFFFDb", "in a paragraph"},
		{"<html><body><p>x</p></body></html>n\xac*\xf3", "x\n\nn\uFFFD\\*\uFFFD", "text after </html> is body text"},
	}
	for _, tt := range tests {
		md, err := HTMLToMarkdown(context.Background(), strings.NewReader(tt.page), "")
		if err != nil || md != tt.want {
			t.Errorf("%s: HTMLToMarkdown(%q) = %q, %v; want %q", tt.reason, tt.page, md, err, tt.want)
		}
	}
}

// TestHTMLCanceled: the converter never looks at ctx, so HTMLToMarkdown
// stops it itself: a ctx done before the call, or while the HTML is read,
// gives ctx's error and no text; one canceled while the converter runs
// stops it within its next pass over the tree.
func TestHTMLCanceled(t *testing.T) {
	page := "<html><body>" + strings.Repeat(`<p><a href="/x">link</a> and text</p>`, 50_000)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if md, err := HTMLToMarkdown(done, strings.NewReader(page), ""); !errors.Is(err, context.Canceled) || md != "" {
		t.Errorf("a done ctx: %d bytes, %v; want context.Canceled and nothing", len(md), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &cancelAtEOF{r: strings.NewReader(page), cancel: cancel}
	if md, err := HTMLToMarkdown(ctx, r, ""); !errors.Is(err, context.Canceled) || md != "" {
		t.Errorf("canceled as the HTML is read: %d bytes, %v; want context.Canceled and nothing", len(md), err)
	}
	for _, after := range []time.Duration{10 * time.Millisecond, 50 * time.Millisecond, 200 * time.Millisecond} {
		ctx, cancel := context.WithCancel(context.Background())
		at := make(chan time.Time, 1)
		timer := time.AfterFunc(after, func() { at <- time.Now(); cancel() })
		_, err := HTMLToMarkdown(ctx, strings.NewReader(page), "")
		if timer.Stop() || err == nil {
			cancel()
			continue // finished first
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("canceled after %v: %v", after, err)
		}
		t.Logf("canceled after %v: returned %v later", after, time.Since(<-at).Round(100*time.Microsecond))
	}
}

// cancelAtEOF calls cancel when r is read to its end.
type cancelAtEOF struct {
	r      io.Reader
	cancel func()
}

func (c *cancelAtEOF) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err == io.EOF {
		c.cancel()
	}
	return n, err
}
