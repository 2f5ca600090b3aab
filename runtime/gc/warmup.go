package gc

import (
	"runtime"
	"time"
)

// GC thread warm-up (-XX:GCThreadWarmupPercent).
//
// A GC thread sleeps between collections, and its CPU idles. When the next
// nursery collection wakes it, it starts 0.1-0.2 ms late, sometimes several
// ms (the kernel may queue it behind the collecting thread; the host must
// schedule the idle virtual CPU again), and then copies slower than the
// collecting thread for a while. On the 2-vCPU machines two GC threads on
// dom_tree copy 11-22% faster when their threads were already spinning
// (BENCHMARKS.md, "Parallel GC"). Warm-up buys that with CPU time: once the
// allocate space is GCThreadWarmupPercent from full, the first TLAB refill
// (or allocation outside a TLAB) past that point sends the pool threads
// the next collection will use a warm-up, and they spin on their CPUs
// until the collection hands them work (or warmupTimeout passes). Only
// CPUs that the running mutators leave free are used, so the spinning does
// not take a CPU from the program.

// maxWarmupPercent bounds -XX:GCThreadWarmupPercent: beyond it the GC
// threads would spin for most of the program's run.
const maxWarmupPercent = 50

// warmupTimeout ends a warm-up that no collection follows (the program
// stopped allocating).
const warmupTimeout = 20 * time.Millisecond

// warmupDue reports whether an allocation that leaves top as the allocate
// space's next free byte should start the warm-up.
func (h *Heap) warmupDue(top uintptr) bool {
	pct := uintptr(h.cfg.GCThreadWarmupPercent)
	return pct != 0 && h.allocHi-top < (h.allocHi-h.allocLo)/100*pct && !h.threads.warming.Load()
}

// warmUp wakes the GC threads the next nursery collection will use, at
// most one per CPU the running mutators leave free. Called by a mutator,
// running; the first caller per collection cycle does it.
func (h *Heap) warmUp() {
	if !h.threads.warming.CompareAndSwap(false, true) {
		return
	}
	h.sp.mu.Lock()
	running := h.sp.running
	h.sp.mu.Unlock()
	n := min(h.nurseryWorkers()-1, runtime.GOMAXPROCS(0)-running, len(h.threads.pool))
	if n <= 0 {
		return
	}
	h.stats.warmups++
	for _, jobs := range h.threads.pool[:n] {
		select {
		case jobs <- nil: // nil: warm up
		default: // already has a warm-up queued
		}
	}
}

// spinUntilJob is a pool thread's warm-up: spin until a job is queued, the
// pool is closed or warmupTimeout passes.
func (h *Heap) spinUntilJob(jobs chan func()) {
	spinUntil(warmupTimeout, func() bool { return len(jobs) > 0 || h.threads.closed.Load() })
}

// endWarmup ends the warm-up cycle: a collection is starting.
func (h *Heap) endWarmup() { h.threads.warming.Store(false) }
