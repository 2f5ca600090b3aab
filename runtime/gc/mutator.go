package gc

import (
	"sync/atomic"

	"golang.org/x/sys/cpu"
)

// Mutator is one mutator thread's handle on the heap: its TLAB and its
// safepoint state (safepoint.go). Only its own thread uses it, except that
// a collection, with the world stopped, retires its TLAB.
type Mutator struct {
	// The TLAB's top is written by every allocation: the pads keep two
	// mutators from sharing a cache line.
	_       cpu.CacheLinePad
	h       *Heap
	id      int
	tlab    tlab
	running bool      // outside a safe region; guarded by h.sp.mu
	trace   *traceBuf // this thread's trace track, nil when not tracing
	_       cpu.CacheLinePad
}

// AllocFixed allocates a LayoutFixed object: prefix words zero, every value
// slot set to fill.
func (m *Mutator) AllocFixed(meta Meta, fill Value) Ref {
	h := m.h
	size := meta.size()
	r, ok := m.tlab.bump(size)
	if !ok {
		r = m.allocateSlow(size)
	}
	*h.word(r, 0) = uint64(meta) | uint64(meta.kind())<<hdrKindShift
	prefix := meta.prefixWords()
	for w := 1; w <= prefix; w++ {
		*h.word(r, w) = 0
	}
	for w := 1 + prefix; w < int(size/WordSize); w++ {
		*h.word(r, w) = uint64(fill)
	}
	if r < h.nurseryRef {
		// A large object went straight to tenure: if its class object is
		// young, the class-object reference is an old-to-young one.
		if co := meta.ClassObject(); co != 0 && h.isYoung(co) {
			h.remember(r)
		}
	}
	return r
}

// AllocSlots allocates a LayoutSlots object of n slots set to fill; the
// length word is n.
func (m *Mutator) AllocSlots(meta Meta, n int, fill Value) Ref {
	h := m.h
	size := slotsSize(n)
	r, ok := m.tlab.bump(size)
	if !ok {
		r = m.allocateSlow(size)
	}
	*h.word(r, 0) = uint64(meta) | uint64(meta.kind())<<hdrKindShift
	*h.word(r, 1) = uint64(uint32(n))
	for w := 2; w < 2+n; w++ {
		*h.word(r, w) = uint64(fill)
	}
	if r < h.nurseryRef && fill.IsRef() && h.isYoung(fill.AsRef()) {
		h.remember(r)
	}
	return r
}

// AllocBytes allocates a LayoutBytes object of n zero bytes.
func (m *Mutator) AllocBytes(meta Meta, n int) Ref {
	h := m.h
	size := bytesSize(n)
	r, ok := m.tlab.bump(size)
	if !ok {
		r = m.allocateSlow(size)
	}
	*h.word(r, 0) = uint64(meta) | uint64(meta.kind())<<hdrKindShift
	*h.word(r, 1) = uint64(uint32(n))
	for w := 2; w < int(size/WordSize); w++ {
		*h.word(r, w) = 0
	}
	return r
}

// Collect runs a full collection (the gc() native), stopping the world.
func (m *Mutator) Collect() {
	m.withWorldStopped(func() { m.h.collectGlobal(CauseSystemGC) })
}

// bump allocates size bytes in the TLAB, or fails when it has no room;
// small enough to be inlined into the allocators.
func (t *tlab) bump(size uintptr) (Ref, bool) {
	off, top := t.top, t.top+size
	if top > t.end {
		return 0, false
	}
	t.top = top
	return Ref(off >> 3), true
}

// carve takes size bytes from the shared allocate-space top by CAS, or
// fails when the space is exhausted.
func (h *Heap) carve(size uintptr) (uintptr, bool) {
	for {
		top := atomic.LoadUintptr(&h.allocTop)
		if top+size > h.allocHi {
			return 0, false
		}
		if atomic.CompareAndSwapUintptr(&h.allocTop, top, top+size) {
			return top, true
		}
	}
}

// carveChunk takes a chunk of at least least and at most most bytes by
// CAS, or fails when fewer than least bytes are free.
func (h *Heap) carveChunk(least, most uintptr) (uintptr, uintptr, bool) {
	for {
		top := atomic.LoadUintptr(&h.allocTop)
		n := min(most, h.allocHi-top)
		if top > h.allocHi || n < least {
			return 0, 0, false
		}
		if atomic.CompareAndSwapUintptr(&h.allocTop, top, top+n) {
			return top, n, true
		}
	}
}
