package format

import (
	"io"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/pitext"
)

// FindOptions configure Find. nil means the defaults: the 50 KB cap, no
// maximum limit, no hints, no extra notes, the find tool's words.
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
	// Notes are extra lines on the request printed after the paths, before
	// the notes on a timeout and missing paths and the notices. nil means
	// none.
	Notes []string
	// LimitNotice phrases the notice on a result cut at its limit in the
	// host's words, e.g. a command line's "Use --limit 100 for more": n is
	// the limit reached (the entries listed) and next the limit to suggest,
	// twice n and at most MaxLimit, or 0 where no larger limit can be
	// suggested (n is MaxLimit) and only a narrower request finds the rest.
	// "" leaves the notice out. nil means the find tool's words: "n results
	// limit reached. Use limit=next for more", or "n results limit reached;
	// narrow the pattern or paths for the rest".
	LimitNotice func(n, next int) string
	// TimeoutNote phrases the note on a timed-out result that lists n
	// entries in the host's words, e.g. how to ask for a longer timeout;
	// Timeout is then unused. "" leaves the note out. nil means the find
	// tool's words: "find timed out after 5s; returning n partial matches
	// — increase timeout or narrow pattern".
	TimeoutNote func(n int) string
}

// Find writes the pi text of a find result: the paths grouped by directory
// as "# dir/" then base names (directories end in '/'; entries of the root
// bare; the file itself when the input named one), the notes on a timeout
// and missing paths, with no match what was left out and why, then the
// 50 KB cap and the "[...]" notices on the cut and the limit. It returns
// w's error (io.ErrShortWrite for a short write without one); a nil w is a
// scout.CodeInvalidParam error.
func Find(w io.Writer, r *scout.FindResult, o *FindOptions) error {
	text, _ := FindText(r, o)
	return write("Find", w, text)
}

// FindText returns the text Find writes, and whether the byte cap cut it.
// A nil result gives "".
func FindText(r *scout.FindResult, o *FindOptions) (text string, truncated bool) {
	if r == nil {
		return "", false
	}
	var po *pitext.FindOptions
	if o != nil {
		po = &pitext.FindOptions{MaxBytes: o.MaxBytes, MaxLimit: o.MaxLimit, Timeout: o.Timeout, Hints: o.Hints, Notes: o.Notes,
			LimitNotice: o.LimitNotice, TimeoutNote: o.TimeoutNote}
	}
	text, cut := pitext.Find(r, po)
	return text, cut != nil
}
