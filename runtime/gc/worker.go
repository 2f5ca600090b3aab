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
