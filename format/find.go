package format

import (
	"io"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/pitext"
)

// FindOptions configure Find. nil means the defaults: the 50 KB cap, no
// maximum limit, no hints, no extra notes.
type FindOptions struct {
	// MaxBytes caps the text (whole lines only) before the notices. 0 means
	// 50 KB; negative means no cap.
	MaxBytes int
	// MaxLimit is the largest FindRequest.Limit the caller accepts: the
	// notice of a result cut at its limit suggests at most this one, and at
	// it says to narrow the pattern instead. 0 means no maximum.
	MaxLimit int
	// Timeout is the request's Timeout, which the note on a timed-out
	// result names ("find timed out after 5s"). 0 leaves it out.
	Timeout time.Duration
	// Hints say, by skip reason, how to include what was left out; they
	// follow the counts when nothing was found, e.g. SkipHidden:
	// "pass hidden: true". nil means no hints.
	Hints map[scout.SkipReason]string
	// Notes are extra lines printed after the paths and the notes on a
	// timeout and missing paths, before the notices. nil means none.
	Notes []string
}

// Find writes the pi text of a find result: the paths grouped by directory
// as "# dir/" then base names (directories end in '/'; entries of the root
// bare; the file itself when the input named one), the notes on a timeout
// and missing paths, with no match what was left out and why, then the
// 50 KB cap and the "[...]" notices on the cut and the limit.
func Find(w io.Writer, r *scout.FindResult, o *FindOptions) error {
	text, _ := FindText(r, o)
	_, err := io.WriteString(w, text)
	return err
}

// FindText returns the text Find writes, and whether the byte cap cut it.
func FindText(r *scout.FindResult, o *FindOptions) (text string, truncated bool) {
	var po *pitext.FindOptions
	if o != nil {
		po = &pitext.FindOptions{MaxBytes: o.MaxBytes, MaxLimit: o.MaxLimit, Timeout: o.Timeout, Hints: o.Hints, Notes: o.Notes}
	}
	text, cut := pitext.Find(r, po)
	return text, cut != nil
}
