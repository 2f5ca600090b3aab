package gc

import (
	"sync/atomic"
	"unsafe"
)

// Forwarding and tenuring, shared by every nursery traversal. A worker
// copies an object the first time it sees it, leaves a forwarding header
// behind, and returns the new reference to every later visitor.
//
// With several workers, two may reach the same object at once. Each
// reserves room in its own copyspace and claims the object by installing
// the forwarding header with a compare-and-swap on the original header
// word; only the winner copies (as G1 does). The loser takes its room back
// (its copy head rolls back) and uses the winner's address. This is safe
// because no worker reads a copy's content before its claimer has
// finished it: another worker only uses a forwardee's address, and copied
// material reaches other workers (the scan list, worklists, stolen work)
// under a lock, after the copies in it are complete. Claiming first also
// lets the copy loop come last in forwardTo, with little else live. With
// one worker there is no race and the header is stored plainly.
//
// Tenuring: an object that has survived the collection's tenure age less
// one collections (tenure.go) is copied to tenure, any other to survivor
// space; a survivor copy's age goes up by one, a tenure copy's age is
// cleared. The copy's size is counted by region and original age (the
// age table, tenure.go). When the chosen region is
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
// race and its copy is returned). slot is the referring heap slot, which
// it updates (tagged by slots.arc), or noSlot for roots and class
// objects, which the caller updates. When d cannot take r, n is 0 and p
// describes the copy for the traversal's slow path, which calls forwardTo
// again with a destination that can.
//
// It is the one copy routine of every nursery traversal and runs once per
// reference into evacuate space, so it makes no call but the prefetch
// (once per 256 bytes copied): see BENCHMARKS.md, "Nursery copying".
func (w *worker) forwardTo(r Ref, slot uintptr, d *destination) (n Ref, p pendingCopy, won bool) {
	h := w.h
	base := h.base
	hp := (*uint64)(unsafe.Add(base, uintptr(r)<<3))
	hdr := atomic.LoadUint64(hp)
	if hdr&hdrForwarded != 0 {
		n = Ref(uint32(hdr))
		storeSlot(base, slot, n)
		return n, p, false
	}
	age := hdr & hdrAgeMask
	p = pendingCopy{from: r, hdr: hdr, size: h.sizeOf(r, Meta(uint32(hdr)))}
	if age >= w.tenureAt {
		p.region = tenureRegion
	}
	c := d.to[p.region&1]
	if c == nil || p.size > d.limit[p.region&1] || c.end-c.copy < p.size {
		return 0, p, false
	}
	to := c.copy
	c.copy += p.size
	fwd := hdrForwarded | uint64(to>>3)
	if w.solo {
		*hp = fwd
	} else if !atomic.CompareAndSwapUint64(hp, hdr, fwd) {
		c.copy = to
		n = Ref(uint32(atomic.LoadUint64(hp)))
		storeSlot(base, slot, n)
		return n, p, false
	}
	w.stats.recordCopy(slot, to, p.size, c.region, age, d.inside[p.region&1])
	storeSlot(base, slot, Ref(to>>3))
	// The copy's header: one collection older in survivor space (only a
	// survivor copy of an object due for tenure, when tenure was full,
	// can reach the largest age), age cleared in tenure; never remembered
	// or marked.
	newHdr := hdr &^ (hdrRemembered | hdrMarked)
	if c.region != survivorRegion {
		newHdr &^= hdrAgeMask
	} else if age < MaxAge<<hdrAgeShift {
		newHdr += 1 << hdrAgeShift
	}
	// The words after the header, two at a time, from the last: a loop,
	// not memmove or a helper, because a call in forwardTo would make
	// the compiler spill its live values on every copy; at the sizes
	// copied it keeps up with memmove. The original's words are intact:
	// only its header was replaced.
	dst := unsafe.Add(base, to)
	i := p.size - WordSize
	for ; i >= 2*WordSize; i -= 2 * WordSize {
		move2(dst, unsafe.Pointer(hp), i-WordSize)
	}
	if i != 0 {
		move(dst, unsafe.Pointer(hp), WordSize)
	}
	*(*uint64)(dst) = newHdr
	if (to^c.copy)>>8 != 0 {
		// The copy head entered a new 256-byte block: fetch the block
		// copyPrefetchDistance ahead for writing (last: little is live
		// across the call).
		prefetchBlock(uintptr(base) + c.copy&^255 + copyPrefetchDistance)
	}
	return Ref(to >> 3), p, true
}

// storeSlot makes heap slot slot (tagged by slots.arc) refer to n; noSlot
// stands for a root or a class object, which the caller updates.
func storeSlot(base unsafe.Pointer, slot uintptr, n Ref) {
	if slot != noSlot {
		*(*Value)(unsafe.Add(base, slot&^hotArc)) = FromRef(n)
	}
}

// move copies the word at byte offset i; move2 the two words from i.
func move(dst, src unsafe.Pointer, i uintptr) {
	*(*uint64)(unsafe.Add(dst, i)) = *(*uint64)(unsafe.Add(src, i))
}

func move2(dst, src unsafe.Pointer, i uintptr) {
	a, b := *(*uint64)(unsafe.Add(src, i)), *(*uint64)(unsafe.Add(src, i+WordSize))
	*(*uint64)(unsafe.Add(dst, i)), *(*uint64)(unsafe.Add(dst, i+WordSize)) = a, b
}

// copyPrefetchDistance is how far ahead of a copy the destination is
// prefetched for writing (HotSpot's PrefetchCopyIntervalInBytes), a
// 256-byte block (four cache lines) at a time. Without it, each new
// to-space line is fetched when the copy first stores to it, and the
// stores queue behind that fetch (and the next forwarding CAS, a full
// barrier, behind them). With a prefetch per line, dom_tree's copy rate
// rose about 4% with one GC thread and 8% with two (BENCHMARKS.md,
// "Parallel GC").
const copyPrefetchDistance = 256

// outOfSpace is the panic of a copy for which neither region has room.
// A nursery collection never starts without room for the worst case
// (nursery.go), so this means the accounting is wrong or whitespace was
// lost; it is reported as an OutOfMemoryError rather than corrupt the heap.
func outOfSpace() *OutOfMemoryError {
	return &OutOfMemoryError{Msg: "no room to copy survivors (survivor space and tenure exhausted)"}
}
