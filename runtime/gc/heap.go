package gc

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"minivm/runtime/mem"
)

// RootSource enumerates the mutator's roots: every Value held outside the
// heap (VM stack, frames, globals, constants, open upvalues, handles). visit
// may rewrite the Value in place when its referent moves.
type RootSource interface {
	VisitRoots(visit func(*Value))
}

// Heap is one reservation of Config.MaxHeap bytes:
//
//	[ guard page | tenure ...................... | nursery: semispace A | semispace B ]
//	base                                           nurseryLo                      end
//
// All positions are byte offsets from base. The allocate space is one of
// the semispaces, the survivor space the other; they swap roles after each
// nursery collection. Tenure grows upward from tenureLo; its committed part
// grows on demand and is resized after each global collection (sizing.go).
type Heap struct {
	cfg  Config
	res  mem.Reservation
	base unsafe.Pointer

	tenureLo, tenureTop, tenureCommitted, tenureHi uintptr
	tenureInitial                                  uintptr // committed at start: the floor of shrinking (sizing.go)
	nurseryLo, nurseryMid, nurseryHi               uintptr
	allocLo, allocHi, allocTop                     uintptr // allocate space; allocTop: next carve (CAS by mutators)
	survLo, survHi                                 uintptr

	nurseryRef Ref // first Ref of the nursery: refs >= nurseryRef are young

	// Mutator threads (mutator.go, safepoint.go, tlab.go). allocMu
	// serialises collections and tenure allocation; epoch counts
	// collections so that a thread that waited for allocMu can tell
	// whether someone else collected meanwhile.
	main         *Mutator
	sp           safepoint
	allocMu      sync.Mutex
	epoch        atomic.Uint64
	tlabPolicy   tlabPolicy
	tlabTotals   tlabTotals
	tlabsRetired bool    // this stop's TLABs are retired (tlabstats.go)
	epochStart   uintptr // allocTop after the last collection

	metaArena        *mem.Low4G // ClassMeta records, below 4 GB (meta.go)
	filler8, fillerN Meta       // holes of one word and of more
	classMetas       []Meta     // weak: unloaded when their class object dies
	metaChanges      uint64     // ClassMeta records created or freed (verify.go)

	// pretoucher pretouches committed tenure ahead of the allocator
	// (-Xgc:pretouch=background); nil otherwise.
	pretoucher *mem.BackgroundPretoucher

	roots      RootSource
	remembered []Ref      // tenured objects that may hold nursery references
	rememberMu sync.Mutex // guards remembered against concurrent barriers

	// OnClassUnload is called with the tag of each unloaded ClassMeta.
	OnClassUnload func(tag uint32)

	Hooks // client callbacks into collections (hooks.go)

	// GC workers read the bounds above and ctl for every object they copy;
	// the whitespace carving state, which they write once per chunk, sits
	// on cache lines of its own.
	_       [64]byte
	regions copyRegions // the running nursery collection's carving (whitespace.go)
	_       [64]byte
	inGC    bool
	ctl     *controller // the running nursery collection's scheduler (scheduler.go)

	// State each collector keeps between collections, owned by its file.
	threads   gcThreads    // the GC worker threads (scheduler.go, warmup.go)
	nursery   nurseryState // nursery.go, whitespace.go
	global    globalState  // global.go
	verifyMap [2]liveMap   // verify.go: object starts of tenure and the allocate space
	// verify.go: heap verifications so far, and metaChanges at the last
	// class-metadata verification.
	verifications, metaVerified uint64

	// onCarve, when set (tests), sees every whitespace carve: the
	// region, the block and the size the caller asked for.
	onCarve func(r region, b block, want uintptr)

	start         time.Time
	lastStopEnd   time.Time  // when the last collection ended ([safepoint] line, heaplog.go)
	phases        phaseTimer // the running collection's phase times (phases.go)
	trace         *tracer    // -Xgc:traceFile's tracks (trace.go); nil when not tracing
	stressCount   int
	allocsToCheck atomic.Int64 // stress: allocations left until the next forced collection
	stats         heapStats
}

// OutOfMemoryError is the panic value of an allocation that cannot be
// satisfied even after a full collection. The interpreter recovers it and
// reports a Lox runtime error.
type OutOfMemoryError struct{ Msg string }

func (e *OutOfMemoryError) Error() string { return "OutOfMemoryError: " + e.Msg }

// New reserves and lays out a heap. Sizes are validated by the caller
// (cmd/minivm) but checked again here.
func New(cfg Config, roots RootSource) (*Heap, error) {
	def := DefaultConfig()
	if cfg.MaxHeap == 0 {
		cfg.MaxHeap = def.MaxHeap
	}
	if cfg.NurserySize == 0 {
		cfg.NurserySize = min(def.NurserySize, cfg.MaxHeap/4)
	}
	if cfg.InitialHeap == 0 {
		cfg.InitialHeap = min(def.InitialHeap, cfg.MaxHeap)
	}
	orDefault(&cfg.Collector, def.Collector)
	orDefault(&cfg.MarkOrder, def.MarkOrder)
	orDefault(&cfg.TenureAge, def.TenureAge)
	orDefault(&cfg.TargetSurvivorRatio, def.TargetSurvivorRatio)
	orDefault(&cfg.LargeObjectSize, def.LargeObjectSize)
	orDefault(&cfg.GCThreads, def.GCThreads)
	orDefault(&cfg.TLABWasteTargetPercent, def.TLABWasteTargetPercent)
	orDefault(&cfg.TLABRefillWasteFraction, def.TLABRefillWasteFraction)
	orDefault(&cfg.MaxLiveThreads, def.MaxLiveThreads)
	orDefault(&cfg.MaxStackDepth, def.MaxStackDepth)
	orDefault(&cfg.MaxInsideCopySize, def.MaxInsideCopySize)
	orDefault(&cfg.WorkVolumeQuantum, def.WorkVolumeQuantum)
	orDefault(&cfg.StackRemainderDrop, def.StackRemainderDrop)
	orDefault(&cfg.ScanCacheMinimumSize, def.ScanCacheMinimumSize)
	orDefault(&cfg.ScanCacheMaximumSize, def.ScanCacheMaximumSize)
	orDefault(&cfg.WhitespaceRefreshThreshold, def.WhitespaceRefreshThreshold)
	orDefault(&cfg.MinReusableWhitespace, def.MinReusableWhitespace)
	if err := cfg.check(); err != nil {
		return nil, err
	}
	page := mem.PageSize
	semispace := mem.AlignDown(cfg.NurserySize/2, page)
	size := mem.AlignUp(cfg.MaxHeap, page)
	res, err := mem.Reserve(size)
	if err != nil {
		return nil, err
	}
	arena, err := newMetaArena(cfg)
	if err != nil {
		res.Release()
		return nil, err
	}
	h := &Heap{
		cfg:       cfg,
		res:       res,
		base:      mem.At(res.Addr),
		metaArena: arena,
		roots:     roots,
		start:     time.Now(),
	}
	h.nursery.tenureAge = cfg.TenureAge
	if cfg.Pretouch == mem.PretouchBackground {
		// Started before the first growTenure so that it is fed the
		// initial tenure too; stopped by Release.
		h.pretoucher = mem.NewBackgroundPretoucher()
	}
	h.nurseryHi = size
	h.nurseryMid = size - semispace
	h.nurseryLo = size - 2*semispace
	h.tenureLo = page
	h.tenureTop = page
	h.tenureCommitted = page
	h.tenureHi = h.nurseryLo
	h.nurseryRef = Ref(h.nurseryLo >> 3)
	h.allocLo, h.allocHi = h.nurseryLo, h.nurseryMid
	h.survLo, h.survHi = h.nurseryMid, h.nurseryHi
	h.allocTop = h.allocLo
	if err := h.commitNursery(); err != nil {
		h.Release()
		return nil, err
	}
	initialTenure := uintptr(0)
	if cfg.InitialHeap > 2*semispace {
		initialTenure = cfg.InitialHeap - 2*semispace
	}
	if err := h.growTenure(min(initialTenure, h.tenureHi-h.tenureLo)); err != nil {
		h.Release()
		return nil, err
	}
	h.tenureInitial = h.tenureCommitted - h.tenureLo
	if h.filler8, err = h.NewMeta(MetaSpec{Layout: LayoutFixed}); err != nil {
		h.Release()
		return nil, err
	}
	if h.fillerN, err = h.NewMeta(MetaSpec{Layout: layoutFiller}); err != nil {
		h.Release()
		return nil, err
	}
	h.allocsToCheck.Store(int64(cfg.StressInterval))
	h.epochStart = h.allocTop
	h.sp.changed.L = &h.sp.mu
	h.tlabPolicy.init(h)
	if cfg.TraceFile != nil {
		h.trace = newTracer(cfg.TraceFile, h.start)
	}
	h.main, _ = h.NewMutator() // the first of at least one
	h.main.LeaveSafeRegion()
	return h, nil
}

// orDefault sets *v to def when it holds the zero value (unset).
func orDefault[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}

func (cfg *Config) check() error {
	switch {
	case cfg.MaxHeap < MinHeap || cfg.MaxHeap > MaxHeapLimit:
		return fmt.Errorf("maximum heap size %d out of range [%d, %d]", cfg.MaxHeap, MinHeap, uintptr(MaxHeapLimit))
	case cfg.NurserySize < MinNursery:
		return fmt.Errorf("nursery size %d below the minimum %d", cfg.NurserySize, MinNursery)
	case cfg.NurserySize > cfg.MaxHeap/2:
		return fmt.Errorf("nursery size %d must be at most half the maximum heap size %d", cfg.NurserySize, cfg.MaxHeap)
	case cfg.InitialHeap > cfg.MaxHeap:
		return fmt.Errorf("initial heap size %d exceeds the maximum heap size %d", cfg.InitialHeap, cfg.MaxHeap)
	case cfg.MarkOrder != MarkDepthFirst && cfg.MarkOrder != MarkBreadthFirst && cfg.MarkOrder != MarkPrefetch:
		return fmt.Errorf("unknown mark order %q (depthFirst, breadthFirst or prefetch)", cfg.MarkOrder)
	case cfg.TenureAge < 1 || cfg.TenureAge > MaxAge:
		return fmt.Errorf("tenure age %d out of range [1, %d]", cfg.TenureAge, MaxAge)
	case cfg.TargetSurvivorRatio < 1 || cfg.TargetSurvivorRatio > 100:
		return fmt.Errorf("TargetSurvivorRatio %d out of range [1, 100]", cfg.TargetSurvivorRatio)
	case cfg.MinHeapFreeRatio < 0 || cfg.MinHeapFreeRatio > 100:
		return fmt.Errorf("MinHeapFreeRatio %d out of range [0, 100]", cfg.MinHeapFreeRatio)
	case cfg.MaxHeapFreeRatio < 0 || cfg.MaxHeapFreeRatio > 100:
		return fmt.Errorf("MaxHeapFreeRatio %d out of range [0, 100]", cfg.MaxHeapFreeRatio)
	case cfg.MinHeapFreeRatio > cfg.MaxHeapFreeRatio:
		return fmt.Errorf("MinHeapFreeRatio %d exceeds MaxHeapFreeRatio %d", cfg.MinHeapFreeRatio, cfg.MaxHeapFreeRatio)
	case cfg.MaxStackDepth < 1:
		return fmt.Errorf("recursiveMaximumStackDepth %d must be at least 1", cfg.MaxStackDepth)
	case cfg.MaxInsideCopySize < 16:
		return fmt.Errorf("recursiveMaximumInsideCopySize %d must be at least 16", cfg.MaxInsideCopySize)
	case cfg.InsideCopyDistance < 0:
		return fmt.Errorf("recursiveMaximumInsideCopyDistance %d must be at least 0", cfg.InsideCopyDistance)
	case cfg.WorkVolumeQuantum < 2048:
		return fmt.Errorf("recursiveWorkVolumeQuantum %d must be at least 2048", cfg.WorkVolumeQuantum)
	case cfg.WorkVolumeQuanta < 0:
		return fmt.Errorf("recursiveWorkVolumeQuanta %d must be at least 0", cfg.WorkVolumeQuanta)
	case cfg.GCThreadWarmupPercent < 0 || cfg.GCThreadWarmupPercent > maxWarmupPercent:
		return fmt.Errorf("GCThreadWarmupPercent %d out of range [0, %d]", cfg.GCThreadWarmupPercent, maxWarmupPercent)
	case cfg.TLABWasteTargetPercent < 1 || cfg.TLABWasteTargetPercent > 100:
		return fmt.Errorf("TLABWasteTargetPercent %d out of range [1, 100]", cfg.TLABWasteTargetPercent)
	case cfg.TLABRefillWasteFraction < 1:
		return fmt.Errorf("TLABRefillWasteFraction %d must be at least 1", cfg.TLABRefillWasteFraction)
	case cfg.TLABInitialSize != 0 && cfg.TLABInitialSize < MinTLABSize:
		return fmt.Errorf("tlhInitialSize %d below the minimum %d", cfg.TLABInitialSize, MinTLABSize)
	case cfg.TLABMaximumSize != 0 && cfg.TLABMaximumSize < MinTLABSize:
		return fmt.Errorf("tlhMaximumSize %d below the minimum %d", cfg.TLABMaximumSize, MinTLABSize)
	case cfg.TLABInitialSize != 0 && cfg.TLABMaximumSize != 0 && cfg.TLABInitialSize > cfg.TLABMaximumSize:
		return fmt.Errorf("tlhInitialSize %d exceeds tlhMaximumSize %d", cfg.TLABInitialSize, cfg.TLABMaximumSize)
	case cfg.ScanCacheMinimumSize < MinScanCacheSize || cfg.ScanCacheMinimumSize%WordSize != 0:
		return fmt.Errorf("scanCacheMinimumSize %d must be a multiple of 8 of at least %d", cfg.ScanCacheMinimumSize, MinScanCacheSize)
	case cfg.ScanCacheMaximumSize < cfg.ScanCacheMinimumSize || cfg.ScanCacheMaximumSize%cfg.ScanCacheMinimumSize != 0:
		return fmt.Errorf("scanCacheMaximumSize %d must be a multiple of scanCacheMinimumSize %d", cfg.ScanCacheMaximumSize, cfg.ScanCacheMinimumSize)
	case cfg.WhitespaceRefreshThreshold > cfg.ScanCacheMinimumSize || cfg.WhitespaceRefreshThreshold%WordSize != 0:
		return fmt.Errorf("whitespaceRefreshThreshold %d must be a multiple of 8 of at most scanCacheMinimumSize %d", cfg.WhitespaceRefreshThreshold, cfg.ScanCacheMinimumSize)
	case cfg.MinReusableWhitespace >= cfg.WhitespaceRefreshThreshold:
		return fmt.Errorf("minimumReusableWhitespace %d must be below whitespaceRefreshThreshold %d", cfg.MinReusableWhitespace, cfg.WhitespaceRefreshThreshold)
	case cfg.MaxLiveThreads < 1:
		return fmt.Errorf("MaxLiveThreads %d must be at least 1", cfg.MaxLiveThreads)
	}
	return nil
}

// commitNursery backs both semispaces with memory and populates them, since
// the mutator touches every byte of the allocate space between collections
// and a first-touch fault costs far more than a bulk populate.
func (h *Heap) commitNursery() error {
	addr := h.res.Addr + h.nurseryLo
	size := h.nurseryHi - h.nurseryLo
	if err := mem.Commit(addr, size); err != nil {
		return err
	}
	mem.Populate(addr, size)
	return nil
}

// growTenure commits at least n more bytes of tenure (whole pages).
func (h *Heap) growTenure(n uintptr) error {
	if n == 0 {
		return nil
	}
	newEnd := min(mem.AlignUp(h.tenureCommitted+n, mem.PageSize), h.tenureHi)
	if newEnd <= h.tenureCommitted {
		return nil
	}
	if err := mem.Commit(h.res.Addr+h.tenureCommitted, newEnd-h.tenureCommitted); err != nil {
		return err
	}
	h.pretouchTenure(h.res.Addr+h.tenureCommitted, newEnd-h.tenureCommitted)
	h.tenureCommitted = newEnd
	return nil
}

// pretouchTenure applies -Xgc:pretouch / -XX:+AlwaysPreTouch to freshly
// committed tenure [addr, addr+n): queue it for the background
// pretoucher, just ahead of the tenure allocator; or touch it now with the
// chosen mode (on the GC threads with -XX:+AlwaysPreTouch); or, with
// -XX:+AlwaysPreTouch alone, the fastest way (parallel populate).
func (h *Heap) pretouchTenure(addr, n uintptr) {
	switch {
	case h.pretoucher != nil:
		h.pretoucher.AllocatorAt(h.res.Addr + h.tenureTop)
		h.pretoucher.Add(addr, n)
	case h.cfg.Pretouch != mem.PretouchNone:
		workers := 1
		if h.cfg.AlwaysPreTouch {
			workers = h.cfg.GCThreads
		}
		mem.PretouchParallel(addr, n, h.cfg.Pretouch, workers)
	case h.cfg.AlwaysPreTouch:
		mem.BestPretouch(addr, n, h.cfg.GCThreads)
	}
}

// ensureTenureCommitted commits tenure up to at least offset end.
func (h *Heap) ensureTenureCommitted(end uintptr) error {
	if end <= h.tenureCommitted {
		return nil
	}
	return h.expandTenure(end - h.tenureCommitted)
}

// Release unmaps the heap. The Heap must not be used afterwards.
func (h *Heap) Release() {
	h.stopWorkers()
	if h.pretoucher != nil {
		h.pretoucher.Stop() // before the memory it touches goes away
	}
	h.res.Release()
	h.res = mem.Reservation{}
	if h.metaArena != nil {
		h.metaArena.Release()
	}
}

// Config returns the effective configuration.
func (h *Heap) Config() Config { return h.cfg }

// committed returns the bytes of heap backed by memory.
func (h *Heap) committed() uintptr {
	return (h.tenureCommitted - h.tenureLo) + (h.nurseryHi - h.nurseryLo)
}

// used returns the bytes occupied by objects (tenure plus allocate space,
// less the free parts of TLABs). It reads every mutator's TLAB, so it is
// called with the world stopped or from the only mutator.
func (h *Heap) used() uintptr {
	used := (h.tenureTop - h.tenureLo) + (atomic.LoadUintptr(&h.allocTop) - h.allocLo)
	for _, m := range h.sp.mutators {
		used -= m.tlab.free()
	}
	return used
}

// isYoung reports whether r is in the nursery.
func (h *Heap) isYoung(r Ref) bool { return r >= h.nurseryRef }
