package gc

import (
	"sync/atomic"
	"unsafe"
)

// Forwarding and tenuring, shared by every nursery traversal. A worker
// copies an object the first time it sees it, leaves a forwarding header
// behind, and returns the new reference to every later visitor.
//
// With several workers, two may copy the same object at once. Each copies
// into its own copyspace, then tries to install the forwarding header with
// a compare-and-swap on the original header word. The loser takes its
// whitespace back (its copy head rolls back) and uses the winner's copy.
// The copy is complete before the CAS publishes it, so a worker that reads
// a forwarding header (atomically) sees a finished object. With one worker
// there is no race and the header is stored plainly.
//
// Tenuring: an object that has survived Config.TenureAge-1 collections is
// copied to tenure, any other to survivor space; a survivor copy's age goes
// up by one, a tenure copy's age is cleared. When the chosen region is
// full the traversal uses the other (region.other).

// pendingCopy describes an object about to be copied.
type pendingCopy struct {
	from   Ref
	hdr    uint64
	size   uintptr
	age    uint64
	region region // where its age sends it
	to     Ref    // the forwardee, when already copied
}

// inEvacuate reports whether r is in the space being evacuated.
func (h *Heap) inEvacuate(r Ref) bool {
	off := uintptr(r) << 3
	return off >= h.allocLo && off < h.allocHi
}

// examine reads r's header: if r was already copied it returns the
// forwardee with done set; otherwise it returns the size and the region
// tenuring selects.
func (w *worker) examine(r Ref) (p pendingCopy, done bool) {
	h := w.h
	hdr := atomic.LoadUint64(h.word(r, 0))
	if hdr&hdrForwarded != 0 {
		return pendingCopy{to: Ref(uint32(hdr))}, true
	}
	p = pendingCopy{from: r, hdr: hdr, size: h.sizeOf(r, Meta(uint32(hdr))), age: (hdr & hdrAgeMask) >> hdrAgeShift}
	if int(p.age)+1 >= h.cfg.TenureAge {
		p.region = tenureRegion
	}
	return p, false
}

// install copies the object to the copy head of c, which must have room,
// and tries to forward the original there. slot is the referring slot
// (noSlot for roots and class objects, tagged by slots.arc), inside says
// whether c is part of the worker's current scanspace (the inside_pct
// definition, stats.go). If another worker won the race, c's copy head
// rolls back and the winner's copy is returned with won false. Only
// winners count copies.
func (w *worker) install(p *pendingCopy, c *copyspace, slot uintptr, inside bool) (n Ref, won bool) {
	h := w.h
	to := c.copy
	c.copy += p.size
	from := uintptr(p.from) << 3
	prefetchWrite(uintptr(h.base) + to + copyPrefetchDistance)
	copy(unsafe.Slice((*byte)(unsafe.Add(h.base, to)), p.size), unsafe.Slice((*byte)(unsafe.Add(h.base, from)), p.size))
	newHdr := p.hdr &^ (hdrAgeMask | hdrRemembered | hdrMarked)
	if c.region == survivorRegion {
		newHdr |= min(p.age+1, MaxAge) << hdrAgeShift
	}
	*h.word(Ref(to>>3), 0) = newHdr
	if w.solo {
		*h.word(p.from, 0) = hdrForwarded | uint64(to>>3)
	} else if !atomic.CompareAndSwapUint64(h.word(p.from, 0), p.hdr, hdrForwarded|uint64(to>>3)) {
		c.copy = to
		return Ref(uint32(atomic.LoadUint64(h.word(p.from, 0)))), false
	}
	w.stats.recordCopy(slot, to, p.size, c.region, inside)
	return Ref(to >> 3), true
}

// copyPrefetchDistance is how far ahead of a copy the destination is
// prefetched for writing (HotSpot's PrefetchCopyIntervalInBytes). Without
// it, each new to-space line is fetched when the copy first stores to it,
// and a forwarding CAS then waits for that fetch: the locked instruction
// drains the store buffer. With it, dom_tree's copy rate rises about 4%
// with one GC thread and 8% with two (BENCHMARKS.md, "Parallel GC").
const copyPrefetchDistance = 256

// outOfSpace is the panic of a copy for which neither region has room.
// A nursery collection never starts without room for the worst case
// (nursery.go), so this means the accounting is wrong or whitespace was
// lost; it is reported as an OutOfMemoryError rather than corrupt the heap.
func outOfSpace() *OutOfMemoryError {
	return &OutOfMemoryError{Msg: "no room to copy survivors (survivor space and tenure exhausted)"}
}
