package gc

import "minivm/runtime/gc/xlog"

// TLAB accounting at collections, as HotSpot does it: at the start every
// thread's TLAB is retired (its tail is gc waste), its statistics are
// logged (HotSpot's print_stats("gc") lines at gc+tlab=trace, the totals
// line at gc+tlab=debug) and
// folded into the totals, and its allocation fraction is sampled; after
// the collection every desired size is recomputed (resize).

// tlabTotals sums the TLAB statistics of one epoch over threads,
// including threads that ended during it.
type tlabTotals struct {
	threads                     int // threads that refilled at least once
	refills, maxRefills         int
	slowAllocs, maxSlowAllocs   int
	gcWaste, maxGCWaste         uintptr
	refillWaste, maxRefillWaste uintptr
	chunkBytes                  uintptr
}

// fold adds one thread's epoch and resets it.
func (s *tlabTotals) fold(t *tlab) {
	if t.refills > 0 {
		s.threads++
		s.refills += t.refills
		s.maxRefills = max(s.maxRefills, t.refills)
		s.gcWaste += t.gcWaste
		s.maxGCWaste = max(s.maxGCWaste, t.gcWaste)
		s.refillWaste += t.refillWaste
		s.maxRefillWaste = max(s.maxRefillWaste, t.refillWaste)
		s.chunkBytes += t.chunkBytes
	}
	s.slowAllocs += t.slowAllocs
	s.maxSlowAllocs = max(s.maxSlowAllocs, t.slowAllocs)
	t.resetStatistics()
}

func (s *tlabTotals) wastePct() float64 {
	return pct(uint64(s.gcWaste+s.refillWaste), uint64(s.chunkBytes))
}

// retireTLABs retires every mutator's TLAB before a collection (the world
// is stopped). It runs once per stop even when a nursery collection turns
// into a global one.
func (h *Heap) retireTLABs() {
	if h.tlabsRetired {
		return
	}
	h.tlabsRetired = true
	p := &h.tlabPolicy
	used := h.allocTop - h.epochStart
	gc := h.stats.gcCount
	for _, m := range h.sp.mutators {
		t := &m.tlab
		m.retireTLAB()
		if h.logging(xlog.Trace, "gc,tlab") {
			h.logAt(xlog.Trace, "gc,tlab", "GC(%d) TLAB: gc thread: %#016x [id: %2d] desired_size: %dKB slow allocs: %d  refill waste: %dB alloc:%8.5f %8.0fKB refills: %d waste %4.1f%% gc: %dB slow: %dB",
				gc, 0x7f0000000000+uintptr(m.id)<<12, m.id, t.desired>>10, t.slowAllocs, t.refillWasteLimit,
				t.allocFraction.avg, t.allocFraction.avg*float64(used)/1024, t.refills, t.wastePct(),
				t.gcWaste, t.refillWaste)
		}
		if t.refills > 0 && used > p.capacity/2 {
			t.allocFraction.sample(min(1, float64(t.allocated)/float64(used)), tlabAllocationWeight)
		}
		h.tlabTotals.fold(t)
	}
	s := &h.tlabTotals
	if p.enabled {
		p.allocatingThreads.sample(float64(max(s.threads, 1)), tlabAllocationWeight)
	}
	if h.logging(xlog.Debug, "gc,tlab") {
		h.logAt(xlog.Debug, "gc,tlab", "GC(%d) TLAB totals: thrds: %d  refills: %d max: %d slow allocs: %d max %d waste: %4.1f%% gc: %dB max: %dB slow: %dB max: %dB",
			gc, s.threads, s.refills, s.maxRefills, s.slowAllocs, s.maxSlowAllocs, s.wastePct(),
			s.gcWaste, s.maxGCWaste, s.refillWaste, s.maxRefillWaste)
	}
}

// reportTLABs moves the epoch's totals into a collection's stats.
func (h *Heap) reportTLABs(st *CollectionStats) {
	s := &h.tlabTotals
	st.TLABRefills, st.TLABWastePct, st.TLABSlowAllocs = s.refills, s.wastePct(), s.slowAllocs
	*s = tlabTotals{}
}

// resizeTLABs starts a new epoch after a collection: the capacity is the
// allocate space left free, and each thread's desired size follows its
// share of the allocation (unless -XX:-ResizeTLAB).
func (h *Heap) resizeTLABs() {
	h.tlabsRetired = false
	h.epochStart = h.allocTop
	p := &h.tlabPolicy
	p.capacity = h.allocHi - h.allocTop
	if !p.resize {
		return
	}
	for _, m := range h.sp.mutators {
		t := &m.tlab
		t.desired = p.clamp(uintptr(t.allocFraction.avg * float64(p.capacity) / float64(p.targetRefills)))
		t.refillWasteLimit = t.desired / p.wasteFraction
	}
}
