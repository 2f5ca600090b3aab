package gc

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The worker scheduler of parallel nursery collection (-Xgcthreads<N>).
// It knows nothing of any traversal: a traversal brings its own work
// lists and asks the scheduler only to run its workers, to stall one that
// found no work and to wake one when work appears.
//
// Every worker is a goroutine locked to an OS thread for the collection.
// Worker 0 runs on the mutator's goroutine and scans the roots; the
// remembered set is dealt out to all workers. Copies race only on the
// forwarding CAS (forward.go); everything else a worker touches is its
// own, except its traversal's shared work lists and what the controller
// guards: the count of stalled workers and the condition variable they
// wait on.
//
// A worker that finds no work stalls: it spins for a while (stallSpin),
// then sleeps on the condition variable. Publishing work wakes a stalled
// worker (notify). The collection's scan phase ends when every worker is
// stalled and no work remains anywhere; the last worker to stall sees that
// and wakes the others. While any worker is stalled (Heap.stalled),
// traversals share work sooner.

// gcThreads are the GC worker threads kept between collections: worker 0
// is the collecting mutator's thread, workers 1..n-1 are pool goroutines,
// each locked to an OS thread while it runs a job.
type gcThreads struct {
	pool    []chan func() // jobs for workers 1..n-1; a nil job is a warm-up
	closed  atomic.Bool   // Release stopped the pool
	warming atomic.Bool   // the threads were woken for the coming collection (warmup.go)
}

// controller coordinates the workers of one nursery collection.
type controller struct {
	h *Heap
	n int

	// waiting is read before every copy (the stall flush condition); keep
	// it off the cache lines that the lock and the scan list dirty.
	_       [64]byte
	waiting atomic.Int32
	_       [60]byte

	mu   sync.Mutex
	cond sync.Cond
	done atomic.Bool // the scan phase is over (set under mu)

	abortedBy any // a worker's panic, re-raised by the mutator
}

func newController(h *Heap, n int) *controller {
	ctl := &controller{h: h, n: n}
	ctl.cond.L = &ctl.mu
	return ctl
}

// stalled reports whether some GC worker is waiting for work.
func (h *Heap) stalled() bool { return h.ctl != nil && h.ctl.waiting.Load() > 0 }

// runWorkers runs f for workers 0..n-1 in parallel and waits for all of
// them. A panic in any worker stops the scan phase for all and is re-raised
// here.
func (h *Heap) runWorkers(n int, f func(id int)) {
	ctl := h.ctl
	run := func(id int) {
		defer func() {
			if p := recover(); p != nil {
				ctl.mu.Lock()
				if ctl.abortedBy == nil {
					ctl.abortedBy = p
				}
				ctl.done.Store(true)
				ctl.cond.Broadcast()
				ctl.mu.Unlock()
			}
		}()
		f(id)
	}
	for len(h.threads.pool) < n-1 {
		jobs := make(chan func(), 1) // room for a warm-up while a job is sent
		h.threads.pool = append(h.threads.pool, jobs)
		go func() {
			runtime.LockOSThread()
			for job := range jobs {
				if job == nil {
					h.spinUntilJob(jobs)
					continue
				}
				job()
			}
		}()
	}
	var wg sync.WaitGroup
	for id := 1; id < n; id++ {
		wg.Add(1)
		h.threads.pool[id-1] <- func() { defer wg.Done(); run(id) }
	}
	runtime.LockOSThread()
	run(0)
	runtime.UnlockOSThread()
	wg.Wait()
	if ctl.abortedBy != nil {
		panic(ctl.abortedBy)
	}
}

// stopWorkers ends the worker goroutines (Heap.Release).
func (h *Heap) stopWorkers() {
	h.threads.closed.Store(true) // ends warm-up spins
	for _, jobs := range h.threads.pool {
		close(jobs)
	}
	h.threads.pool = nil
}

// stallSpin is how long a stalled worker polls for work before it sleeps
// on the condition variable (HotSpot's task terminator also spins before
// it sleeps). Waking a sleeping GC thread costs 0.1-0.2 ms on the 2-vCPU
// machines, and now and then several ms (the idle virtual CPU must be
// scheduled again by the host), more than most stalls last; so spinning
// keeps wake-ups, including the one at termination, out of the pause,
// while a worker that has nothing to do for longer stops burning its CPU.
const stallSpin = 200 * time.Microsecond

// stall waits until work may be available (true) or the scan phase is
// over (false). found takes work under the controller's lock; mayHaveWork
// is its lock-free hint for spinning. found is re-checked under the lock
// before sleeping, so a worker never sleeps while work it could take
// exists. A stalled worker counts as waiting while it spins, so its peers
// share work with it at once.
//
// The time from the call to the end of the scan phase is the worker's
// termination time (phases.go); with tracing, every call is a span on the
// worker's track: a stall, or the last wait, ended by termination.
func (ctl *controller) stall(w *worker, found, mayHaveWork func() bool) (gotWork bool) {
	enter := ctl.h.clock()
	if w.trace != nil {
		w.trace.endWork(enter)
		defer func() { w.traceStall(enter, gotWork) }()
	}
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	for {
		if ctl.done.Load() {
			w.termination = ctl.h.clock() - enter
			return false
		}
		if found() {
			return true
		}
		if int(ctl.waiting.Add(1)) == ctl.n {
			ctl.done.Store(true)
			ctl.waiting.Add(-1)
			ctl.cond.Broadcast()
			w.termination = ctl.h.clock() - enter
			return false
		}
		start := time.Now()
		ctl.mu.Unlock()
		spinUntil(stallSpin, func() bool { return ctl.done.Load() || mayHaveWork() })
		ctl.mu.Lock()
		if !ctl.done.Load() && !mayHaveWork() {
			ctl.cond.Wait()
		}
		w.stallTime += time.Since(start)
		w.stalls++
		ctl.waiting.Add(-1)
	}
}

// traceStall records a wait that began at enter and ended now, and
// reopens the copy/scan span when the worker got work.
func (w *worker) traceStall(enter int64, gotWork bool) {
	now := w.h.clock()
	if gotWork {
		w.trace.span(traceStall, enter, now, "gc", w.trace.gc)
		w.trace.beginWork(now)
		w.trace.afterStall = true
		return
	}
	w.trace.span(traceTermination, enter, now, "gc", w.trace.gc)
}

// notify wakes a stalled worker after work was made available. A
// publisher makes its work visible (an atomic store) before it calls
// notify, and a stalling worker counts itself waiting before it looks
// for work, so one of the two always sees the other.
func (ctl *controller) notify() {
	if ctl.waiting.Load() == 0 {
		return
	}
	ctl.mu.Lock()
	ctl.cond.Signal()
	ctl.mu.Unlock()
}

// spinUntil spins (PAUSE) until done reports true or limit passes; the
// clock is read every 64 spins.
func spinUntil(limit time.Duration, done func() bool) {
	start := time.Now()
	for spins := 0; !done(); spins++ {
		if spins%64 == 63 && time.Since(start) > limit {
			return
		}
		spinPause()
	}
}
