package gc

import "time"

// worker is one GC thread's state for a nursery collection that does not
// depend on the traversal: its whitespace supply, its statistics, what it
// adds to the remembered set and its stall accounting. Each traversal
// (scavenger.go, evacuator.go) keeps its own state beside a worker.
type worker struct {
	h    *Heap
	id   int
	solo bool // the collection's only worker: no forwarding races
	ws   whitespace

	tenureAt uint64 // header age bits (hdrAgeMask) from which a copy goes to tenure

	stats     workerStats
	stallTime time.Duration // waiting for work
	stalls    int

	termination int64            // nanoseconds of the last wait, ended by termination
	phase       workerPhaseTimes // this collection's phase times (phases.go)
	trace       *traceBuf        // this worker's trace track, nil when not tracing

	// newRemembered collects tenured objects found to hold nursery
	// references during this collection.
	newRemembered []Ref

	// Workers are allocated one after another and write their stats on
	// every copy: keep each on cache lines of its own.
	_ [128]byte
}

// rememberTenured adds tenured object r to the remembered set (this
// worker's part of it). Workers scanning different segments of one array
// may remember it at the same time; setRemembered lets one win.
func (w *worker) rememberTenured(r Ref) {
	if !w.h.setRemembered(r) {
		return
	}
	w.newRemembered = append(w.newRemembered, r)
	w.stats.remembered++
}

// scanned counts size bytes of copied material as scanned.
func (w *worker) scanned(size uintptr) { w.stats.scannedBytes += uint64(size) }

// traceRun records the worker's run of this collection on its track: the
// run, its remembered-set share and root scanning, from the clock readings
// of the run (start, after the remembered set, after the roots, end). The
// copy/scan spans and waits were recorded as they happened.
func (w *worker) traceRun(t0, t1, t2, t4 int64) {
	b := w.trace
	b.endWork(t4) // a run aborted by a panic has no termination
	b.span(traceWorkerRun, t0, t4, "gc", b.gc)
	b.span(traceRemembered, t0, t1, "gc", b.gc)
	if w.id == 0 {
		b.span(traceRoots, t1, t2, "gc", b.gc)
	}
}
