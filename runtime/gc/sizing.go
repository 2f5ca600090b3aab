package gc

import (
	"strconv"

	"minivm/runtime/gc/xlog"
	"minivm/runtime/mem"
)

// Tenure sizing, after HotSpot's generation sizing (Serial's
// CardGeneration::compute_new_size; ParallelGC's old generation likewise
// expands for promotion and is resized after a full collection):
//
//   - Between global collections tenure expands as promotion and large
//     objects need it (bumpTenure), up to the reservation (-Xmx): a
//     nursery collection turns global only when the reservation could not
//     take what it may promote (tenureCanAbsorbNursery), and when the
//     survivors of a nursery collection fill the allocate space, the next
//     collection tenures them all instead of collecting globally
//     (collectAndAllocate). So a growing live set costs commits, not a
//     full mark of everything it has built every few megabytes.
//   - After a global collection, committed tenure moves into
//     [used / (1 - MinHeapFreeRatio), used / (1 - MaxHeapFreeRatio)],
//     never below the initial tenure (-Xms less the nursery) nor above
//     the reservation: too little free space is committed at once (the
//     next promotions would commit it anyway, in smaller steps), too much
//     is decommitted (MADV_DONTNEED), so the process's memory follows the
//     live set down when it drops. Changes below minHeapDelta are skipped.
//
// HotSpot damps shrinking over four collections (ShrinkHeapInSteps: 0%,
// 10%, 40%, then all of it), for programs that call System.gc() between
// phases and then grow again. minivm shrinks at once: its global
// collections are that rare already (a full reservation, gc(), stress),
// and regrowing costs only the page faults of the pages touched again.

// minHeapDelta is the smallest change of committed tenure worth a system
// call (HotSpot's MinHeapDeltaBytes, 128 KB scaled to 64-bit words, is
// of the same order; a megabyte is the smallest step bumpTenure grows by).
const minHeapDelta = 1 << 20

// defaultMinHeapFreeRatio and defaultMaxHeapFreeRatio are HotSpot's.
const (
	defaultMinHeapFreeRatio = 40
	defaultMaxHeapFreeRatio = 70
)

// tenureBounds is the committed-size window for used bytes of tenure:
// at least used / (1 - minFree%) and at most used / (1 - maxFree%), both
// at least initial and at most limit.
type tenureBounds struct {
	lo, hi uintptr
}

// sizeForFree returns the capacity at which used bytes leave free percent
// of it free, at most limit (all of it when nothing may be used).
func sizeForFree(used uintptr, free int, limit uintptr) uintptr {
	if free >= 100 {
		return limit
	}
	n := uint64(used) * 100 / uint64(100-free)
	return uintptr(min(n, uint64(limit)))
}

// newTenureBounds computes the window for used bytes.
func newTenureBounds(used, initial, limit uintptr, minFree, maxFree int) tenureBounds {
	floor := min(initial, limit)
	return tenureBounds{
		lo: max(sizeForFree(used, minFree, limit), floor),
		hi: max(sizeForFree(used, maxFree, limit), floor),
	}
}

// target returns the committed size for capacity: a bound when capacity
// lies outside the window by at least minHeapDelta, else capacity.
func (b tenureBounds) target(capacity uintptr) uintptr {
	switch {
	case capacity < b.lo && b.lo-capacity >= minHeapDelta:
		return b.lo
	case capacity > b.hi && capacity-b.hi >= minHeapDelta:
		return b.hi
	}
	return capacity
}

// resizeTenure commits or decommits tenure after global collection gc,
// with the world stopped and tenure compacted below tenureTop.
func (h *Heap) resizeTenure(gc int) {
	used := h.tenureTop - h.tenureLo
	capacity := h.tenureCommitted - h.tenureLo
	limit := h.tenureHi - h.tenureLo
	b := newTenureBounds(used, h.tenureInitial, limit, h.cfg.MinHeapFreeRatio, h.cfg.MaxHeapFreeRatio)
	// Whole pages: a shrink rounds down (to stay within the bound) but
	// keeps the page tenureTop is on; an expansion rounds up.
	target := b.target(capacity)
	if target < capacity {
		target = max(mem.AlignDown(target, mem.PageSize), mem.AlignUp(used, mem.PageSize))
	} else {
		target = min(mem.AlignUp(target, mem.PageSize), limit)
	}
	if h.logging(xlog.Trace, "gc,heap") {
		h.logAt(xlog.Trace, "gc,heap", "GC(%d) Tenure sizing: used %s, capacity %s (%.1f%% free), initial %s; MinHeapFreeRatio %d: at least %s, MaxHeapFreeRatio %d: at most %s; desired %s",
			gc, sizeK(used), sizeK(capacity), 100*float64(capacity-used)/float64(max(capacity, 1)), sizeK(h.tenureInitial),
			h.cfg.MinHeapFreeRatio, sizeK(b.lo), h.cfg.MaxHeapFreeRatio, sizeK(b.hi), sizeK(target))
	}
	switch {
	case target > capacity:
		// A failed commit leaves tenure as it is: promotion commits what it needs, or collects.
		_ = h.expandTenure(target - capacity)
	case target < capacity:
		h.shrinkTenure(gc, h.tenureLo+target)
	}
}

// expandTenure commits at least n more bytes of tenure and logs it.
func (h *Heap) expandTenure(n uintptr) error {
	from := h.tenureCommitted
	if err := h.growTenure(n); err != nil {
		return err
	}
	if h.tenureCommitted != from && h.logging(xlog.Debug, "gc,heap") {
		prefix := ""
		if h.inGC {
			prefix = "GC(" + strconv.Itoa(h.stats.gcCount-1) + ") "
		}
		h.logAt(xlog.Debug, "gc,heap", "%sExpanding tenure from %s by %s to %s", prefix,
			sizeK(from-h.tenureLo), sizeK(h.tenureCommitted-from), sizeK(h.tenureCommitted-h.tenureLo))
	}
	return nil
}

// shrinkTenure decommits tenure from offset end (page aligned, at or
// above tenureTop) to the committed end. The background pretoucher is
// trimmed first: it must not touch what is decommitted.
func (h *Heap) shrinkTenure(gc int, end uintptr) {
	from := h.tenureCommitted
	if h.pretoucher != nil {
		h.pretoucher.Trim(h.res.Addr + end)
	}
	if err := mem.Decommit(h.res.Addr+end, from-end); err != nil {
		h.logAt(xlog.Warning, "gc,heap", "GC(%d) Tenure stays at %s: %v", gc, sizeK(from-h.tenureLo), err)
		return
	}
	h.tenureCommitted = end
	h.logAt(xlog.Debug, "gc,heap", "GC(%d) Shrinking tenure from %s by %s to %s", gc,
		sizeK(from-h.tenureLo), sizeK(from-end), sizeK(end-h.tenureLo))
}

// tenureCanAbsorbNursery reports whether tenure's reservation can take
// the worst case of a nursery collection: every byte of the allocate
// space promoted, plus the whitespace workers may hold.
func (h *Heap) tenureCanAbsorbNursery() bool {
	return h.tenureHi-h.tenureTop >= h.allocTop-h.allocLo+h.promotionSlack()
}

// collectNurseryTenuringAll runs a nursery collection that tenures every
// survivor, leaving the allocate space empty. Under adaptive tenuring the
// collection retunes the age afterwards; a fixed age is put back.
func (h *Heap) collectNurseryTenuringAll(cause Cause) {
	age := h.nursery.tenureAge
	h.nursery.tenureAge = 1
	h.collectNursery(cause)
	if h.cfg.FixedTenureAge {
		h.nursery.tenureAge = age
	}
}
