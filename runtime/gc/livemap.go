package gc

import (
	"math/bits"
	"sync/atomic"
)

// liveMap records, for one contiguous range of the heap, which words are
// covered by live (marked) objects, one bit per word. After marking,
// prefix sums over each 64-word block give every live object its
// compacted address in O(1): the destination base plus 8 bytes per live
// word below it (Lisp-2 sliding compaction without a forwarding word).
type liveMap struct {
	lo, hi   uintptr // byte offsets covered
	dest     uintptr // where the first live word moves to
	identity bool    // objects stay where they are
	bits     []uint64
	prefix   []uint32 // live words before each block
}

func (lm *liveMap) reset(lo, hi uintptr) {
	lm.lo, lm.hi, lm.dest, lm.identity = lo, hi, lo, false
	n := int((hi-lo)/WordSize+63) / 64
	if cap(lm.bits) < n {
		lm.bits = make([]uint64, n)
		lm.prefix = make([]uint32, n)
	}
	lm.bits = lm.bits[:n]
	lm.prefix = lm.prefix[:n]
	clear(lm.bits)
}

func (lm *liveMap) contains(off uintptr) bool { return off >= lm.lo && off < lm.hi }

// mark sets the bits of the words [off, off+size); shared says other
// markers set bits in the map at the same time, so that the words are
// ORed atomically.
func (lm *liveMap) mark(off, size uintptr, shared bool) {
	i, n := (off-lm.lo)/WordSize, size/WordSize
	if !lm.markWithin(i, n, shared) {
		lm.markSpan(i, n, shared)
	}
}

// markWithin sets the n bits from bit i if they lie in one bitmap word,
// the common case, in one OR.
func (lm *liveMap) markWithin(i, n uintptr, shared bool) bool {
	s := i % 64
	if s+n >= 64 {
		return false
	}
	lm.markWord(i/64, (uint64(1)<<n-1)<<s, shared)
	return true
}

// markSpan sets the n bits from bit i, across bitmap words.
func (lm *liveMap) markSpan(i, n uintptr, shared bool) {
	for n > 0 {
		b, s := i/64, i%64
		k := min(n, 64-s)
		mask := ^uint64(0)
		if k < 64 {
			mask = (uint64(1)<<k - 1) << s
		}
		lm.markWord(b, mask, shared)
		i += k
		n -= k
	}
}

func (lm *liveMap) markWord(b uintptr, mask uint64, shared bool) {
	if shared {
		atomic.OrUint64(&lm.bits[b], mask)
	} else {
		lm.bits[b] |= mask
	}
}

// isLive reports whether the word at off is covered by a live object.
func (lm *liveMap) isLive(off uintptr) bool {
	i := (off - lm.lo) / WordSize
	return lm.bits[i/64]&(1<<(i%64)) != 0
}

// summarize computes the prefix sums and returns the live bytes.
func (lm *liveMap) summarize() uintptr {
	var sum uint32
	for b, w := range lm.bits {
		lm.prefix[b] = sum
		sum += uint32(bits.OnesCount64(w))
	}
	return uintptr(sum) * WordSize
}

// forward returns the compacted offset of the live object at off.
func (lm *liveMap) forward(off uintptr) uintptr {
	i := (off - lm.lo) / WordSize
	b, s := i/64, i%64
	below := bits.OnesCount64(lm.bits[b] & (uint64(1)<<s - 1))
	return lm.dest + (uintptr(lm.prefix[b])+uintptr(below))*WordSize
}

// nextLive returns the offset of the first live word at or after off, or
// hi when there is none.
func (lm *liveMap) nextLive(off uintptr) uintptr {
	if off >= lm.hi {
		return lm.hi
	}
	i := (off - lm.lo) / WordSize
	b := i / 64
	w := lm.bits[b] &^ (uint64(1)<<(i%64) - 1)
	for w == 0 {
		b++
		if int(b) >= len(lm.bits) {
			return lm.hi
		}
		w = lm.bits[b]
	}
	return min(lm.lo+(b*64+uintptr(bits.TrailingZeros64(w)))*WordSize, lm.hi)
}
