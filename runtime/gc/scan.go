package gc

// Object walking shared by every collector and the verifier: how big an
// object is and where its references are. Offsets are bytes from the heap
// base; a slot offset is the offset of a value word.

// sizeAt returns the size in bytes of the object at off, which must not be
// forwarded.
func (h *Heap) sizeAt(off uintptr) uintptr {
	return h.sizeOf(Ref(off>>3), Meta(uint32(*h.word(Ref(off>>3), 0))))
}

// sizeOf returns the size of object r with ClassMeta m.
func (h *Heap) sizeOf(r Ref, m Meta) uintptr {
	switch m.Layout() {
	case LayoutFixed:
		return m.Size()
	case LayoutSlots:
		return SlotsSize(h.Length(r))
	case LayoutBytes:
		return BytesSize(h.Length(r))
	case LayoutFiller:
		return uintptr(*h.word(r, 1))
	}
	return 0
}

// slotRange returns the first slot offset of object r and the number of its
// value slots. For LayoutFixed objects the slots are visited in the
// ClassMeta's scan order (see forEachSlot).
func (h *Heap) slotRange(r Ref, m Meta) (first uintptr, n int) {
	off := uintptr(r) << 3
	switch m.Layout() {
	case LayoutFixed:
		return off + uintptr(1+m.PrefixWords())*WordSize, m.NumSlots()
	case LayoutSlots:
		return off + 2*WordSize, h.Length(r)
	}
	return 0, 0
}

// slotAt returns the offset of the i-th slot visited when scanning object
// r: LayoutFixed objects follow the ClassMeta scan order, so the hottest
// field is copied first.
func slotAt(m Meta, fixed bool, first uintptr, i int) uintptr {
	if fixed {
		return first + uintptr(m.ScanOrder(i))*WordSize
	}
	return first + uintptr(i)*WordSize
}

// hotArc tags the slot offset passed with a copy (forward, evacuate) when
// the slot is its class's hottest (Meta.HotSlot): slot offsets are
// word-aligned, so bit 0 is free. recordCopy strips it.
const hotArc = 1

// hotSlotAt returns the offset of the hottest slot of an object whose
// first slot is at first, or 0 when its ClassMeta names none (only
// LayoutFixed objects have one).
func hotSlotAt(m Meta, fixed bool, first uintptr) uintptr {
	if fixed {
		if s, ok := m.HotSlot(); ok {
			return first + uintptr(s)*WordSize
		}
	}
	return 0
}

// arcSlot returns the slot offset to pass with a copy through slot off:
// tagged with hotArc when off is the object's hottest slot hot.
func arcSlot(off, hot uintptr) uintptr {
	if off == hot {
		return off | hotArc
	}
	return off
}

// loadAt and storeAt read and write a value slot by offset, without a
// barrier (collectors maintain the remembered set themselves).
func (h *Heap) loadAt(off uintptr) Value     { return Value(*h.word(Ref(off>>3), 0)) }
func (h *Heap) storeAt(off uintptr, v Value) { *h.word(Ref(off>>3), 0) = uint64(v) }
