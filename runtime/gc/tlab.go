package gc

// TLABs: thread-local allocation buffers with HotSpot's adaptive sizing
// (threadLocalAllocBuffer.cpp; MEMORY.md section D).
//
// A TLAB is a chunk of the allocate space owned by one mutator, which
// allocates from it by bumping top without synchronisation. Chunks are
// carved from the shared allocate-space top by CAS, so refills need no
// lock either. The policy, per thread:
//
//   - desired size: initially capacity / (allocating threads x target
//     refills), where target refills = 100 / (2 x waste target %) (50): at a
//     collection each thread's TLAB is on average half used, so the waste
//     left in TLABs is about the target percentage of the allocate space.
//   - resize at each collection: the thread's share of the allocation (a
//     weighted average of bytes it allocated / bytes allocated, sampled when
//     more than half the space was used) times capacity / target refills,
//     clamped to [min, max].
//   - refill waste limit: an allocation that does not fit is made outside
//     the TLAB (a "slow allocation", CAS on the shared top) while the
//     TLAB's free space exceeds desired / TLABRefillWasteFraction; each
//     such allocation raises the limit by TLABWasteIncrement words, so a
//     thread that keeps allocating the same size eventually refills.
//   - a retired TLAB's unused tail becomes a filler object, so the
//     allocate space stays walkable; tails retired at refill count as
//     refill waste, tails retired by a collection as gc waste.
//
// Capacity is the allocate space left free after the last collection (the
// survivors occupy its bottom).

// tlab is one mutator's allocation buffer (TLAB) and its statistics since the
// last collection.
type tlab struct {
	top, end uintptr // byte offsets from the heap base; top == end when retired
	start    uintptr // start of the current chunk

	desired          uintptr // desired chunk size
	refillWasteLimit uintptr // keep the TLAB while free exceeds this
	allocFraction    weightedAverage

	refills     int     // chunks carved since the last collection
	slowAllocs  int     // allocations made outside the TLAB while keeping it
	refillWaste uintptr // tails discarded at refill
	gcWaste     uintptr // tail discarded by the collection
	chunkBytes  uintptr // bytes carved into chunks (HotSpot's allocated_size)
	allocated   uintptr // bytes of objects allocated, in and out of TLABs
}

// HotSpot constants without flags here.
const (
	tlabAllocationWeight = 35           // TLABAllocationWeight, %
	tlabWasteIncrement   = 4 * WordSize // TLABWasteIncrement, in bytes
)

// weightedAverage is HotSpot's AdaptiveWeightedAverage: the first samples
// are averaged uniformly (weight at least 100/count), then each sample has
// weight w percent.
type weightedAverage struct {
	avg   float64
	count int
}

func (a *weightedAverage) sample(x float64, w int) {
	a.count++
	weight := max(float64(w), 100/float64(a.count))
	if a.count > 100 {
		weight = float64(w)
	}
	a.avg = (100-weight)/100*a.avg + weight/100*x
}

// tlabPolicy is the heap-wide part: the limits and the average number of
// allocating threads, which sizes the first TLAB of a new thread.
type tlabPolicy struct {
	enabled       bool
	resize        bool
	initial       uintptr // TLABInitialSize, or 0
	min, max      uintptr
	targetRefills int
	wasteFraction uintptr

	allocatingThreads weightedAverage
	capacity          uintptr // allocate space free after the last collection
}

func (p *tlabPolicy) init(h *Heap) {
	cfg := &h.cfg
	p.enabled = !cfg.NoTLAB && cfg.StressInterval == 0
	p.resize = !cfg.NoResizeTLAB
	p.initial = cfg.TLABInitialSize
	p.min = MinTLABSize
	p.max = cfg.TLABMaximumSize
	if p.max == 0 {
		p.max = max((h.allocHi-h.allocLo)/8, p.min)
	}
	p.targetRefills = max(100/(2*cfg.TLABWasteTargetPercent), 2)
	p.wasteFraction = uintptr(cfg.TLABRefillWasteFraction)
	p.allocatingThreads.sample(1, tlabAllocationWeight) // one allocating thread at start, as HotSpot
	p.capacity = h.allocHi - h.allocLo
}

// clamp bounds a desired size and aligns it to words.
func (p *tlabPolicy) clamp(n uintptr) uintptr {
	return min(max(n, p.min), p.max) &^ (WordSize - 1)
}

// init gives a new thread its initial desired size and allocation
// fraction.
func (t *tlab) init(h *Heap) {
	p := &h.tlabPolicy
	if p.initial != 0 {
		t.desired = p.clamp(p.initial)
	} else {
		threads := uintptr(max(p.allocatingThreads.avg+0.5, 1))
		t.desired = p.clamp(p.capacity / (threads * uintptr(p.targetRefills)))
	}
	t.refillWasteLimit = t.desired / p.wasteFraction
	if p.capacity > 0 {
		// HotSpot samples the guess, so it keeps half the weight at the
		// first real sample instead of being overwritten by it.
		t.allocFraction.sample(min(1, float64(t.desired)*float64(p.targetRefills)/float64(p.capacity)), tlabAllocationWeight)
	}
}

// free returns the bytes left in the current chunk.
func (t *tlab) free() uintptr { return t.end - t.top }

// retire fills the unused tail so the space stays walkable and gives the
// chunk up, returning the tail's size. The bytes bumped in the chunk are
// counted as allocated here, since the fast path counts nothing.
func (t *tlab) retire(h *Heap) uintptr {
	t.allocated += t.top - t.start
	tail := t.end - t.top
	h.fill(t.top, tail)
	t.start, t.top, t.end = 0, 0, 0
	return tail
}

// resetStatistics starts a new collection epoch.
func (t *tlab) resetStatistics() {
	t.refills, t.slowAllocs = 0, 0
	t.refillWaste, t.gcWaste, t.chunkBytes, t.allocated = 0, 0, 0, 0
}

// wastePct is the share of the chunks' bytes wasted (gc and refill).
func (t *tlab) wastePct() float64 {
	return pct(uint64(t.gcWaste+t.refillWaste), uint64(t.chunkBytes))
}
