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

// pendingCopy describes an object about to be copied. It has at most
// four fields so that the compiler keeps it in registers.
type pendingCopy struct {
	from   Ref
	hdr    uint64
	size   uintptr
	region region // where its age sends it
}

// destination is where a traversal's common-case copies go: per region
// its age selects, the copyspace to copy into (nil: none), the largest
// object it takes there, and whether such a copy lands inside the
// worker's current scan structure (inside_pct, stats.go). A traversal
// keeps one up to date and handles every other case on its slow path.
type destination struct {
	to     [2]*copyspace
	limit  [2]uintptr
	inside [2]bool
}

// only returns the destination that sends a copy of region r into c.
func only(r region, c *copyspace, inside bool) (d destination) {
	d.to[r&1], d.limit[r&1], d.inside[r&1] = c, ^uintptr(0), inside
	return d
}

// inEvacuate reports whether r is in the space being evacuated.
func (h *Heap) inEvacuate(r Ref) bool {
	off := uintptr(r) << 3
	return off >= h.allocLo && off < h.allocHi
}

// forwardTo returns the new location of r, which is in evacuate space:
// the forwardee if r was already copied, or its copy in d when d has room
// for it (won: this worker made the copy, else another worker won the
// race and its copy is returned). slot is the referring slot (noSlot for
// roots and class objects, tagged by slots.arc). When d cannot take r, n
// is 0 and p describes the copy for the traversal's slow path, which
// calls forwardTo again with a destination that can.
//
// It is the one copy routine of every nursery traversal and runs once per
// reference into evacuate space, so it is written to need no calls but
// the prefetch (every 256 bytes copied) and memmove (large objects).
func (w *worker) forwardTo(r Ref, slot uintptr, d *destination) (n Ref, p pendingCopy, won bool) {
	h := w.h
	hdr := atomic.LoadUint64(h.word(r, 0))
	if hdr&hdrForwarded != 0 {
		return Ref(uint32(hdr)), p, false
	}
	p = pendingCopy{from: r, hdr: hdr, size: h.sizeOf(r, Meta(uint32(hdr)))}
	if (hdr&hdrAgeMask)>>hdrAgeShift+1 >= w.tenureAge {
		p.region = tenureRegion
	}
	c := d.to[p.region&1]
	if c == nil || p.size > d.limit[p.region&1] || c.end-c.copy < p.size {
		return 0, p, false
	}
	to := c.copy
	c.copy += p.size
	h.copyBody(to, uintptr(r)<<3, p.size)
	newHdr := hdr &^ (hdrAgeMask | hdrRemembered | hdrMarked)
	if c.region == survivorRegion {
		newHdr += min(hdr&hdrAgeMask+1<<hdrAgeShift, MaxAge<<hdrAgeShift)
	}
	*h.word(Ref(to>>3), 0) = newHdr
	if w.solo {
		*h.word(r, 0) = hdrForwarded | uint64(to>>3)
	} else if !atomic.CompareAndSwapUint64(h.word(r, 0), hdr, hdrForwarded|uint64(to>>3)) {
		c.copy = to
		return Ref(uint32(atomic.LoadUint64(h.word(r, 0)))), p, false
	}
	w.stats.recordCopy(slot, to, p.size, c.region, d.inside[p.region&1])
	if (to^c.copy)>>8 != 0 {
		// The copy head entered a new 256-byte block: fetch the block
		// copyPrefetchDistance ahead for writing. (Last, so that little
		// is live across the call.)
		prefetchBlock(uintptr(h.base) + c.copy&^255 + copyPrefetchDistance)
	}
	return Ref(to >> 3), p, true
}

// copyBody copies the words after the header of a size-byte object from
// offset from to offset to. Most copied objects are a few words, for which
// a word loop is cheaper than a call to memmove.
func (h *Heap) copyBody(to, from, size uintptr) {
	if size > smallCopy {
		copy(unsafe.Slice((*byte)(unsafe.Add(h.base, to)), size), unsafe.Slice((*byte)(unsafe.Add(h.base, from)), size))
		return
	}
	d, s := unsafe.Add(h.base, to), unsafe.Add(h.base, from)
	for i := size - WordSize; i > 0; i -= WordSize {
		*(*uint64)(unsafe.Add(d, i)) = *(*uint64)(unsafe.Add(s, i))
	}
}

// smallCopy is the largest object copyBody copies word by word.
const smallCopy = 128

// copyPrefetchDistance is how far ahead of a copy the destination is
// prefetched for writing (HotSpot's PrefetchCopyIntervalInBytes), a
// 256-byte block (four cache lines) at a time. Without it, each new
// to-space line is fetched when the copy first stores to it, and a
// forwarding CAS then waits for that fetch: the locked instruction drains
// the store buffer. With it, dom_tree's copy rate rises about 4% with one
// GC thread and 8% with two (BENCHMARKS.md, "Parallel GC").
const copyPrefetchDistance = 256

// outOfSpace is the panic of a copy for which neither region has room.
// A nursery collection never starts without room for the worst case
// (nursery.go), so this means the accounting is wrong or whitespace was
// lost; it is reported as an OutOfMemoryError rather than corrupt the heap.
func outOfSpace() *OutOfMemoryError {
	return &OutOfMemoryError{Msg: "no room to copy survivors (survivor space and tenure exhausted)"}
}
