package readable

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// prose is a paragraph long enough to score as content.
func prose(topic string) string {
	return "<p>" + strings.Repeat(topic+" is discussed here at some length, with commas, clauses, and enough words to read as prose. ", 4) + "</p>"
}

func TestExtract(t *testing.T) {
	tests := []struct {
		name      string
		page      string
		title     string
		contains  []string
		absent    []string
		wantFound bool
	}{
		{"chrome around an article is dropped",
			`<html><head><title>Widgets</title></head><body>
			<nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
			<div class="sidebar"><p>Subscribe to our newsletter for more widget news and offers.</p></div>
			<article><h1>Widgets explained</h1>` + prose("Widget design") + prose("Widget testing") + `</article>
			<div id="comments"><p>First comment: great post, thanks, very helpful, will share it.</p></div>
			<footer>© Widgets Inc.</footer></body></html>`,
			"Widgets", []string{"Widgets explained", "Widget design", "Widget testing"}, []string{"Home", "newsletter", "First comment", "Widgets Inc"}, true},
		{"hidden elements are dropped",
			`<html><body><div>` + prose("Visible text") + `<p style="display: none">Hidden by style, a secret sentence.</p>
			<p hidden>Hidden by attribute, a secret sentence.</p><div aria-hidden="true">Hidden from readers, a secret.</div></div></body></html>`,
			"", []string{"Visible text"}, []string{"secret"}, true},
		{"a data table is kept, a table of links is not",
			`<html><body><div class="content">` + prose("Table data") + `
			<table><caption>Sizes</caption><tr><th>Name</th><th>Size</th></tr><tr><td>small</td><td>1</td></tr></table>
			<table><tr><td><a href="/a">Link one</a></td><td><a href="/b">Link two</a></td></tr></table>` + prose("More table data") + `</div></body></html>`,
			"", []string{"Sizes", "small", "Table data", "More table data"}, []string{"Link one"}, true},
		{"a page wrapped in a form keeps its content",
			`<html><body><form id="aspnetForm"><div class="main">` + prose("Form-wrapped content") + prose("More of it") + `</div></form></body></html>`,
			"", []string{"Form-wrapped content", "More of it"}, nil, true},
		{"sections split alike are gathered",
			`<html><body><div class="story">` + prose("Part one") + `</div><div class="story">` + prose("Part two") + `</div>
			<div class="story">` + prose("Part three") + `</div></body></html>`,
			"", []string{"Part one", "Part two", "Part three"}, nil, true},
		{"og:title wins over the title element",
			`<html><head><title>Site page</title><meta property="og:title" content="The Real Title"></head><body>` + prose("Body") + `</body></html>`,
			"The Real Title", []string{"Body"}, nil, true},
		{"a site name after a separator is cut from the title",
			`<html><head><title>How to build a widget | Widget Site</title></head><body>` + prose("Steps") + `</body></html>`,
			"How to build a widget", nil, nil, true},
		{"a short title keeps its separator",
			`<html><head><title>Widgets | Site</title></head><body>` + prose("Steps") + `</body></html>`,
			"Widgets | Site", nil, nil, true},
		{"a heading repeating the title goes",
			`<html><head><title>A Study of Widgets</title></head><body><h1>A Study of Widgets</h1>` + prose("Findings") + `</body></html>`,
			"A Study of Widgets", []string{"Findings"}, []string{"<h1>"}, true},
		{"a short page still gives its text",
			`<html><body><article><p>fallback body</p></article></body></html>`, "", []string{"fallback body"}, nil, true},
		{"a page without text has no article",
			`<html><head><title>Empty</title></head><body><script>var x = 1;</script><div></div></body></html>`, "", nil, nil, false},
		{"not even HTML", "", "", nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, ok := Extract(context.Background(), tt.page)
			if ok != tt.wantFound {
				t.Fatalf("found %v, want %v (%+v)", ok, tt.wantFound, a)
			}
			if a.Title != tt.title {
				t.Errorf("title %q, want %q", a.Title, tt.title)
			}
			for _, w := range tt.contains {
				if !strings.Contains(a.HTML, w) {
					t.Errorf("no %q in\n%s", w, a.HTML)
				}
			}
			for _, w := range tt.absent {
				if strings.Contains(a.HTML, w) {
					t.Errorf("%q kept in\n%s", w, a.HTML)
				}
			}
		})
	}
}

// TestExtractDeterministic: the same page gives the same article.
func TestExtractDeterministic(t *testing.T) {
	page := `<html><body><div class="a">` + prose("One") + `</div><div class="b">` + prose("One") + `</div></body></html>`
	first, _ := Extract(context.Background(), page)
	for range 20 {
		a, _ := Extract(context.Background(), page)
		require.Equal(t, first, a, "two extractions of one page")
	}
}

func FuzzExtract(f *testing.F) {
	f.Add(`<html><head><title>T | S</title></head><body><nav>x</nav><article>` + prose("Seed") + `</article></body></html>`)
	f.Add(`<table><tr><td>` + prose("cell") + `</td></tr></table>`)
	f.Add(`<div hidden><p>`)
	f.Fuzz(func(t *testing.T, page string) {
		a, ok := Extract(context.Background(), page)
		if ok != (a.Text > 0) || (a.HTML == "" && a.Text > 0) {
			t.Fatalf("found %v with %d characters of text", ok, a.Text)
		}
		if n := utf8.RuneCountInString(page); a.Text > n {
			t.Fatalf("%d characters of text from a page of %d", a.Text, n)
		}
		if again, _ := Extract(context.Background(), page); again != a {
			t.Fatalf("two extractions differ:\n%+v\n%+v", a, again)
		}
	})
}

// BenchmarkExtractDeep: a page of 400 nested divs around 50,000
// paragraphs; each node's counts are computed once, however deep.
func BenchmarkExtractDeep(b *testing.B) {
	page := strings.Repeat(`<div class="x">`, 400) + strings.Repeat("<p>some text, with commas, and words enough to score as prose</p>", 50000) + strings.Repeat("</div>", 400)
	for b.Loop() {
		if _, ok := Extract(context.Background(), page); !ok {
			b.Fatal("no article")
		}
	}
}

// BenchmarkExtractHostile: 1 MiB pages of little text, nested as deep as
// the parser allows, each shaped to make one step read a subtree again at
// every level; all four attempts run. Each should cost about as much as
// the flat page, not hundreds of times more.
func BenchmarkExtractHostile(b *testing.B) {
	const size = 1 << 20
	fill := func(prefix, unit string) string {
		return prefix + strings.Repeat(unit, (size-len(prefix))/len(unit))
	}
	pages := []struct{ name, page string }{
		{"flat", fill("<body>", "<i></i>")},
		{"deep: every element looks for a table above it", fill("<body>"+strings.Repeat("<div>", 500), "<i></i>")},
		{"short paragraphs in paragraphs", fill("<body>"+strings.Repeat("<div><span>", 250), "<i></i>")},
		{"headings in headings", fill("<title>x</title><body>"+strings.Repeat("<h1><span>", 250), "<i></i>")},
		{"image blocks in a figure", fill("<body><figure>"+strings.Repeat("<div>", 490), "<div><img><img></div>")},
	}
	for _, p := range pages {
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				Extract(context.Background(), p.page)
			}
		})
	}
}

// TestExtractCanceled: a done ctx stops the parse, and Extract finds
// nothing.
func TestExtractCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	page := "<html><body><article><p>" + strings.Repeat("Words, more words, and sentences. ", 400) + "</p></article></body></html>"
	if a, ok := Extract(ctx, page); ok || a.Text != 0 {
		t.Errorf("a done ctx: %+v, %v", a, ok)
	}
	if _, ok := Extract(context.Background(), page); !ok {
		t.Error("the page has an article")
	}
}
