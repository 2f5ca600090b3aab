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

// collectNursery runs one nursery collection.
func (h *Heap) collectNursery(cause Cause) {
	if h.inGC {
		panic("gc: collection requested during a collection")
	}
	h.retireTLABs()
	if h.tenureHi-h.tenureTop < h.allocTop-h.allocLo+h.promotionSlack() {
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
	start := time.Now()

	h.survTop = h.survLo
	n := h.nurseryWorkers()
	st.Threads = n
	h.ctl = newController(h, n)
	defer func() { h.ctl = nil }()
	workers := make([]*worker, n)
	traversals := make([]traversal, n)
	var evacs []*evacuator
	for id := range workers {
		w := &worker{h: h, id: id, solo: n == 1, hierarchical: h.cfg.Collector == Hierarchical}
		workers[id] = w
		traversals[id] = (*scavengerTraversal)(w)
		if h.cfg.Collector == Recursive {
			e := newEvacuator(w)
			evacs = append(evacs, e)
			traversals[id] = e
		}
	}
	h.ctl.evacs = evacs

	remembered := h.remembered
	h.remembered = nil
	for _, r := range remembered {
		*h.word(r, 0) &^= hdrRemembered
	}
	h.runWorkers(n, func(id int) {
		w, t := workers[id], traversals[id]
		for i := id; i < len(remembered); i += n {
			if t.scanRemembered(remembered[i]) {
				w.rememberTenured(remembered[i])
			}
		}
		if id == 0 {
			h.roots.VisitRoots(t.evacuateRoot)
		}
		t.scanHeap()
		t.finish()
	})
	pause := time.Since(start)

	var total workerStats
	var stall time.Duration
	for _, w := range workers {
		total.add(&w.stats)
		stall += w.stallTime
		st.Stalls += w.stalls
		h.remembered = append(h.remembered, w.newRemembered...)
	}
	if total.copiedBytes != total.scannedBytes {
		panic(fmt.Sprintf("gc: nursery collection %d copied %d bytes but scanned %d", st.GC, total.copiedBytes, total.scannedBytes))
	}
	st.unloaded = h.clearClassTable(func(r Ref) (Ref, bool) {
		if !h.inEvacuate(r) {
			return r, true
		}
		if hdr := *h.word(r, 0); hdr&hdrForwarded != 0 {
			return Ref(uint32(hdr)), true
		}
		return 0, false
	})

	// Flip.
	h.allocLo, h.allocHi, h.survLo, h.survHi = h.survLo, h.survHi, h.allocLo, h.allocHi
	h.allocTop = h.survTop
	h.survTop = h.survLo

	inside := total.scannedBytes - total.listScannedBytes
	if evacs != nil {
		st.EvacuatorStats = mergeEvacuatorStats(evacs)
		inside = 0
		for _, e := range evacs {
			inside += e.es.insideBytes
		}
	}
	st.StallUs = float64(stall.Microseconds())
	st.CPUPct = 100
	if busy := float64(n) * float64(pause); busy > 0 {
		st.CPUPct = 100 * (busy - float64(stall)) / busy
	}
	st.workers = workerReport(workers)
	h.lastNurseryCopied = total.copiedBytes
	h.endCollection(st, pause, &total, inside)
	if h.cfg.Verify {
		h.verify(st.GC, "after nursery collection")
	}
}

// adaptiveBytesPerWorker is the copying that, under adaptive threading,
// earns a nursery collection one more worker. Starting a worker costs a
// thread wake-up and the termination handshake, about 0.1-0.15 ms on a
// small VM, which is what one worker copies in that time; a second worker
// pays off only well above that (two workers already tie with one at
// about 1 MB, BENCHMARKS.md, issue 5).
const adaptiveBytesPerWorker = 1 << 20

// nurseryWorkers returns the number of workers for a nursery collection:
// GCThreads, or with adaptive threading one per adaptiveBytesPerWorker
// the previous nursery collection copied (at least one, at most
// GCThreads; the first collection uses them all).
func (h *Heap) nurseryWorkers() int {
	n := h.cfg.GCThreads
	if h.cfg.AdaptiveGCThreads && h.stats.nurseryCount > 1 {
		n = min(n, 1+int(h.lastNurseryCopied/adaptiveBytesPerWorker))
	}
	return n
}

// promotionSlack is the tenure a nursery collection needs beyond the
// allocate space's contents: whitespace that workers hold in their copy
// caches, frames and copyspaces is unavailable to the others, so a worker
// whose region is full may find the other region's free space reserved by
// its peers. Each worker holds at most about four chunks of the largest
// whitespace size at once.
func (h *Heap) promotionSlack() uintptr {
	return uintptr(h.cfg.GCThreads) * 4 * tlhMaximum
}

// traversal is what distinguishes the nursery collectors; everything else
// in a nursery collection is shared.
type traversal interface {
	// evacuateRoot copies what a root refers to (if in evacuate space).
	evacuateRoot(v *Value)
	// scanRemembered scans a remembered tenured object's slots as roots and
	// reports whether it still refers into the nursery.
	scanRemembered(r Ref) bool
	// scanHeap copies and scans until no work is left.
	scanHeap()
	// finish returns leftover whitespace.
	finish()
}

// clearClassTable processes the weak class table: alive maps a class
// object to its new location, or reports it dead. Dead classes are
// unloaded: their ClassMeta is freed and the client is told. It returns the
// number unloaded.
func (h *Heap) clearClassTable(alive func(Ref) (Ref, bool)) int {
	kept := h.classMetas[:0]
	var dead []Meta
	for _, m := range h.classMetas {
		if r, ok := alive(m.ClassObject()); ok {
			m.SetClassObject(r)
			kept = append(kept, m)
		} else {
			dead = append(dead, m)
		}
	}
	clear(h.classMetas[len(kept):])
	h.classMetas = kept
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
	h.stressCount++ // under the heap lock, with the world stopped
	if h.stressCount%64 == 0 {
		h.collectGlobal(CauseStress)
	} else {
		h.collectNursery(CauseStress)
	}
}
