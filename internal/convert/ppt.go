package convert

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"
)

// PowerPoint 97-2003 record types (MS-PPT 2.13.24).
const (
	pptMainMaster       = 0x03F8
	pptHandout          = 0x0FC9
	pptSlide            = 0x03EE
	pptNotes            = 0x03F0
	pptSlideListText    = 0x0FF0
	pptSlidePersist     = 0x03F3
	pptTextHeader       = 0x0F9F
	pptTextChars        = 0x0FA0
	pptTextBytes        = 0x0FA8
	pptMaxDepth         = 64
	pptSlidesInstance   = 0    // SlideListWithText of the presentation slides
	pptTitle, pptCTitle = 0, 6 // TextHeaderAtom types of titles
)

// convertPPT extracts the text of a PowerPoint 97-2003 presentation by
// walking the records of its "PowerPoint Document" stream in storage
// order: the placeholder text of SlideListWithText, then the text boxes of
// each Slide container, then the notes. Each slide with text is introduced
// by "<!-- Slide number: N -->" (counted separately for the two sources,
// in storage order), titles become "# ", notes "### Notes:". Masters and
// handouts are skipped, and so is the "*" of slide-number fields. Every
// record is bounded by its parent, so a corrupt length cannot make it
// allocate or read more than the stream holds.
//
// (The Go library goppt allocates whatever a record header claims, up to
// 4 GiB, so it is not used.)
func convertPPT(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	if c, ok := mislabelled(r, size); ok {
		return c(ctx, r, size)
	}
	streams, err := oleStreams(r, size, "PowerPoint Document")
	if err != nil {
		return "", malformed("PPT", err)
	}
	doc := streams["PowerPoint Document"]
	if doc == nil {
		return "", malformed("PPT", errors.New(`no "PowerPoint Document" stream`))
	}
	w := pptWriter{ctx: ctx}
	if err := w.walk(doc, 0); err != nil {
		return "", err
	}
	res, err := w.out.result()
	if res == "" && w.records == 0 {
		return "", malformed("PPT", errors.New("no records in the PowerPoint Document stream"))
	}
	return res, err
}

type pptWriter struct {
	ctx     context.Context
	out     text
	listed  int    // slides seen in the slide list
	drawn   int    // Slide containers seen
	inList  bool   // inside the SlideListWithText of the slides
	title   bool   // the next text atom is a title
	pending string // heading written before the next text
	records int
}

// walk reads the records of b, descending into containers.
func (w *pptWriter) walk(b []byte, depth int) error {
	if depth > pptMaxDepth {
		return malformed("PPT", errors.New("records nested too deep"))
	}
	le := binary.LittleEndian
	for off := 0; off+8 <= len(b) && !w.out.full(); {
		w.records++
		if w.records%4096 == 0 {
			if err := w.ctx.Err(); err != nil {
				return err
			}
		}
		verInst, typ := le.Uint16(b[off:]), le.Uint16(b[off+2:])
		n := int64(le.Uint32(b[off+4:]))
		body := b[off+8 : off+8+int(min(n, int64(len(b)-off-8)))]
		off += 8 + len(body)
		inst := verInst >> 4
		if verInst&0xF == 0xF { // a container
			inList := w.inList
			switch typ {
			case pptMainMaster, pptHandout:
				continue
			case pptSlideListText:
				w.inList = inst == pptSlidesInstance
			case pptSlide:
				w.drawn++
				w.pending = fmt.Sprintf("\n<!-- Slide number: %d -->\n", w.drawn)
			case pptNotes:
				w.pending = "### Notes:\n"
			}
			if err := w.walk(body, depth+1); err != nil {
				return err
			}
			w.inList = inList
			continue
		}
		switch typ {
		case pptSlidePersist:
			if w.inList {
				w.listed++
				w.pending = fmt.Sprintf("\n<!-- Slide number: %d -->\n", w.listed)
			}
		case pptTextHeader:
			if len(body) >= 4 {
				t := le.Uint32(body)
				w.title = t == pptTitle || t == pptCTitle
			}
		case pptTextChars:
			u := make([]uint16, len(body)/2)
			for i := range u {
				u[i] = le.Uint16(body[2*i:])
			}
			w.text(string(utf16.Decode(u)))
		case pptTextBytes:
			s, _ := charmap.Windows1252.NewDecoder().Bytes(body)
			w.text(string(s))
		}
	}
	return nil
}

// text writes one text atom: paragraphs end in \r, line breaks are \v.
func (w *pptWriter) text(s string) {
	s = strings.NewReplacer("\r", "\n", "\v", "\n").Replace(s)
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' {
			return -1
		}
		return r
	}, s))
	if s == "" || s == "*" {
		return
	}
	w.out.WriteString(w.pending)
	w.pending = ""
	if w.title {
		s = "# " + strings.ReplaceAll(s, "\n", " ")
		w.title = false
	}
	w.out.WriteString(s + "\n")
}
