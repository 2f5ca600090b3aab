package gc

import (
	"math/bits"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"
)

// Parallel compaction for the global collector: after marking and the
// liveMaps' summary, the references are updated and the objects slid
// down by the collection's workers, region by region.
//
// Tenure and the allocate space are cut into compaction regions of
// regionCells liveMap cells. A region owns the live objects that start in
// it (the last may run on into the next region). Its objects' destinations
// follow from the liveMap alone, so the two passes need no serial walk:
//
//   - adjust: each worker claims regions and rewrites every reference in
//     their objects, noting which tenure objects still hold nursery
//     references (their remembered bits are set again afterwards) and the
//     region's source extent and destination range for the move.
//   - move: regions are claimed in address order. A region's objects slide
//     down into its destination range, which may hold the unmoved objects
//     of lower regions; the region waits until every lower region whose
//     source extent overlaps that range is done (ParallelGC's region
//     compaction orders moves the same way). Within a region objects move
//     in address order, so no source is overwritten before it has moved.
//     Waits cannot deadlock: the lowest unfinished claimed region waits
//     only on lower regions, and those were claimed before it and are done.
//
// With one worker the regions move in address order, which is exactly
// sliding the whole space: one thread gives the same heap as serial
// Lisp-2 compaction. Headers are intact until a region moves; a region
// reads only its own headers while moving.

// regionCells is the compaction region size in liveMap cells: 8192 heap
// words, 64 KB, a few thousand regions for a heap of a few hundred MB.
const regionCells = 256

// compactRegion is one compaction region's plan and state.
type compactRegion struct {
	lm            *liveMap
	lo, hi        uintptr // object starts in [lo, hi) belong to this region
	live, below   uintptr // live bytes in [lo, hi), and in the map before lo
	first, end    uintptr // source extent: first start, end of the last object; equal when empty
	dest, destEnd uintptr // destination range
	remembered    []uintptr
	done          atomic.Bool // moved
	_             [64 - 8]byte
}

// The compactor's parallel passes.
const (
	passSummary = iota // live bytes per region
	passPrefix         // the liveMaps' prefix sums
	passAdjust
	passMove
	compactPasses
)

// compactor is one global collection's compaction state.
type compactor struct {
	h               *Heap
	tenure, nursery *liveMap
	promote         bool // nursery objects slide into tenure
	regions         []compactRegion
	next            atomic.Int64 // next region to claim
	workers         []compactWorker
	passTime        [compactPasses]time.Duration
}

// compactWorker is one worker's time in each pass, without its waits.
type compactWorker struct {
	busy  [compactPasses]time.Duration
	waits int
	_     [64]byte
}

// newCompactor cuts both maps into regions.
func (h *Heap) newCompactor(tenure, nursery *liveMap, n int) *compactor {
	c := &compactor{h: h, tenure: tenure, nursery: nursery, workers: make([]compactWorker, n)}
	for _, lm := range [2]*liveMap{tenure, nursery} {
		span := uintptr(regionCells * cellWords * WordSize)
		for lo := lm.lo; lo < lm.hi; lo += span {
			c.regions = append(c.regions, compactRegion{lm: lm, lo: lo, hi: min(lo+span, lm.hi)})
		}
	}
	return c
}

// cells returns the liveMap cells of region r.
func (r *compactRegion) cells() (first, last uintptr) {
	lm := r.lm
	return (r.lo - lm.lo) / WordSize / cellWords, ((r.hi-lm.lo)/WordSize + cellWords - 1) / cellWords
}

// summarize computes the liveMaps' prefix sums on n workers, a region
// at a time in two passes around a serial sum over the regions, and
// returns the live bytes of tenure and of the nursery.
func (c *compactor) summarize(n int) (tenureLive, nurseryLive uintptr) {
	c.run(n, passSummary, func(_ *compactWorker, i int) {
		r := &c.regions[i]
		r.live = r.lm.countLive(r.cells())
	})
	for i := range c.regions {
		r := &c.regions[i]
		base := &tenureLive
		if r.lm == c.nursery {
			base = &nurseryLive
		}
		r.below, *base = *base, *base+r.live
	}
	c.run(n, passPrefix, func(_ *compactWorker, i int) {
		r := &c.regions[i]
		first, last := r.cells()
		r.lm.fillPrefix(first, last, r.below)
	})
	return tenureLive, nurseryLive
}

// newRef returns where the object r moves to.
func (c *compactor) newRef(r Ref) Ref {
	if off := uintptr(r) << 3; c.tenure.contains(off) {
		return Ref(c.tenure.forward(off) >> 3)
	}
	return c.newNurseryRef(r)
}

// newNurseryRef is newRef for a reference outside tenure.
func (c *compactor) newNurseryRef(r Ref) Ref {
	if off := uintptr(r) << 3; !c.nursery.identity && c.nursery.contains(off) {
		return Ref(c.nursery.forward(off) >> 3)
	}
	return r
}

// run runs f on n workers, each claiming regions until none is left, and
// times the pass.
func (c *compactor) run(n, pass int, f func(w *compactWorker, i int)) {
	h := c.h
	start := time.Now()
	c.next.Store(0)
	h.ctl = newController(h, n)
	defer func() { h.ctl = nil }()
	h.runWorkers(n, func(id int) {
		w := &c.workers[id]
		t := time.Now()
		defer func() { w.busy[pass] += time.Since(t) }()
		for {
			i := c.next.Add(1) - 1
			if i >= int64(len(c.regions)) {
				return
			}
			f(w, int(i))
		}
	})
	c.passTime[pass] = time.Since(start)
}

// adjust rewrites the references of every live object.
func (c *compactor) adjust(n int) {
	c.run(n, passAdjust, func(_ *compactWorker, i int) { c.adjustRegion(&c.regions[i]) })
}

// adjustRegion rewrites the references of region r's objects and plans
// its move. It finds the objects by their start bits, a cell at a time.
func (c *compactor) adjustRegion(r *compactRegion) {
	h, lm, t := c.h, r.lm, c.tenure
	keepsYoung := !c.promote && lm == c.tenure
	r.first, r.end = r.hi, r.hi
	settled := uint64(hdrMarked | hdrRemembered)
	if lm == c.tenure {
		settled |= hdrAgeMask
	}
	var it slots
	first, last := r.cells()
	for ci := first; ci < last; ci++ {
		for starts := lm.cells[ci] >> cellWords; starts != 0; starts &= starts - 1 {
			off := lm.lo + (ci*cellWords+uintptr(bits.TrailingZeros64(starts)))*WordSize
			ref := Ref(off >> 3)
			hp := h.word(ref, 0)
			hdr := *hp
			m := Meta(uint32(hdr))
			r.first = min(r.first, off)
			if lm.identity || lm.forward(off) == off {
				// The object stays: clear its header now, while it is in
				// the cache; moving then has nothing to do for it (in a
				// compact region, nothing at all).
				*hp = hdr &^ settled
			}
			if size, ok := h.leafSize(ref, m); ok {
				r.end = off + size
				continue
			}
			r.end = off + it.start(h, ref, m)
			young := false
			for slot, v, ok := it.firstRef(); ok; slot, v, ok = it.next(h) {
				if slot != classSlot { // ClassMetas are updated with the class table
					// newRef, with tenure's case written out (it is over
					// the inlining budget).
					nv := v
					if off := uintptr(v) << 3; t.contains(off) {
						nv = Ref(t.forward(off) >> 3)
					} else {
						nv = c.newNurseryRef(v)
					}
					if nv != v {
						h.storeAt(slot, FromRef(nv))
						v = nv
					}
				}
				young = young || keepsYoung && h.isYoung(v)
			}
			if young {
				r.remembered = append(r.remembered, off)
			}
		}
	}
	if r.first == r.hi {
		r.first, r.end = r.lo, r.lo // empty
	}
	r.dest, r.destEnd = r.first, r.end
	if r.first < r.end && !lm.identity {
		r.dest = lm.forward(r.first)
		r.destEnd = lm.forward(r.end-WordSize) + WordSize
	}
}

// live reports whether marking found the object r live. (Headers lose
// their marks while references are adjusted.)
func (c *compactor) live(r Ref) bool {
	off := uintptr(r) << 3
	for _, lm := range [2]*liveMap{c.tenure, c.nursery} {
		if lm.contains(off) {
			return lm.isStart(off)
		}
	}
	return false
}

// move slides every region that moves.
func (c *compactor) move(n int) {
	c.run(n, passMove, func(w *compactWorker, i int) {
		r := &c.regions[i]
		if r.lm.identity {
			return // fillDead turns its garbage into holes
		}
		c.sources(i, func(j int) { c.await(w, &c.regions[j]) })
		c.moveRegion(r)
		r.done.Store(true)
	})
}

// sources calls f with every lower region holding objects in region i's
// destination range: those must have moved before region i does.
func (c *compactor) sources(i int, f func(j int)) {
	r := &c.regions[i]
	if r.first == r.end {
		return
	}
	for j := i - 1; j >= 0; j-- {
		t := &c.regions[j]
		if t.lm.identity || t.first == t.end {
			continue
		}
		if t.end <= r.dest {
			return // source extents only fall from here down
		}
		if t.first < r.destEnd {
			f(j)
		}
	}
}

// await waits until region t has moved.
func (c *compactor) await(w *compactWorker, t *compactRegion) {
	if t.done.Load() {
		return
	}
	start := time.Now()
	w.waits++
	for spins := 0; !t.done.Load(); spins++ {
		if spins%64 == 63 {
			runtime.Gosched()
		} else {
			spinPause()
		}
	}
	w.busy[passMove] -= time.Since(start)
}

// moveRegion slides region r's objects to their destinations, clearing
// marks, remembered bits and, for objects that reach tenure, ages (as
// adjustRegion did for those that stay).
func (c *compactor) moveRegion(r *compactRegion) {
	h, lm := c.h, r.lm
	if r.dest == r.first && r.destEnd-r.dest == r.end-r.first {
		return // compact already: settled while adjusting
	}
	to := r.dest
	for off := r.first; off < r.end; {
		size := h.sizeAt(off)
		if to != off { // objects that stay were settled
			hdr := *h.word(Ref(off>>3), 0) &^ (hdrMarked | hdrRemembered)
			copy(unsafe.Slice((*byte)(unsafe.Add(h.base, to)), size), unsafe.Slice((*byte)(unsafe.Add(h.base, off)), size))
			if to < h.nurseryLo {
				hdr &^= hdrAgeMask
			}
			*h.word(Ref(to>>3), 0) = hdr
		}
		to += size
		if off += size; off < r.end && !lm.isStart(off) {
			off = lm.nextStart(off, r.end)
		}
	}
}

// remembered returns the new offsets of the tenure objects that still
// hold nursery references, in address order.
func (c *compactor) remembered() []Ref {
	var refs []Ref
	for i := range c.regions {
		for _, off := range c.regions[i].remembered {
			refs = append(refs, Ref(c.tenure.forward(off)>>3))
		}
	}
	return refs
}

// parallel returns the time the passes took, and idle the time the
// workers spent in them without work: starting late, waiting on lower
// regions, or done before the last worker.
func (c *compactor) parallel() (took, idle time.Duration, waits int) {
	for p, d := range c.passTime {
		took += d
		for _, w := range c.workers {
			idle += max(d-w.busy[p], 0)
		}
	}
	for _, w := range c.workers {
		waits += w.waits
	}
	return took, idle, waits
}
