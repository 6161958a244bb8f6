package convert

import (
	"bufio"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/transform"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/textio"
)

// maxChapter caps one EPUB chapter: XHTML is converted through a DOM,
// which takes several times the size of its source.
const maxChapter = 8 << 20

// maxListed is the most part names a notice lists; it counts the others.
const maxListed = 10

// convertEPUB renders the book's title and authors, then each document of
// the spine in reading order, converted from XHTML to markdown. The
// package's parts are read under the markup bound and maxInflate, as the
// Office converters read theirs, each chapter's markdown counting as text
// shown; a chapter the spine names again is converted once and shown
// again.
func convertEPUB(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	p, err := openPkg(ctx, "EPUB", r, size)
	if err != nil {
		return "", err
	}
	p.markup = &markup{}
	var container struct {
		Rootfiles []struct {
			Path string `xml:"full-path,attr"`
		} `xml:"rootfiles>rootfile"`
	}
	if err := p.decodeXML("META-INF/container.xml", &container); err != nil {
		return stopped(&text{}, err)
	}
	if len(container.Rootfiles) == 0 {
		return "", malformed("EPUB", errors.New("container.xml names no package document"))
	}
	opfPath := strings.TrimPrefix(container.Rootfiles[0].Path, "/")
	opf, err := readOPF(p, opfPath)
	if err != nil {
		return stopped(&text{}, err)
	}
	var out text
	if len(opf.Title) > 0 && strings.TrimSpace(opf.Title[0]) != "" {
		out.WriteString("# " + strings.TrimSpace(opf.Title[0]) + "\n\n")
	}
	if len(opf.Creators) > 0 {
		out.WriteString("Authors: " + strings.Join(opf.Creators, ", ") + "\n\n")
	}
	var missing, cut, unread listed
	var stop error
	seen := map[string]string{} // chapter -> its markdown, once converted or found missing
	for _, ref := range opf.Spine {
		if out.full() || stop != nil {
			break
		}
		name, ok := opf.Hrefs[ref]
		if !ok {
			continue // not an XHTML document: no text to show
		}
		md, ok := seen[name]
		if !ok {
			if md, err = epubChapter(p, name, &missing, &cut, &unread); err != nil {
				if asPartial(err) == nil {
					return "", err
				}
				stop = err
			}
			seen[name] = md
			p.markup.shown += int64(len(md))
		}
		out.WriteString(md + "\n\n")
	}
	res, err := out.result()
	if err == nil {
		var why []string
		if missing.n > 0 {
			why = append(why, "chapters named in the spine are missing from the book: "+missing.String())
		}
		if cut.n > 0 {
			why = append(why, "chapters converted in part: "+cut.String())
		}
		if unread.n > 0 {
			why = append(why, "chapters in an encoding Scout does not read, read as UTF-8: "+unread.String())
		}
		if part := asPartial(stop); part != nil {
			why = append(why, part.Reason)
		}
		if len(why) > 0 {
			err = &errs.Partial{Reason: strings.Join(why, "; ")}
		}
	}
	return res, err
}

// opfPackage is what the converter reads of an EPUB's package document.
type opfPackage struct {
	Root            string            // the local name of the root element
	Title, Creators []string          // the metadata's titles and creators
	Hrefs           map[string]string // manifest id -> the part of an (X)HTML item
	Spine           []string          // the idrefs of the spine, in order
}

// readOPF reads the package document name as a stream of tokens, under
// the markup bound: a manifest of millions of items is not held. It
// reads what decoding the document into a struct would, with the same
// lenient decoder: the children of the root's metadata named title and
// creator (their own text, nested elements left out), the id, href and
// media-type of the manifest's items, the last of an attribute named
// twice, and the idref of the spine's itemrefs; the document ends with
// its root element. A root other than <package> is an error: container.xml
// named a part that is not a package document.
func readOPF(p *pkg, name string) (*opfPackage, error) {
	rc, err := p.open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := newDecoder(&tagReader{r: rc})
	dir := path.Dir(name) + "/"
	if dir == "./" {
		dir = ""
	}
	o := &opfPackage{Hrefs: map[string]string{}}
	depth := 0
	var section string // the root's child open
	var field *[]string
	var data []byte
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := p.ctx.Err(); err != nil {
				return nil, err
			}
		}
		tok, err := d.Token()
		if err != nil {
			var stop *markupStop
			switch {
			case errors.As(err, &stop):
				return nil, stop
			case errors.Is(err, errTagTooLong):
				return nil, errs.Wrap(errs.TooLarge, err, "part %s has a tag longer than %d MiB", errs.Echo(name), maxXMLTag>>20)
			case err == io.EOF && o.Root == "":
				return nil, malformed(p.format, fmt.Errorf("container.xml names %s as the package document, which holds no XML element", fname.Quote(name)))
			}
			return nil, p.partErr(name, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxXMLDepth {
				return nil, errs.New(errs.TooLarge, "part %s nests elements more than %d deep", errs.Echo(name), maxXMLDepth)
			}
			switch depth {
			case 1:
				if o.Root = t.Name.Local; !strings.EqualFold(o.Root, "package") {
					return nil, malformed(p.format, fmt.Errorf("container.xml names %s as the package document, but its root element is <%s>, not <package>", fname.Quote(name), errs.Echo(o.Root)))
				}
			case 2:
				section = t.Name.Local
			case 3:
				switch {
				case section == "metadata" && t.Name.Local == "title":
					field, data = &o.Title, data[:0]
				case section == "metadata" && t.Name.Local == "creator":
					field, data = &o.Creators, data[:0]
				case section == "manifest" && t.Name.Local == "item":
					o.addItem(dir, t)
				case section == "spine" && t.Name.Local == "itemref":
					o.Spine = append(o.Spine, attrOf(t, "idref"))
				}
			}
		case xml.EndElement:
			if depth == 3 && field != nil {
				*field, field = append(*field, string(data)), nil
			}
			switch depth--; depth {
			case 0:
				return o, nil
			case 1:
				section = ""
			}
		case xml.CharData:
			if depth == 3 && field != nil {
				data = append(data, t...)
			}
		}
	}
}

// addItem records a manifest item of an (X)HTML document, its href
// resolved against dir.
func (o *opfPackage) addItem(dir string, e xml.StartElement) {
	if !strings.Contains(attrOf(e, "media-type"), "html") {
		return
	}
	href := attrOf(e, "href")
	h, err := url.PathUnescape(href)
	if err != nil {
		h = href
	}
	o.Hrefs[attrOf(e, "id")] = resolvePart(dir, h)
}

// attrOf returns the value of the last attribute with the local name.
func attrOf(e xml.StartElement, local string) string {
	v, _ := attrLast(e, local)
	return v
}

// epubChapter converts chapter name to markdown, adding its name to
// missing when the book lacks it, to cut, with why, when it is converted
// in part (or not at all: it nests elements deeper than the HTML parser
// takes), and to unread when it declares an encoding Scout does not
// read. A read past the markup bound or maxInflate gives the markdown of
// what was read and the *markupStop.
func epubChapter(p *pkg, name string, missing, cut, unread *listed) (string, error) {
	if !p.has(name) {
		missing.add(fname.Quote(name))
		return "", nil
	}
	rc, err := p.openCapped(name, maxChapter)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	r := &boundReader{r: rc}
	text, label, err := decodeChapter(r)
	if err != nil {
		return "", p.partErr(name, err)
	}
	if label != "" {
		unread.add(fname.Quote(name) + " (" + errs.Echo(label) + ")")
	}
	md, err := HTMLToMarkdown(p.ctx, text, "")
	var part *errs.Partial
	switch {
	case errors.As(err, &part):
		cut.add(fname.Quote(name) + " (" + part.Reason + ")")
	case err != nil && strings.Contains(err.Error(), "open stack of elements exceeds"):
		cut.add(fname.Quote(name) + " (it nests elements more than 512 deep and is not shown)")
		md, err = "", nil
	case err != nil:
		return "", p.partErr(name, err)
	}
	if r.stop != nil {
		return md, r.stop
	}
	return md, nil
}

// Declarations of a chapter's encoding: the XML declaration's, else an
// HTML meta element's.
var (
	xmlEncoding = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([^"'>]*)["']`)
	})
	metaEncoding = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)<meta\s[^>]*?charset\s*=\s*["']?([^"'>\s/;]*)`)
	})
)

// decodeChapter returns a reader of r's text as UTF-8: a chapter with a
// UTF-16 or UTF-32 byte order mark is in that encoding, else in the one
// its XML declaration or a meta element of its first kilobyte names,
// else in UTF-8. unknown is the name of a declared encoding that Scout
// does not know: the chapter is read as UTF-8.
func decodeChapter(r io.Reader) (_ io.Reader, unknown string, err error) {
	br := bufio.NewReaderSize(r, 1024)
	head, err := br.Peek(1024)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, "", err
	}
	switch enc, _ := textio.Sniff(head); enc {
	case textio.UTF16LE, textio.UTF16BE, textio.UTF32LE, textio.UTF32BE:
		return textio.Decode(br, enc), "", nil
	case textio.UTF8BOM:
		return br, "", nil
	}
	m := xmlEncoding().FindSubmatch(head)
	if m == nil {
		m = metaEncoding().FindSubmatch(head)
	}
	if m == nil {
		return br, "", nil
	}
	label := strings.TrimSpace(string(m[1]))
	e, name := charset.Lookup(label)
	switch {
	case e == nil:
		return br, label, nil
	case name == "utf-8" || strings.HasPrefix(name, "utf-16"):
		// A declaration read as ASCII is not in UTF-16: the chapter has
		// no byte order mark.
		return br, "", nil
	}
	return transform.NewReader(br, e.NewDecoder()), "", nil
}

// listed is the list of a notice: its first maxListed items and how
// many there are.
type listed struct {
	items []string
	n     int
}

func (l *listed) add(item string) {
	if l.n++; len(l.items) < maxListed {
		l.items = append(l.items, item)
	}
}

func (l *listed) String() string {
	s := strings.Join(l.items, ", ")
	if more := l.n - len(l.items); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// boundReader ends a part at the markup bound or maxInflate, as if at its
// end, keeping the *markupStop: what was read before is converted.
type boundReader struct {
	r    io.Reader
	stop *markupStop
}

func (b *boundReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if errors.As(err, &b.stop) {
		return n, io.EOF
	}
	return n, err
}
