package gc

// Copy destinations shared by the nursery collectors.
//
// A copy cache (OMR's name; the evacuator calls the same thing a
// copyspace) is a block of whitespace in survivor space or tenure,
// [base, end), that one worker copies into by bumping copy. The bytes in
// [scan, copy) are copied but not yet scanned: work. Caches are carved from
// a region by whitespace(); when a cache is retired its unused tail becomes
// a filler object so the region stays walkable.

// region is a copy destination.
type region uint8

const (
	survivorRegion region = iota
	tenureRegion
)

func (r region) other() region { return 1 - r }

type copyCache struct {
	region                region
	base, scan, copy, end uintptr
	slot                  int  // next slot of the object at scan (hierarchical aliasing resumes mid-object)
	listed                bool // on the shared scan list
	fromList              bool // taken off the scan list: its scanning does not count as inside
	objYoung              bool // the object at scan refers into the nursery so far

	// A segment of a split pointer array: elements [from, to) of array.
	segment  bool
	array    Ref
	from, to int
}

func (c *copyCache) unscanned() uintptr { return c.copy - c.scan }

// copyCacheSize is the whitespace a worker takes from a region at a time;
// objects above copyCacheSize/2 get a cache of their own (a solo copy).
const copyCacheSize = 32 << 10

// whitespace carves at least min and at most want bytes from region r. It
// returns false when r cannot supply min bytes.
func (h *Heap) whitespace(r region, minSize, want uintptr) (base, end uintptr, ok bool) {
	h.regionLock.Lock()
	defer h.regionLock.Unlock()
	if r == survivorRegion {
		free := h.survHi - h.survTop
		if free < minSize {
			return 0, 0, false
		}
		size := min(want, free)
		base = h.survTop
		h.survTop += size
		return base, base + size, true
	}
	free := h.tenureHi - h.tenureTop
	if free < minSize {
		return 0, 0, false
	}
	size := min(want, free)
	off, ok := h.bumpTenure(size)
	if !ok {
		if off, ok = h.bumpTenure(minSize); !ok {
			return 0, 0, false
		}
		size = minSize
	}
	return off, off + size, true
}

// giveBack returns the unused tail of a retired cache: to the region if it
// is the last block carved there, else as a filler hole.
func (h *Heap) giveBack(c *copyCache) {
	h.regionLock.Lock()
	defer h.regionLock.Unlock()
	switch {
	case c.region == survivorRegion && c.end == h.survTop:
		h.survTop = c.copy
	case c.region == tenureRegion && c.end == h.tenureTop:
		h.tenureTop = c.copy
	default:
		h.fill(c.copy, c.end-c.copy)
	}
	c.end = c.copy
}

// survivorFree returns the survivor space not yet carved.
func (h *Heap) survivorFree() uintptr {
	h.regionLock.Lock()
	defer h.regionLock.Unlock()
	return h.survHi - h.survTop
}

// recycle returns block b to region r if it is the last block carved
// there.
func (h *Heap) recycle(r region, b block) bool {
	h.regionLock.Lock()
	defer h.regionLock.Unlock()
	switch {
	case r == survivorRegion && b.end == h.survTop:
		h.survTop = b.base
	case r == tenureRegion && b.end == h.tenureTop:
		h.tenureTop = b.base
	default:
		return false
	}
	return true
}
