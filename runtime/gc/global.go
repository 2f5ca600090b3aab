package gc

import "time"

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
//  3. Update every reference: roots, the slots of live objects (on the
//     workers, region by region: compact.go), and the class-object field
//     of every live ClassMeta.
//  4. Move, region by region on the workers, each region once the lower
//     ones it slides over are done (compact.go), clearing marks and ages;
//     rebuild the remembered set if the nursery kept objects.
//  5. Unload classes whose class object was not marked.
//
// Objects keep their class and size in the header throughout; the marks
// are cleared in steps 3 and 4, so the liveMaps say what is live after
// marking.

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

	c := h.newCompactor(tenure, nursery, n)
	tenureLive, nurseryLive := c.summarize(n)
	tenure.dest = h.tenureLo
	promote := nurseryLive > 0 && h.tenureLo+tenureLive+nurseryLive <= h.tenureHi &&
		h.ensureTenureCommitted(h.tenureLo+tenureLive+nurseryLive) == nil
	if promote {
		nursery.dest = h.tenureLo + tenureLive
	} else {
		nursery.identity = true
	}
	c.promote = promote
	ph.end("Summary Phase", "summary_ms")
	h.roots.VisitRoots(func(v *Value) {
		if v.IsRef() {
			*v = FromRef(c.newRef(v.AsRef()))
		}
	})
	a := h.clock()
	c.adjust(n)
	ph.sub("Adjust Pointers", "adjust_pointers_ms", a, h.clock())
	dead := h.clearClassTable(func(r Ref) (Ref, bool) {
		if !c.live(r) {
			return 0, false
		}
		return c.newRef(r), true
	})
	u := h.clock()
	st.unloaded = h.unloadClasses(dead)
	ph.sub("Class Unloading", "unloading_ms", u, h.clock())
	ph.end("Adjust Roots", "adjust_ms")

	c.move(n)
	h.fillDead(nursery)
	ph.end("Compaction Phase", "compaction_ms")
	h.tenureTop = h.tenureLo + tenureLive
	if promote {
		h.tenureTop += nurseryLive
	}
	if promote || nurseryLive == 0 {
		h.allocTop = h.allocLo
	}
	h.remembered = h.remembered[:0]
	for _, r := range c.remembered() {
		*h.word(r, 0) |= hdrRemembered
		h.remembered = append(h.remembered, r)
	}
	h.resizeTenure(st.GC)
	ph.end("Post Compact", "post_ms")
	pause := ph.pause()
	st.CompactMs = float64((pause - pre - mark).Nanoseconds()) / 1e6
	// Marking and the compactor's passes are parallel; workers 1..n-1 are
	// idle for the rest of the pause, and within those while stalled,
	// waiting or done before the others.
	var stall time.Duration
	for _, w := range markers {
		stall += w.stallTime
		st.Stalls += w.stalls
	}
	took, compactIdle, waits := c.parallel()
	st.Stalls += waits
	st.StallUs = float64(stall.Microseconds())
	idle := stall + compactIdle + time.Duration(n-1)*(pause-mark-took)
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

// fillDead turns the garbage between the live objects of lm into filler
// holes when they stay where they are (the nursery, when tenure cannot
// take it): their stale references must not be seen by later heap walks.
// (Its live objects were settled while references were adjusted.)
func (h *Heap) fillDead(lm *liveMap) {
	if !lm.identity {
		return
	}
	for off := lm.lo; off < lm.hi; {
		next := lm.nextLive(off)
		h.fill(off, next-off)
		if next >= lm.hi {
			break
		}
		off = next
		for off < lm.hi && lm.isLive(off) {
			off += h.sizeAt(off)
		}
	}
}
