package gc

import (
	"math/bits"
	"sync/atomic"
)

// liveMap records, for one contiguous range of the heap, which words are
// covered by live (marked) objects and where each live object starts.
// Each 64-bit cell describes cellWords heap words: bit k of its low half
// is set when word k is covered by a live object, bit k of its high half
// when a live object starts at word k. Both halves of an object that lies
// within one cell, the common case, are set by one OR, atomic when
// markers share the map, so recording the starts costs marking nothing.
//
// After marking, prefix sums over the cells (computed a region at a time,
// compact.go) give every live object its
// compacted address in O(1): the destination base plus 8 bytes per live
// word below it (Lisp-2 sliding compaction without a forwarding word).
// The start bits let compaction workers find the objects of any range of
// the heap without walking it from its beginning.
type liveMap struct {
	lo, hi   uintptr // byte offsets covered
	dest     uintptr // where the first live word moves to
	identity bool    // objects stay where they are
	cells    []uint64
	prefix   []uint32 // live words before each cell
}

// cellWords is the number of heap words one cell describes; liveHalf
// selects a cell's covered-word bits.
const (
	cellWords = 32
	liveHalf  = 1<<cellWords - 1
)

func (lm *liveMap) reset(lo, hi uintptr) {
	lm.lo, lm.hi, lm.dest, lm.identity = lo, hi, lo, false
	n := int((hi-lo)/WordSize+cellWords-1) / cellWords
	if cap(lm.cells) < n {
		lm.cells = make([]uint64, n)
		lm.prefix = make([]uint32, n)
	}
	lm.cells = lm.cells[:n]
	lm.prefix = lm.prefix[:n]
	clear(lm.cells)
}

func (lm *liveMap) contains(off uintptr) bool { return off >= lm.lo && off < lm.hi }

// mark records a live object at [off, off+size); shared says other
// markers set bits in the map at the same time, so that the cells are
// ORed atomically.
func (lm *liveMap) mark(off, size uintptr, shared bool) {
	i, n := (off-lm.lo)/WordSize, size/WordSize
	if !lm.markWithin(i, n, shared) {
		lm.markSpan(i, n, shared)
	}
}

// markWithin records an object of n words at word i if it lies in one
// cell, in one OR.
func (lm *liveMap) markWithin(i, n uintptr, shared bool) bool {
	s := i % cellWords
	if s+n > cellWords {
		return false
	}
	lm.markCell(i/cellWords, (uint64(1)<<n-1)<<s|uint64(1)<<(cellWords+s), shared)
	return true
}

// markSpan records an object of n words at word i, across cells.
func (lm *liveMap) markSpan(i, n uintptr, shared bool) {
	start := uint64(1) << (cellWords + i%cellWords)
	for n > 0 {
		c, s := i/cellWords, i%cellWords
		k := min(n, cellWords-s)
		lm.markCell(c, (uint64(1)<<k-1)<<s|start, shared)
		start = 0
		i += k
		n -= k
	}
}

func (lm *liveMap) markCell(c uintptr, mask uint64, shared bool) {
	if shared {
		atomic.OrUint64(&lm.cells[c], mask)
	} else {
		lm.cells[c] |= mask
	}
}

// isLive reports whether the word at off is covered by a live object.
func (lm *liveMap) isLive(off uintptr) bool {
	i := (off - lm.lo) / WordSize
	return lm.cells[i/cellWords]&(1<<(i%cellWords)) != 0
}

// isStart reports whether a live object starts at off.
func (lm *liveMap) isStart(off uintptr) bool {
	i := (off - lm.lo) / WordSize
	return lm.cells[i/cellWords]&(1<<(cellWords+i%cellWords)) != 0
}

// countLive returns the live bytes of cells [first, last).
func (lm *liveMap) countLive(first, last uintptr) uintptr {
	var n int
	for _, w := range lm.cells[first:last] {
		n += bits.OnesCount64(w & liveHalf)
	}
	return uintptr(n) * WordSize
}

// fillPrefix sets the prefix sums of cells [first, last), below bytes
// being live before the first of them.
func (lm *liveMap) fillPrefix(first, last, below uintptr) {
	sum := uint32(below / WordSize)
	for c := first; c < last; c++ {
		lm.prefix[c] = sum
		sum += uint32(bits.OnesCount64(lm.cells[c] & liveHalf))
	}
}

// forward returns the compacted offset of the live word at off.
func (lm *liveMap) forward(off uintptr) uintptr {
	i := (off - lm.lo) / WordSize
	c, s := i/cellWords, i%cellWords
	below := bits.OnesCount64(lm.cells[c] & (uint64(1)<<s - 1))
	return lm.dest + (uintptr(lm.prefix[c])+uintptr(below))*WordSize
}

// nextLive returns the offset of the first live word at or after off, or
// hi when there is none.
func (lm *liveMap) nextLive(off uintptr) uintptr {
	return lm.next(off, 0, lm.hi)
}

// nextStart returns the offset of the first live object that starts at
// or after off and before end (at most hi), or end when there is none.
func (lm *liveMap) nextStart(off, end uintptr) uintptr {
	return lm.next(off, cellWords, end)
}

// next finds the first set bit at or after off in the half of each cell
// that begins at bit half, stopping at end.
func (lm *liveMap) next(off uintptr, half uint, end uintptr) uintptr {
	if off >= end {
		return end
	}
	i := (off - lm.lo) / WordSize
	c := i / cellWords
	last := ((end-lm.lo)/WordSize + cellWords - 1) / cellWords
	w := (lm.cells[c] >> half & liveHalf) &^ (uint64(1)<<(i%cellWords) - 1)
	for w == 0 {
		c++
		if c >= last {
			return end
		}
		w = lm.cells[c] >> half & liveHalf
	}
	return min(lm.lo+(c*cellWords+uintptr(bits.TrailingZeros64(w)))*WordSize, end)
}
