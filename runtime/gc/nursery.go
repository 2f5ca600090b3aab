package gc

import (
	"fmt"
	"time"
)

// A nursery collection, step by step (shared by every nursery collector):
//
//  1. If tenure cannot absorb the worst case (every byte of the allocate
//     space promoted, plus the whitespace workers may hold), run a global
//     collection instead: it empties the nursery into tenure. So a nursery
//     collection never fails half-way.
//  2. Retire the mutator's TLAB (its tail becomes a filler object).
//  3. Scan the remembered set: every slot of every remembered tenured object
//     is a root. An object stays remembered only if it still refers into
//     the nursery afterwards.
//  4. Scan the roots (RootSource), copying what they refer to.
//  5. Trace: the collector's traversal copies until no unscanned material
//     is left (copied == scanned).
//  6. Clearable tables: a class object left in evacuate space unforwarded
//     is dead; its ClassMeta is freed (class unloading).
//  7. Flip: the survivor space, holding the survivors at its bottom,
//     becomes the allocate space; the old allocate space is now empty.

// nurseryState is what nursery collections keep between collections.
type nurseryState struct {
	// tenureWhitelists hold each GC worker's reusable tenure whitespace,
	// kept across nursery collections as filler holes (whitespace.go);
	// a global collection drops them.
	tenureWhitelists []whitelist
	lastCopied       uint64 // bytes the last nursery collection copied (adaptive threading)
	tenureAge        int    // this collection's (tenure.go)
}

// collectNursery runs one nursery collection.
func (h *Heap) collectNursery(cause Cause) {
	if h.inGC {
		panic("gc: collection requested during a collection")
	}
	h.retireTLABs()
	if !h.tenureCanAbsorbNursery() {
		h.collectGlobal(cause)
		return
	}
	h.inGC = true
	defer func() { h.inGC = false }()
	h.beforeCollection()
	st := h.beginCollection("nursery", cause)
	if h.cfg.Verify {
		h.verify(st.GC, "before nursery collection")
	}
	ph := h.beginPhases(st.GC)

	h.regions = copyRegions{survTop: h.survLo}
	n := h.nurseryWorkers()
	st.Threads = n
	h.ctl = newController(h, n)
	defer func() { h.ctl = nil }()
	policy := h.newChunkPolicy(n)
	workers := make([]*worker, n)
	supplies := make([]*whitespace, n)
	for id := range workers {
		workers[id] = &worker{h: h, id: id, solo: n == 1, tenureAt: uint64(h.nursery.tenureAge-1) << hdrAgeShift, ws: h.newWhitespace(id, policy)}
		supplies[id] = &workers[id].ws
		if h.trace != nil {
			workers[id].trace = h.trace.workerTrack(id)
			workers[id].trace.gc = int64(st.GC)
		}
	}
	var listedBefore uint64
	held := make([][2][]block, n) // each worker's whitespace after its scan (verification)
	if h.cfg.Verify {
		for _, w := range supplies {
			listedBefore += w.listed(tenureRegion)
		}
	}
	t := h.newTraversal(workers)

	remembered := h.remembered
	h.remembered = nil
	for _, r := range remembered {
		*h.word(r, 0) &^= hdrRemembered
	}
	ph.end("Pre Evacuate Collection Set", "pre_ms")
	h.runWorkers(n, func(id int) {
		w, tw := workers[id], t.workers[id]
		t0 := h.clock()
		for i := id; i < len(remembered); i += n {
			if tw.scanRemembered(remembered[i]) {
				w.rememberTenured(remembered[i])
			}
		}
		t1 := h.clock()
		if id == 0 {
			h.roots.VisitRoots(tw.evacuateRoot)
		}
		t2 := h.clock()
		if w.trace != nil {
			w.trace.beginWork(t2)
		}
		tw.scanHeap()
		t3 := h.clock()
		if h.cfg.Verify {
			tw.holds(&held[id])
			w.ws.held(&held[id])
		}
		tw.finish()
		t4 := h.clock()
		w.recordPhases(t0, t1, t2, t3, t4)
		if w.trace != nil {
			w.traceRun(t0, t1, t2, t4)
		}
	})
	ph.end("Evacuate Collection Set", "evacuate_ms")
	if h.cfg.Verify {
		v := h.clock()
		if err := h.verifyDestinations(held, supplies); err != nil {
			panic(&verifyError{Msg: fmt.Sprintf("GC(%d) copy destinations: %v", st.GC, err)})
		}
		ph.exclude(v)
	}

	var total workerStats
	var stall time.Duration
	for _, w := range workers {
		total.add(&w.stats)
		stall += w.stallTime
		st.Stalls += w.stalls
		h.remembered = append(h.remembered, w.newRemembered...)
	}
	if total.copiedBytes() != total.scannedBytes {
		panic(fmt.Sprintf("gc: nursery collection %d copied %d bytes but scanned %d", st.GC, total.copiedBytes(), total.scannedBytes))
	}
	if h.cfg.Verify {
		v := h.clock()
		if err := h.verifyAccount(supplies, [2]uint64{total.regionBytes(0), total.regionBytes(1)}, listedBefore); err != nil {
			panic(&verifyError{Msg: fmt.Sprintf("GC(%d) after copying: %v", st.GC, err)})
		}
		ph.exclude(v)
	}
	for _, w := range supplies {
		for r := range w.discarded {
			st.DiscardedBytes += w.discarded[r]
			st.RecycledBytes += w.recycled[r]
		}
	}
	c0 := h.clock()
	dead := h.clearClassTable(func(r Ref) (Ref, bool) {
		if !h.inEvacuate(r) {
			return r, true
		}
		if hdr := *h.word(r, 0); hdr&hdrForwarded != 0 {
			return Ref(uint32(hdr)), true
		}
		return 0, false
	})
	c1 := h.clock()
	st.unloaded = h.unloadClasses(dead)
	ph.sub("Clearables", "clearables_ms", c0, c1)
	ph.sub("Class Unloading", "unloading_ms", c1, h.clock())

	// Flip.
	allocated := uint64(h.allocTop - h.allocLo)
	h.allocLo, h.allocHi, h.survLo, h.survHi = h.survLo, h.survHi, h.allocLo, h.allocHi
	h.allocTop = h.regions.survTop
	ph.end("Post Evacuate Collection Set", "post_ms")
	pause := ph.pause()

	if t.report != nil {
		t.report(st)
	}
	st.StallUs = float64(stall.Microseconds())
	st.CPUPct = 100
	if busy := float64(n) * float64(pause); busy > 0 {
		st.CPUPct = 100 * (busy - float64(stall)) / busy
	}
	st.workers = workerReport(workers)
	st.WorkerCopiedBytes = workerCopiedBytes(workers)
	h.nursery.lastCopied = total.copiedBytes()
	h.retune(st.GC, &total.ages, allocated)
	st.Phases = ph.phaseStats(workers)
	ph.log(false, workers)
	ph.trace(st, "Pause Young")
	h.endCollection(st, pause, &total)
	if h.cfg.Verify {
		h.verify(st.GC, "after nursery collection")
	}
}

// adaptiveBytesPerWorker is the copying that, under adaptive threading,
// earns a nursery collection one more worker. Starting a worker costs a
// thread wake-up and the termination handshake, about 0.1-0.15 ms on a
// small VM, which is what one worker copies in that time; a second worker
// pays off only well above that (two workers already tie with one at
// about 1 MB: BENCHMARKS.md, "Parallel GC").
const adaptiveBytesPerWorker = 1 << 20

// nurseryWorkers returns the number of workers for a nursery collection:
// GCThreads, or with adaptive threading one per adaptiveBytesPerWorker
// the previous nursery collection copied (at least one, at most
// GCThreads; the first collection uses them all).
func (h *Heap) nurseryWorkers() int {
	n := h.cfg.GCThreads
	if h.cfg.AdaptiveGCThreads && h.stats.nurseryCount > 1 {
		n = min(n, 1+int(h.nursery.lastCopied/adaptiveBytesPerWorker))
	}
	return n
}

// promotionSlack is the tenure a nursery collection needs beyond the
// allocate space's contents: whitespace that workers hold in their
// copyspaces is unavailable to the others, so a worker whose region is
// full may find the other region's free space reserved by its peers. Each
// worker holds at most about four chunks of the largest size at once.
func (h *Heap) promotionSlack() uintptr {
	return uintptr(h.cfg.GCThreads) * 4 * h.cfg.ScanCacheMaximumSize
}

// traversal is what distinguishes the nursery collectors: one worker's
// traversal state. Everything else in a nursery collection is shared.
type traversal interface {
	// evacuateRoot copies what a root refers to (if in evacuate space).
	evacuateRoot(v *Value)
	// scanRemembered scans a remembered tenured object's references as
	// roots and reports whether it still refers into the nursery.
	scanRemembered(r Ref) bool
	// scanHeap copies and scans until no work is left.
	scanHeap()
	// holds appends the whitespace the traversal's copyspaces hold, per
	// region (verification).
	holds(out *[2][]block)
	// finish returns leftover whitespace to the worker's supply.
	finish()
}

// nurseryTraversal is one collection's traversals, one per worker, and
// the collector's report of its own statistics (nil if none).
type nurseryTraversal struct {
	workers []traversal
	report  func(st *CollectionStats)
}

// newTraversal creates the configured collector's traversals. A new
// collector is a new file and a case here.
func (h *Heap) newTraversal(workers []*worker) nurseryTraversal {
	switch h.cfg.Collector {
	case Recursive:
		return newEvacuators(workers)
	case Hierarchical:
		return newScavengers(workers, true)
	default:
		return newScavengers(workers, false)
	}
}

// clearClassTable processes the weak class table (the clearables): alive
// maps a class object to its new location, or reports it dead. It returns
// the dead classes, for unloadClasses.
func (h *Heap) clearClassTable(alive func(Ref) (Ref, bool)) []Meta {
	kept := h.classMetas[:0]
	var dead []Meta
	for _, m := range h.classMetas {
		if r, ok := alive(m.ClassObject()); ok {
			m.setClassObject(r)
			kept = append(kept, m)
		} else {
			dead = append(dead, m)
		}
	}
	clear(h.classMetas[len(kept):])
	h.classMetas = kept
	return dead
}

// unloadClasses unloads dead classes: their ClassMeta is freed and the
// client is told. It returns the number unloaded.
func (h *Heap) unloadClasses(dead []Meta) int {
	for _, m := range dead {
		if h.OnClassUnload != nil {
			h.OnClassUnload(m.Tag())
		}
		h.freeMeta(m)
	}
	h.stats.classesUnloaded += len(dead)
	return len(dead)
}

// stressCollect runs the collections -Xgc:stress asks for: a nursery
// collection every N allocations and a global one every 64N.
func (h *Heap) stressCollect() {
	if h.inGC {
		return
	}
	h.stressCount++ // under allocMu, with the world stopped
	if h.stressCount%64 == 0 {
		h.collectGlobal(CauseStress)
	} else {
		h.collectNursery(CauseStress)
	}
}
