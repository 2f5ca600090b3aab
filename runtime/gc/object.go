package gc

import "unsafe"

// Object layout.
//
// Every object starts at an 8-byte aligned address with a one-word header:
//
//	bits  0-31  compressed class pointer: the address (below 4 GB) of the
//	            object's ClassMeta
//	bits 32-35  age: nursery collections survived (tenuring)
//	bit  36     remembered: a tenured object in the remembered set
//	bit  37     marked: reached by the current global collection
//	bits 40-47  kind: copied from the ClassMeta for the client's dispatch
//	bit  63     forwarded: the object has moved; bits 0-31 are the new Ref
//
// What follows the header is described by the ClassMeta's layout:
//
//	LayoutFixed  PrefixWords raw words, then NumSlots value slots; the size
//	             is fixed per ClassMeta
//	LayoutSlots  a length word (bits 0-31 = element count, bits 32-63 free
//	             for the client), then that many value slots
//	LayoutBytes  a length word (bits 0-31 = byte count, bits 32-63 free for
//	             the client, e.g. a hash), then the bytes, padded to 8
//	layoutFiller a hole left in a walkable space: the length word gives the
//	             size in bytes (a one-word hole uses the fixed Filler8 meta)
//
// Only value slots hold references; everything else is opaque to the GC.

// Ref is a compressed heap reference: (address - heap base) >> 3. Ref 0 is
// never an object.
type Ref uint32

// WordSize is the size of a heap word and the object alignment.
const WordSize = 8

const (
	hdrAgeShift   = 32
	hdrAgeMask    = uint64(0xF) << hdrAgeShift
	hdrRemembered = uint64(1) << 36
	hdrMarked     = uint64(1) << 37
	hdrKindShift  = 40
	hdrForwarded  = uint64(1) << 63
	// MaxAge is the largest age a header can hold.
	MaxAge = 14
)

// Layout says how the GC finds an object's size and reference slots.
type Layout uint8

const (
	LayoutFixed Layout = iota + 1
	LayoutSlots
	LayoutBytes
	layoutFiller
)

func (l Layout) String() string {
	switch l {
	case LayoutFixed:
		return "fixed"
	case LayoutSlots:
		return "slots"
	case LayoutBytes:
		return "bytes"
	case layoutFiller:
		return "filler"
	}
	return "invalid"
}

// slotsSize is the size in bytes of a LayoutSlots object with n slots.
func slotsSize(n int) uintptr { return uintptr(2+n) * WordSize }

// bytesSize is the size in bytes of a LayoutBytes object holding n bytes.
func bytesSize(n int) uintptr { return 2*WordSize + (uintptr(n)+WordSize-1)&^(WordSize-1) }

// sizeAt returns the size in bytes of the object at offset off, which must
// not be forwarded.
func (h *Heap) sizeAt(off uintptr) uintptr {
	return h.sizeOf(Ref(off>>3), Meta(uint32(*h.word(Ref(off>>3), 0))))
}

// sizeOf returns the size of object r with ClassMeta m, whose layout must
// be valid. Every copy and scan asks, so it stays within the inlining
// budget (the record is addressed once).
func (h *Heap) sizeOf(r Ref, m Meta) uintptr {
	rec := m.ptr(0)
	l := Layout(*(*uint8)(unsafe.Add(rec, metaLayout)))
	if l == LayoutFixed {
		return uintptr(*(*uint32)(unsafe.Add(rec, metaSize)))
	}
	w1 := *(*uintptr)(unsafe.Add(h.base, uintptr(r)<<3+WordSize))
	if l == layoutFiller {
		return w1
	}
	// LayoutSlots (2) counts words, LayoutBytes (3) bytes: the shift, 3
	// or 0, is computed rather than branched on to stay in budget.
	n := uintptr(uint32(w1)) << ((LayoutBytes - l) * 3 & 7)
	return 2*WordSize + (n+WordSize-1)&^(WordSize-1)
}
