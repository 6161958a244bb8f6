// Package readable finds the main content of an HTML page, the way reader
// modes do (after Mozilla's Readability): page chrome is dropped (scripts,
// navigation, asides, footers, hidden elements and elements whose class or
// id says sidebar, comments, share, ...), paragraphs score the elements
// that hold them (more text and commas, fewer links, telling class names),
// and the best-scored element is kept with the siblings that score close
// to it, cleaned of link farms and forms. Data tables are kept.
//
// It uses no regular expressions and keeps no tables of its own beyond a
// few word lists, so a program that links it pays nothing at start-up.
package readable

import (
	"bytes"
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/scoutkit/scout/internal/textio"
)

// Article is the main content of a page.
type Article struct {
	Title string // from og:title, else the <title> without a site-name suffix
	HTML  string // the content, as HTML
	Text  int    // characters of text in the content
}

// minText is the text an attempt must keep to be taken at once; below it
// the next, more lenient attempt runs, and the longest result wins.
const minText = 500

// attempts are the heuristics tried in turn, the strictest first.
var attempts = []flags{
	{stripUnlikely: true, weightClasses: true, cleanConditionally: true},
	{weightClasses: true, cleanConditionally: true},
	{cleanConditionally: true},
	{},
}

// Extract returns the main content of page (HTML in UTF-8); ok is false
// when the page holds no text, nests deeper than the HTML parser allows
// (512 elements), or ctx ended (checked while parsing and between passes).
func Extract(ctx context.Context, page string) (Article, bool) {
	// Parsed once: the parser's time grows with the nesting, a copy's
	// does not. Each attempt changes its own copy; the last takes doc.
	doc, err := html.Parse(textio.ContextReader(ctx, strings.NewReader(page)))
	if err != nil {
		return Article{}, false
	}
	var best Article
	for i, f := range attempts {
		if ctx.Err() != nil {
			return Article{}, false
		}
		d := doc
		if i < len(attempts)-1 {
			d = clone(doc)
		}
		a := extract(ctx, d, f)
		if a.Text >= minText {
			return a, true
		}
		if a.Text > best.Text {
			best = a
		}
	}
	return best, best.Text > 0
}

// flags are the heuristics an attempt applies.
type flags struct {
	stripUnlikely      bool // drop elements whose class or id names page chrome
	weightClasses      bool // let class and id words raise or lower scores
	cleanConditionally bool // drop lists, tables and divs that look like chrome
}

// extractor is one attempt on one parse of the page.
type extractor struct {
	flags
	score map[*html.Node]float64 // candidates and their scores
	order []*html.Node           // the candidates in the order first scored
	memo  map[*html.Node]counts  // counts of the pruned page, computed once a node
}

// counts are what a node holds: characters of text (runs of white space
// counted as one), those inside links, commas, and some elements.
type counts struct {
	chars, linkChars, commas   int
	p, img, li, embeds, header int // header: th, thead, caption, colgroup
}

// extract runs one attempt; it returns an empty Article when ctx ends.
func extract(ctx context.Context, doc *html.Node, f flags) Article {
	e := &extractor{flags: f, score: map[*html.Node]float64{}, memo: map[*html.Node]counts{}}
	a := Article{Title: title(doc)}
	body := find(doc, atom.Body)
	if body == nil {
		return a
	}
	e.prune(body, within{})
	// A heading that repeats the title goes: the title heads the article.
	if h := titleHeading(body, a.Title); h != nil {
		h.Parent.RemoveChild(h)
	}
	if ctx.Err() != nil {
		return Article{}
	}
	top := e.top(body)
	if ctx.Err() != nil {
		return Article{}
	}
	content := e.gather(top)
	// The content is top and its siblings: all have top's ancestors.
	figure := hasAncestor(top, atom.Figure)
	var buf bytes.Buffer
	for _, n := range content {
		e.clean(n, figure || n.DataAtom == atom.Figure)
		a.Text += textLen(n)
		html.Render(&buf, n)
	}
	a.HTML = buf.String()
	return a
}

// title is the page's og:title, else its <title> without a trailing site
// name when what is left has at least three words.
func title(doc *html.Node) string {
	var t, og string
	walk(doc, func(n *html.Node) bool {
		switch n.DataAtom {
		case atom.Title:
			if t == "" {
				t = text(n)
			}
		case atom.Meta:
			if p := attr(n, "property"); (p == "og:title" || attr(n, "name") == "twitter:title") && og == "" {
				og = strings.TrimSpace(attr(n, "content"))
			}
		case atom.Body:
			return false
		}
		return true
	})
	if og != "" {
		return og
	}
	t = strings.Join(strings.Fields(t), " ")
	for _, sep := range []string{" | ", " - ", " – ", " — ", " :: ", " » ", " / "} {
		if i := strings.LastIndex(t, sep); i > 0 && len(strings.Fields(t[:i])) >= 3 {
			return t[:i]
		}
	}
	return t
}

// titleHeading is the first h1 or h2 whose text is the title, or nil. A
// heading inside another is not looked at, so no text is read twice.
func titleHeading(body *html.Node, title string) *html.Node {
	if title == "" {
		return nil
	}
	var h *html.Node
	walk(body, func(n *html.Node) bool {
		if h != nil {
			return false
		}
		if n.DataAtom != atom.H1 && n.DataAtom != atom.H2 {
			return true
		}
		if strings.EqualFold(text(n), title) {
			h = n
		}
		return false
	})
	return h
}

// Words in a class or id that mark page chrome, and words that save an
// element from that verdict.
var (
	unlikelyWords = []string{"banner", "breadcrumb", "combx", "comment", "community", "cookie", "disqus", "extra",
		"footer", "gdpr", "header", "legends", "menu", "related", "remark", "replies", "rss", "shoutbox", "sidebar",
		"skyscraper", "social", "sponsor", "supplemental", "ad-break", "agegate", "pagination", "pager", "popup",
		"newsletter", "subscribe", "navbar", "masthead"}
	maybeWords    = []string{"article", "body", "column", "content", "main", "post", "entry", "story", "shadow"}
	positiveWords = []string{"article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "post",
		"text", "blog", "story"}
	negativeWords = []string{"-ad-", "hidden", "banner", "combx", "comment", "com-", "contact", "footer", "gdpr",
		"masthead", "media", "meta", "outbrain", "promo", "related", "scroll", "share", "shoutbox", "sidebar",
		"skyscraper", "sponsor", "shopping", "tags", "widget"}
)

// unlikelyRoles are ARIA roles of page chrome.
var unlikelyRoles = []string{"menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog",
	"banner", "contentinfo", "search"}

// prune removes what is never content: scripts and other non-text
// elements, navigation, asides, footers, headers outside an article,
// hidden elements and, with stripUnlikely, page chrome by class or id.
// in tells what n is or lies within.
func (e *extractor) prune(n *html.Node, in within) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch {
		case c.Type == html.CommentNode:
			n.RemoveChild(c)
		case c.Type != html.ElementNode:
		case e.dropped(c, in):
			n.RemoveChild(c)
		default:
			e.prune(c, in.enter(c))
		}
		c = next
	}
}

// within is what prune has entered, so that no element looks up its
// ancestors.
type within struct {
	article bool // an article or main
	code    bool // a table, code or pre
}

func (in within) enter(n *html.Node) within {
	switch n.DataAtom {
	case atom.Article, atom.Main:
		in.article = true
	case atom.Table, atom.Code, atom.Pre:
		in.code = true
	}
	return in
}

// dropped reports whether prune removes n, a child of an element within in.
func (e *extractor) dropped(n *html.Node, in within) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Link, atom.Meta, atom.Iframe, atom.Object,
		atom.Embed, atom.Svg, atom.Canvas, atom.Button, atom.Input, atom.Select, atom.Textarea, atom.Dialog,
		atom.Nav, atom.Aside, atom.Footer:
		return true
	case atom.Header:
		return !in.article
	case atom.Html, atom.Body, atom.Article, atom.Main, atom.A:
		return false
	}
	if _, ok := attrOK(n, "hidden"); ok || attr(n, "aria-hidden") == "true" {
		return true
	}
	if style := strings.ReplaceAll(strings.ToLower(attr(n, "style")), " ", ""); strings.Contains(style, "display:none") ||
		strings.Contains(style, "visibility:hidden") {
		return true
	}
	if r := attr(n, "role"); r != "" && slices.Contains(unlikelyRoles, strings.ToLower(r)) {
		return true
	}
	if !e.stripUnlikely || in.code {
		return false
	}
	s := classID(n)
	return anyIn(s, unlikelyWords) && !anyIn(s, maybeWords)
}

// top scores the elements that hold paragraphs and returns the best one
// (body when none scores).
func (e *extractor) top(body *html.Node) *html.Node {
	walk(body, func(n *html.Node) bool {
		if !e.paragraph(n) {
			return true
		}
		// From the counts, not the text: a short paragraph is entered,
		// and paragraphs in it would read its text again.
		c := e.count(n)
		length := c.chars - 1 // the words and a space between two
		if length < 25 {
			return true
		}
		s := 1 + float64(c.commas) + min(float64(length/100), 3)
		level := 0
		// Up to five ancestors, not the root element.
		for a := n.Parent; a != nil && a.Parent != nil && a.Parent.Type == html.ElementNode && level < 5; a = a.Parent {
			if _, ok := e.score[a]; !ok {
				e.score[a] = e.initial(a)
				e.order = append(e.order, a)
			}
			div := 1.0
			switch {
			case level == 1:
				div = 2
			case level > 1:
				div = float64(level * 3)
			}
			e.score[a] += s / div
			level++
		}
		return false // a scored element's own paragraphs are part of it
	})
	for _, n := range e.order {
		e.score[n] *= 1 - e.linkDensity(n)
	}
	// The best first; the order of first scoring breaks ties, so that the
	// same element wins every time.
	ranked := slices.Clone(e.order)
	slices.SortStableFunc(ranked, func(a, b *html.Node) int { return cmp.Compare(e.score[b], e.score[a]) })
	if len(ranked) == 0 {
		return body
	}
	top := ranked[0]
	// Content split into several blocks that score alike: their common
	// ancestor holds the article.
	var alike []*html.Node
	for _, n := range ranked[1:min(len(ranked), 5)] {
		if e.score[n] >= 0.75*e.score[top] {
			alike = append(alike, n)
		}
	}
	if len(alike) >= 3 {
		for a := top.Parent; a != nil && a != body; a = a.Parent {
			holds := 0
			for _, n := range alike {
				if inside(n, a) {
					holds++
				}
			}
			if holds >= 3 {
				top = a
				break
			}
		}
	}
	// A parent that scores higher than the element holds more of the
	// article; climb while the scores stay within a third of the best.
	last, floor := e.score[top], e.score[top]/3
	for a := top.Parent; a != nil && a != body && a.Type == html.ElementNode; a = a.Parent {
		s, ok := e.score[a]
		if !ok {
			continue
		}
		if s < floor {
			break
		}
		if s > last {
			top = a
			break
		}
		last = s
	}
	// An element alone in its parent stands for the parent.
	for top.Parent != nil && top.Parent != body && top.Parent.Type == html.ElementNode && onlyElement(top) {
		top = top.Parent
	}
	return top
}

// paragraph reports whether n is scored as a paragraph: a p, pre, td or
// heading below h1, or a div or section without blocks inside.
func (e *extractor) paragraph(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	switch n.DataAtom {
	case atom.P, atom.Pre, atom.Td, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	case atom.Div, atom.Section:
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && block(c) {
				return false
			}
		}
		return true
	}
	return false
}

func block(n *html.Node) bool {
	switch n.DataAtom {
	case atom.P, atom.Div, atom.Section, atom.Article, atom.Main, atom.Table, atom.Ul, atom.Ol, atom.Dl, atom.Pre,
		atom.Blockquote, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Figure, atom.Hr, atom.Header,
		atom.Address:
		return true
	}
	return false
}

// initial is a candidate's score before its paragraphs: by its tag and,
// with weightClasses, its class and id.
func (e *extractor) initial(n *html.Node) float64 {
	s := e.weight(n)
	switch n.DataAtom {
	case atom.Div, atom.Article, atom.Main:
		s += 5
	case atom.Pre, atom.Td, atom.Blockquote:
		s += 3
	case atom.Address, atom.Ol, atom.Ul, atom.Dl, atom.Dd, atom.Dt, atom.Li, atom.Form:
		s -= 3
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Th:
		s -= 5
	}
	return s
}

// weight is +25 for a class or id word of content, -25 for one of chrome
// (each of class and id counts), 0 without weightClasses.
func (e *extractor) weight(n *html.Node) float64 {
	if !e.weightClasses {
		return 0
	}
	w := 0.0
	for _, s := range []string{strings.ToLower(attr(n, "class")), strings.ToLower(attr(n, "id"))} {
		if s == "" {
			continue
		}
		if anyIn(s, negativeWords) {
			w -= 25
		}
		if anyIn(s, positiveWords) {
			w += 25
		}
	}
	return w
}

// gather returns top with its siblings that belong to the content: those
// that score near it, and paragraphs of prose.
func (e *extractor) gather(top *html.Node) []*html.Node {
	parent := top.Parent
	if parent == nil || top.DataAtom == atom.Body {
		return []*html.Node{top}
	}
	threshold := max(10, e.score[top]*0.2)
	var out []*html.Node
	for s := parent.FirstChild; s != nil; s = s.NextSibling {
		if s.Type != html.ElementNode {
			continue
		}
		keep := s == top
		if !keep {
			bonus := 0.0 // a sibling of the same class is likely more of the same
			if c := attr(top, "class"); c != "" && attr(s, "class") == c {
				bonus = e.score[top] * 0.2
			}
			if sc, ok := e.score[s]; ok && sc+bonus >= threshold {
				keep = true
			} else if s.DataAtom == atom.P {
				t, d := text(s), e.linkDensity(s)
				n := utf8.RuneCountInString(t)
				keep = (n > 80 && d < 0.25) || (n > 0 && n <= 80 && d == 0 && (strings.HasSuffix(t, ".") || strings.Contains(t, ". ")))
			}
		}
		if keep {
			out = append(out, s)
		}
	}
	return out
}

// clean removes from n what is not content: with cleanConditionally,
// lists, divs, sections and layout tables that are mostly links, forms or
// images, or whose class or id is of chrome; and empty paragraphs. figure
// tells whether n is or lies within a figure. A node's counts are read
// before clean changes what it holds, so they are still true.
func (e *extractor) clean(n *html.Node, figure bool) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode {
			if e.cleanConditionally && e.junk(c, figure) {
				n.RemoveChild(c)
			} else if c.DataAtom == atom.P && e.count(c).chars == 0 && e.count(c).img == 0 {
				n.RemoveChild(c)
			} else {
				e.clean(c, figure || c.DataAtom == atom.Figure)
			}
		}
		c = next
	}
}

// junk reports whether a list, div, section or table looks like chrome;
// figure tells whether it lies within a figure.
func (e *extractor) junk(n *html.Node, figure bool) bool {
	switch n.DataAtom {
	case atom.Ul, atom.Ol, atom.Div, atom.Section, atom.Table, atom.Fieldset, atom.Form:
	default:
		return false
	}
	if n.DataAtom == atom.Table && e.dataTable(n) {
		return false
	}
	w := e.weight(n)
	if w+e.score[n] < 0 {
		return true
	}
	c := e.count(n)
	if c.commas >= 10 {
		return false
	}
	list := n.DataAtom == atom.Ul || n.DataAtom == atom.Ol
	p, img, li, embeds := c.p, c.img, c.li, c.embeds
	length, links := c.chars, e.linkDensity(n)
	switch {
	case img > 1 && float64(p)/float64(img) < 0.5 && !figure:
		return true
	case !list && li-100 > p:
		return true
	case !list && length < 25 && (img == 0 || img > 2) && links > 0:
		return true
	case !list && w < 25 && links > 0.2:
		return true
	case w >= 25 && links > 0.5:
		return true
	case list && links > 0.5 && w <= 0:
		return true
	case embeds > 1 || (embeds == 1 && length < 75):
		return true
	}
	return false
}

// dataTable reports whether a table holds data rather than layout: it has
// a caption, summary, header cells or column groups, or is big enough.
func (e *extractor) dataTable(n *html.Node) bool {
	if attr(n, "role") == "presentation" {
		return false
	}
	if attr(n, "summary") != "" || e.count(n).header > 0 {
		return true
	}
	rows, cols := 0, 0
	walk(n, func(c *html.Node) bool {
		if c.DataAtom == atom.Table && c != n {
			return false
		}
		if c.DataAtom == atom.Tr {
			rows++
			k := 0
			for d := c.FirstChild; d != nil; d = d.NextSibling {
				if d.DataAtom == atom.Td {
					k++
				}
			}
			cols = max(cols, k)
		}
		return true
	})
	return rows >= 10 || cols > 4 || rows*cols > 10
}

// linkDensity is the share of n's text inside links.
func (e *extractor) linkDensity(n *html.Node) float64 {
	c := e.count(n)
	if c.chars == 0 {
		return 0
	}
	return float64(c.linkChars) / float64(c.chars)
}

// count returns n's counts, computing each node's once: the pruned page
// is walked once however deep it nests. Removals made later by clean do
// not update them. Leaves are counted again rather than remembered: most
// nodes are leaves, and a map entry costs more than their count.
func (e *extractor) count(n *html.Node) counts {
	leaf := n.FirstChild == nil
	if !leaf {
		if c, ok := e.memo[n]; ok {
			return c
		}
	}
	var c counts
	if n.Type == html.TextNode {
		words := strings.Fields(n.Data)
		for _, w := range words {
			c.chars += utf8.RuneCountInString(w) + 1
		}
		c.commas = strings.Count(n.Data, ",") + strings.Count(n.Data, "，")
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		k := e.count(ch)
		c.chars += k.chars
		c.linkChars += k.linkChars
		c.commas += k.commas
		c.p += k.p
		c.img += k.img
		c.li += k.li
		c.embeds += k.embeds
		c.header += k.header
	}
	switch n.DataAtom {
	case atom.A:
		c.linkChars = c.chars
	case atom.P:
		c.p++
	case atom.Img:
		c.img++
	case atom.Li:
		c.li++
	case atom.Video, atom.Audio:
		c.embeds++
	case atom.Th, atom.Thead, atom.Caption, atom.Colgroup:
		c.header++
	}
	if !leaf {
		e.memo[n] = c
	}
	return c
}

// text is n's text with runs of white space made one space.
func text(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) bool {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
			b.WriteByte(' ')
		}
		return true
	})
	return strings.Join(strings.Fields(b.String()), " ")
}

func textLen(n *html.Node) int { return utf8.RuneCountInString(text(n)) }

// walk calls fn on n and its descendants in document order, skipping the
// descendants of a node for which fn returns false.
func walk(n *html.Node, fn func(*html.Node) bool) {
	if !fn(n) {
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

// clone returns a copy of the tree under n.
func clone(n *html.Node) *html.Node {
	c := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace, Attr: slices.Clone(n.Attr)}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c.AppendChild(clone(ch))
	}
	return c
}

// find returns the first element of kind a in n (n included), or nil.
func find(n *html.Node, a atom.Atom) *html.Node {
	var found *html.Node
	walk(n, func(c *html.Node) bool {
		if found == nil && c.Type == html.ElementNode && c.DataAtom == a {
			found = c
		}
		return found == nil
	})
	return found
}

func hasAncestor(n *html.Node, kind atom.Atom) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		if a.DataAtom == kind {
			return true
		}
	}
	return false
}

// inside reports whether n lies within a.
func inside(n, a *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p == a {
			return true
		}
	}
	return false
}

// onlyElement reports whether n is its parent's only element child, with
// no text of its own around it.
func onlyElement(n *html.Node) bool {
	for c := n.Parent.FirstChild; c != nil; c = c.NextSibling {
		if c == n {
			continue
		}
		if c.Type == html.ElementNode || (c.Type == html.TextNode && strings.TrimSpace(c.Data) != "") {
			return false
		}
	}
	return true
}

func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func classID(n *html.Node) string {
	return strings.ToLower(attr(n, "class") + " " + attr(n, "id"))
}

func anyIn(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
