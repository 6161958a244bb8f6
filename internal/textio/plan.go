package textio

// The limits of pi's read tool.
const (
	DefaultLimit  = 300       // lines of an open-ended read
	MaxLimit      = 3000      // the most lines one window collects
	MinByteBudget = 50 * 1024 // a window's byte budget is max(MinByteBudget, lines×BytesPerLine)
	BytesPerLine  = 512
	MaxColumns    = 768 // display cap per line, in characters
)

// Range is an inclusive 1-based line range; End 0 means to the end.
type Range struct{ Start, End int }

// PlanOptions are the settings of Plan.
type PlanOptions struct {
	// Before and After widen a single range by that many lines before
	// its start and after its end (not an open end); 0 adds none. Several
	// ranges are read exactly.
	Before, After int
	// Raw disables the widening.
	Raw bool
	// Limit is the line count of an open-ended window. 0 means
	// DefaultLimit; values above MaxLimit are clamped.
	Limit int
	// HeadBytes, when positive, replaces the byte budget of every window
	// (in-memory sources are head-truncated at 50 KB, with or without a
	// selector).
	HeadBytes int
	// Unlimited removes the line and byte caps: only the ranges bound the
	// windows (sources paged by explicit selectors alone).
	Unlimited bool
}

// ClampLimit returns the line limit a host setting means: 0 means
// DefaultLimit, negative values mean 1, and values above MaxLimit are
// MaxLimit.
func ClampLimit(n int) int {
	switch {
	case n == 0:
		return DefaultLimit
	case n < 1:
		return 1
	case n > MaxLimit:
		return MaxLimit
	}
	return n
}

// Plan turns sorted, merged selector ranges into windows. No ranges means
// one open-ended window from line 1. A single range is widened by Before
// and After lines, except in raw mode, the lines before it being the
// window's Lead; several ranges are read exactly. Every window gets at most
// MaxLimit lines (Limit for an open-ended one, plus its Lead) and a byte
// budget of max(MinByteBudget, lines×BytesPerLine), or HeadBytes.
func Plan(ranges []Range, o PlanOptions) []Window {
	ws := plan(ranges, o)
	for i := range ws {
		switch {
		case o.Unlimited:
			ws[i].MaxLines, ws[i].MaxBytes = 0, 0
		case o.HeadBytes > 0:
			ws[i].MaxBytes = o.HeadBytes
		}
	}
	return ws
}

func plan(ranges []Range, o PlanOptions) []Window {
	limit := ClampLimit(o.Limit)
	if len(ranges) == 0 {
		return []Window{window(Range{Start: 1}, limit)}
	}
	if len(ranges) == 1 && !o.Raw {
		r := ranges[0]
		lead := min(max(o.Before, 0), max(r.Start, 1)-1)
		r.Start = max(1, r.Start-lead)
		if r.End > 0 {
			r.End += min(max(o.After, 0), maxContext) // r.End <= 1<<30: the sum fits an int32
		}
		// An open range shows limit lines from the line asked for, the
		// leading context on top (up to MaxLimit in all).
		w := window(r, min(limit+lead, MaxLimit))
		w.Lead = lead
		return []Window{w}
	}
	ws := make([]Window, len(ranges))
	for i, r := range ranges {
		ws[i] = window(r, limit)
	}
	return ws
}

// FirstLine returns the first line the windows can show (1 when there are
// none).
func FirstLine(ws []Window) int {
	first := 0
	for _, w := range ws {
		if s := max(w.Start, 1); first == 0 || s < first {
			first = s
		}
	}
	return max(first, 1)
}

// LastLine returns the last line the windows can show; 0 when one of them
// may reach the end of the text.
func LastLine(ws []Window) int {
	last := 0
	for _, w := range ws {
		end := w.End
		if w.MaxLines > 0 {
			if l := max(w.Start, 1) + w.MaxLines - 1; end == 0 || l < end {
				end = l
			}
		}
		if end == 0 {
			return 0
		}
		last = max(last, end)
	}
	return last
}

func window(r Range, limit int) Window {
	lines := limit
	if r.End > 0 {
		lines = min(r.End-r.Start+1, MaxLimit)
	}
	return Window{Start: r.Start, End: r.End, MaxLines: lines, MaxBytes: max(MinByteBudget, lines*BytesPerLine)}
}

// maxContext bounds After, so that a range's end plus its context fits an
// int on every platform.
const maxContext = 1<<30 - 1
