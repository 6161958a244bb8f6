package web

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
)

// isFeed reports whether the response is an RSS or Atom feed: by media
// type, or an XML body whose root element is rss, feed or RDF.
func isFeed(mt string, body []byte) bool {
	switch mt {
	case "application/rss+xml", "application/atom+xml", "application/rdf+xml":
		return true
	case "application/xml", "text/xml":
		root, err := rootElement(body)
		return err == nil && (root == "rss" || root == "feed" || root == "RDF")
	}
	return false
}

func rootElement(body []byte) (string, error) {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	for {
		tok, err := d.Token()
		if err != nil {
			return "", err
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name.Local, nil
		}
	}
}

type feedDoc struct {
	XMLName xml.Name
	// RSS 2.0 / RSS 1.0
	Channel struct {
		Title       string     `xml:"title"`
		Link        string     `xml:"link"`
		Description string     `xml:"description"`
		Items       []feedItem `xml:"item"`
	} `xml:"channel"`
	RDFItems []feedItem `xml:"item"`
	// Atom
	Title    string      `xml:"title"`
	Subtitle string      `xml:"subtitle"`
	Entries  []atomEntry `xml:"entry"`
}

type feedItem struct {
	Title       string `xml:"title"`
	Link        string `xml:"link"`
	Date        string `xml:"pubDate"`
	DCDate      string `xml:"date"`
	Description string `xml:"description"`
}

type atomEntry struct {
	Title string `xml:"title"`
	Links []struct {
		Href string `xml:"href,attr"`
		Rel  string `xml:"rel,attr"`
	} `xml:"link"`
	Updated   string `xml:"updated"`
	Published string `xml:"published"`
	Summary   string `xml:"summary"`
	Content   string `xml:"content"`
}

// feedMarkdown renders an RSS or Atom feed as a markdown list: title, link,
// date and a one-paragraph summary per item.
func feedMarkdown(body []byte) (string, error) {
	if xmlDepth(body, maxFeedDepth) > maxFeedDepth {
		return "", fmt.Errorf("elements nest more than %d deep", maxFeedDepth)
	}
	var f feedDoc
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	if err := d.Decode(&f); err != nil {
		return "", err
	}
	var b strings.Builder
	item := func(title, link, date, summary string) {
		title = oneLine(title)
		if title == "" {
			title = "(untitled)"
		}
		if link = strings.TrimSpace(link); link != "" {
			b.WriteString("- [" + title + "](" + link + ")")
		} else {
			b.WriteString("- " + title)
		}
		if date = strings.TrimSpace(date); date != "" {
			b.WriteString(" — " + date)
		}
		b.WriteString("\n")
		if s := oneLine(stripTags(summary)); s != "" {
			b.WriteString("  " + cut(s, 500) + "\n")
		}
	}
	switch f.XMLName.Local {
	case "feed":
		b.WriteString("# " + oneLine(f.Title) + "\n\n")
		if s := oneLine(f.Subtitle); s != "" {
			b.WriteString(s + "\n\n")
		}
		for _, e := range f.Entries {
			link := ""
			for _, l := range e.Links {
				if link == "" || l.Rel == "alternate" {
					link = l.Href
				}
			}
			item(e.Title, link, cmpOr(e.Published, e.Updated), cmpOr(e.Summary, e.Content))
		}
	case "rss", "RDF":
		c := f.Channel
		b.WriteString("# " + oneLine(c.Title) + "\n\n")
		if s := oneLine(stripTags(c.Description)); s != "" {
			b.WriteString(s + "\n\n")
		}
		for _, it := range append(c.Items, f.RDFItems...) {
			item(it.Title, it.Link, cmpOr(it.Date, it.DCDate), it.Description)
		}
	default:
		return "", errors.New("not an RSS or Atom feed")
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// stripTags removes HTML tags from a feed summary.
func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>' && in:
			in = false
			b.WriteByte(' ')
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// maxFeedDepth is the deepest element nesting a feed may have: feeds nest
// a few levels, and the XML decoder keeps a frame for each open element (a
// body of 2 million unclosed items took 335 MB).
const maxFeedDepth = 256

// xmlDepth returns how deep the elements of body nest, counting up to the
// first depth over limit. It reads tags only: comments, CDATA sections,
// processing instructions and declarations are skipped, and a '>' inside
// a quoted attribute value does not end its tag.
func xmlDepth(body []byte, limit int) int {
	depth, deepest := 0, 0
	skip := func(i int, end string) int { // the index after end, or len(body)
		if j := bytes.Index(body[i:], []byte(end)); j >= 0 {
			return i + j + len(end)
		}
		return len(body)
	}
	for i := 0; i < len(body); {
		j := bytes.IndexByte(body[i:], '<')
		if j < 0 {
			break
		}
		i += j
		rest := body[i:]
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			i = skip(i, "-->")
		case bytes.HasPrefix(rest, []byte("<![CDATA[")):
			i = skip(i, "]]>")
		case bytes.HasPrefix(rest, []byte("<?")):
			i = skip(i, "?>")
		case bytes.HasPrefix(rest, []byte("<!")):
			i = skip(i, ">")
		case bytes.HasPrefix(rest, []byte("</")):
			depth = max(depth-1, 0)
			i = skip(i, ">")
		default:
			var quote byte
			k := 1
			for ; k < len(rest) && (quote != 0 || rest[k] != '>'); k++ {
				switch {
				case quote != 0 && rest[k] == quote:
					quote = 0
				case quote == 0 && (rest[k] == '"' || rest[k] == '\''):
					quote = rest[k]
				}
			}
			if deepest = max(deepest, depth+1); deepest > limit {
				return deepest
			}
			if k >= len(rest) || rest[k-1] != '/' { // not self-closing: open
				depth++
			}
			i += k + 1
		}
	}
	return deepest
}
