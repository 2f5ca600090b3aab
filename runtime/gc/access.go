package gc

import "unsafe"

// Object access for the mutator. These are the only ways interp reads and
// writes heap objects; all are small enough to inline. Word 0 is the
// header, word 1 the first word after it. A Ref must not be held across an
// allocation: any allocation may move objects. Keep references in rooted
// places (the VM stack, globals, handles) and reload them.

func (h *Heap) word(r Ref, w int) *uint64 {
	return (*uint64)(unsafe.Add(h.base, uintptr(r)<<3+uintptr(w)*WordSize))
}

// Header returns the header word.
func (h *Heap) Header(r Ref) uint64 { return *h.word(r, 0) }

// Kind returns the client kind byte stored in the header.
func (h *Heap) Kind(r Ref) uint8 { return uint8(*h.word(r, 0) >> hdrKindShift) }

// MetaOf returns the object's ClassMeta.
func (h *Heap) MetaOf(r Ref) Meta { return Meta(uint32(*h.word(r, 0))) }

// Load reads word w as a value.
func (h *Heap) Load(r Ref, w int) Value { return Value(*h.word(r, w)) }

// Store writes value v into word w of object r. It is the write barrier:
// every store of a value into a heap object goes through here, so that a
// tenured object that comes to hold a nursery reference is remembered.
func (h *Heap) Store(r Ref, w int, v Value) {
	*h.word(r, w) = uint64(v)
	if v.IsRef() && v.AsRef() >= h.nurseryRef && r < h.nurseryRef {
		h.remember(r)
	}
}

// RawWord reads word w without interpreting it (prefix and length words).
func (h *Heap) RawWord(r Ref, w int) uint64 { return *h.word(r, w) }

// SetRawWord writes a non-reference word (prefix words, the client half of
// a length word). Never use it for value slots: it bypasses the barrier.
func (h *Heap) SetRawWord(r Ref, w int, x uint64) { *h.word(r, w) = x }

// Length returns the element or byte count of a LayoutSlots or LayoutBytes
// object (the low half of word 1).
func (h *Heap) Length(r Ref) int { return int(uint32(*h.word(r, 1))) }

// Bytes returns the payload of a LayoutBytes object. The slice aliases the
// heap: do not keep it across an allocation.
func (h *Heap) Bytes(r Ref) []byte {
	return unsafe.Slice((*byte)(unsafe.Add(h.base, uintptr(r)<<3+2*WordSize)), h.Length(r))
}
