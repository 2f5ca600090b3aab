package gc

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Parallel nursery collection (-Xgcthreads<N>).
//
// Every worker is a goroutine locked to an OS thread for the collection,
// bound to its own worker state (copy caches or evacuator spaces, stats).
// Worker 0 runs on the mutator's goroutine and scans the roots; the
// remembered set is dealt out to all workers. Copies race only on the
// forwarding CAS (copy.go); everything else a worker touches is its own,
// except what the controller guards:
//
//   - the scavenger's shared scan list (FIFO of copy caches), and
//   - the evacuator's per-worker worklists, whose volumes are published
//     atomically; a worker without work steals from the donor with the
//     largest volume (try-lock only, taking at most half), and
//   - the count of stalled workers and the condition variable they wait on.
//
// A worker that finds no work stalls: it spins for a while (stallSpin),
// then sleeps on the condition variable. Releasing work signals a stalled
// worker. The collection's scan phase ends when every worker is stalled and
// no work remains anywhere; the last worker to stall sees that and wakes
// the others. While any worker is stalled, evacuators copy outside (the
// stall flush condition) with a lower work release threshold, and
// scavengers share their unscanned copy caches and stop aliasing.

// arraySplitMinimum: pointer arrays with more elements are scanned in
// segments of about this many elements by different workers.
const arraySplitMinimum = 512

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

	// listed counts the caches on the scan list, so that a spinning
	// stalled scavenger can look for work without the lock.
	listed atomic.Int32

	scanList  []*copyCache // scavenger
	evacs     []*evacuator // evacuator: the donors to steal from
	abortedBy any          // a worker's panic, re-raised by the mutator
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
	for len(h.pool) < n-1 {
		jobs := make(chan func(), 1) // room for a warm-up while a job is sent
		h.pool = append(h.pool, jobs)
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
		h.pool[id-1] <- func() { defer wg.Done(); run(id) }
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
	h.poolClosed.Store(true) // ends warm-up spins
	for _, jobs := range h.pool {
		close(jobs)
	}
	h.pool = nil
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
func (ctl *controller) stall(w *worker, found, mayHaveWork func() bool) bool {
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	for {
		if ctl.done.Load() {
			return false
		}
		if found() {
			return true
		}
		if int(ctl.waiting.Add(1)) == ctl.n {
			ctl.done.Store(true)
			ctl.waiting.Add(-1)
			ctl.cond.Broadcast()
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

// notify wakes a stalled worker after work was made available.
func (ctl *controller) notify() {
	if ctl.waiting.Load() == 0 {
		return
	}
	ctl.mu.Lock()
	ctl.cond.Signal()
	ctl.mu.Unlock()
}

// ---- GC thread warm-up (-XX:GCThreadWarmupPercent) ----
//
// A GC thread sleeps between collections, and its CPU idles. When the next
// nursery collection wakes it, it starts 0.1-0.2 ms late, sometimes several
// ms (the kernel may queue it behind the collecting thread; the host must
// schedule the idle virtual CPU again), and then copies slower than the
// collecting thread for a while. On the 2-vCPU machines two GC threads on
// dom_tree copy 11-22% faster when their threads were already spinning
// (BENCHMARKS.md, issue 5). Warm-up buys that with CPU time: once the
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
	return pct != 0 && h.allocHi-top < (h.allocHi-h.allocLo)/100*pct && !h.warming.Load()
}

// warmUp wakes the GC threads the next nursery collection will use, at
// most one per CPU the running mutators leave free. Called by a mutator,
// running; the first caller per collection cycle does it.
func (h *Heap) warmUp() {
	if !h.warming.CompareAndSwap(false, true) {
		return
	}
	h.sp.mu.Lock()
	running := h.sp.running
	h.sp.mu.Unlock()
	n := min(h.nurseryWorkers()-1, runtime.GOMAXPROCS(0)-running, len(h.pool))
	if n <= 0 {
		return
	}
	h.stats.warmups++
	for _, jobs := range h.pool[:n] {
		select {
		case jobs <- nil: // nil: warm up
		default: // already has a warm-up queued
		}
	}
}

// spinUntilJob is a pool thread's warm-up: spin until a job is queued, the
// pool is closed or warmupTimeout passes.
func (h *Heap) spinUntilJob(jobs chan func()) {
	spinUntil(warmupTimeout, func() bool { return len(jobs) > 0 || h.poolClosed.Load() })
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

// ---- scavenger ----

// pushScan appends c to the shared scan list.
func (h *Heap) pushScan(c *copyCache) {
	ctl := h.ctl
	ctl.mu.Lock()
	c.listed = true
	ctl.scanList = append(ctl.scanList, c)
	ctl.listed.Add(1)
	if ctl.waiting.Load() > 0 {
		ctl.cond.Signal()
	}
	ctl.mu.Unlock()
}

// popScanLocked takes the oldest cache with work off the scan list.
func (ctl *controller) popScanLocked() *copyCache {
	for len(ctl.scanList) > 0 {
		c := ctl.scanList[0]
		ctl.scanList[0] = nil
		ctl.scanList = ctl.scanList[1:]
		ctl.listed.Add(-1)
		c.listed = false
		if c.segment || c.unscanned() > 0 {
			return c
		}
	}
	return nil
}

// popScan takes a cache off the scan list without waiting.
func (h *Heap) popScan() *copyCache {
	ctl := h.ctl
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	return ctl.popScanLocked()
}

// waitScan stalls until the scan list has a cache (returned) or the scan
// phase is over (nil).
func (w *worker) waitScan() *copyCache {
	ctl := w.h.ctl
	var c *copyCache
	found := func() bool { c = ctl.popScanLocked(); return c != nil }
	if !ctl.stall(w, found, func() bool { return ctl.listed.Load() > 0 }) {
		return nil
	}
	return c
}

// pushSolo queues a solo cache holding one copied object n. A large
// pointer array is split into segments for different workers instead.
func (h *Heap) pushSolo(w *worker, c *copyCache, n Ref) {
	w.lastCopy = nil
	m := h.MetaOf(n)
	if h.ctl.n == 1 || m.Layout() != LayoutSlots || h.Length(n) <= arraySplitMinimum {
		h.pushScan(c)
		return
	}
	c.scan = c.copy // the segments scan it
	splitArray(h.Length(n), func(from, to int) {
		h.pushScan(&copyCache{region: c.region, segment: true, array: n, from: from, to: to})
	})
}

// splitArray cuts an array of length elements into ceil(length/512)
// segments of equal size (the first also takes the remainder).
func splitArray(length int, segment func(from, to int)) {
	k := (length + arraySplitMinimum - 1) / arraySplitMinimum
	per := length / k
	for i, from := 0, 0; i < k; i++ {
		to := from + per
		if i == 0 {
			to += length % k
		}
		segment(from, to)
		from = to
	}
}

// scanArraySegment visits elements [from, to) of array arr, replacing each
// evacuate-space reference by evacuate's answer, and returns the bytes it
// accounts as scanned (the header and length word go with the first
// segment) and whether an element now refers into the nursery.
func (h *Heap) scanArraySegment(arr Ref, from, to int, evacuate func(ref Ref, slot uintptr) Ref) (scanned uint64, young bool) {
	first := uintptr(arr)<<3 + 2*WordSize
	for i := from; i < to; i++ {
		off := first + uintptr(i)*WordSize
		v := h.loadAt(off)
		if !v.IsRef() {
			continue
		}
		ref := v.AsRef()
		if h.inEvacuate(ref) {
			ref = evacuate(ref, off)
			h.storeAt(off, FromRef(ref))
		}
		young = young || h.IsYoung(ref)
	}
	scanned = uint64(to-from) * WordSize
	if from == 0 {
		scanned += 2 * WordSize
	}
	return scanned, young
}

// scavengerCacheSize is the copy cache size: smaller while workers wait,
// so that work reaches the scan list sooner.
func (h *Heap) scavengerCacheSize() uintptr {
	if h.stalled() {
		return copyCacheSize / 4
	}
	return copyCacheSize
}

// shareWork, called while peers are stalled, moves the worker's own
// unscanned material (the deferred cache and the copied parts of its copy
// caches) to the scan list.
func (w *worker) shareWork() {
	h := w.h
	if c := w.deferred; c != nil {
		w.deferred = nil
		h.pushScan(w.detach(c))
	}
	for _, c := range w.cache {
		if c == nil || c == w.scanning || c.listed || c.unscanned() < 1024 {
			continue
		}
		h.pushScan(w.detach(c))
	}
}

// detach returns c's unscanned material as a cache another worker may
// scan: c itself, or, when c is still one of this worker's copy
// destinations, a new cache covering [scan, copy) that takes over the
// progress through the object at scan.
func (w *worker) detach(c *copyCache) *copyCache {
	if c != w.cache[c.region] {
		return c
	}
	part := &copyCache{region: c.region, base: c.scan, scan: c.scan, copy: c.copy, end: c.copy,
		slot: c.slot, objYoung: c.objYoung}
	c.scan, c.slot, c.objYoung = c.copy, 0, false
	return part
}

// scanSegment scans elements [from, to) of a split pointer array.
func (w *worker) scanSegment(c *copyCache) {
	scanned, young := w.h.scanArraySegment(c.array, c.from, c.to, w.forward)
	w.stats.scannedBytes += scanned
	if c.fromList {
		w.stats.listScannedBytes += scanned
	}
	if young && c.region == tenureRegion {
		w.rememberTenured(c.array)
	}
}

// ---- evacuator ----

// addWork puts a workspace on the evacuator's worklist, splitting large
// pointer arrays when there are peers to share them with, and wakes a
// stalled peer.
func (e *evacuator) addWork(ws workspace) {
	h := e.h
	n := Ref(ws.base >> 3)
	e.listMu.Lock()
	if ws.segment || h.ctl.n == 1 || ws.size < SlotsSize(arraySplitMinimum+1) ||
		h.MetaOf(n).Layout() != LayoutSlots || h.Length(n) <= arraySplitMinimum || ws.size != SlotsSize(h.Length(n)) {
		e.work.add(ws)
	} else {
		splitArray(h.Length(n), func(from, to int) {
			e.work.add(workspace{region: ws.region, base: ws.base, segment: true, from: from, to: to, size: uintptr(to-from) * WordSize})
		})
	}
	e.volume.Store(int64(e.work.volume))
	volume := e.work.volume
	e.listMu.Unlock()
	// -XXgc:recursiveWorkVolumeQuanta: wake a stalled peer only once this
	// worker holds more than that many quanta (default 0: any work).
	if volume > uintptr(h.cfg.WorkVolumeQuanta)*e.quantum {
		h.ctl.notify()
	}
}

// takeWork takes the head of the evacuator's own worklist.
func (e *evacuator) takeWork() (workspace, bool) {
	e.listMu.Lock()
	defer e.listMu.Unlock()
	ws, ok := e.work.take()
	e.volume.Store(int64(e.work.volume))
	return ws, ok
}

// steal takes work from the donor with the largest volume: its head
// workspace, then more while the thief would still hold less than the
// donor keeps. Donors are only try-locked; a busy or empty donor is
// skipped, for one round over the workers.
func (e *evacuator) steal() bool {
	ctl := e.h.ctl
	tried := make([]bool, len(ctl.evacs))
	tried[e.id] = true
	for range ctl.evacs {
		donor := -1
		var best int64
		for i, d := range ctl.evacs {
			if v := d.volume.Load(); !tried[i] && v > best {
				donor, best = i, v
			}
		}
		if donor < 0 {
			return false
		}
		tried[donor] = true
		d := ctl.evacs[donor]
		if !d.listMu.TryLock() {
			continue
		}
		var taken []workspace
		var takenSize uintptr
		for {
			next, ok := d.work.peek()
			if !ok || (len(taken) > 0 && takenSize+next.size >= d.work.volume-next.size) {
				break
			}
			d.work.take()
			taken = append(taken, next)
			takenSize += next.size
		}
		d.volume.Store(int64(d.work.volume))
		d.listMu.Unlock()
		if len(taken) == 0 {
			continue
		}
		e.listMu.Lock()
		for _, ws := range taken {
			e.work.add(ws)
		}
		e.volume.Store(int64(e.work.volume))
		e.listMu.Unlock()
		ctl.notify()
		return true
	}
	return false
}

// waitForWork steals or stalls until work arrives on the evacuator's own
// worklist (true) or the scan phase ends (false).
func (e *evacuator) waitForWork() bool {
	ctl := e.h.ctl
	for {
		if e.steal() {
			return true
		}
		anyWork := func() bool {
			for _, d := range ctl.evacs {
				if d.volume.Load() > 0 {
					return true
				}
			}
			return false
		}
		if !ctl.stall(e.worker, anyWork, anyWork) {
			return false
		}
	}
}

// workerReport describes one worker's share for the [gc,stats] detail.
func workerReport(ws []*worker) string {
	s := ""
	for i, w := range ws {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("w%d=%dB", i, w.stats.copiedBytes)
	}
	return s
}
