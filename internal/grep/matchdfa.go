package grep

import (
	"regexp/syntax"
	"sync/atomic"
	"unicode/utf8"
)

// A lazy DFA that finds where matches begin and end exactly as Go's
// regexp does (leftmost-first, FindAllIndex's matches), in time linear
// in the text and at one table lookup per byte once its states are
// built. Go's regexp runs a Pike VM (or a backtracker) at 25-50 MB/s;
// counting the matches of one long line with it took seconds.
//
// As in RE2 and Rust's regex crate, two automata find a match:
//
//   - forward over the pattern, from the search position: a state is
//     the Pike VM's list of threads in priority order (not a set), a
//     match cuts the threads after it and stops new threads from
//     starting, so the last match seen before no thread is left is where
//     the leftmost-first match ends;
//   - backward over the reversed pattern (runes, concatenations and
//     anchors reversed), anchored at that end, longest: the leftmost
//     start of a match ending there is the start of the leftmost-first
//     match (a match further left would start a thread of higher
//     priority).
//
// Empty-width assertions whose truth depends on the next character stay
// in the list until it is seen (as in dfa.go); a state also records the
// context of its position (text start, line start, word character
// before) when the pattern asks about it. When the cache thrashes, the
// automaton steps thread lists without caching them: a Pike VM without
// captures, still linear. Every pollBytes bytes scanned, and every
// pollBytes threads stepped on the slow path (a state of thousands of
// threads costs as much as thousands of bytes), poll is asked whether to
// stop (the search's context ended).

// Context flags of a state's position.
const (
	ctxBeginText uint8 = 1 << iota
	ctxBeginLine
	ctxWord    // the previous character is a word character
	ctxMatched // forward: a match was seen, no new thread starts
)

// Bits of a transition value (a state id is a multiple of the row size,
// at least 8).
const (
	tbMatch   int32 = 1 // a match ends before the character
	tbDead    int32 = 2 // no thread is left: the search is over
	tbUnknown int32 = 4 // not computed yet
	tbMask    int32 = 7
)

// stopped is returned by a search that poll stopped.
const stopped = -3

// pollBytes is how many bytes a search scans between two polls, and
// pollMatchBytes what each match a walk hands on counts for besides its
// bytes (the callee may take microseconds for it: a whole-file search
// gathers its lines): a poll at least every 256 matches.
const (
	pollBytes      = 64 << 10
	pollMatchBytes = pollBytes / 256
)

// The memory of an automaton's cache of states: a budget of
// matchCacheBytes at first. A cache that fills it with large states, keys
// of bigState bytes or more on average (a chain of 3000 character classes
// passes through 3000 states of up to 3000 threads, 4.5 MB of keys, before
// each match), doubles its budget, as long as the match automata of all
// the scanners of its Matcher have together grown theirs by no more than
// matchCacheGrowth. When the states need more, the cache is flushed, and
// the automaton steps uncached when flushes come too often (see intern).
// Small states that fill the budget are many (patterns such as
// (a|b)*a(a|b){12} need exponentially many): more room would not hold
// them either.
const (
	matchCacheBytes  = 1 << 20
	matchCacheGrowth = 64 << 20
	bigState         = 256
)

// cacheGrowth is the room left to grow the match automata's caches of
// the scanners of one Matcher past matchCacheBytes. Room taken is not
// given back: it bounds what the Matcher's scanners grow over its life
// (a search).
type cacheGrowth struct{ left atomic.Int64 }

func newCacheGrowth() *cacheGrowth {
	g := &cacheGrowth{}
	g.left.Store(matchCacheGrowth)
	return g
}

// take takes n bytes of the room and reports whether there were that many
// (nil: none).
func (g *cacheGrowth) take(n int) bool {
	if g == nil {
		return false
	}
	if g.left.Add(-int64(n)) < 0 {
		g.left.Add(int64(n))
		return false
	}
	return true
}

// thrashFlushes is the number of flushes in a row, each after fewer than
// thrash bytes per state, that make the match automata step uncached.
const thrashFlushes = 16

// mstate is a cached state; its key (the context flags and the threads in
// priority order: Rune*, Match and pending EmptyWidth instructions) is in
// stateKeys, under the same index.
type mstate struct {
	end   int8    // 0 unknown, 1 a match ends at the end of the text, 2 not
	wide  int8    // 0 unknown, 1 a thread may accept a rune outside ASCII, 2 none
	class []int32 // transitions per rune class (non-ASCII); 0: unknown
}

type mdfa struct {
	prog       *program
	back       bool  // backward over the reversed pattern, anchored, longest
	ctxMask    uint8 // the context flags the pattern asks about
	bounds     []rune
	classes    [256]uint8   // the byte classes: bytes of a class lead to the same state
	high       uint8        // the class of the bytes outside ASCII
	shift      uint         // a row holds 1<<shift transitions, one per class
	unknown    []int32      // a row of transitions not computed yet
	trans      []int32      // the rows of the states; row 0 unused
	states     []mstate     // by index; 0 unused
	keys       stateKeys    // the states' keys, by index
	starts     [8]int32     // start states by context; 0: not built
	classBytes int          // bytes of the states' rows of rune class transitions
	limit      int          // most bytes the cache may hold: matchCacheBytes, doubled as it grows (tests lower it)
	growth     *cacheGrowth // the room to grow limit, shared with the Matcher's other automata; nil: none
	raw        bool         // the cache thrashed: step thread lists uncached
	work       int          // threads stepped since the last poll
	scanned    int          // bytes scanned by finished searches, for the thrashing check
	now        int          // bytes scanned up to the current position (set before slow)
	flushed    int          // now at the last flush
	flushes    int
	quick      int // flushes in a row that came too soon, toward thrashFlushes
	poll       func() bool

	stack   []uint32
	cur     instSet
	next    instSet
	list    []uint32
	insts   []uint32 // the threads of state held, decoded by threads
	held    int32    // the state whose threads insts holds; 0: none
	heldFl  uint8    // its context flags
	rawList []uint32
	key     []byte
}

// newMDFA returns the automaton of prog, forward or back; its cache grows
// from growth (nil: it does not grow).
func newMDFA(prog *program, back bool, growth *cacheGrowth) *mdfa {
	n := len(prog.Inst)
	d := &mdfa{prog: prog, back: back, bounds: prog.bounds, limit: matchCacheBytes, growth: growth,
		cur: newInstSet(n), next: newInstSet(n), keys: newStateKeys()}
	for _, in := range prog.Inst {
		if in.Op != syntax.InstEmptyWidth {
			continue
		}
		op := syntax.EmptyOp(in.Arg)
		if op&syntax.EmptyBeginText != 0 {
			d.ctxMask |= ctxBeginText
		}
		if op&syntax.EmptyBeginLine != 0 {
			d.ctxMask |= ctxBeginLine | ctxBeginText // a text start is a line start
		}
		if op&(syntax.EmptyWordBoundary|syntax.EmptyNoWordBoundary) != 0 {
			d.ctxMask |= ctxWord
		}
	}
	d.ctxMask |= ctxMatched
	d.high = byteClasses(&d.classes, d.bounds, d.ctxMask&ctxWord != 0)
	for 1<<d.shift < max(int(d.high)+1, 8) {
		d.shift++
	}
	d.unknown = make([]int32, 1<<d.shift)
	for i := range d.unknown {
		d.unknown[i] = tbUnknown
	}
	d.flush()
	return d
}

// byteClasses fills classes so that the ASCII bytes of a class are alike
// for the pattern (the same rune class, both newlines or neither, both
// word characters or neither when word matters) and returns the class of
// all the bytes outside ASCII (stepped by rune, see slow).
func byteClasses(classes *[256]uint8, bounds []rune, word bool) uint8 {
	var starts [utf8.RuneSelf + 1]bool
	for _, b := range bounds {
		if b < utf8.RuneSelf {
			starts[b] = true
		}
	}
	starts['\n'], starts['\n'+1] = true, true
	if word {
		for _, b := range "09AZ__az" {
			starts[b] = true
		}
		starts['9'+1], starts['Z'+1], starts['_'+1], starts['z'+1] = true, true, true, true
	}
	c := uint8(0)
	for b := 1; b < utf8.RuneSelf; b++ {
		if starts[b] {
			c++
		}
		classes[b] = c
	}
	for b := utf8.RuneSelf; b < 256; b++ {
		classes[b] = c + 1
	}
	return c + 1
}

// threads returns the threads of state s and its context flags, decoded
// into scratch that the next call reuses: d.insts, which already holds
// them when s is the state the last transition built or found (a walk
// through new states steps each one right after building it).
func (d *mdfa) threads(s int32) ([]uint32, uint8) {
	if s == d.held {
		return d.insts, d.heldFl
	}
	key := d.keys.key(s >> d.shift)
	d.insts = keyInsts(d.insts[:0], key)
	d.held, d.heldFl = s, key[0]
	return d.insts, key[0]
}

// bytes returns what the cache holds: its states, and the blocks of their
// keys and the table of their rows with the room they keep for more.
func (d *mdfa) bytes() int {
	return d.keys.held + 4*cap(d.trans) + stateBytes*len(d.states) + d.classBytes
}

// flush empties the cache.
func (d *mdfa) flush() {
	if len(d.trans) == 0 {
		d.trans = append(make([]int32, 0, len(d.unknown)*16), d.unknown...)
	}
	d.trans = d.trans[:len(d.unknown)]
	d.states = append(d.states[:0], mstate{})
	d.keys.reset()
	d.starts = [8]int32{}
	d.classBytes = 0
	d.held = 0
	d.flushes++
}

// emptyOps returns the assertions that hold between a position with
// context fl and the rune r after it (r < 0: the end of the text).
func emptyOps(fl uint8, r rune) syntax.EmptyOp {
	var op syntax.EmptyOp
	if fl&ctxBeginText != 0 {
		op |= syntax.EmptyBeginText | syntax.EmptyBeginLine
	}
	if fl&ctxBeginLine != 0 {
		op |= syntax.EmptyBeginLine
	}
	switch {
	case r < 0:
		op |= syntax.EmptyEndText | syntax.EmptyEndLine
	case r == '\n':
		op |= syntax.EmptyEndLine
	}
	if (fl&ctxWord != 0) != isWordRune(r) {
		op |= syntax.EmptyWordBoundary
	} else {
		op |= syntax.EmptyNoWordBoundary
	}
	return op
}

// step runs the threads insts at a position with context fl over the
// rune r (r < 0: the end of the text). It reports whether a match ends at
// the position and leaves the threads after r in d.list.
func (d *mdfa) step(insts []uint32, fl uint8, r rune) bool {
	op := emptyOps(fl, r)
	p := d.prog
	d.cur.clear()
	for _, pc := range insts {
		if !p.thread(pc) {
			d.stack = closure(p, d.stack, &d.cur, pc, op)
		} else if !d.cur.has(pc) {
			d.cur.add(pc)
		}
	}
	if !d.back && fl&ctxMatched == 0 {
		// Unanchored: a thread starts here, with the lowest priority.
		d.stack = closure(d.prog, d.stack, &d.cur, uint32(d.prog.Start), op)
	}
	d.next.clear()
	match := false
	for _, pc := range d.cur.dense {
		if p.kind[pc] == kMatch {
			match = true
			if !d.back {
				break // leftmost-first: the threads after it are cut
			}
			continue
		}
		if c := uint32(r); c < utf8.RuneSelf && !p.consumesASCII(pc, c) || c >= utf8.RuneSelf && !p.consumes(pc, r) {
			continue
		}
		if out := p.Inst[pc].Out; !p.thread(out) {
			d.stack = closure(p, d.stack, &d.next, out, 0)
		} else if !d.next.has(out) {
			d.next.add(out)
		}
	}
	d.list = d.list[:0]
	for _, pc := range d.next.dense {
		if p.kind[pc] != kFollow {
			d.list = append(d.list, pc)
		}
	}
	d.work += len(d.cur.dense) + len(d.next.dense)
	return match
}

// tired reports whether poll says to stop, asking it once the slow path
// has stepped pollBytes threads since it was last asked.
func (d *mdfa) tired() bool {
	if d.work < pollBytes {
		return false
	}
	d.work = 0
	return d.poll != nil && d.poll()
}

// nextCtx returns the context after the rune r from a position with
// context fl; match says whether a match ended before r.
func (d *mdfa) nextCtx(fl uint8, r rune, match bool) uint8 {
	var n uint8
	if r == '\n' {
		n |= ctxBeginLine
	}
	if isWordRune(r) {
		n |= ctxWord
	}
	if !d.back && (match || fl&ctxMatched != 0) {
		n |= ctxMatched
	}
	return n & d.ctxMask
}

// transition computes the transition of state s on rune r, creating the
// target state (which may flush the cache).
func (d *mdfa) transition(s int32, r rune) int32 {
	insts, fl := d.threads(s)
	match := d.step(insts, fl, r)
	nfl := d.nextCtx(fl, r, match)
	var t int32
	if len(d.list) == 0 && (d.back || nfl&ctxMatched != 0) {
		t = tbDead
	} else {
		t = d.intern(d.list, nfl)
		d.insts, d.list = d.list, d.insts // t's threads, decoded
		d.held, d.heldFl = t, nfl
	}
	if match {
		t |= tbMatch
	}
	return t
}

// intern returns the id of the state of threads list with context fl,
// creating it, and flushing the cache first when it is full.
func (d *mdfa) intern(list []uint32, fl uint8) int32 {
	d.key = appendKey(append(d.key[:0], fl), list)
	i, h := d.keys.find(d.key)
	if i != 0 {
		return i << d.shift
	}
	for d.need() > d.limit && d.keys.held >= bigState*len(d.states) && d.growth.take(d.limit) {
		d.limit *= 2 // few but large states: keep them
	}
	if d.need() > d.limit && len(d.states) > 1 {
		// Thrashing: fewer than thrash bytes scanned per state between
		// thrashFlushes flushes in a row (patterns such as
		// (a|b)*a(a|b){12} need exponentially many states). Step
		// uncached from now on. A pattern whose states are large but
		// few (a{1000}$ fills the cache with the states it passes
		// through once, on its way to the one it stays in) is given
		// those flushes to get there.
		if d.now-d.flushed < thrash*len(d.states) {
			if d.quick++; d.quick >= thrashFlushes {
				d.raw = true
			}
		} else {
			d.quick = 0
		}
		d.flushed = d.now
		d.flush()
	}
	i = d.keys.add(d.key, h)
	// The table grows by what the budget has left at most.
	d.trans = append(grown(d.trans, len(d.unknown), cap(d.trans)+max(d.limit-d.bytes(), 0)/4), d.unknown...)
	d.states = append(d.states, mstate{})
	return i << d.shift
}

// need returns what the cache would hold with a new state of key d.key:
// the state itself, a new block for its key if none has room, and its row
// if the table is full (which then grows by what the budget has left).
func (d *mdfa) need() int {
	n := d.bytes() + stateBytes + d.keys.grows(len(d.key))
	if len(d.trans)+len(d.unknown) > cap(d.trans) {
		n += 4 * len(d.unknown)
	}
	return n
}

// start returns the state at a position with context fl, before any
// rune: forward, no thread (one starts at each step); backward, the
// reversed pattern's start. It is kept small to inline: a line with a
// match every few bytes starts a search for each.
func (d *mdfa) start(fl uint8) int32 {
	if id := d.starts[fl&7]; id != 0 {
		return id
	}
	return d.newStart(fl)
}

// newStart builds the start state of start and keeps it by fl (the
// contexts that the pattern does not ask about share one state).
func (d *mdfa) newStart(fl uint8) int32 {
	var list []uint32
	if d.back {
		list = []uint32{uint32(d.prog.Start)}
	}
	id := d.intern(list, fl&d.ctxMask)
	d.starts[fl&7] = id
	return id
}

// endMatch reports whether a match ends at the end of the text in state s.
func (d *mdfa) endMatch(s int32) bool {
	st := &d.states[s>>d.shift]
	if st.end == 0 {
		st.end = 2
		if insts, fl := d.threads(s); d.step(insts, fl, -1) {
			st.end = 1
		}
	}
	return st.end == 1
}

// acceptsWide reports whether a thread of state s (or one starting
// there) may accept a rune outside ASCII or an invalid byte.
func (d *mdfa) acceptsWide(s int32) bool {
	st := &d.states[s>>d.shift]
	if st.wide == 0 {
		st.wide = 2
		insts, fl := d.threads(s)
		d.cur.clear()
		for _, pc := range insts {
			d.stack = closure(d.prog, d.stack, &d.cur, pc, ^syntax.EmptyOp(0))
		}
		if !d.back && fl&ctxMatched == 0 {
			d.stack = closure(d.prog, d.stack, &d.cur, uint32(d.prog.Start), ^syntax.EmptyOp(0))
		}
		for _, pc := range d.cur.dense {
			if wideInst(&d.prog.Inst[pc]) {
				st.wide = 1
				break
			}
		}
	}
	return st.wide == 1
}

// slow computes the transition of state s on the rune r, whose first
// byte in scan order is b, and caches it when it can.
func (d *mdfa) slow(s int32, b byte, r rune) int32 {
	c := -1 // the rune class, when transitions are cached per class
	if word := d.ctxMask&ctxWord != 0; b >= utf8.RuneSelf && (word || d.acceptsWide(s)) {
		// With \b or \B, the runes outside ASCII differ: some are word
		// characters.
		c = runeClass(d.bounds, r, word)
		if st := &d.states[s>>d.shift]; st.class != nil && st.class[c] != 0 {
			return st.class[c]
		}
	}
	f := d.flushes
	t := d.transition(s, r)
	if d.flushes != f {
		return t // s went with the flushed cache
	}
	switch {
	case b < utf8.RuneSelf || c < 0:
		// A byte's class; or no thread takes a rune outside ASCII, and
		// all of them (and every invalid byte) lead to the same state.
		d.trans[int(s)+int(d.classes[b])] = t
	default:
		st := &d.states[s>>d.shift]
		if st.class == nil {
			st.class = make([]int32, classes(d.bounds, d.ctxMask&ctxWord != 0))
			d.classBytes += 4 * len(st.class)
		}
		st.class[c] = t
	}
	return t
}

// ctxBefore is the context of position p of hay for a forward search
// (the character before p), ctxAfter for a backward one (the character
// after p comes first).
func ctxBefore(hay []byte, p int) uint8 {
	if p == 0 {
		return ctxBeginText | ctxBeginLine
	}
	c := hay[p-1]
	if c < utf8.RuneSelf {
		return ctxOf(rune(c))
	}
	r, _ := utf8.DecodeLastRune(hay[:p])
	return ctxOf(r)
}

func ctxAfter(hay []byte, p int) uint8 {
	if p == len(hay) {
		return ctxBeginText | ctxBeginLine
	}
	c := hay[p]
	if c < utf8.RuneSelf {
		return ctxOf(rune(c))
	}
	r, _ := utf8.DecodeRune(hay[p:])
	return ctxOf(r)
}

// ctxOf is the context after the rune r.
func ctxOf(r rune) uint8 {
	var fl uint8
	if r == '\n' {
		fl |= ctxBeginLine
	}
	if isWordRune(r) {
		fl |= ctxWord
	}
	return fl
}

// matchEnd returns where the leftmost-first match of hay that starts at
// or after pos ends, -1 if there is none, or stopped.
func (d *mdfa) matchEnd(hay []byte, pos int) int {
	s := d.start(ctxBefore(hay, pos))
	last := -1
	i := pos
	for {
		lim := min(len(hay), i+pollBytes)
		for i < lim {
			if i, s = d.plain(hay[:lim], i, s); i >= lim {
				break
			}
			b := hay[i]
			t := d.trans[int(s)+int(d.classes[b])]
			w := 1
			if b >= utf8.RuneSelf {
				_, w = utf8.DecodeRune(hay[i:])
			}
			if t&tbMask != 0 {
				if t == tbUnknown {
					if d.raw {
						d.scanned += i - pos
						return d.rawEnd(hay, i, s, last)
					}
					r := rune(b)
					if b >= utf8.RuneSelf {
						r, _ = utf8.DecodeRune(hay[i:])
					}
					d.now = d.scanned + i - pos
					if t = d.slow(s, b, r); d.tired() {
						return stopped
					}
				}
				if t&tbMatch != 0 {
					last = i
				}
				if t&tbDead != 0 {
					d.scanned += i - pos
					return last
				}
			}
			s = t &^ tbMask
			i += w
		}
		if i >= len(hay) {
			break
		}
		if d.poll != nil && d.poll() {
			return stopped
		}
	}
	d.scanned += i - pos
	if d.endMatch(s) {
		last = len(hay)
	}
	return last
}

// plain steps the forward state s over hay from i while the bytes are
// ASCII and their transitions known, to neither a match nor the end. It
// returns where it stopped and the state there: the per-byte loop of
// matchEnd, kept small so that it runs in registers, one table lookup
// per byte.
func (d *mdfa) plain(hay []byte, i int, s int32) (int, int32) {
	trans, classes := d.trans, &d.classes
	si := uint(s) // ids are not negative: no sign extension on the path from one byte to the next
	for ; i < len(hay); i++ {
		b := hay[i]
		t := uint(uint32(trans[si+uint(classes[b])]))
		if t&uint(tbMask) != 0 || b >= utf8.RuneSelf {
			break
		}
		si = t
	}
	return i, int32(si)
}

// rawEnd goes on with matchEnd at hay[i] in state s without the cache.
func (d *mdfa) rawEnd(hay []byte, i int, s int32, last int) int {
	insts, fl := d.threads(s)
	list := append(d.rawList[:0], insts...)
	defer func() { d.rawList = list }()
	for next := i + pollBytes; i < len(hay); {
		if i >= next || d.work >= pollBytes {
			if d.poll != nil && d.poll() {
				return stopped
			}
			next, d.work = i+pollBytes, 0
		}
		r, w := rune(hay[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRune(hay[i:])
		}
		match := d.step(list, fl, r)
		if match {
			last = i
		}
		fl = d.nextCtx(fl, r, match)
		if len(d.list) == 0 && fl&ctxMatched != 0 {
			return last
		}
		list = append(list[:0], d.list...)
		i += w
	}
	if d.step(list, fl, -1) {
		last = len(hay)
	}
	return last
}

// matchStart returns the leftmost start, at or after pos, of a match that
// ends at e, -1 if there is none, or stopped. d runs the reversed pattern
// backward from e.
func (d *mdfa) matchStart(hay []byte, pos, e int) int {
	s := d.start(ctxAfter(hay, e))
	best := -1
	i := e
	for i > pos {
		lim := max(pos, i-pollBytes)
		for i > lim {
			if i, s = d.plainBack(hay[lim:i], s); i == 0 {
				i = lim
				break
			}
			i += lim
			b := hay[i-1]
			t := d.trans[int(s)+int(d.classes[b])]
			w := 1
			if b >= utf8.RuneSelf {
				_, w = utf8.DecodeLastRune(hay[pos:i])
			}
			if t&tbMask != 0 {
				if t == tbUnknown {
					if d.raw {
						d.scanned += e - i
						return d.rawStart(hay, pos, i, s, best)
					}
					r := rune(b)
					if b >= utf8.RuneSelf {
						r, _ = utf8.DecodeLastRune(hay[pos:i])
					}
					d.now = d.scanned + e - i
					if t = d.slow(s, b, r); d.tired() {
						return stopped
					}
				}
				if t&tbMatch != 0 {
					best = i
				}
				if t&tbDead != 0 {
					d.scanned += e - i
					return best
				}
			}
			s = t &^ tbMask
			i -= w
		}
		if i > pos && d.poll != nil && d.poll() {
			return stopped
		}
	}
	d.scanned += e - i
	if d.startsAt(s, hay, pos) {
		best = pos
	}
	return best
}

// plainBack is plain for the backward automaton: it steps s over hay
// from its end and returns how many bytes are left before where it
// stopped, and the state there.
func (d *mdfa) plainBack(hay []byte, s int32) (int, int32) {
	trans, classes := d.trans, &d.classes
	si := uint(s)
	i := len(hay)
	for ; i > 0; i-- {
		b := hay[i-1]
		t := uint(uint32(trans[si+uint(classes[b])]))
		if t&uint(tbMask) != 0 || b >= utf8.RuneSelf {
			break
		}
		si = t
	}
	return i, int32(si)
}

// startsAt reports whether, in the backward state s at pos, a match ends:
// whether the assertions before pos hold for the characters around it.
func (d *mdfa) startsAt(s int32, hay []byte, pos int) bool {
	if pos == 0 {
		return d.endMatch(s)
	}
	r, _ := utf8.DecodeLastRune(hay[:pos])
	if d.raw {
		insts, fl := d.threads(s)
		return d.step(insts, fl, r)
	}
	return d.slow(s, hay[pos-1], r)&tbMatch != 0
}

// rawStart goes on with matchStart at hay[i-1] in state s without the
// cache.
func (d *mdfa) rawStart(hay []byte, pos, i int, s int32, best int) int {
	insts, fl := d.threads(s)
	list := append(d.rawList[:0], insts...)
	defer func() { d.rawList = list }()
	for next := i - pollBytes; i > pos; {
		if i <= next || d.work >= pollBytes {
			if d.poll != nil && d.poll() {
				return stopped
			}
			next, d.work = i-pollBytes, 0
		}
		r, w := rune(hay[i-1]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeLastRune(hay[pos:i])
		}
		if d.step(list, fl, r) {
			best = i
		}
		fl = d.nextCtx(fl, r, false)
		if len(d.list) == 0 {
			return best
		}
		list = append(list[:0], d.list...)
		i -= w
	}
	// At pos: the assertions before it, as startsAt checks them.
	r := rune(-1)
	if pos > 0 {
		r, _ = utf8.DecodeLastRune(hay[:pos])
	}
	if d.step(list, fl, r) {
		best = pos
	}
	return best
}
