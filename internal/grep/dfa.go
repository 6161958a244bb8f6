package grep

import (
	"bytes"
	"math"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A lazy DFA that answers one question fast: which is the next line of a
// buffer that contains a match? Go's regexp has no DFA; on patterns
// without a usable literal it runs at 25-50 MB/s, against ripgrep's
// ~0.5 GB/s. This automaton runs over the whole buffer with one table
// lookup per byte.
//
// States are sets of instructions of the pattern's syntax.Prog (the
// threads alive at a position), built on demand and cached. Only the
// existence of a match is decided, so thread priority is ignored and
// the sets are sorted into canonical keys; the exact spans of a matching
// line are then computed by regexp on that line alone.
//
// Empty-width assertions are resolved the way RE2 does it: an assertion
// whose condition is not yet known (a word boundary depends on the next
// character, an end of line on the next byte) stays in the set and is
// re-examined when the next character is seen. A state also remembers
// whether it is at a line start and whether the previous character was a
// word character. A '\n' (or "\r\n") ends the line: the state's end-of-line
// closure decides whether the line matched, and the next line starts
// again from the start state. The search is unanchored: the start
// instruction is added to every new set.
//
// State ids are premultiplied (index*256, the row offset in the table).
// The per-byte loop (run) is bound by the latency of one dependent load
// per byte, so a self-loop (a state that most bytes keep, such as the
// start state of [A-Z]... on lower-case text) switches to a skip over the
// bytes that keep the state, whose tests do not depend on each other. On
// amd64 the loop is in assembly: the skip tests 32 bytes at a time, and a
// DFA of fewer than 16 states steps by one byte shuffle per byte over a
// table of next-state indexes (lanes), a dependency of one cycle. A
// state remembers the previous character's word-ness only when the
// pattern has \b or \B.
//
// ASCII bytes step through a 256-wide table per state; other runes are
// decoded (invalid UTF-8 as U+FFFD, one byte at a time, as regexp does),
// mapped to their class (the runes between two boundaries of the
// pattern's rune ranges behave alike, and, when the pattern has \b or \B,
// are all word characters or none: runeClass) and cached per state and
// class. Without \b and \B, a state in which no thread can take a
// non-ASCII rune sends all of them to one state, so its bytes >= 0x80 go
// through the byte table. A '\r' is never cached, because whether it
// ends a line depends on the byte after it. When the cache would hold
// more than maxStates states or dfaCacheBytes bytes (its table, its
// states' keys: see statekey.go) it is flushed and rebuilt from the
// current state.
//
// A state much larger than the start state (bigLine bytes more of key:
// about as many threads) is not built: the automaton leaves the line to
// the match automata (tLeave), which find whether it matches, and which
// count or locate its matches anyway once it does. Patterns such as
// [ab]{1000} pass through a thousand states of up to a thousand threads
// before each match, and building each twice, once here and once in the
// forward match automaton, cost twice the time.

// Special transition values. Real states have ids >= 256: a state's id
// is its index times 256, the offset of its row in the transition table,
// which saves a shift in the scan loop.
const (
	tUnknown int32 = 0
	tMatch   int32 = -1
	tDead    int32 = -2
	tLeave   int32 = -3 // a big state: the line is left to the match automata
)

// The bounds of the line DFA's cache: ordinary patterns reach maxStates
// first (a state's row of transitions takes 1 KiB); those of large states
// (a chain of 3000 character classes) reach dfaCacheBytes and thrash it,
// and the match automata, which may hold more, find the matching lines.
const (
	maxStates     = 1024
	dfaCacheBytes = 2 << 20
)

// bigLine is how many bytes a state's key may exceed the start state's
// before the line is left to the match automata: about as many threads,
// which each step of a new state follows. The start state's own size
// does not count: a large alternation starts every thread at every
// position, in states that are all about as large, and few.
const bigLine = 256

// dstate is a cached state; its key (the flags dBegin and dWord, then the
// Rune*, Match and pending EmptyWidth instructions, sorted) is in
// stateKeys, under the same index.
type dstate struct {
	eol   int8    // 0 unknown, 1 a match ends at the line end, 2 not
	wide  int8    // 0 unknown, 1 some instruction may accept a non-ASCII rune, 2 none
	class []int32 // transition per rune class (non-ASCII); nil until needed
}

// Flags of a line DFA state, in its key's first byte.
const (
	dBegin = 1 << iota // at the start of a line
	dWord              // the previous character is a word character
)

type dfa struct {
	prog       *program
	trans      []int32 // 256 entries per state; row 0 unused
	states     []dstate
	keys       stateKeys // the states' keys, by index
	start      int32
	stay       []bool         // without SIMD, parallel to trans: the transition is a self-loop
	skip       []byte         // with SIMD, skipBytes per state: the nibble tables of the bytes that keep it
	lanes      [256][16]uint8 // by byte, then state index below 16: the next state's index; 0: not a cached state
	bounds     []rune         // rune class bounds (runeBounds)
	hasWord    bool           // the pattern has \b or \B: states track word characters
	startMatch bool           // the empty string matches at a line start: every line matches
	startDead  bool           // nothing can ever match
	flushes    int
	held       int         // the states the cache held when it was last flushed
	classBytes int         // bytes of the states' rows of rune class transitions
	limit      int         // most states cached (maxStates; tests lower it)
	byteLimit  int         // most bytes cached: dfaCacheBytes
	failed     bool        // the cache thrashed: the caller must use the match automata instead
	leave      int         // how many bytes a new state's key may exceed the start state's before the line is left (bigLine; tests lower it); -1: never (keepLines)
	big        int         // the key size from which a new state is left to the match automata; 0: none is
	left       bool        // scan returned where it left the line to the match automata
	work       int         // instructions stepped since the last poll
	scanned    int         // bytes scanned, for the thrashing check
	lastFlush  int         // scanned at the last flush
	poll       func() bool // asked every pollBytes bytes scanned and instructions stepped whether to stop

	// scratch
	stack []uint32
	cur   instSet
	next  instSet
	list  []uint32
	insts []uint32 // the instructions of a state, decoded by threads
	key   []byte
}

func newDFA(prog *program) *dfa {
	n := len(prog.Inst)
	d := &dfa{
		prog:      prog,
		bounds:    prog.bounds,
		limit:     maxStates,
		byteLimit: dfaCacheBytes,
		leave:     bigLine,
		keys:      newStateKeys(),
		cur:       newInstSet(n),
		next:      newInstSet(n),
	}
	for _, in := range prog.Inst {
		if in.Op == syntax.InstEmptyWidth && syntax.EmptyOp(in.Arg)&(syntax.EmptyWordBoundary|syntax.EmptyNoWordBoundary) != 0 {
			d.hasWord = true
		}
	}
	d.reset()
	return d
}

// reset empties the cache and rebuilds the start state.
func (d *dfa) reset() {
	d.trans = make([]int32, 0, 256*16)
	d.stay, d.skip = nil, nil
	d.grow()
	d.lanes = [256][16]uint8{}
	d.states = make([]dstate, 1, 16)
	d.keys.reset()
	d.classBytes = 0
	d.cur.clear()
	d.closure(&d.cur, uint32(d.prog.Start), syntax.EmptyBeginLine|syntax.EmptyBeginText)
	d.big = 0 // the start state is built, whatever its size
	t := d.add(&d.cur, true, false)
	if d.leave >= 0 {
		d.big = len(d.key) + d.leave
	}
	switch t {
	case tMatch:
		d.startMatch = true
	case tDead:
		d.startDead = true
	default:
		d.start = t
	}
}

// keepLines makes the automaton build every state, big ones too, from now
// on: it no longer leaves lines to the match automata (which went
// uncached, slower than this automaton's cache).
func (d *dfa) keepLines() {
	d.leave = -1
	d.reset()
}

// closure adds pc and everything reachable from it through instructions
// that consume nothing, following assertions satisfied by flags.
func (d *dfa) closure(set *instSet, pc uint32, flags syntax.EmptyOp) {
	d.stack = closure(d.prog, d.stack, set, pc, flags)
}

// closure adds pc to set, then everything reachable from it through
// instructions that consume nothing, following the assertions that flags
// satisfy, in the order of Go's regexp: depth first, an Alt's Out before
// its Arg, each instruction once. It returns stack, its scratch, for
// reuse.
func closure(prog *program, stack []uint32, set *instSet, pc uint32, flags syntax.EmptyOp) []uint32 {
	stack = append(stack[:0], pc)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if set.has(pc) {
			continue
		}
		set.add(pc)
		in := &prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, in.Arg, in.Out)
		case syntax.InstNop, syntax.InstCapture:
			stack = append(stack, in.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(in.Arg)&^flags == 0 {
				stack = append(stack, in.Out)
			}
		}
	}
	return stack
}

// add turns set into a state (looked up or created) and
// returns its id, tMatch if the set contains a match, tDead if it is
// empty, or tLeave if it is new and big. begin says whether the set is at
// a line start, word whether the previous character is a word character.
func (d *dfa) add(set *instSet, begin, word bool) int32 {
	word = word && d.hasWord
	d.list = d.list[:0]
	for _, pc := range set.dense {
		in := &d.prog.Inst[pc]
		switch in.Op {
		case syntax.InstMatch:
			return tMatch
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			d.list = append(d.list, pc)
		case syntax.InstEmptyWidth:
			op := syntax.EmptyOp(in.Arg)
			if !begin && op&(syntax.EmptyBeginLine|syntax.EmptyBeginText) != 0 {
				continue // can never hold again on this line
			}
			if set.has(in.Out) {
				continue // followed, or its continuation is there anyway
			}
			d.list = append(d.list, pc)
		}
	}
	if len(d.list) == 0 {
		return tDead
	}
	slices.Sort(d.list)
	var fl byte
	if begin {
		fl |= dBegin
	}
	if word {
		fl |= dWord
	}
	d.key = appendKey(append(d.key[:0], fl), d.list)
	i, h := d.keys.find(d.key)
	if i != 0 {
		return i << 8
	}
	if d.big > 0 && len(d.key) >= d.big {
		return tLeave
	}
	if len(d.states) > 2 && (len(d.states) >= d.limit || d.need() > d.byteLimit) {
		// Full (with more than the start state): flush, and make the
		// state in the new cache; set is d.next, which reset leaves
		// alone.
		d.held = len(d.states)
		d.flushes++
		d.reset()
		return d.add(set, begin, word)
	}
	i = d.keys.add(d.key, h)
	d.states = append(d.states, dstate{})
	d.grow()
	return i << 8
}

// threads returns the instructions of state s and its flags, decoded
// into scratch that the next call reuses.
func (d *dfa) threads(s int32) ([]uint32, byte) {
	key := d.keys.key(s >> 8)
	d.insts = keyInsts(d.insts[:0], key)
	return d.insts, key[0]
}

// bytes returns what the cache holds: its states, and the blocks of their
// keys and its tables with the room they keep for more.
func (d *dfa) bytes() int {
	return d.keys.held + 4*cap(d.trans) + cap(d.skip) + cap(d.stay) + stateBytes*len(d.states) + d.classBytes
}

// need returns what the cache would hold with a new state of key d.key:
// the state itself, a new block for its key if none has room, and the
// tables doubled if they are full.
func (d *dfa) need() int {
	n := d.bytes() + stateBytes + d.keys.grows(len(d.key))
	if len(d.trans) == cap(d.trans) {
		n += 4*cap(d.trans) + cap(d.skip) + cap(d.stay)
	}
	return n
}

// step computes the transition of state s on rune r (not '\n').
func (d *dfa) step(s int32, r rune) int32 {
	insts, fl := d.threads(s)
	isWord := isWordRune(r)
	var flags syntax.EmptyOp
	if fl&dBegin != 0 {
		flags |= syntax.EmptyBeginLine | syntax.EmptyBeginText
	}
	if (fl&dWord != 0) != isWord {
		flags |= syntax.EmptyWordBoundary
	} else {
		flags |= syntax.EmptyNoWordBoundary
	}
	p := d.prog
	d.cur.clear()
	for _, pc := range insts {
		if !p.thread(pc) {
			d.closure(&d.cur, pc, flags)
		} else if !d.cur.has(pc) {
			d.cur.add(pc)
		}
	}
	d.next.clear()
	for _, pc := range d.cur.dense {
		if p.kind[pc] == kMatch {
			return tMatch
		}
		if c := uint32(r); c < utf8.RuneSelf && !p.consumesASCII(pc, c) || c >= utf8.RuneSelf && !p.consumes(pc, r) {
			continue
		}
		if out := p.Inst[pc].Out; !p.thread(out) {
			d.closure(&d.next, out, 0)
		} else if !d.next.has(out) {
			d.next.add(out)
		}
	}
	d.closure(&d.next, uint32(d.prog.Start), 0)
	d.work += len(d.cur.dense) + len(d.next.dense)
	return d.add(&d.next, false, isWord)
}

// eolMatch reports whether a match ends at the end of the line in state s.
func (d *dfa) eolMatch(s int32) bool {
	st := &d.states[s>>8]
	if st.eol == 0 {
		insts, fl := d.threads(s)
		flags := syntax.EmptyEndLine | syntax.EmptyEndText
		if fl&dBegin != 0 {
			flags |= syntax.EmptyBeginLine | syntax.EmptyBeginText
		}
		if fl&dWord != 0 {
			flags |= syntax.EmptyWordBoundary
		} else {
			flags |= syntax.EmptyNoWordBoundary
		}
		d.cur.clear()
		for _, pc := range insts {
			d.closure(&d.cur, pc, flags)
		}
		st.eol = 2
		for _, pc := range d.cur.dense {
			if d.prog.Inst[pc].Op == syntax.InstMatch {
				st.eol = 1
				break
			}
		}
	}
	return st.eol == 1
}

// acceptsWide reports whether a thread of state s may accept a rune
// outside ASCII (or an invalid byte, read as U+FFFD).
func (d *dfa) acceptsWide(s int32) bool {
	st := &d.states[s>>8]
	if st.wide == 0 {
		st.wide = 2
		insts, _ := d.threads(s)
		d.cur.clear()
		for _, pc := range insts {
			d.closure(&d.cur, pc, ^syntax.EmptyOp(0)) // every assertion: a superset
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

// wideInst reports whether in may consume a rune outside ASCII.
func wideInst(in *syntax.Inst) bool {
	switch in.Op {
	case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		return true
	case syntax.InstRune1:
		return in.Rune[0] >= utf8.RuneSelf
	case syntax.InstRune:
		if len(in.Rune) == 1 && syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
			// k and s fold to U+212A KELVIN SIGN and U+017F LONG S.
			r := in.Rune[0]
			return r >= utf8.RuneSelf || strings.ContainsRune("kKsS", r)
		}
		for i := 1; i < len(in.Rune); i += 2 {
			if in.Rune[i] >= utf8.RuneSelf {
				return true
			}
		}
	}
	return false
}

// grow adds the rows of a new state.
func (d *dfa) grow() {
	d.trans = append(grown(d.trans, 256, math.MaxInt), make([]int32, 256)...)
	if hasSIMD {
		d.skip = append(grown(d.skip, skipBytes, math.MaxInt), make([]byte, skipBytes)...)
	} else {
		d.stay = append(grown(d.stay, 256, math.MaxInt), make([]bool, 256)...)
	}
}

// grown returns s with room for n more elements: when it must grow, its
// capacity doubles, but to no more than most (and at least len(s)+n).
func grown[E any](s []E, n, most int) []E {
	if len(s)+n <= cap(s) {
		return s
	}
	return append(make([]E, 0, max(min(2*cap(s), most), len(s)+n)), s...)
}

// cache records t as the transition of state s on the bytes [lo, hi).
func (d *dfa) cache(s int32, lo, hi int, t int32) {
	for b := lo; b < hi; b++ {
		d.trans[int(s)|b] = t
		if s < 16<<8 && t > 0 && t < 16<<8 {
			d.lanes[b][s>>8] = uint8(t >> 8)
		}
		if !hasSIMD {
			d.stay[int(s)|b] = t == s
		}
	}
	if hasSIMD && t == s {
		d.buildSkip(s)
	}
}

// slow computes the transition of s at data[i] and returns it with the
// number of bytes it consumes, caching what can be cached.
func (d *dfa) slow(s int32, data []byte, i, to int) (int32, int) {
	b := data[i]
	switch {
	case b == '\n':
		t := d.start
		if d.eolMatch(s) {
			t = tMatch
		}
		d.cache(s, int(b), int(b)+1, t)
		return t, 1
	case b == '\r':
		if i+1 < to && data[i+1] == '\n' {
			if d.eolMatch(s) {
				return tMatch, 2
			}
			return d.start, 2
		}
		return d.step(s, '\r'), 1
	case b < utf8.RuneSelf:
		f := d.flushes
		t := d.step(s, rune(b))
		if d.flushes == f {
			d.cache(s, int(b), int(b)+1, t)
		}
		return t, 1
	}
	if !d.hasWord && !d.acceptsWide(s) {
		// No thread can take a non-ASCII rune: every one (and every
		// invalid byte) leads to the same state (unless the pattern has
		// \b or \B: some are word characters). If that state cannot take
		// one either, the rune's bytes may be stepped one at a time
		// through the byte table.
		f := d.flushes
		t := d.step(s, utf8.RuneError)
		if d.flushes == f && (t <= 0 || !d.acceptsWide(t)) {
			d.cache(s, utf8.RuneSelf, 256, t)
			return t, 1
		}
		_, w := utf8.DecodeRune(data[i:to])
		return t, w
	}
	r, w := utf8.DecodeRune(data[i:to])
	c := runeClass(d.bounds, r, d.hasWord)
	if st := &d.states[s>>8]; st.class != nil && st.class[c] != tUnknown {
		return st.class[c], w
	}
	f := d.flushes
	t := d.step(s, r)
	if d.flushes == f {
		st := &d.states[s>>8]
		if st.class == nil {
			st.class = make([]int32, classes(d.bounds, d.hasWord))
			d.classBytes += 4 * len(st.class)
		}
		st.class[c] = t
	}
	return t, w
}

// runeClass returns the class of the rune r for the automata's cache of
// transitions by class: the number of bounds <= r, and when word matters
// (the pattern has \b or \B), that times two plus whether r is a word
// character, since the runes of one class of bounds may differ there.
func runeClass(bounds []rune, r rune, word bool) int {
	c, _ := slices.BinarySearch(bounds, r+1) // the number of bounds <= r
	if word {
		c *= 2
		if isWordRune(r) {
			c++
		}
	}
	return c
}

// classes is the number of rune classes (runeClass).
func classes(bounds []rune, word bool) int {
	if word {
		return 2 * (len(bounds) + 1)
	}
	return len(bounds) + 1
}

// runeBounds returns the sorted starts of the rune classes of prog: two
// runes between consecutive bounds are accepted by the same instructions.
func runeBounds(prog *syntax.Prog) []rune {
	b := []rune{utf8.RuneSelf, '\n', '\n' + 1}
	for i := range prog.Inst {
		in := &prog.Inst[i]
		switch in.Op {
		case syntax.InstRune1:
			b = append(b, in.Rune[0], in.Rune[0]+1)
		case syntax.InstRune:
			if len(in.Rune) == 1 && syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
				r0 := in.Rune[0]
				for r := unicode.SimpleFold(r0); ; r = unicode.SimpleFold(r) {
					b = append(b, r, r+1)
					if r == r0 {
						break
					}
				}
				continue
			}
			for k := 0; k+1 < len(in.Rune); k += 2 {
				b = append(b, in.Rune[k], in.Rune[k+1]+1)
			}
			if len(in.Rune) == 1 {
				b = append(b, in.Rune[0], in.Rune[0]+1)
			}
		}
	}
	slices.Sort(b)
	return slices.Compact(b)
}

// scanFailed is returned by scan when the automaton gave up.
const scanFailed = -2

// thrash is the least number of bytes per cached state that the scan
// must advance between two cache flushes; below it the DFA gives up
// (patterns such as (a|b)*a(a|b){12} need exponentially many states),
// like RE2's DFA, and the caller falls back to the match automata, which
// step uncached when they thrash too.
const thrash = 16

// scan returns the offset of a byte in the first line of data[from:to]
// that contains a match (the line's '\n' when the match ends at the line
// end), -1, scanFailed, or stopped (poll said so). From a byte where the
// automaton left the line to the match automata (a big state, see
// bigLine) it returns that byte's offset with d.left set: the line may
// match or not. from must be a line start; to is len(data) or an offset
// just after a '\n'.
func (d *dfa) scan(data []byte, from, to int) int {
	d.left = false
	if d.startDead || from >= to {
		return -1
	}
	if d.failed {
		return scanFailed
	}
	if d.startMatch {
		return from
	}
	data = data[:to]
	s := d.start
	i := from
	for i < len(data) {
		lim := min(len(data), i+pollBytes)
		for i < lim {
			if i, s = d.run(data[:lim], i, s); i >= lim {
				break
			}
			t := d.trans[int(s)|int(data[i])]
			w := 1
			if t == tUnknown {
				f := d.flushes
				t, w = d.slow(s, data, i, to)
				if d.flushes != f {
					at := d.scanned + i - from
					if at-d.lastFlush < thrash*d.held {
						// Given up for good: the cache goes too.
						d.failed = true
						d.trans, d.skip, d.stay, d.states, d.keys = nil, nil, nil, nil, stateKeys{}
						return scanFailed
					}
					d.lastFlush = at
				}
				if d.work >= pollBytes {
					d.work = 0
					if d.poll != nil && d.poll() {
						d.scanned += i - from
						return stopped
					}
				}
			}
			switch t {
			case tMatch:
				d.scanned += i - from
				return i
			case tDead:
				// Nothing can match on the rest of this line.
				j := bytes.IndexByte(data[i:], '\n')
				if j < 0 {
					d.scanned += to - from
					return -1
				}
				i += j + 1
				s = d.start
			case tLeave:
				d.left = true
				d.scanned += i - from
				return i
			default:
				i += w
				s = t
			}
		}
		if i < len(data) && d.poll != nil && d.poll() {
			d.scanned += i - from
			return stopped
		}
	}
	d.scanned += i - from
	if s != d.start && d.eolMatch(s) {
		return to - 1
	}
	return -1
}

// run steps the state s over data from i while the transitions are
// cached states (neither a match nor a dead state) and returns where it
// stopped and the state there: the per-byte loop of scan. On amd64 it
// runs in assembly: dfaRunLanes while the DFA has fewer than 16 states,
// dfaRun beyond.
func (d *dfa) run(data []byte, i int, s int32) (int, int32) {
	if !hasSIMD {
		return d.runPortable(data, i, s)
	}
	var si uint
	if len(d.states) <= 16 {
		i, si = dfaRunLanes(data, i, uint(s), d.trans, d.skip, &d.lanes)
	} else {
		i, si = dfaRun(data, i, uint(s), d.trans, d.skip)
	}
	return i, int32(si)
}

// runPortable is run in Go, kept small so that it runs in registers: one
// dependent table load per byte, and after a self-loop a skip over the
// bytes that keep the state, whose tests do not depend on each other.
func (d *dfa) runPortable(data []byte, i int, s int32) (int, int32) {
	trans, stay := d.trans, d.stay
	si := uint(s) // ids are not negative: no sign extension from one byte to the next
	for i < len(data) {
		t := uint(trans[si|uint(data[i])])
		if int(t) <= 0 {
			break
		}
		i++
		if t == si {
			row := (*[256]bool)(stay[si:])
			for i < len(data) && row[data[i]] {
				i++
			}
		}
		si = t
	}
	return i, int32(si)
}

// skipBytes is the size of a state's skip tables: a byte b keeps the
// state if tab[b&15] & tab[16+b>>4] != 0 (each of up to 8 bits stands for
// a set of high nibbles that share their low nibbles), a test that
// dfaRun makes 32 bytes at a time with two byte shuffles.
const skipBytes = 32

// buildSkip fills the skip tables of state s from its cached
// transitions. When the bytes that keep s need more than 8 distinct sets
// of low nibbles, the high nibbles past the eighth are left out: the
// tables hold a subset of those bytes, still exact for what they skip.
func (d *dfa) buildSkip(s int32) {
	var lows [16]uint16 // by high nibble, the low nibbles of the bytes that keep s
	for b, t := range d.trans[s : s+256] {
		if t == s {
			lows[b>>4] |= 1 << (b & 15)
		}
	}
	tab := (*[skipBytes]byte)(d.skip[s>>3:])
	*tab = [skipBytes]byte{}
	var sets [8]uint16
	n := 0
	for h, l := range lows {
		if l == 0 {
			continue
		}
		k := slices.Index(sets[:n], l)
		if k < 0 {
			if n == len(sets) {
				continue
			}
			k, sets[n] = n, l
			n++
		}
		tab[16+h] = 1 << k
		for c := range 16 {
			if l>>c&1 != 0 {
				tab[c] |= 1 << k
			}
		}
	}
}

// instSet is a set of instructions (small integers) in the order they
// were added, with O(1) clear: an instruction is in the set when its mark
// is the set's generation, which clear advances (one load to test, where
// a Briggs-Torczon sparse set takes two that depend on each other).
type instSet struct {
	mark  []uint32 // by instruction, the generation in which it was last added
	gen   uint32
	dense []uint32 // the instructions, in the order added
}

func newInstSet(n int) instSet {
	return instSet{mark: make([]uint32, n), gen: 1, dense: make([]uint32, 0, n)}
}

func (s *instSet) has(x uint32) bool { return s.mark[x] == s.gen }

// add adds x, which the set does not hold.
func (s *instSet) add(x uint32) {
	s.mark[x] = s.gen
	s.dense = append(s.dense, x)
}

func (s *instSet) clear() {
	s.dense = s.dense[:0]
	if s.gen++; s.gen == 0 { // wrapped around: marks of 0 are not of this generation
		clear(s.mark)
		s.gen = 1
	}
}
