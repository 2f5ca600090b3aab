package gc

import (
	"sync/atomic"
	"unsafe"

	"minivm/runtime/mem"
)

// The slot iterator: where an object's references are, in the order every
// traversal, the global collector and the verifier visit them.
//
//  1. The class object its ClassMeta names (ClassMeta.ClassObject), which
//     every object of the class keeps alive. It is reported at classSlot.
//  2. The value slots: a LayoutFixed object's in its ClassMeta's scan
//     order (so the hot-field profile decides which field is copied
//     first), an array's (LayoutSlots) in index order.
//
// A segment of a split array covers elements [from, to) and has no class
// object step. An iterator is a few words. A loop over it is
//
//	var it slots
//	size := it.start(h, r, m)
//	for off, ref, ok := it.firstRef(); ok; off, ref, ok = it.next(h) { ... }
//
// A traversal that stops mid-object (a push, an alias) keeps the iterator
// and later continues with it.next. start handles the class object once
// per object; next, the per-slot step, is inlined into every loop.
// Offsets are bytes from the heap base.

// classSlot is the offset reported for the class-object reference; it is
// noSlot, so a copy made through it counts like a root's for containment.
const classSlot = noSlot

// slots iterates over one object's references.
type slots struct {
	meta  Meta    // for the class-object step; 0 for a segment
	first uintptr // offset of value slot 0
	order uintptr // address of the ClassMeta's scan order, 0 for index order
	hot   uintptr // offset of the class's hottest slot, 0 if none
	i     int     // the next slot position
	end   int
	head  slot // the first reference, found by start
}

// leafSize returns the size of object r, whose ClassMeta is m, when it
// holds no references at all: a byte object without a class object (a
// string). Traversals step over such objects without starting an
// iterator; it is small enough to inline.
func (h *Heap) leafSize(r Ref, m Meta) (uintptr, bool) {
	rec := m.ptr(0)
	if Layout(*(*uint8)(unsafe.Add(rec, metaLayout))) != LayoutBytes || atomic.LoadUint32((*uint32)(unsafe.Add(rec, metaClassObject))) != 0 {
		return 0, false
	}
	return bytesSize(h.Length(r)), true
}

// start begins iterating over object r, whose ClassMeta is m; firstRef
// then returns its first reference. It returns the object's size, which a
// traversal needs next. One call per object: the layout is decoded here,
// so that next stays small.
func (s *slots) start(h *Heap, r Ref, m Meta) (size uintptr) {
	off := uintptr(r) << 3
	s.meta, s.i, s.order, s.hot, s.end = m, 0, 0, 0, 0
	switch m.Layout() {
	case LayoutFixed:
		s.first = off + uintptr(1+m.prefixWords())*WordSize
		s.order = uintptr(m) + metaScanOrder
		s.end = m.NumSlots()
		if hs, ok := m.HotSlot(); ok {
			s.hot = s.first + uintptr(hs)*WordSize
		}
		size = m.size()
	case LayoutSlots:
		s.first = off + 2*WordSize
		s.end = h.Length(r)
		size = slotsSize(s.end)
	default:
		size = h.sizeOf(r, m)
	}
	if co := m.loadClassObject(); co != 0 {
		s.head = slot{classSlot, co, true}
		return size
	}
	s.head.off, s.head.ref, s.head.ok = s.next(h)
	return size
}

// startSegment begins iterating over elements [from, to) of array arr.
func (s *slots) startSegment(h *Heap, arr Ref, from, to int) {
	*s = slots{first: uintptr(arr)<<3 + 2*WordSize, i: from, end: to}
	s.head.off, s.head.ref, s.head.ok = s.next(h)
}

// slot is a reference and where it is held.
type slot struct {
	off uintptr
	ref Ref
	ok  bool
}

// firstRef returns the first reference after start, like next.
func (s *slots) firstRef() (off uintptr, ref Ref, ok bool) {
	return s.head.off, s.head.ref, s.head.ok
}

// next returns the next reference of the object and where it is held, or
// ok false at the end. It is the collectors' innermost loop: it must stay
// within the inlining budget.
func (s *slots) next(h *Heap) (off uintptr, ref Ref, ok bool) {
	for s.i < s.end {
		k := uintptr(s.i)
		s.i++
		if s.order != 0 {
			k = uintptr(*(*uint16)(mem.At(s.order + k<<1)))
		}
		off = s.first + k<<3
		if v := Value(*(*uint64)(unsafe.Add(h.base, off))); v.IsRef() {
			return off, v.AsRef(), true
		}
	}
	return 0, 0, false
}

// storeClass replaces the class object (the reference at classSlot): a
// copy through it has no heap slot for forwardTo to update.
func (s *slots) storeClass(off uintptr, ref Ref) {
	if off == classSlot {
		s.meta.storeClassObject(ref)
	}
}

// arc returns the slot to pass with a copy made through off: tagged with
// hotArc when off is the class's hottest slot (recordCopy counts those for
// hot_contain_64).
func (s *slots) arc(off uintptr) uintptr {
	if off == s.hot {
		return off | hotArc
	}
	return off
}

// hotArc tags a slot offset passed with a copy when the slot is its
// class's hottest: slot offsets are word-aligned, so bit 0 is free.
const hotArc = 1

// storeAt writes a value slot by offset, without a barrier (collectors
// maintain the remembered set themselves).
func (h *Heap) storeAt(off uintptr, v Value) { *h.word(Ref(off>>3), 0) = uint64(v) }

// arraySplitMinimum: pointer arrays with more elements are scanned in
// segments of about this many elements by different workers.
const arraySplitMinimum = 512

// splittable reports whether the size bytes copied at n are exactly one
// pointer array worth splitting into segments.
func splittable(h *Heap, n Ref, size uintptr) bool {
	return size >= slotsSize(arraySplitMinimum+1) && h.MetaOf(n).Layout() == LayoutSlots &&
		h.Length(n) > arraySplitMinimum && size == slotsSize(h.Length(n))
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

// segmentBytes is what scanning elements [from, to) of an array accounts
// as scanned: the header and length word go with the first segment.
func segmentBytes(from, to int) uintptr {
	n := uintptr(to-from) * WordSize
	if from == 0 {
		n += 2 * WordSize
	}
	return n
}
