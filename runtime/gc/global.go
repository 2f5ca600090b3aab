package gc

import (
	"time"
	"unsafe"
)

// The global collector: mark the whole heap, then slide every live object
// down to the bottom of tenure (Lisp-2 compaction, forwarding computed from
// the live-word bitmaps in livemap.go), so promotion stays a pointer bump.
//
//  1. Mark from the roots through tenure and the allocate space, on the
//     collection's GC workers (mark.go). Marking sets the header's marked
//     bit and the object's words in a liveMap.
//  2. Plan: live tenure words slide to tenureLo; live nursery objects slide
//     right behind them when tenure can hold them all (the nursery is then
//     empty), otherwise they stay where they are.
//  3. Update every reference: roots, the slots of live objects, and the
//     class-object field of every live ClassMeta.
//  4. Move, in address order (destinations never pass sources), clearing
//     marks and ages; rebuild the remembered set if the nursery kept objects.
//  5. Unload classes whose class object was not marked.
//
// Headers stay intact until step 4, so sizes can be read throughout.

// globalState is the global collector's scratch, kept between collections
// so that its bitmaps are allocated once.
type globalState struct {
	tenureMap, nurseryMap liveMap
}

// collectGlobal runs a global collection.
func (h *Heap) collectGlobal(cause Cause) {
	if h.inGC {
		panic("gc: collection requested during a collection")
	}
	h.inGC = true
	defer func() { h.inGC = false }()
	h.beforeCollection()
	h.retireTLABs()
	st := h.beginCollection("global", cause)
	if h.cfg.Verify {
		h.verify(st.GC, "before global collection")
	}
	ph := h.beginPhases(st.GC)
	h.dropTenureWhitespace()

	tenure, nursery := &h.global.tenureMap, &h.global.nurseryMap
	tenure.reset(h.tenureLo, h.tenureTop)
	nursery.reset(h.allocLo, h.allocTop)
	ph.end("Pre Compact", "pre_ms")
	pre := ph.ended()
	n := h.globalWorkers()
	st.Threads = n
	marked, objects, markers := h.markAll(tenure, nursery, n)
	ph.end("Marking Phase", "marking_ms")
	mark := ph.ended()
	st.GlobalStats = &GlobalStats{MarkMs: float64(mark.Nanoseconds()) / 1e6, MarkedBytes: marked, MarkedObjects: objects}

	tenureLive := tenure.summarize()
	nurseryLive := nursery.summarize()
	tenure.dest = h.tenureLo
	promote := nurseryLive > 0 && h.tenureLo+tenureLive+nurseryLive <= h.tenureHi &&
		h.ensureTenureCommitted(h.tenureLo+tenureLive+nurseryLive) == nil
	if promote {
		nursery.dest = h.tenureLo + tenureLive
	} else {
		nursery.identity = true
	}
	ph.end("Summary Phase", "summary_ms")
	newRef := func(r Ref) Ref {
		off := uintptr(r) << 3
		switch {
		case tenure.contains(off):
			return Ref(tenure.forward(off) >> 3)
		case nursery.contains(off) && !nursery.identity:
			return Ref(nursery.forward(off) >> 3)
		}
		return r
	}
	h.roots.VisitRoots(func(v *Value) {
		if v.IsRef() {
			*v = FromRef(newRef(v.AsRef()))
		}
	})
	var stillRemembered []uintptr // old offsets of tenure objects holding nursery refs
	for _, lm := range [2]*liveMap{tenure, nursery} {
		h.eachLive(lm, func(off uintptr) {
			r := Ref(off >> 3)
			young := false
			var it slots
			it.start(h, r, h.MetaOf(r))
			for off, ref, ok := it.firstRef(); ok; off, ref, ok = it.next(h) {
				if off == classSlot {
					// ClassMetas are updated with the class table.
					young = young || (!promote && h.isYoung(ref))
					continue
				}
				nr := newRef(ref)
				h.storeAt(off, FromRef(nr))
				young = young || (!promote && h.isYoung(nr))
			}
			if young && lm == tenure {
				stillRemembered = append(stillRemembered, off)
			}
		})
	}
	dead := h.clearClassTable(func(r Ref) (Ref, bool) {
		if *h.word(r, 0)&hdrMarked == 0 {
			return 0, false
		}
		return newRef(r), true
	})
	u := h.clock()
	st.unloaded = h.unloadClasses(dead)
	ph.sub("Class Unloading", "unloading_ms", u, h.clock())
	ph.end("Adjust Roots", "adjust_ms")

	// Move.
	h.slide(tenure)
	h.slide(nursery)
	ph.end("Compaction Phase", "compaction_ms")
	h.tenureTop = h.tenureLo + tenureLive
	if promote {
		h.tenureTop += nurseryLive
	}
	if promote || nurseryLive == 0 {
		h.allocTop = h.allocLo
	}
	h.remembered = h.remembered[:0]
	for _, off := range stillRemembered {
		r := Ref(tenure.forward(off) >> 3)
		*h.word(r, 0) |= hdrRemembered
		h.remembered = append(h.remembered, r)
	}
	h.resizeTenure(st.GC)
	ph.end("Post Compact", "post_ms")
	pause := ph.pause()
	st.CompactMs = float64((pause - pre - mark).Nanoseconds()) / 1e6
	// Only marking is parallel: workers 1..n-1 are idle for the rest of
	// the pause, and during marking while stalled.
	var stall time.Duration
	for _, w := range markers {
		stall += w.stallTime
		st.Stalls += w.stalls
	}
	st.StallUs = float64(stall.Microseconds())
	idle := stall + time.Duration(n-1)*(pause-mark)
	st.CPUPct = 100
	if busy := time.Duration(n) * pause; busy > 0 {
		st.CPUPct = 100 * float64(busy-idle) / float64(busy)
	}
	st.Phases = ph.phaseStats(nil)
	ph.log(true, nil)
	ph.trace(st, "Pause Full")
	var none workerStats
	h.endCollection(st, pause, &none)
	if h.cfg.Verify {
		h.verify(st.GC, "after global collection")
	}
}

// globalWorkers returns the number of workers that mark: GCThreads, or
// with adaptive threading one per adaptiveBytesPerWorker of what marking
// may find live, estimated as tenure in use plus what the last nursery
// collection kept (the allocate space beyond that is mostly garbage, and
// waking a worker for a small mark costs more than it saves).
func (h *Heap) globalWorkers() int {
	n := h.cfg.GCThreads
	if h.cfg.AdaptiveGCThreads {
		live := uint64(h.tenureTop-h.tenureLo) + h.nursery.lastCopied
		n = min(n, 1+int(live/adaptiveBytesPerWorker))
	}
	return n
}

// eachLive calls f with the offset of every live object in lm, in address
// order. Headers must still be intact.
func (h *Heap) eachLive(lm *liveMap, f func(off uintptr)) {
	for off := lm.nextLive(lm.lo); off < lm.hi; {
		size := h.sizeAt(off)
		f(off)
		off += size
		if off < lm.hi && !lm.isLive(off) {
			off = lm.nextLive(off)
		}
	}
}

// slide moves the live objects of lm to their compacted addresses (when
// lm moves at all), clearing mark bits, remembered bits and, for objects
// that reach tenure, ages. When the objects stay in place, the dead ones
// between them become filler holes: their stale references must not be
// seen by later heap walks.
func (h *Heap) slide(lm *liveMap) {
	if lm.identity {
		for off := lm.lo; off < lm.hi; {
			next := lm.nextLive(off)
			h.fill(off, next-off)
			if next >= lm.hi {
				break
			}
			off = next
			for off < lm.hi && lm.isLive(off) {
				size := h.sizeAt(off)
				*h.word(Ref(off>>3), 0) &^= hdrMarked | hdrRemembered
				off += size
			}
		}
		return
	}
	for off := lm.nextLive(lm.lo); off < lm.hi; {
		size := h.sizeAt(off)
		to := lm.forward(off)
		hdr := *h.word(Ref(off>>3), 0) &^ (hdrMarked | hdrRemembered)
		if to != off {
			copy(unsafe.Slice((*byte)(unsafe.Add(h.base, to)), size), unsafe.Slice((*byte)(unsafe.Add(h.base, off)), size))
		}
		if to < h.nurseryLo {
			hdr &^= hdrAgeMask
		}
		*h.word(Ref(to>>3), 0) = hdr
		off += size
		if off < lm.hi && !lm.isLive(off) {
			off = lm.nextLive(off)
		}
	}
}
