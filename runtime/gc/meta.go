package gc

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"minivm/runtime/mem"
)

// Meta is the 32-bit address of a ClassMeta record, which lives below 4 GB
// in the metadata arena so that an object header can hold it directly.
//
// A ClassMeta record holds no Go pointers:
//
//	offset 0   layout       uint8
//	offset 1   kind         uint8  (client-defined, copied into headers)
//	offset 2   prefixWords  uint8  (raw words before the slots, LayoutFixed)
//	offset 3   flags        uint8  (metaHotKnown)
//	offset 4   numSlots     uint32 (LayoutFixed)
//	offset 8   size         uint32 (bytes incl. header, LayoutFixed)
//	offset 12  tag          uint32 (client-defined, e.g. a class table index)
//	offset 16  classObject  Ref    (see below)
//	offset 20  recordSize   uint32 (bytes of this record)
//	offset 24  hotSlot      uint16 (the hottest slot, when metaHotKnown)
//	offset 26  scanOrder    [numSlots]uint16: slot indices in scan order
//
// classObject, when non-zero, is the object that owns this ClassMeta (a Lox
// class). Every object with this ClassMeta keeps it alive: scanning such an
// object visits the classObject field as a reference. The heap's table of
// class metas is weak: when a collection finds the class object dead, the
// ClassMeta is freed (class unloading).
type Meta uint32

const (
	metaLayout      = 0
	metaKind        = 1
	metaPrefix      = 2
	metaFlags       = 3
	metaNumSlots    = 4
	metaSize        = 8
	metaTag         = 12
	metaClassObject = 16
	metaRecordSize  = 20
	metaHotSlot     = 24
	metaScanOrder   = 26
)

// Flags (the flags byte).
const (
	// metaHotKnown: hotSlot names the class's hottest slot, as the
	// hot-field profiler found it (runtime/jit_hints). Copies through that
	// slot are counted for hot_contain_64.
	metaHotKnown uint8 = 1 << iota
)

func (m Meta) ptr(off uintptr) unsafe.Pointer { return mem.At(uintptr(m) + off) }

// Layout returns how objects of this ClassMeta are laid out.
func (m Meta) Layout() Layout { return Layout(*(*uint8)(m.ptr(metaLayout))) }

// kind returns the client-defined kind byte, which allocation copies into
// each object's header (Heap.Kind reads it there).
func (m Meta) kind() uint8 { return *(*uint8)(m.ptr(metaKind)) }

// prefixWords returns the raw words between the header and the first slot.
func (m Meta) prefixWords() int { return int(*(*uint8)(m.ptr(metaPrefix))) }

// NumSlots returns the number of value slots of a LayoutFixed object.
func (m Meta) NumSlots() int { return int(*(*uint32)(m.ptr(metaNumSlots))) }

// size returns the size in bytes of a LayoutFixed object.
func (m Meta) size() uintptr { return uintptr(*(*uint32)(m.ptr(metaSize))) }

// Tag returns the client-defined tag.
func (m Meta) Tag() uint32 { return *(*uint32)(m.ptr(metaTag)) }

// ClassObject returns the owning class object, or 0.
func (m Meta) ClassObject() Ref { return Ref(*(*uint32)(m.ptr(metaClassObject))) }

// setClassObject records the owning class object.
func (m Meta) setClassObject(r Ref) { *(*uint32)(m.ptr(metaClassObject)) = uint32(r) }

// loadClassObject and storeClassObject access the class-object field
// during a collection, when several workers may update it at once (always
// to the same forwardee).
func (m Meta) loadClassObject() Ref {
	return Ref(atomic.LoadUint32((*uint32)(m.ptr(metaClassObject))))
}

func (m Meta) storeClassObject(r Ref) {
	atomic.StoreUint32((*uint32)(m.ptr(metaClassObject)), uint32(r))
}

func (m Meta) recordSize() uintptr { return uintptr(*(*uint32)(m.ptr(metaRecordSize))) }

// ScanOrder returns slot i of the scan order: the index of the value slot
// scanned i-th. Initially the declaration order.
func (m Meta) ScanOrder(i int) int {
	return int(*(*uint16)(m.ptr(metaScanOrder + uintptr(i)*2)))
}

// SetScanOrder replaces the scan order; order must be a permutation of
// 0..NumSlots-1. Only call it while no collection runs.
func (m Meta) SetScanOrder(order []int) {
	for i, s := range order {
		*(*uint16)(m.ptr(metaScanOrder + uintptr(i)*2)) = uint16(s)
	}
}

// HotSlot returns the class's hottest value slot and true, or false when
// the profiler has not named one.
func (m Meta) HotSlot() (int, bool) {
	if *(*uint8)(m.ptr(metaFlags))&metaHotKnown == 0 {
		return 0, false
	}
	return int(*(*uint16)(m.ptr(metaHotSlot))), true
}

// SetHotSlot records slot as the class's hottest value slot; a negative
// slot clears it. Only call it while no collection runs.
func (m Meta) SetHotSlot(slot int) {
	f := (*uint8)(m.ptr(metaFlags))
	if slot < 0 {
		*f &^= metaHotKnown
		return
	}
	*(*uint16)(m.ptr(metaHotSlot)) = uint16(slot)
	*f |= metaHotKnown
}

// MetaSpec describes a ClassMeta to create.
type MetaSpec struct {
	Layout      Layout
	Kind        uint8
	PrefixWords int // LayoutFixed only
	NumSlots    int // LayoutFixed only
	Tag         uint32
}

// maxFixedSlots bounds LayoutFixed objects so their size fits the header
// arithmetic comfortably; the client spills further fields elsewhere.
const maxFixedSlots = 1 << 16

// NewMeta allocates and fills a ClassMeta record below 4 GB.
func (h *Heap) NewMeta(spec MetaSpec) (Meta, error) {
	if spec.NumSlots < 0 || spec.NumSlots >= maxFixedSlots || spec.PrefixWords < 0 || spec.PrefixWords > 255 {
		return 0, fmt.Errorf("invalid class layout: %d slots, %d prefix words", spec.NumSlots, spec.PrefixWords)
	}
	recordSize := uintptr(metaScanOrder + 2*spec.NumSlots)
	addr, err := h.metaArena.Alloc(recordSize)
	h.metaChanges++
	if err != nil {
		return 0, err
	}
	if addr == 0 {
		panic("ClassMeta at address 0")
	}
	m := Meta(addr)
	*(*uint8)(m.ptr(metaLayout)) = uint8(spec.Layout)
	*(*uint8)(m.ptr(metaKind)) = spec.Kind
	*(*uint8)(m.ptr(metaPrefix)) = uint8(spec.PrefixWords)
	*(*uint8)(m.ptr(metaFlags)) = 0
	*(*uint32)(m.ptr(metaNumSlots)) = uint32(spec.NumSlots)
	if spec.Layout == LayoutFixed {
		*(*uint32)(m.ptr(metaSize)) = uint32(WordSize * (1 + spec.PrefixWords + spec.NumSlots))
	}
	*(*uint32)(m.ptr(metaTag)) = spec.Tag
	*(*uint32)(m.ptr(metaRecordSize)) = uint32(recordSize)
	for i := 0; i < spec.NumSlots; i++ {
		*(*uint16)(m.ptr(metaScanOrder + uintptr(i)*2)) = uint16(i)
	}
	return m, nil
}

// NewClassMeta creates a ClassMeta owned by the class object owner. The
// heap unloads it (frees the record and calls the unload hook) once owner
// is found dead by a collection.
func (h *Heap) NewClassMeta(spec MetaSpec, owner Ref) (Meta, error) {
	m, err := h.NewMeta(spec)
	if err != nil {
		return 0, err
	}
	m.setClassObject(owner)
	h.classMetas = append(h.classMetas, m)
	return m, nil
}

// freeMeta returns a record to the sub-allocator (class unloading).
func (h *Heap) freeMeta(m Meta) {
	h.metaChanges++
	if err := h.metaArena.Free(uint32(m), m.recordSize()); err != nil {
		panic(fmt.Sprintf("freeing ClassMeta %#x: %v", uint32(m), err))
	}
}

// validMeta reports whether m is the address of a ClassMeta record that
// the heap created and has not freed: the segment map of the region that
// holds m must lead from m back to m itself, the start of a block in use.
// (Every block of the metadata sub-allocator is a ClassMeta record.)
func (h *Heap) validMeta(m Meta) bool {
	return h.metaArena.IsBlockStart(uint32(m))
}

// newMetaArena creates the low-4GB sub-allocator for ClassMeta records
// from the -Xgc:suballocator* settings. With -Xcheck:gc freed records are
// zapped, so that metaArena.Verify catches writes to unloaded classes.
func newMetaArena(cfg Config) (*mem.Low4G, error) {
	return mem.NewLow4G(mem.Low4GConfig{
		InitialSize:   cfg.SuballocatorInitialSize,
		CommitSize:    cfg.SuballocatorCommitSize,
		IncrementSize: cfg.SuballocatorIncrementSize,
		BruteForce:    cfg.SuballocatorBruteForce,
		Zap:           cfg.Verify,
	})
}
