package gc

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Safepoints: how a collection stops every mutator thread.
//
// Each mutator thread has a Mutator. A Mutator is either running (it may
// read and write the heap and hold references in its own locals) or in a
// safe region (parked: it touches no heap memory and every reference it
// holds is visible to the RootSource). Collections run only while every
// mutator but the one collecting is in a safe region: the world is stopped.
//
// Protocol. A mutator that must collect first takes allocMu, the lock
// that serialises collections and tenure allocation; it waits for it
// inside a safe region, because the holder may itself be stopping the
// world. Holding the lock it sets requested and
// waits until running drops to one (itself). Running mutators poll
// requested (one atomic load: Mutator.PollFlag) at backward jumps, calls
// and allocation slow paths, and on seeing it park: enter a safe region,
// which wakes the collector, and leave it again, which waits until the
// world restarts. Threads blocked for long (joining another thread, waiting
// for a lock that a stopping thread may hold) wait inside a safe region, so
// a collection never waits for them.
//
// Invariants:
//   - stopped is true only while allocMu is held, so a mutator that holds
//     allocMu never waits in LeaveSafeRegion.
//   - running counts the registered mutators outside safe regions; while
//     stopped, only the collecting mutator is running.
//   - Every transition happens under safepoint.mu, which also orders the
//     mutators' writes before the collector's reads and the collector's
//     writes (moved objects, updated roots) before the mutators resume.
type safepoint struct {
	requested atomic.Bool // polled by running mutators

	mu      sync.Mutex
	changed sync.Cond // signalled on every transition
	stopped bool      // the world is stopped or stopping
	// interrupted keeps requested set so that every poll takes the slow
	// path: the client is stopping its threads (InterruptMutators).
	interrupted bool
	running     int // registered mutators outside safe regions
	mutators    []*Mutator
	nextID      int

	ttsp time.Duration // time to safepoint of the current stop, for the stats
	// requestedAt is the trace clock when the current stop was requested
	// (0: none), for the parking threads' trace spans; set only when
	// tracing.
	requestedAt atomic.Int64
}

// NewMutator registers a mutator thread. The Mutator starts inside a safe
// region: the new thread calls LeaveSafeRegion before it touches the heap,
// and a collection may run before it does (its roots must already be
// visible to the RootSource). With Config.MaxLiveThreads mutators
// registered it fails with an OutOfMemoryError, as HotSpot's "unable to
// create native thread": the limit keeps threads' memory clear of the Go
// runtime's own out-of-memory failure, which nothing can recover from.
func (h *Heap) NewMutator() (*Mutator, error) {
	sp := &h.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	// A collection in progress reads mutators and the TLAB policy without
	// sp.mu: a thread that is not yet a mutator waits for its end. Once
	// the stop is complete (running <= 1) the caller cannot be a running
	// mutator, which the collector would be waiting for; while the world
	// is still stopping, the collector reads nothing yet and a running
	// caller must not wait.
	for sp.stopped && sp.running <= 1 {
		sp.changed.Wait()
	}
	if n := len(sp.mutators); n >= h.cfg.MaxLiveThreads {
		return nil, &OutOfMemoryError{Msg: fmt.Sprintf("unable to create native thread: %d live threads (-XX:MaxLiveThreads=%d)", n, h.cfg.MaxLiveThreads)}
	}
	m := &Mutator{h: h, id: sp.nextID}
	if h.trace != nil {
		m.trace = h.trace.mutatorTrack(m.id)
	}
	m.tlab.init(h)
	sp.nextID++
	sp.mutators = append(sp.mutators, m)
	return m, nil
}

// Release retires the mutator's TLAB and unregisters it; its thread is
// done with the heap. It is called by the mutator's own thread, running.
func (m *Mutator) Release() {
	h, sp := m.h, &m.h.sp
	m.retireTLAB()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	h.tlabTotals.fold(&m.tlab)
	for i, o := range sp.mutators {
		if o == m {
			sp.mutators = append(sp.mutators[:i], sp.mutators[i+1:]...)
			break
		}
	}
	if m.running {
		m.running = false
		sp.running--
		sp.changed.Broadcast()
	}
}

// pollNeeded reports whether a collection is waiting for this thread to
// park. It is the safepoint poll's fast path: one atomic load.
func (m *Mutator) pollNeeded() bool { return m.h.sp.requested.Load() }

// Park stops at a safepoint until the pending collection is over.
func (m *Mutator) Park() {
	if m.trace != nil {
		m.tracedPark()
		return
	}
	m.EnterSafeRegion()
	m.LeaveSafeRegion()
}

// tracedPark is Park recorded on the thread's track: from the stop's
// request to the thread parking (its share of the time to safepoint),
// then the pause until the world restarts. A poll that finds no stop (the
// client interrupting its threads) records nothing.
func (m *Mutator) tracedPark() {
	h := m.h
	req := h.sp.requestedAt.Load()
	parked := h.clock()
	m.EnterSafeRegion()
	m.LeaveSafeRegion()
	if req == 0 {
		return
	}
	b := m.trace
	b.span("Safepoint Sync", max(req, b.lastSafepoint), parked, "", 0)
	b.lastSafepoint = h.clock()
	b.span("Safepoint", parked, b.lastSafepoint, "", 0)
}

// EnterSafeRegion declares that the thread will not touch the heap until
// LeaveSafeRegion, so collections may run meanwhile. Every reference the
// thread holds must be visible to the RootSource.
func (m *Mutator) EnterSafeRegion() {
	sp := &m.h.sp
	sp.mu.Lock()
	if !m.running {
		sp.mu.Unlock()
		panic("gc: EnterSafeRegion by a mutator that is not running")
	}
	m.running = false
	sp.running--
	if sp.stopped {
		sp.changed.Broadcast()
	}
	sp.mu.Unlock()
}

// LeaveSafeRegion waits until no collection is running and resumes the
// thread.
func (m *Mutator) LeaveSafeRegion() {
	sp := &m.h.sp
	sp.mu.Lock()
	if m.running {
		sp.mu.Unlock()
		panic("gc: LeaveSafeRegion by a running mutator")
	}
	for sp.stopped {
		sp.changed.Wait()
	}
	m.running = true
	sp.running++
	sp.mu.Unlock()
}

// lockAlloc takes allocMu, waiting for it in a safe region (its holder may
// be stopping the world).
func (m *Mutator) lockAlloc() {
	if m.h.allocMu.TryLock() {
		return
	}
	m.EnterSafeRegion()
	m.h.allocMu.Lock()
	m.LeaveSafeRegion()
}

func (m *Mutator) unlockAlloc() { m.h.allocMu.Unlock() }

// stopTheWorld waits until every other mutator is in a safe region. The
// caller holds allocMu.
func (m *Mutator) stopTheWorld() {
	sp := &m.h.sp
	start := time.Now()
	var traceStart int64
	if m.trace != nil {
		traceStart = m.h.clock()
		sp.requestedAt.Store(traceStart)
	}
	sp.mu.Lock()
	sp.stopped = true
	sp.requested.Store(true)
	for sp.running > 1 {
		sp.changed.Wait()
	}
	sp.mu.Unlock()
	sp.ttsp = time.Since(start)
	if m.trace != nil {
		m.trace.span("Stopping Threads", traceStart, m.h.clock(), "", 0)
	}
}

// startTheWorld lets the parked mutators resume.
func (m *Mutator) startTheWorld() {
	sp := &m.h.sp
	if m.trace != nil {
		sp.requestedAt.Store(0)
	}
	sp.mu.Lock()
	sp.stopped = false
	sp.requested.Store(sp.interrupted)
	sp.changed.Broadcast()
	sp.mu.Unlock()
}

// withAllocMu runs f holding allocMu.
func (m *Mutator) withAllocMu(f func()) {
	m.lockAlloc()
	defer m.unlockAlloc()
	f()
}

// stopped runs f with every other mutator parked; the caller holds
// allocMu, so the world restarts before allocMu is dropped (stopped is
// true only under it). f may panic (OutOfMemoryError) and the world
// still restarts.
func (m *Mutator) stopped(f func()) {
	m.stopTheWorld()
	defer m.startTheWorld()
	f()
}

// withWorldStopped runs f holding allocMu with every other mutator parked.
func (m *Mutator) withWorldStopped(f func()) {
	m.withAllocMu(func() { m.stopped(f) })
}

// InterruptMutators makes every later poll report true, so that a client
// stopping its threads sees them at their next poll (Park then returns at
// once unless a collection is pending).
func (h *Heap) InterruptMutators() {
	h.sp.mu.Lock()
	h.sp.interrupted = true
	h.sp.requested.Store(true)
	h.sp.mu.Unlock()
}

// ResumeMutators ends InterruptMutators: polls report only collections
// again.
func (h *Heap) ResumeMutators() {
	h.sp.mu.Lock()
	h.sp.interrupted = false
	h.sp.requested.Store(h.sp.stopped)
	h.sp.mu.Unlock()
}

// PollFlag returns the flag a safepoint poll reads, for a dispatch loop
// that polls it directly: true when a collection is waiting for this
// thread to Park.
func (m *Mutator) PollFlag() *atomic.Bool { return &m.h.sp.requested }

// takeTTSP returns the time to safepoint of the current stop, once: when a
// stop runs two collections, the second reports zero.
func (h *Heap) takeTTSP() time.Duration {
	d := h.sp.ttsp
	h.sp.ttsp = 0
	return d
}
