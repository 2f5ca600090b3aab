package gc

// Allocation. Every allocator initialises the whole object before it
// returns, so a collection triggered by the next allocation never sees
// garbage. Any allocation may run a collection and move objects. The
// allocators are Mutator methods (mutator.go).

// Main returns the mutator created with the heap, which starts running:
// the thread that created the heap is its first mutator.
func (h *Heap) Main() *Mutator { return h.main }

// MaxObjectSize bounds one object; larger requests are OutOfMemoryErrors.
const MaxObjectSize = 1 << 31

// allocateSlow handles what the TLAB bump cannot: safepoint polls, stress
// collections, large objects, TLAB refills and allocations outside the
// TLAB, and collection when the allocate space is exhausted.
func (m *Mutator) allocateSlow(size uintptr) Ref {
	h := m.h
	if size >= MaxObjectSize {
		panic(&OutOfMemoryError{Msg: "requested object size exceeds the maximum object size"})
	}
	if m.pollNeeded() {
		m.Park()
	}
	if h.cfg.StressInterval > 0 && h.allocsToCheck.Add(-1) <= 0 {
		m.withWorldStopped(func() {
			if h.allocsToCheck.Load() <= 0 {
				h.allocsToCheck.Store(int64(h.cfg.StressInterval))
				h.stressCollect()
			}
		})
	}
	if size >= h.cfg.LargeObjectSize {
		return m.allocateTenured(size)
	}
	for {
		epoch := h.epoch.Load()
		if off, ok := m.allocateInNursery(size); ok {
			return Ref(off >> 3)
		}
		// The allocate space is exhausted. Unless another thread collected
		// since we looked (then retry: it may have made room), collect
		// and allocate with the world still stopped, so that no other
		// thread takes the freed space first.
		var r Ref
		m.withAllocMu(func() {
			if h.epoch.Load() == epoch {
				m.stopped(func() { r = m.collectAndAllocate(size) })
			}
		})
		if r != 0 {
			return r
		}
	}
}

// collectAndAllocate collects for a failed allocation of size bytes and
// allocates them; the caller holds allocMu with the world stopped.
// A nursery collection comes first, then one that tenures every survivor
// if the first left no room, then a global one; only when that leaves no
// room is the request an OutOfMemoryError (HotSpot's
// satisfy_failed_allocation, run at the safepoint).
func (m *Mutator) collectAndAllocate(size uintptr) Ref {
	h := m.h
	h.collectNursery(CauseAllocationFailure)
	if off, ok := m.allocateInNursery(size); ok {
		return Ref(off >> 3)
	}
	// The survivors fill the allocate space. While the reservation can
	// take them, tenure expands to hold them all rather than be
	// collected (sizing.go).
	if size <= h.allocHi-h.allocLo && h.tenureCanAbsorbNursery() {
		h.collectNurseryTenuringAll(CauseAllocationFailure)
		if off, ok := m.allocateInNursery(size); ok {
			return Ref(off >> 3)
		}
	}
	h.collectGlobal(CauseAllocationFailure)
	if off, ok := m.allocateInNursery(size); ok {
		return Ref(off >> 3)
	}
	// Only a request larger than the allocate space may still fit, in
	// tenure; otherwise live data fills tenure and the nursery (filling
	// tenure's last bytes one small object per two collections would
	// only postpone the error).
	if size > h.allocHi-h.allocLo {
		if off, ok := h.bumpTenure(size); ok {
			return Ref(off >> 3)
		}
	}
	panic(&OutOfMemoryError{Msg: "Java heap space"})
}

// allocateInNursery allocates size bytes in the allocate space after the
// TLAB bump failed: HotSpot's slow path (tlab.go). Without TLABs every
// allocation comes here and CAS-bumps the shared top.
func (m *Mutator) allocateInNursery(size uintptr) (uintptr, bool) {
	h, t, p := m.h, &m.tlab, &m.h.tlabPolicy
	if !p.enabled {
		return m.allocateOutside(size)
	}
	if t.end != 0 && t.free() > t.refillWasteLimit {
		// Too much would be wasted: keep the TLAB, allocate outside it.
		t.refillWasteLimit += tlabWasteIncrement
		t.slowAllocs++
		return m.allocateOutside(size)
	}
	if t.end != 0 {
		t.refillWaste += t.retire(h)
	}
	least := max(size, p.min)
	off, n, ok := h.carveChunk(least, max(t.desired+size, least))
	if !ok {
		// Less than a minimal TLAB is left: this object may still fit.
		return m.allocateOutside(size)
	}
	t.start, t.top, t.end = off, off+size, off+n
	if h.warmupDue(off + n) {
		h.warmUp()
	}
	t.refills++
	if m.trace != nil && t.refills%tlabTraceEvery == 0 {
		m.trace.events = append(m.trace.events, traceEvent{name: "TLAB refill", ph: phInstant, ts: h.clock(), argKey: "refills", arg: int64(t.refills)})
	}
	t.chunkBytes += n // the object's bytes count as allocated when the chunk is retired
	t.refillWasteLimit = t.desired / p.wasteFraction
	return off, true
}

// allocateOutside allocates size bytes in the shared allocate space.
func (m *Mutator) allocateOutside(size uintptr) (uintptr, bool) {
	h := m.h
	off, ok := h.carve(size)
	if ok {
		m.tlab.allocated += size
		if h.warmupDue(off + size) {
			h.warmUp()
		}
	}
	return off, ok
}

// retireTLAB fills the unused tail of the mutator's TLAB, counting it as
// gc waste (a collection or the thread's end retires it).
func (m *Mutator) retireTLAB() {
	if m.tlab.end != 0 {
		m.tlab.gcWaste += m.tlab.retire(m.h)
	}
}

// allocateTenured allocates directly in tenure (large objects), collecting
// globally if tenure is full.
func (m *Mutator) allocateTenured(size uintptr) Ref {
	h := m.h
	var off uintptr
	m.withAllocMu(func() {
		ok := false
		if off, ok = h.bumpTenure(size); !ok {
			m.stopped(func() { h.collectGlobal(CauseAllocationFailure) })
			if off, ok = h.bumpTenure(size); !ok {
				panic(&OutOfMemoryError{Msg: "Java heap space"})
			}
		}
	})
	return Ref(off >> 3)
}

// bumpTenure carves size bytes at the tenure top, committing as needed.
// Mutators call it holding allocMu.
func (h *Heap) bumpTenure(size uintptr) (uintptr, bool) {
	if h.tenureTop+size > h.tenureHi {
		return 0, false
	}
	if h.tenureTop+size > h.tenureCommitted {
		grow := max(h.tenureTop+size-h.tenureCommitted, (h.tenureCommitted-h.tenureLo)/4, 1<<20)
		if h.expandTenure(grow) != nil || h.tenureTop+size > h.tenureCommitted {
			return 0, false
		}
	}
	off := h.tenureTop
	h.tenureTop += size
	return off, true
}

// fill turns [off, off+size) into a filler object (a hole that heap walks
// step over).
func (h *Heap) fill(off, size uintptr) {
	if size == 0 {
		return
	}
	p := h.word(Ref(off>>3), 0)
	if size == WordSize {
		*p = uint64(h.filler8)
		return
	}
	*p = uint64(h.fillerN)
	*h.word(Ref(off>>3), 1) = uint64(size)
}
