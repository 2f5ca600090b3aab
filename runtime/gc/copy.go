package gc

import (
	"sync/atomic"
	"time"
	"unsafe"
)

// Forwarding, copying and tenuring: the part of a nursery collection that
// does not depend on traversal order. A worker copies an object the first
// time it sees it, leaves a forwarding header behind, and returns the new
// reference to every later visitor.
//
// With several workers, two may copy the same object at once. Each copies
// into its own whitespace, then tries to install the forwarding header with
// a compare-and-swap on the original header word. The loser takes its
// whitespace back (or leaves a filler hole) and uses the winner's copy.
// The copy is complete before the CAS publishes it, so a worker that reads
// a forwarding header (atomically) sees a finished object.

// worker is one GC thread's state for nursery collections. Collectors add
// their traversal state beside it; parallel collection adds workers.
type worker struct {
	h     *Heap
	id    int
	solo  bool          // the collection's only worker
	cache [2]*copyCache // current copy destination per region
	full  [2]bool       // the region had no whitespace left for this worker
	stats workerStats

	lastCopy *copyCache // the cache that received the latest copy

	// Scavenger traversal state (scavenger.go).
	hierarchical bool
	scanning     *copyCache // the cache being scanned
	deferred     *copyCache // a half-scanned cache set aside by aliasing
	aliasTo      *copyCache // where shouldAlias decided to switch

	stallTime time.Duration // waiting for work
	stalls    int

	// newRemembered collects tenured objects found to hold nursery
	// references during this collection.
	newRemembered []Ref

	// Workers are allocated one after another and write their stats on
	// every copy: keep each on cache lines of its own.
	_ [128]byte
}

// inEvacuate reports whether r is in the space being evacuated.
func (h *Heap) inEvacuate(r Ref) bool {
	off := uintptr(r) << 3
	return off >= h.allocLo && off < h.allocHi
}

// forward returns the new location of r, which is in evacuate space,
// copying it into the region its age selects if no one has yet. slot is the
// offset of the referring slot (noSlot for roots; tagged by arcSlot when it
// is its class's hottest), used for containment statistics. This is the
// scavenger's copy; the evacuator places copies itself with examine and
// install.
func (w *worker) forward(r Ref, slot uintptr) Ref {
	p, done := w.examine(r)
	if done {
		return p.to
	}
	to, c, solo := w.reserve(p.region, p.size)
	n, won := w.install(&p, to, c.region, slot, &c.copy)
	if won {
		w.lastCopy = c
		if solo {
			w.h.pushSolo(w, c, n)
		}
	}
	return n
}

// pendingCopy describes an object about to be copied.
type pendingCopy struct {
	from   Ref
	hdr    uint64
	size   uintptr
	age    uint64
	region region // where its age sends it
	to     Ref    // the forwardee, when already copied
}

// examine reads r's header: if r was already copied it returns the
// forwardee with done set; otherwise it returns the size and the region
// tenuring selects (tenure once the object reaches the tenure age).
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

// install copies the object to offset to in region reg (whose copy head
// *head has already been advanced past it) and tries to forward the
// original there. If another worker won the race, the whitespace is given
// back (the head rolls back, or a hole is left) and the winner's copy is
// returned with won false. Only winners count copies.
func (w *worker) install(p *pendingCopy, to uintptr, reg region, slot uintptr, head *uintptr) (n Ref, won bool) {
	h := w.h
	from := uintptr(p.from) << 3
	prefetchWrite(uintptr(h.base) + to + copyPrefetchDistance)
	copy(unsafe.Slice((*byte)(unsafe.Add(h.base, to)), p.size), unsafe.Slice((*byte)(unsafe.Add(h.base, from)), p.size))
	newHdr := p.hdr &^ (hdrAgeMask | hdrRemembered | hdrMarked)
	if reg == survivorRegion {
		newHdr |= min(p.age+1, MaxAge) << hdrAgeShift
	}
	*h.word(Ref(to>>3), 0) = newHdr
	if w.solo {
		// The only worker: no race to lose, no need for a locked CAS.
		*h.word(p.from, 0) = hdrForwarded | uint64(to>>3)
	} else if !atomic.CompareAndSwapUint64(h.word(p.from, 0), p.hdr, hdrForwarded|uint64(to>>3)) {
		if *head == to+p.size {
			*head = to
		} else {
			h.fill(to, p.size)
		}
		return Ref(uint32(atomic.LoadUint64(h.word(p.from, 0)))), false
	}
	w.stats.recordCopy(slot, to, p.size, reg == tenureRegion)
	return Ref(to >> 3), true
}

// copyPrefetchDistance is how far ahead of a copy the destination is
// prefetched for writing (HotSpot's PrefetchCopyIntervalInBytes). Without
// it, each new to-space line is fetched when the copy first stores to it,
// and a forwarding CAS then waits for that fetch: the locked instruction
// drains the store buffer. With it, dom_tree's copy rate rises about 4%
// with one GC thread and 8% with two (BENCHMARKS.md, issue 5).
const copyPrefetchDistance = 256

// reserve finds room for size bytes in region r's copy cache, refreshing
// it, or in the other region when r is full.
func (w *worker) reserve(r region, size uintptr) (uintptr, *copyCache, bool) {
	for _, reg := range [2]region{r, r.other()} {
		if c := w.cache[reg]; c != nil && c.copy+size <= c.end {
			// The current cache (of the other region only once r is full:
			// then refresh below failed for r on an earlier copy).
			if reg == r || w.full[r] {
				to := c.copy
				c.copy += size
				return to, c, false
			}
		}
		if w.full[reg] {
			continue
		}
		if c, solo := w.refresh(reg, size); c != nil {
			to := c.copy
			c.copy += size
			return to, c, solo
		}
		w.full[reg] = true
	}
	panic(&OutOfMemoryError{Msg: "no room to copy survivors (survivor space and tenure exhausted)"})
}

// refresh retires region r's cache and carves a new one that fits size.
// Objects larger than half a cache get a cache of their own (solo), which
// goes to the scan list once the copy is installed.
func (w *worker) refresh(r region, size uintptr) (c *copyCache, solo bool) {
	solo = size > w.h.scavengerCacheSize()/2
	want := w.h.scavengerCacheSize()
	if solo {
		want = size
	}
	base, end, ok := w.h.whitespace(r, size, want)
	if !ok {
		return nil, false
	}
	c = &copyCache{region: r, base: base, scan: base, copy: base, end: end}
	if solo {
		return c, true
	}
	if old := w.cache[r]; old != nil {
		w.retire(old)
	}
	w.cache[r] = c
	return c, false
}

// retire stops copying into c; its unscanned material goes to the scan list
// unless it is already there or being scanned.
func (w *worker) retire(c *copyCache) {
	w.h.giveBack(c)
	if c.unscanned() > 0 && !c.listed && !w.isScanning(c) {
		w.h.pushScan(c)
	}
}

// scanObject forwards the evacuate-space references of object r (whose
// ClassMeta is m) from slot index from on, in the ClassMeta's scan order,
// including (at from == 0) the class object its ClassMeta names. It
// returns the slot index to resume at and done == false when the
// traversal asked to switch caches after a copy (hierarchical aliasing);
// young reports whether a visited slot now refers into the nursery.
func (w *worker) scanObject(r Ref, m Meta, from int, c *copyCache) (next int, young, done bool) {
	h := w.h
	if from == 0 {
		if co := m.loadClassObject(); co != 0 {
			if h.inEvacuate(co) {
				co = w.forward(co, noSlot)
				m.storeClassObject(co)
			}
			young = h.IsYoung(co)
		}
	}
	first, n := h.slotRange(r, m)
	fixed := m.Layout() == LayoutFixed
	hot := hotSlotAt(m, fixed, first)
	for i := from; i < n; i++ {
		off := slotAt(m, fixed, first, i)
		v := h.loadAt(off)
		if !v.IsRef() {
			continue
		}
		ref := v.AsRef()
		if h.inEvacuate(ref) {
			w.lastCopy = nil
			ref = w.forward(ref, arcSlot(off, hot))
			h.storeAt(off, FromRef(ref))
			if c != nil && w.hierarchical && w.shouldAlias(c) {
				return i + 1, young || h.IsYoung(ref), false
			}
		}
		if h.IsYoung(ref) {
			young = true
		}
	}
	return n, young, true
}

// rememberTenured adds tenured object r to the remembered set (this
// worker's part of it). Workers scanning different segments of one array
// may remember it at the same time; setRemembered lets one win.
func (w *worker) rememberTenured(r Ref) {
	if !w.h.setRemembered(r) {
		return
	}
	w.newRemembered = append(w.newRemembered, r)
	w.stats.remembered++
}
