package gc

// Allocation. Every allocator initialises the whole object before it
// returns, so a collection triggered by the next allocation never sees
// garbage. Any allocation may run a collection and move objects.

// AllocFixed allocates a LayoutFixed object: prefix words zero, every value
// slot set to fill.
func (h *Heap) AllocFixed(m Meta, fill Value) Ref {
	size := m.Size()
	r := h.allocate(size)
	p := h.word(r, 0)
	*p = uint64(m) | uint64(m.Kind())<<hdrKindShift
	prefix := m.PrefixWords()
	for w := 1; w <= prefix; w++ {
		*h.word(r, w) = 0
	}
	for w := 1 + prefix; w < int(size/WordSize); w++ {
		*h.word(r, w) = uint64(fill)
	}
	if r < h.nurseryRef {
		// A large object went straight to tenure: if its class object is
		// young, the class-object reference is an old-to-young one.
		if co := m.ClassObject(); co != 0 && h.IsYoung(co) {
			h.remember(r)
		}
	}
	return r
}

// AllocSlots allocates a LayoutSlots object of n slots set to fill; the
// length word is n.
func (h *Heap) AllocSlots(m Meta, n int, fill Value) Ref {
	r := h.allocate(SlotsSize(n))
	*h.word(r, 0) = uint64(m) | uint64(m.Kind())<<hdrKindShift
	*h.word(r, 1) = uint64(uint32(n))
	for w := 2; w < 2+n; w++ {
		*h.word(r, w) = uint64(fill)
	}
	if r < h.nurseryRef && fill.IsRef() && h.IsYoung(fill.AsRef()) {
		h.remember(r)
	}
	return r
}

// AllocBytes allocates a LayoutBytes object of n zero bytes.
func (h *Heap) AllocBytes(m Meta, n int) Ref {
	size := BytesSize(n)
	r := h.allocate(size)
	*h.word(r, 0) = uint64(m) | uint64(m.Kind())<<hdrKindShift
	*h.word(r, 1) = uint64(uint32(n))
	for w := 2; w < int(size/WordSize); w++ {
		*h.word(r, w) = 0
	}
	return r
}

// MaxObjectSize bounds one object; larger requests are OutOfMemoryErrors.
const MaxObjectSize = 1 << 31

// allocate returns uninitialised room for size bytes (a multiple of 8).
func (h *Heap) allocate(size uintptr) Ref {
	t := &h.tlab
	if t.top+size <= t.end {
		off := t.top
		t.top += size
		return Ref(off >> 3)
	}
	return h.allocateSlow(size)
}

// allocateSlow handles TLAB refill, large objects, stress collections and
// collection on exhaustion.
func (h *Heap) allocateSlow(size uintptr) Ref {
	if size >= MaxObjectSize {
		panic(&OutOfMemoryError{Msg: "requested object size exceeds the maximum object size"})
	}
	if h.cfg.StressInterval > 0 {
		h.allocsToCheck--
		if h.allocsToCheck <= 0 {
			h.allocsToCheck = h.cfg.StressInterval
			h.stressCollect()
		}
	}
	if size >= h.cfg.LargeObjectSize {
		return h.allocateTenured(size)
	}
	for attempt := 0; ; attempt++ {
		if r, ok := h.refillTLAB(size); ok {
			return r
		}
		switch attempt {
		case 0:
			h.collectNursery(CauseAllocationFailure)
		case 1:
			h.collectGlobal(CauseAllocationFailure)
		default:
			if size > h.allocHi-h.allocLo {
				return h.allocateTenured(size)
			}
			// Live data fills tenure and the nursery.
			panic(&OutOfMemoryError{Msg: "Java heap space"})
		}
	}
}

// refillTLAB retires the current TLAB and carves one that fits size, then
// allocates from it.
func (h *Heap) refillTLAB(size uintptr) (Ref, bool) {
	t := &h.tlab
	h.retireTLAB()
	chunk := max(size, uintptr(tlabSize))
	if h.cfg.StressInterval > 0 {
		// Under stress every allocation takes the slow path.
		chunk = size
	}
	if h.allocTop+chunk > h.allocHi {
		chunk = h.allocHi - h.allocTop
		if chunk < size {
			return 0, false
		}
	}
	t.top, t.end = h.allocTop, h.allocTop+chunk
	h.allocTop += chunk
	t.refills++
	off := t.top
	t.top += size
	return Ref(off >> 3), true
}

// retireTLAB fills the unused tail of the TLAB so the allocate space stays
// walkable, and gives it up.
func (h *Heap) retireTLAB() {
	t := &h.tlab
	if t.end > t.top {
		h.fill(t.top, t.end-t.top)
		t.wasted += t.end - t.top
	}
	t.top, t.end = 0, 0
}

// allocateTenured allocates directly in tenure (large objects), collecting
// globally if tenure is full.
func (h *Heap) allocateTenured(size uintptr) Ref {
	for attempt := 0; ; attempt++ {
		if off, ok := h.bumpTenure(size); ok {
			return Ref(off >> 3)
		}
		if attempt > 0 {
			panic(&OutOfMemoryError{Msg: "Java heap space"})
		}
		h.collectGlobal(CauseAllocationFailure)
	}
}

// bumpTenure carves size bytes at the tenure top, committing as needed.
func (h *Heap) bumpTenure(size uintptr) (uintptr, bool) {
	if h.tenureTop+size > h.tenureHi {
		return 0, false
	}
	if h.tenureTop+size > h.tenureCommitted {
		grow := max(h.tenureTop+size-h.tenureCommitted, (h.tenureCommitted-h.tenureLo)/4, 1<<20)
		if h.growTenure(grow) != nil || h.tenureTop+size > h.tenureCommitted {
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
