package gc

import (
	"io"
	"runtime"

	"minivm/runtime/gc/xlog"
	"minivm/runtime/mem"
)

// Collector names a nursery collector.
type Collector string

const (
	BreadthFirst Collector = "breadthFirst" // Cheney scavenger
	Hierarchical Collector = "hierarchical" // scavenger with copy-cache aliasing
	Recursive    Collector = "recursive"    // the evacuator (depth-first)
)

// Config holds every tunable of the heap. New gives each zero field its
// default (see DefaultConfig), field by field, except where the field's
// comment gives zero a meaning of its own (InsideCopyDistance 0 is
// depth-first, StressInterval 0 is off, ...). cmd/minivm starts from
// DefaultConfig and applies -X options on top; a Go caller that wants the
// command line's values for those fields too starts from DefaultConfig.
type Config struct {
	MaxHeap     uintptr // -Xmx: bytes reserved for the heap
	InitialHeap uintptr // -Xms: bytes committed at start (tenure + nursery)
	NurserySize uintptr // -Xmn: both nursery semispaces together

	Collector Collector
	TenureAge int // -Xgc:scvTenureAge: survive this many nursery GCs, then tenure (the first collection's, when adaptive)
	// FixedTenureAge (-Xgc:scvNoAdaptiveTenureAge, or -Xgc:scvTenureAge
	// alone) keeps TenureAge for every collection; otherwise each nursery
	// collection sets the next one's from its age table (tenure.go).
	FixedTenureAge bool
	// TargetSurvivorRatio (-XX:TargetSurvivorRatio): adaptive tenuring
	// keeps the survivors below this percentage of a semispace.
	TargetSurvivorRatio int

	// MinHeapFreeRatio and MaxHeapFreeRatio (-XX:MinHeapFreeRatio=,
	// -XX:MaxHeapFreeRatio=) are the percentages of committed tenure
	// that a global collection leaves free at least and at most, by
	// committing or decommitting tenure (sizing.go). New takes them as
	// given (0 is a ratio too); DefaultConfig holds HotSpot's 40 and 70.
	MinHeapFreeRatio, MaxHeapFreeRatio int

	// MarkOrder (-Xgc:markScanOrdering=) is the global collector's
	// marking order (mark.go).
	MarkOrder MarkOrder

	// LargeObjectSize: objects of at least this many bytes are allocated
	// directly in tenure (copying them is the expensive part of a scavenge).
	LargeObjectSize uintptr

	StressInterval int  // -Xgc:stress=N: a nursery collection every N allocations (0 = off)
	Verify         bool // -Xcheck:gc

	GCThreads int
	// AdaptiveGCThreads (-XX:+AdaptiveGCThreading, the command line's
	// default unless -Xgcthreads is given) lets each nursery collection
	// use fewer workers when the previous one copied little
	// (nursery.go, nurseryWorkers).
	AdaptiveGCThreads bool
	// GCThreadWarmupPercent (-XX:GCThreadWarmupPercent): when the allocate
	// space is this many percent from full, wake the GC threads the next
	// nursery collection will use, to spin on their CPUs until it starts
	// (warmup.go). 0, the default, is off.
	GCThreadWarmupPercent int

	// Evacuator parameters (-XXgc:recursive...). A zero MaxStackDepth,
	// MaxInsideCopySize or WorkVolumeQuantum takes its default on its own,
	// so an explicit setting of one never resets another. New takes
	// InsideCopyDistance as given: 0 is depth-first, and DefaultConfig
	// holds the command line's 4096.
	MaxStackDepth      int // frames; 1 = breadth-first
	MaxInsideCopySize  int // bytes; larger objects are copied outside
	InsideCopyDistance int // bytes from the frame base before a copy opens a new frame; 0 = depth-first
	WorkVolumeQuantum  int // bytes: the minimum workspace released to the worklist
	WorkVolumeQuanta   int // notify quota, in quanta (parallel GC); 0 = wake a stalled peer for any work
	// StackRemainderDrop is the evacuator's own remainder rule for its
	// stack whitespace (the scavenger has no stack): an object that does
	// not fit is copied outside unless the remainder is at most this many
	// bytes, which are then dropped and the stack whitespace refreshed.
	// Zero takes the default.
	StackRemainderDrop uintptr
	// ChainDetection (-XXgc:recursiveChainDetection) turns on the
	// evacuator's chains (chain.go). Off, recursive arcs push frames and
	// overflow the stack as in OMR. On by default: at the default frame
	// width lists, trees and DOMs cost within 2% of the instructions per
	// copied object they cost without it, and depth-first or with several
	// GC threads lists are copied faster (BENCHMARKS.md, "Evacuator
	// chains").
	ChainDetection bool

	// Copy whitespace (whitespace.go), one policy for every nursery
	// collector. Zero values take the defaults.
	ScanCacheMinimumSize       uintptr // -Xgc:scanCacheMinimumSize: chunk floor and granularity
	ScanCacheMaximumSize       uintptr // -Xgc:scanCacheMaximumSize: chunk ceiling
	WhitespaceRefreshThreshold uintptr // -XXgc:whitespaceRefreshThreshold: smallest whitelist block taken for a copyspace
	MinReusableWhitespace      uintptr // -XXgc:minimumReusableWhitespace: remainders up to this size are holes

	// Log receives HotSpot unified-logging lines (-Xlog, -verbose:gc) at
	// the levels and tag sets it is configured for; StatsFile receives
	// JSON Lines (-Xgc:statsFile). Either may be nil.
	Log       *xlog.Logger
	StatsFile io.Writer
	// TraceFile receives the run's Chrome Trace Event JSON at exit
	// (-Xgc:traceFile, trace.go); nil for no tracing.
	TraceFile io.Writer

	// Class-metadata sub-allocator below 4 GB (runtime/mem.Low4G). Zero
	// sizes take the mem.DefaultSuballocator* defaults.
	SuballocatorInitialSize   uintptr // -Xgc:suballocatorInitialSize: first region, reserved at start
	SuballocatorCommitSize    uintptr // -Xgc:suballocatorCommitSize: commit step inside the first region
	SuballocatorIncrementSize uintptr // -Xgc:suballocatorIncrementSize: each further region
	// SuballocatorBruteForce (-Xgc:suballocatorQuickAllocDisable) finds
	// regions by stepping mmap hints instead of the quick /proc/self/maps
	// gap search; false (the zero value) is quick, the default.
	SuballocatorBruteForce bool

	// Pretouch of committed tenure. Pretouch (-Xgc:pretouch=<mode>)
	// selects the mode; AlwaysPreTouch (-XX:+AlwaysPreTouch) alone selects
	// the fastest one (parallel MADV_POPULATE_WRITE). The nursery is
	// always populated.
	Pretouch       mem.PretouchMode
	AlwaysPreTouch bool

	// TLABs: HotSpot's adaptive policy (tlab.go). Zero values take the
	// defaults, so the switches are negative.
	NoTLAB                  bool    // -XX:-UseTLAB: every allocation CAS-bumps the shared allocate-space top
	NoResizeTLAB            bool    // -XX:-ResizeTLAB: keep each thread's initial desired size
	TLABInitialSize         uintptr // -Xgc:tlhInitialSize: initial desired size (0: capacity/(threads x target refills))
	TLABMaximumSize         uintptr // -Xgc:tlhMaximumSize: largest desired size (0: an eighth of the allocate space)
	TLABWasteTargetPercent  int     // -XX:TLABWasteTargetPercent: waste target, 1..100 (0: 1)
	TLABRefillWasteFraction int     // -XX:TLABRefillWasteFraction: refill waste limit = desired/N (0: 64)

	// MaxLiveThreads (-XX:MaxLiveThreads) bounds the mutator threads
	// registered at once, the main one included (safepoint.go, NewMutator).
	MaxLiveThreads int
}

// Defaults, each with its reason (DefaultConfig gathers them), and limits.
const (
	// defaultMaxHeap: reserving address space is free; committing is lazy.
	defaultMaxHeap = 1 << 30
	// defaultInitialHeap: enough to hold the nursery and some tenure
	// without growing on small scripts.
	defaultInitialHeap = 64 << 20
	// defaultNurserySize: two 16 MB semispaces; large enough that a short
	// script never collects, small enough to pretouch in a few ms.
	defaultNurserySize = 32 << 20
	// defaultTenureAge follows OpenJ9's scvTenureAge default.
	defaultTenureAge = 10
	// defaultLargeObjectSize: 64 KB objects go straight to tenure.
	defaultLargeObjectSize = 64 << 10
	// TLAB defaults, as in HotSpot (tlab_globals.hpp).
	defaultTLABWasteTargetPercent  = 1
	defaultTLABRefillWasteFraction = 64
	MinTLABSize                    = 2 << 10
	// defaultMaxLiveThreads: a thread starts with about 40 KB of Go
	// memory (a 32 KB value stack, frames and records, a 4 KB goroutine
	// stack), so 4096 live threads take about 165 MB; without a limit
	// the Go runtime dies, unrecoverably, near 130,000 threads under an
	// 8 GB address-space limit. The default is a generous worker pool.
	defaultMaxLiveThreads = 4096
	// Copy whitespace defaults, as in OMR's evacuator: 8-128 KB chunks
	// (TLH maximum / 16 and the TLH maximum), the 768-byte refresh
	// threshold (tlhMinimumSize) and 256-byte reusable minimum.
	defaultScanCacheMinimumSize       = 8 << 10
	defaultScanCacheMaximumSize       = 128 << 10
	defaultWhitespaceRefreshThreshold = 768
	defaultMinReusableWhitespace      = 256
	// Evacuator defaults, as in OMR.
	defaultMaxStackDepth      = 32
	defaultMaxInsideCopySize  = 256
	defaultInsideCopyDistance = 4096
	defaultWorkVolumeQuantum  = 4096
	defaultStackRemainderDrop = 32
	// MinScanCacheSize: smaller chunks would be carved, under a lock, for
	// every few objects.
	MinScanCacheSize = 1 << 10
	// MinHeap and MinNursery keep the layout sane.
	MinHeap    = 1 << 20
	MinNursery = 256 << 10
	// MaxHeapLimit: 32-bit references scaled by 8 bytes address 32 GB.
	MaxHeapLimit = 32 << 30
)

// DefaultConfig returns the configuration used when no option is given.
func DefaultConfig() Config {
	return Config{
		MaxHeap:     defaultMaxHeap,
		InitialHeap: defaultInitialHeap,
		NurserySize: defaultNurserySize,
		Collector:   Hierarchical,
		MarkOrder:   MarkDepthFirst,
		TenureAge:   defaultTenureAge,

		TargetSurvivorRatio: defaultTargetSurvivorRatio,
		MinHeapFreeRatio:    defaultMinHeapFreeRatio,
		MaxHeapFreeRatio:    defaultMaxHeapFreeRatio,
		LargeObjectSize:     defaultLargeObjectSize,
		GCThreads:           min(runtime.NumCPU(), 64),

		AdaptiveGCThreads: true,

		MaxStackDepth:      defaultMaxStackDepth,
		MaxInsideCopySize:  defaultMaxInsideCopySize,
		InsideCopyDistance: defaultInsideCopyDistance,
		WorkVolumeQuantum:  defaultWorkVolumeQuantum,
		StackRemainderDrop: defaultStackRemainderDrop,
		ChainDetection:     true,

		ScanCacheMinimumSize:       defaultScanCacheMinimumSize,
		ScanCacheMaximumSize:       defaultScanCacheMaximumSize,
		WhitespaceRefreshThreshold: defaultWhitespaceRefreshThreshold,
		MinReusableWhitespace:      defaultMinReusableWhitespace,

		SuballocatorInitialSize:   mem.DefaultSuballocatorInitialSize,
		SuballocatorCommitSize:    mem.DefaultSuballocatorCommitSize,
		SuballocatorIncrementSize: mem.DefaultSuballocatorIncrementSize,

		TLABWasteTargetPercent:  defaultTLABWasteTargetPercent,
		TLABRefillWasteFraction: defaultTLABRefillWasteFraction,

		MaxLiveThreads: defaultMaxLiveThreads,
	}
}
