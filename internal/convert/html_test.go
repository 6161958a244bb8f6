package convert

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/scoutkit/scout/internal/errs"
)

func TestCutHTML(t *testing.T) {
	defer func(b, n int) { maxHTMLBytes, maxHTMLTags = b, n }(maxHTMLBytes, maxHTMLTags)
	maxHTMLBytes, maxHTMLTags = 64, 3
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
