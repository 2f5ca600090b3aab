package mem

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Low4G is the sub-allocator for memory whose addresses fit in 32 bits:
// class metadata that compressed class pointers reach (OMR's
// allocate_memory32, MEMORY.md section A; an independent implementation).
//
// Memory comes in regions reserved below 4 GB:
//   - the initial region (InitialSize) is reserved at once and committed
//     in CommitSize steps as it fills;
//   - when every region is full, an increment region of IncrementSize is
//     reserved and committed;
//   - a request of at least IncrementSize gets a region of its own, freed
//     by unmapping it.
//
// Inside the initial and increment regions a segHeap carves blocks, so any
// interior address leads back to its block's start (FindStart).
//
// Concurrency. There is no lock around the whole allocator (OMR issue
// #7190's complaint was exactly one monitor around everything):
//   - each region has its own mutex, held only while its segHeap works;
//   - the set of regions is an immutable, address-sorted snapshot published
//     through an atomic pointer, so Free and findStart find their region
//     by binary search without locking anything else;
//   - allocation first tries the region that served the last request, then
//     the others, skipping without locking any region whose free-space
//     bound is too small, and trying contended regions last;
//   - only growth (committing the initial region further, reserving a new
//     region) and region release take growMu; a thread that finds the
//     region set changed while it waited retries before growing again.
//
// An increment region that becomes empty is unmapped, so class unloading
// returns address space, but only while the other regions keep enough free
// room for the peak demand seen so far (and never the region allocations
// go to right now): a program that creates and drops classes in waves
// would otherwise unmap and map regions on every wave.
type Low4G struct {
	cfg Low4GConfig
	lo  uintptr // search range for regions
	hi  uintptr

	regions atomic.Pointer[regionSet]
	cur     atomic.Pointer[region] // region that served the last allocation
	gen     atomic.Uint64          // bumped by every growth and release

	growMu      sync.Mutex
	initial     *region
	initialFull bool // the initial region is fully committed or failed to commit

	reserved  atomic.Int64 // bytes of address space held
	committed atomic.Int64 // bytes committed
	inUse     atomic.Int64 // bytes requested by live blocks
	blocks    atomic.Int64 // live blocks
	peakComm  atomic.Int64 // highest committed
	heapUse   atomic.Int64 // bytes of heap blocks in use (headers and rounding included)
	peakUse   atomic.Int64 // highest heapUse
	released  atomic.Int64 // regions unmapped because they became empty
	reserveNs atomic.Int64 // time spent finding and mapping regions
}

// Low4GConfig configures a Low4G. Zero fields take the defaults.
type Low4GConfig struct {
	InitialSize   uintptr // first region, reserved at once (default 200 MB)
	CommitSize    uintptr // commit step inside the first region (default 50 MB)
	IncrementSize uintptr // each further region (default 8 MB)
	BruteForce    bool    // step mmap hints instead of the /proc/self/maps search
	SegmentSize   uintptr // segHeap segment size (default 64)
	Zap           bool    // segHeap zapping: Verify then checks freed blocks

	// SearchLo and SearchHi narrow the address range regions are placed
	// in (tests and benchmarks); zero means [vm.mmap_min_addr, 4 GB).
	SearchLo, SearchHi uintptr
}

// Defaults of the sub-allocator (OpenJ9's defaults).
const (
	DefaultSuballocatorInitialSize   = 200 << 20
	DefaultSuballocatorCommitSize    = 50 << 20
	DefaultSuballocatorIncrementSize = 8 << 20
)

type regionKind uint8

const (
	regionInitial regionKind = iota
	regionIncrement
	regionLarge
)

// A region is one mapping below 4 GB.
type region struct {
	base, size uintptr
	kind       regionKind
	mu         sync.Mutex
	heap       *segHeap // nil for a large region
	dead       bool     // unmapped: guarded by mu
	// avail bounds the bytes one allocation could get from heap without
	// Expand; read without the lock to skip full regions.
	avail atomic.Uint64
}

// regionSet is an immutable snapshot of the live regions.
type regionSet struct {
	sorted []*region // by base address, for lookups
	heaps  []*region // heap-backed regions, newest first, for allocation
}

// NewLow4G reserves the initial region and commits its first step.
func NewLow4G(cfg Low4GConfig) (*Low4G, error) {
	if cfg.InitialSize == 0 {
		cfg.InitialSize = DefaultSuballocatorInitialSize
	}
	if cfg.CommitSize == 0 {
		cfg.CommitSize = DefaultSuballocatorCommitSize
	}
	if cfg.IncrementSize == 0 {
		cfg.IncrementSize = DefaultSuballocatorIncrementSize
	}
	if cfg.SegmentSize == 0 {
		cfg.SegmentSize = defaultSegmentSize
	}
	if cfg.InitialSize >= limit4G || cfg.CommitSize >= limit4G || cfg.IncrementSize >= limit4G {
		return nil, fmt.Errorf("sub-allocator sizes must be below 4 GB (initial %d, commit %d, increment %d)", cfg.InitialSize, cfg.CommitSize, cfg.IncrementSize)
	}
	cfg.InitialSize = AlignUp(cfg.InitialSize, PageSize)
	cfg.CommitSize = AlignUp(cfg.CommitSize, PageSize)
	cfg.IncrementSize = AlignUp(cfg.IncrementSize, PageSize)
	// As in OMR, the initial region is at least one increment.
	cfg.InitialSize = max(cfg.InitialSize, cfg.IncrementSize)
	a := &Low4G{cfg: cfg, lo: cfg.SearchLo, hi: cfg.SearchHi}
	if a.lo < lowSearchFloor {
		a.lo = lowSearchFloor
	}
	if a.hi == 0 || a.hi > limit4G {
		a.hi = limit4G
	}
	a.regions.Store(&regionSet{})
	r, err := a.newHeapRegion(regionInitial, cfg.InitialSize, cfg.CommitSize)
	if err != nil {
		return nil, fmt.Errorf("cannot create the class-metadata region: %w", err)
	}
	a.initial = r
	a.initialFull = r.heap.Committed() == r.heap.Reserved()
	a.publish(r, nil)
	return a, nil
}

// reserveLow finds and reserves (PROT_NONE) size bytes below 4 GB.
func (a *Low4G) reserveLow(size uintptr) (uintptr, error) {
	start := time.Now()
	defer func() { a.reserveNs.Add(int64(time.Since(start))) }()
	var addr uintptr
	var err error
	if !a.cfg.BruteForce {
		addr, err = reserveQuick(size, a.lo, a.hi)
		if err != nil && errors.Is(err, errMapsUnusable) {
			addr, err = reserveBrute(size, a.lo, a.hi)
		}
	} else {
		addr, err = reserveBrute(size, a.lo, a.hi)
	}
	if err != nil {
		return 0, err
	}
	// Whatever the strategy, never hand out an address a 32-bit class
	// pointer cannot hold.
	if addr < a.lo || addr+size > a.hi || addr+size > limit4G {
		munmap(addr, size)
		return 0, fmt.Errorf("%w: region at %#x+%d is outside [%#x, %#x)", ErrLow4GExhausted, addr, size, a.lo, a.hi)
	}
	a.reserved.Add(int64(size))
	return addr, nil
}

// newHeapRegion reserves a region of size bytes, commits its first commit
// bytes and lays a segHeap over it.
func (a *Low4G) newHeapRegion(kind regionKind, size, commit uintptr) (*region, error) {
	base, err := a.reserveLow(size)
	if err != nil {
		return nil, err
	}
	commit = min(commit, size)
	if err := Commit(base, commit); err != nil {
		a.unmapRegion(base, size, 0)
		return nil, err
	}
	a.addCommitted(int64(commit))
	h, err := newSegHeap(base, size, commit, segHeapConfig{SegmentSize: a.cfg.SegmentSize, Zap: a.cfg.Zap})
	if err != nil {
		a.unmapRegion(base, size, commit)
		return nil, err
	}
	r := &region{base: base, size: size, kind: kind, heap: h}
	r.avail.Store(uint64(h.Available()))
	return r, nil
}

func (a *Low4G) addCommitted(n int64) {
	raiseTo(&a.peakComm, a.committed.Add(n))
}

// raiseTo makes peak at least v.
func raiseTo(peak *atomic.Int64, v int64) {
	for {
		p := peak.Load()
		if v <= p || peak.CompareAndSwap(p, v) {
			return
		}
	}
}

// roomElsewhere reports whether the heap regions other than r can still
// take the peak demand (at least two increments' worth) without growing.
// It reads only the regions' lock-free bounds.
func (a *Low4G) roomElsewhere(r *region) bool {
	want := max(uint64(a.peakUse.Load()), 2*uint64(a.cfg.IncrementSize))
	var room uint64
	for _, o := range a.regions.Load().heaps {
		if o != r {
			if room += o.avail.Load(); room >= want {
				return true
			}
		}
	}
	return false
}

func (a *Low4G) unmapRegion(base, size, committed uintptr) {
	munmap(base, size)
	a.reserved.Add(-int64(size))
	a.addCommitted(-int64(committed))
}

// publish replaces the region set: add (if non-nil) joins, drop (if
// non-nil) leaves. Callers hold growMu (or own a not yet shared a).
func (a *Low4G) publish(add, drop *region) {
	old := a.regions.Load()
	ns := &regionSet{
		sorted: make([]*region, 0, len(old.sorted)+1),
		heaps:  make([]*region, 0, len(old.heaps)+1),
	}
	if add != nil && add.heap != nil {
		ns.heaps = append(ns.heaps, add)
	}
	for _, r := range old.heaps {
		if r != drop {
			ns.heaps = append(ns.heaps, r)
		}
	}
	for _, r := range old.sorted {
		if r != drop {
			ns.sorted = append(ns.sorted, r)
		}
	}
	if add != nil {
		i, _ := slices.BinarySearchFunc(ns.sorted, add.base, func(r *region, b uintptr) int {
			switch {
			case r.base < b:
				return -1
			case r.base > b:
				return 1
			}
			return 0
		})
		ns.sorted = slices.Insert(ns.sorted, i, add)
	}
	a.regions.Store(ns)
	a.gen.Add(1)
}

// Alloc returns the 32-bit address of a zeroed block of at least size
// bytes, aligned to 8. It fails with an error wrapping ErrLow4GExhausted
// when no room is left below 4 GB.
func (a *Low4G) Alloc(size uintptr) (uint32, error) {
	if size == 0 {
		size = 1
	}
	p, err := a.alloc(size)
	if err != nil {
		return 0, err
	}
	if p == 0 || p >= limit4G {
		panic(fmt.Sprintf("mem: Low4G returned %#x, not a non-zero address below 4 GB", p))
	}
	a.inUse.Add(int64(size))
	if !a.isLarge(size) {
		raiseTo(&a.peakUse, a.heapUse.Add(int64(a.blockBytes(size))))
	}
	a.blocks.Add(1)
	return uint32(p), nil
}

func (a *Low4G) alloc(size uintptr) (uintptr, error) {
	if a.isLarge(size) {
		return a.allocLarge(size)
	}
	need := a.blockBytes(size)
	for {
		gen := a.gen.Load()
		cur := a.cur.Load()
		if cur != nil {
			if p := cur.tryAlloc(size, need, true); p != 0 {
				return p, nil
			}
		}
		set := a.regions.Load()
		// First pass: regions that are free right now; second: wait for
		// contended ones.
		for pass := 0; pass < 2; pass++ {
			for _, r := range set.heaps {
				if r == cur {
					continue
				}
				if p := r.tryAlloc(size, need, pass == 1); p != 0 {
					a.cur.Store(r)
					return p, nil
				}
			}
		}
		if err := a.grow(gen, need); err != nil {
			return 0, err
		}
	}
}

// isLarge reports whether a request gets a region of its own: at least
// the increment size, or too big for an increment region's heap.
func (a *Low4G) isLarge(size uintptr) bool {
	return size >= a.cfg.IncrementSize || a.blockBytes(size) > a.cfg.IncrementSize
}

// blockBytes is the segHeap block a request of size bytes takes.
func (a *Low4G) blockBytes(size uintptr) uintptr {
	return AlignUp(max(size, 1)+segHeaderSize, a.cfg.SegmentSize)
}

// tryAlloc allocates from r's heap. With wait false it gives up if the
// region is locked.
func (r *region) tryAlloc(size, need uintptr, wait bool) uintptr {
	if r.avail.Load() < uint64(need) {
		return 0
	}
	if wait {
		r.mu.Lock()
	} else if !r.mu.TryLock() {
		return 0
	}
	defer r.mu.Unlock()
	if r.dead {
		return 0
	}
	p := r.heap.Allocate(size)
	if p != 0 {
		clear(bytesAt(p, size))
		r.avail.Store(uint64(r.heap.Available()))
	}
	return p
}

// grow adds room for a block of need bytes: more of the initial region
// if it can still be committed, else a new increment region. gen is the
// region generation the caller searched; if it changed, another thread
// grew (or released) meanwhile and the caller just searches again.
func (a *Low4G) grow(gen uint64, need uintptr) error {
	a.growMu.Lock()
	defer a.growMu.Unlock()
	if a.gen.Load() != gen {
		return nil
	}
	if !a.initialFull {
		r := a.initial
		r.mu.Lock()
		// Commit what is needed beyond the free space at the heap's end,
		// in CommitSize steps.
		n, err := r.heap.Expand(max(a.cfg.CommitSize, need))
		if n > 0 {
			a.addCommitted(int64(n))
			r.avail.Store(uint64(r.heap.Available()))
		}
		if err != nil || r.heap.Committed() == r.heap.Reserved() {
			a.initialFull = true
		}
		r.mu.Unlock()
		if n > 0 {
			a.cur.Store(r)
			a.gen.Add(1)
			return nil
		}
	}
	r, err := a.newHeapRegion(regionIncrement, a.cfg.IncrementSize, a.cfg.IncrementSize)
	if err != nil {
		return fmt.Errorf("cannot allocate %d bytes of class metadata: %w", need, err)
	}
	a.publish(r, nil)
	a.cur.Store(r)
	return nil
}

// allocLarge gives a request of at least the increment size a region of
// its own.
func (a *Low4G) allocLarge(size uintptr) (uintptr, error) {
	size = AlignUp(size, PageSize)
	a.growMu.Lock()
	defer a.growMu.Unlock()
	base, err := a.reserveLow(size)
	if err != nil {
		return 0, fmt.Errorf("cannot allocate %d bytes of class metadata: %w", size, err)
	}
	if err := Commit(base, size); err != nil {
		a.unmapRegion(base, size, 0)
		return 0, err
	}
	a.addCommitted(int64(size))
	r := &region{base: base, size: size, kind: regionLarge}
	a.publish(r, nil)
	return base, nil
}

// lookup returns the region containing p, if any.
func (a *Low4G) lookup(p uintptr) *region {
	s := a.regions.Load().sorted
	i, found := slices.BinarySearchFunc(s, p, func(r *region, p uintptr) int {
		switch {
		case r.base+r.size <= p:
			return -1
		case r.base > p:
			return 1
		}
		return 0
	})
	if !found {
		return nil
	}
	return s[i]
}

// Free returns the block at p, which Alloc(size) returned. It reports an
// error for an address Alloc did not return or a block already freed.
func (a *Low4G) Free(p uint32, size uintptr) error {
	if size == 0 {
		size = 1
	}
	r := a.lookup(uintptr(p))
	if r == nil {
		return fmt.Errorf("free of %#x: not class-metadata memory", p)
	}
	if r.kind == regionLarge {
		return a.freeLarge(r, uintptr(p), size)
	}
	r.mu.Lock()
	if r.dead {
		r.mu.Unlock()
		return fmt.Errorf("free of %#x: region already released", p)
	}
	if err := r.heap.Free(uintptr(p)); err != nil {
		r.mu.Unlock()
		return err
	}
	a.inUse.Add(-int64(size))
	a.heapUse.Add(-int64(a.blockBytes(size)))
	a.blocks.Add(-1)
	r.avail.Store(uint64(r.heap.Available()))
	retire := r.kind == regionIncrement && r.heap.Empty() && a.cur.Load() != r && a.roomElsewhere(r)
	if retire {
		// No block is left, so nobody may touch the memory again; the
		// flag (checked under mu) makes allocators skip the region.
		r.dead = true
		r.avail.Store(0)
	}
	r.mu.Unlock()
	if retire {
		a.growMu.Lock()
		a.publish(nil, r)
		a.unmapRegion(r.base, r.size, r.heap.Committed())
		a.released.Add(1)
		a.growMu.Unlock()
	}
	return nil
}

func (a *Low4G) freeLarge(r *region, p, size uintptr) error {
	a.growMu.Lock()
	defer a.growMu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dead || p != r.base {
		return fmt.Errorf("free of %#x: not the start of a live block", p)
	}
	r.dead = true
	a.publish(nil, r)
	a.unmapRegion(r.base, r.size, r.size)
	a.inUse.Add(-int64(size))
	a.blocks.Add(-1)
	return nil
}

// findStart returns the start of the live block containing p and whether
// there is one. For a block start, findStart(p) == p.
func (a *Low4G) findStart(p uint32) (uint32, bool) {
	r := a.lookup(uintptr(p))
	if r == nil {
		return 0, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dead {
		return 0, false
	}
	if r.heap == nil {
		return uint32(r.base), true
	}
	s := r.heap.FindStart(uintptr(p))
	return uint32(s), s != 0
}

// IsBlockStart reports whether p is the start of a live block.
func (a *Low4G) IsBlockStart(p uint32) bool {
	s, ok := a.findStart(p)
	return ok && s == p
}

// InUse returns the bytes requested by live blocks and their number.
func (a *Low4G) InUse() (bytes uintptr, blocks int) {
	return uintptr(a.inUse.Load()), int(a.blocks.Load())
}

// Low4GStats describes the sub-allocator.
type Low4GStats struct {
	Regions       int     // live regions, all kinds
	LargeRegions  int     // regions holding one large block
	Released      int     // regions unmapped because they became empty
	Reserved      uintptr // address space held
	Committed     uintptr // bytes committed now
	PeakCommitted uintptr
	Used          uintptr // bytes in used blocks (headers, rounding and large regions included)
	InUse         uintptr // bytes requested by live blocks
	Blocks        int     // live blocks
	Free          uintptr // bytes on free lists
	FreeBlocks    int
	Unused        uintptr // committed bytes above the heaps' high-water marks
	Fragmentation int     // joins since the last map rebuild, summed over regions
	Joins         uint64  // all joins
	Rebuilds      uint64  // segment-map rebuilds
	ReserveMs     float64 // time spent finding and mapping regions
}

// Stats returns the current figures. It locks each region in turn, never
// all at once.
func (a *Low4G) Stats() Low4GStats {
	st := Low4GStats{
		Released:      int(a.released.Load()),
		Reserved:      uintptr(a.reserved.Load()),
		Committed:     uintptr(a.committed.Load()),
		PeakCommitted: uintptr(a.peakComm.Load()),
		InUse:         uintptr(a.inUse.Load()),
		Blocks:        int(a.blocks.Load()),
		ReserveMs:     float64(a.reserveNs.Load()) / 1e6,
	}
	for _, r := range a.regions.Load().sorted {
		r.mu.Lock()
		if !r.dead {
			st.Regions++
			if r.heap == nil {
				st.LargeRegions++
				st.Used += r.size
			} else {
				hs := r.heap.Stats()
				st.Used += hs.Used
				st.Free += hs.Free
				st.FreeBlocks += hs.FreeBlocks
				st.Unused += hs.Unused
				st.Fragmentation += hs.Fragmentation
				st.Joins += hs.Joins
				st.Rebuilds += hs.Rebuilds
			}
		}
		r.mu.Unlock()
	}
	return st
}

// Verify checks every region's segHeap and that every region lies below
// 4 GB without overlapping another.
func (a *Low4G) Verify() error {
	var prevEnd uintptr
	for _, r := range a.regions.Load().sorted {
		if r.base < prevEnd {
			return fmt.Errorf("low4g: region %#x overlaps the previous one", r.base)
		}
		if r.base == 0 || r.base+r.size > limit4G {
			return fmt.Errorf("low4g: region %#x+%d is not below 4 GB", r.base, r.size)
		}
		prevEnd = r.base + r.size
		r.mu.Lock()
		var err error
		if r.heap != nil && !r.dead {
			err = r.heap.Verify()
		}
		r.mu.Unlock()
		if err != nil {
			return fmt.Errorf("low4g: region %#x: %w", r.base, err)
		}
	}
	return nil
}

// Release unmaps every region. The allocator must not be used afterwards.
func (a *Low4G) Release() {
	a.growMu.Lock()
	defer a.growMu.Unlock()
	for _, r := range a.regions.Load().sorted {
		r.mu.Lock()
		if !r.dead {
			r.dead = true
			committed := r.size
			if r.heap != nil {
				committed = r.heap.Committed()
			}
			a.unmapRegion(r.base, r.size, committed)
		}
		r.mu.Unlock()
	}
	a.regions.Store(&regionSet{})
	a.cur.Store(nil)
	a.gen.Add(1)
}
