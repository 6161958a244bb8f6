package grep

import "hash/maphash"

// The automata's states are lists of instructions of the pattern's
// syntax.Prog (the threads alive at a position). A state is kept once, as
// its key: a byte of context flags, then each instruction as the zigzag
// varint of its difference from the one before (the first from 0). The
// threads of a long pattern's states lie mostly a few instructions apart
// (a chain of 3000 character classes gives states of up to 3000 threads
// one apart), so most take one byte, where a uint32 each took four, and
// the list is decoded from the key only on the slow path, which steps it.

// appendKey appends the instructions of list to key.
func appendKey(key []byte, list []uint32) []byte {
	prev := int64(0)
	for _, pc := range list {
		d := int64(pc) - prev
		prev = int64(pc)
		u := uint64(d<<1) ^ uint64(d>>63) // zigzag: small differences either way take one byte
		for u >= 0x80 {
			key = append(key, byte(u)|0x80)
			u >>= 7
		}
		key = append(key, byte(u))
	}
	return key
}

// keyInsts appends to dst the instructions that appendKey wrote in
// key[1:] (key[0] is the context flags).
func keyInsts(dst []uint32, key []byte) []uint32 {
	prev := int64(0)
	var u uint64
	var shift uint
	for _, c := range key[1:] {
		u |= uint64(c&0x7f) << shift
		if c >= 0x80 {
			shift += 7
			continue
		}
		prev += int64(u>>1) ^ -int64(u&1)
		dst = append(dst, uint32(prev))
		u, shift = 0, 0
	}
	return dst
}

// stateBytes is about what a cached state costs besides its key and its
// row of transitions: its struct, and its entries in stateKeys.
const stateBytes = 96

// Sizes of the blocks that hold the keys: the first is firstBlock bytes,
// each next one as large as those before together, up to lastBlock (or
// the size of a key that needs more).
const (
	firstBlock = 4 << 10
	lastBlock  = 256 << 10
)

// stateKeys holds the keys of an automaton's cached states, packed in
// blocks that a flush empties and keeps for reuse (no state costs an
// allocation of its own, and a flush leaves no garbage), and finds the
// state of a key by its hash. State 0 has no key: ids start at 1.
type stateKeys struct {
	seed   maphash.Seed
	blocks [][]byte         // the keys, one after the other; a key lies in one block
	cur    int              // the block being filled
	held   int              // the bytes of the blocks
	at     []keyAt          // by state, where its key lies
	same   []int32          // by state, the state added before it whose key has the same hash; 0: none
	last   map[uint64]int32 // by key hash, the state added last
}

// keyAt is where a key lies: blocks[block][start:end].
type keyAt struct{ block, start, end int32 }

func newStateKeys() stateKeys {
	return stateKeys{seed: maphash.MakeSeed(), at: []keyAt{{}}, same: []int32{0}, last: map[uint64]int32{}}
}

// reset forgets every key.
func (k *stateKeys) reset() {
	for i := range k.blocks[:min(k.cur+1, len(k.blocks))] {
		k.blocks[i] = k.blocks[i][:0]
	}
	k.cur = 0
	k.at, k.same = k.at[:1], k.same[:1]
	clear(k.last)
}

// key returns the key of state i.
func (k *stateKeys) key(i int32) []byte {
	a := k.at[i]
	return k.blocks[a.block][a.start:a.end]
}

// find returns the state of key (0: none) and the key's hash.
func (k *stateKeys) find(key []byte) (int32, uint64) {
	h := maphash.Bytes(k.seed, key)
	for i := k.last[h]; i != 0; i = k.same[i] {
		if string(k.key(i)) == string(key) {
			return i, h
		}
	}
	return 0, h
}

// grows returns the bytes of the block that adding a key of n bytes
// would allocate: 0 if a block held has room for it.
func (k *stateKeys) grows(n int) int {
	for b := k.cur; b < len(k.blocks); b++ {
		if cap(k.blocks[b])-len(k.blocks[b]) >= n {
			return 0
		}
	}
	return max(n, min(max(k.held, firstBlock), lastBlock))
}

// add adds key, of hash h, which find did not find, as the next state.
func (k *stateKeys) add(key []byte, h uint64) int32 {
	b := k.cur
	for b < len(k.blocks) && cap(k.blocks[b])-len(k.blocks[b]) < len(key) {
		b++ // the block being filled is full, or one kept from before a reset is too small
	}
	if b == len(k.blocks) {
		n := k.grows(len(key))
		k.blocks = append(k.blocks, make([]byte, 0, n))
		k.held += n
	}
	k.cur = b
	start := len(k.blocks[b])
	k.blocks[b] = append(k.blocks[b], key...)
	i := int32(len(k.at))
	k.at = append(k.at, keyAt{int32(b), int32(start), int32(len(k.blocks[b]))})
	k.same = append(k.same, k.last[h])
	k.last[h] = i
	return i
}
