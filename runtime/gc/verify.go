package gc

import "fmt"

// Heap verification (-Xcheck:gc), run before and after every collection.
// It checks that
//   - tenure and the allocate space are walkable: every object has a live
//     ClassMeta below 4 GB, a sane size, and is neither forwarded nor marked;
//   - every reference in roots, objects and ClassMetas points at the start
//     of an object in tenure or the allocate space (never into the
//     evacuated semispace);
//   - every tenured object holding a nursery reference is remembered, and
//     the remembered set holds only remembered tenured objects;
//   - the class-metadata sub-allocator is consistent (every region's
//     segment map and free list, every region below 4 GB) and every freed
//     ClassMeta record still holds its zap pattern: nothing wrote to an
//     unloaded class. Reading every free record's bytes costs more than
//     the heap walk (it tripled the stress runs' time), so this runs when
//     a record was created or freed since the last check, and at every
//     metaVerifyInterval-th check otherwise;
//   - every ClassMeta in the class table is live and names a class object
//     that is an object start.
//
// Nursery collections also check their copy destinations as they go
// (copyspaces, whitelists, evacuator frames: whitespace.go, copyspace.go)
// and, at the end, that no two workers' whitespace overlapped and every
// carved byte was copied into, given back, filled or kept.

// verifyError is the panic value of a failed verification.
type verifyError struct{ Msg string }

func (e *verifyError) Error() string { return "heap verification failed: " + e.Msg }

// metaVerifyInterval: the class metadata is verified at least at every
// this many heap verifications.
const metaVerifyInterval = 64

func (h *Heap) verify(gcNum int, when string) {
	fail := func(format string, args ...any) {
		panic(&verifyError{Msg: fmt.Sprintf("GC(%d) %s: ", gcNum, when) + fmt.Sprintf(format, args...)})
	}
	h.verifications++
	if h.metaChanges != h.metaVerified || h.verifications%metaVerifyInterval == 0 {
		if err := h.metaArena.Verify(); err != nil {
			fail("class metadata: %v", err)
		}
		h.metaVerified = h.metaChanges
	}
	starts := [2]*liveMap{&h.verifyMap[0], &h.verifyMap[1]}
	starts[0].reset(h.tenureLo, h.tenureTop)
	starts[1].reset(h.allocLo, h.allocTop)
	// Pass 1: walk, recording object starts.
	for _, lm := range starts {
		for off := lm.lo; off < lm.hi; {
			hdr := *h.word(Ref(off>>3), 0)
			m := Meta(uint32(hdr))
			switch {
			case hdr&hdrForwarded != 0:
				fail("object at %#x is forwarded (header %#x)", off, hdr)
			case hdr&hdrMarked != 0:
				fail("object at %#x is still marked", off)
			case uint64(m) >= 1<<32 || !h.validMeta(m):
				fail("object at %#x has class pointer %#x, not a live ClassMeta", off, uint32(m))
			}
			size := h.sizeOf(Ref(off>>3), m)
			if size < WordSize || size%WordSize != 0 || off+size > lm.hi {
				fail("object at %#x has bad size %d (space ends at %#x)", off, size, lm.hi)
			}
			lm.mark(off, WordSize, false)
			off += size
		}
	}
	isStart := func(r Ref) bool {
		off := uintptr(r) << 3
		for _, lm := range starts {
			if lm.contains(off) {
				return lm.isStart(off)
			}
		}
		return false
	}
	where := func(r Ref) string {
		off := uintptr(r) << 3
		switch {
		case off >= h.survLo && off < h.survHi:
			return "the evacuated semispace"
		case off >= h.allocLo && off < h.allocHi:
			return "the allocate space (not an object start)"
		case off >= h.tenureLo && off < h.tenureHi:
			return "tenure (not an object start)"
		}
		return "outside the heap"
	}
	inRemembered := make(map[Ref]bool, len(h.remembered))
	for _, r := range h.remembered {
		if h.isYoung(r) || !isStart(r) || *h.word(r, 0)&hdrRemembered == 0 {
			fail("remembered set entry %#x is not a remembered tenured object", uintptr(r)<<3)
		}
		inRemembered[r] = true
	}
	// Pass 2: references.
	for _, lm := range starts {
		for off := lm.lo; off < lm.hi; {
			r := Ref(off >> 3)
			m := h.MetaOf(r)
			young := false
			var it slots
			it.start(h, r, m)
			for s, ref, ok := it.firstRef(); ok; s, ref, ok = it.next(h) {
				switch {
				case s == classSlot && !isStart(ref):
					fail("ClassMeta %#x of object at %#x names class object %#x in %s", uint32(m), off, uintptr(ref)<<3, where(ref))
				case s != classSlot && !isStart(ref):
					fail("slot at %#x (word %d) of object at %#x refers to %#x in %s", s, (s-off)/WordSize, off, uintptr(ref)<<3, where(ref))
				}
				young = young || h.isYoung(ref)
			}
			if young && !h.isYoung(r) && !inRemembered[r] {
				fail("tenured object at %#x refers into the nursery but is not remembered", off)
			}
			off += h.sizeOf(r, m)
		}
	}
	for _, m := range h.classMetas {
		if !h.validMeta(m) {
			fail("class table entry %#x is not a live ClassMeta", uint32(m))
		}
		if co := m.ClassObject(); !isStart(co) {
			fail("class table entry %#x names class object %#x in %s", uint32(m), uintptr(co)<<3, where(co))
		}
	}
	h.roots.VisitRoots(func(v *Value) {
		if v.IsRef() && !isStart(v.AsRef()) {
			fail("root refers to %#x in %s", uintptr(v.AsRef())<<3, where(v.AsRef()))
		}
	})
}
