package gc

import (
	"fmt"
	"math/bits"
)

// Statistics, each with one definition for every collector. A worker
// counts its copies as it installs them (forward.go, recordCopy); the
// collection sums the workers.
//
//   - copied: objects and bytes copied (winners of forwarding races only);
//     survivor and tenured split them by destination region.
//   - scanned: bytes of copied material scanned; equal to copied at the
//     end of every nursery collection (checked).
//   - inside_pct: the share of copied bytes copied, while the worker was
//     scanning an object, into a copyspace of its current scan structure:
//     the scavenger's cache being scanned, any frame of the evacuator's
//     stack. Copies from roots, the remembered set's class objects and
//     class objects (noSlot) are never inside. It measures how much of the
//     copying lands where the traversal scans next, without a hand-off.
//   - small_pct: copied objects of at most smallObjectSize bytes.
//   - contain_N: the share of copies whose referring slot and copy lie in
//     one N-byte aligned block (slot XOR copy < N); root copies never are.
//     hot_contain_64 is contain_64 of the copies made through their
//     class's hottest slot.
//   - stack_overflows: the evacuator's stack overflows; chains: the chains
//     it started (chain.go); chain_copied_pct: the share of copies made
//     through a chain's links. Zero for the other collectors.
//   - worker_copied_bytes: the bytes each worker copied (the summary sums
//     them per worker over the nursery collections).

// workerStats are one GC worker's counters for one collection; the
// collection merges them into a CollectionStats. recordCopy runs once per
// copied object, so the counters are laid out to need no branches there:
// bytes by destination region and age (the age table), and copies by the
// bit length of slot XOR copy (contain_N sums the lengths up to log2 N;
// the object count is the sum of all).
type workerStats struct {
	ages         ageTable   // copied bytes by destination region and the original's age
	distance     [65]uint64 // copies by bits.Len64(slot XOR copy); root copies at 64
	scannedBytes uint64
	insideBytes  uint64 // see inside_pct above
	smallObjects uint64 // copied objects of at most smallObjectSize bytes
	remembered   uint64 // objects added to the remembered set
	hotCopies    uint64 // copies through a hottest slot
	hotContained uint64 // of those, within 64 B

	stackOverflows uint64 // the evacuator's
	chain          chainStats
}

// smallObjectSize is the %small boundary, the evacuator's default maximum
// inside-copy size.
const smallObjectSize = 256

// recordCopy counts one copied object. slot is the offset of the referring
// slot, or noSlot for roots and class objects, which are never contained
// or inside; a slot tagged with hotArc (see slots.arc) is its class's
// hottest slot and is also counted for hot_contain_64. inside says whether
// the copy landed in the worker's current scan structure, age is the
// original's header age bits.
func (s *workerStats) recordCopy(slot, to, size uintptr, r region, age uint64, inside bool) {
	s.ages[r&1][(age&hdrAgeMask)>>hdrAgeShift] += uint64(size) // the collection's accounting, always kept
	if !copyStatistics {
		return
	}
	if slot&hotArc != 0 {
		slot &^= hotArc
		s.hotCopies++
		if slot^to < 64 {
			s.hotContained++
		}
	}
	s.distance[bits.Len64(uint64(slot^to))]++
	if inside && slot != noSlot {
		s.insideBytes += uint64(size)
	}
	if size <= smallObjectSize {
		s.smallObjects++
	}
}

// noSlot marks a copy made from a root (no referring heap slot). Its low
// bit is clear (hotArc is a tag) and its high bit set, so slot XOR copy
// is never small: root copies count in distance[64].
const noSlot = ^uintptr(0) &^ hotArc

func (s *workerStats) copiedBytes() uint64 {
	return s.regionBytes(survivorRegion) + s.regionBytes(tenureRegion)
}

// regionBytes returns the bytes copied to region r.
func (s *workerStats) regionBytes(r region) uint64 { return s.ages.regionTotal(r) }

func (s *workerStats) copiedObjects() uint64 {
	var n uint64
	for _, c := range s.distance {
		n += c
	}
	return n
}

func (s *workerStats) add(o *workerStats) {
	s.ages.add(&o.ages)
	for i := range s.distance {
		s.distance[i] += o.distance[i]
	}
	s.scannedBytes += o.scannedBytes
	s.insideBytes += o.insideBytes
	s.smallObjects += o.smallObjects
	s.remembered += o.remembered
	s.hotCopies += o.hotCopies
	s.hotContained += o.hotContained
	s.stackOverflows += o.stackOverflows
	s.chain.add(&o.chain)
}

// chainCopiedPct is chain_copied_pct: the share of copied objects copied
// through a chain's links.
func (s *workerStats) chainCopiedPct() float64 {
	return pct(s.chain.chainCopies, s.copiedObjects())
}

// containedPct returns the percentage of copies whose slot and copy share
// an n-byte aligned block (n a power of two): slot XOR copy < n.
func (s *workerStats) containedPct(n int) float64 {
	var c uint64
	for l := 0; l < bits.Len(uint(n)); l++ {
		c += s.distance[l]
	}
	return pct(c, s.copiedObjects())
}

func pct(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// CollectionStats is one collection's record: a JSON Lines object in the
// stats file and the [gc,stats] log line.
type CollectionStats struct {
	GC            int     `json:"gc"`
	Type          string  `json:"type"` // "nursery" or "global"
	Collector     string  `json:"collector"`
	Cause         string  `json:"cause"`
	StartMs       float64 `json:"start_ms"`
	PauseMs       float64 `json:"pause_ms"`
	Threads       int     `json:"threads"`
	HeapBefore    uint64  `json:"heap_before"`
	HeapAfter     uint64  `json:"heap_after"`
	HeapCommitted uint64  `json:"heap_committed"`
	CopiedBytes   uint64  `json:"copied_bytes"`
	CopiedObjects uint64  `json:"copied_objects"`
	SurvivorBytes uint64  `json:"survivor_bytes"`
	TenuredBytes  uint64  `json:"tenured_bytes"`
	ScannedBytes  uint64  `json:"scanned_bytes"`
	KBPerMs       float64 `json:"kb_per_ms"`
	CPUPct        float64 `json:"cpu_pct"`
	InsidePct     float64 `json:"inside_pct"`
	SmallPct      float64 `json:"small_pct"`
	Contain64     float64 `json:"contain_64"`
	Contain128    float64 `json:"contain_128"`
	Contain256    float64 `json:"contain_256"`
	ContainLine   float64 `json:"contain_line"`
	HotContain64  float64 `json:"hot_contain_64"` // contain_64 of the copies through a hottest slot
	CacheLine     int     `json:"cache_line"`
	Remembered    int     `json:"remembered"`
	StallUs       float64 `json:"stall_us"` // summed over workers
	Stalls        int     `json:"stalls"`   // times a worker ran out of work (spinning or sleeping)
	TTSPUs        float64 `json:"ttsp_us"`  // time to safepoint: stopping the other mutators

	StackOverflows    uint64   `json:"stack_overflows"`
	Chains            uint64   `json:"chains"`
	ChainCopiedPct    float64  `json:"chain_copied_pct"`
	WorkerCopiedBytes []uint64 `json:"worker_copied_bytes"` // by worker; empty for a global collection

	// Phases holds each phase's milliseconds (phases.go), keyed
	// "<phase>_ms"; a nursery collection's per-worker phases give the
	// slowest worker's time.
	Phases map[string]float64 `json:"phases,omitempty"`

	// TLAB totals of the epoch the collection ends (tlabstats.go).
	TLABRefills    int     `json:"tlab_refills"`
	TLABWastePct   float64 `json:"tlab_waste_pct"`
	TLABSlowAllocs int     `json:"tlab_slow_allocs"`

	// Copy whitespace (whitespace.go), nursery collections.
	DiscardedBytes uint64 `json:"discarded_bytes"` // whitespace filled as holes
	RecycledBytes  uint64 `json:"recycled_bytes"`  // whitespace given back to its region

	*EvacuatorStats // recursive collections only
	*GlobalStats    // global collections only

	unloaded int        // classes unloaded (logged in the detail line)
	workers  string     // per-worker copied bytes (detail line)
	before   spaceUsage // the spaces at the start, for [gc,heap] (heaplog.go)
}

// EvacuatorStats are the evacuator's extra metrics.
type EvacuatorStats struct {
	StackActivations []uint64 `json:"stack_activations"` // per frame
	FlushStall       uint64   `json:"flush_stall"`       // copies sent outside because a peer stalled
	FlushOverflow    uint64   `json:"flush_overflow"`    // copies sent outside by an outside-copyspace overflow
	ChainTails       uint64   `json:"chain_tails"`       // chain tails released as work (chain.go)
	ChainWalked      uint64   `json:"chain_walked"`      // chain elements walked, their payload left to another scan
}

// GlobalStats are a global collection's phases and marked volume. Marking
// runs on the collection's workers (threads), the rest on one.
type GlobalStats struct {
	MarkMs        float64 `json:"mark_ms"`
	CompactMs     float64 `json:"compact_ms"` // planning, reference updates, moving, class unloading
	MarkedBytes   uint64  `json:"marked_bytes"`
	MarkedObjects uint64  `json:"marked_objects"`
}

// Summary is the last object of the stats file.
type Summary struct {
	Summary      bool    `json:"summary"`
	GCCount      int     `json:"gc_count"`
	NurseryCount int     `json:"nursery_count"`
	GlobalCount  int     `json:"global_count"`
	GCMs         float64 `json:"gc_ms"`
	NurseryMs    float64 `json:"nursery_ms"`
	CopiedBytes  uint64  `json:"copied_bytes"`
	KBPerMs      float64 `json:"kb_per_ms"`
	Contain64    float64 `json:"contain_64"`
	Contain128   float64 `json:"contain_128"`
	Contain256   float64 `json:"contain_256"`
	HotContain64 float64 `json:"hot_contain_64"`
	InsidePct    float64 `json:"inside_pct"`
	DurationMs   float64 `json:"duration_ms"`
	CacheLine    int     `json:"cache_line"`

	StackOverflows    uint64   `json:"stack_overflows"`
	Chains            uint64   `json:"chains"`
	ChainCopiedPct    float64  `json:"chain_copied_pct"`
	WorkerCopiedBytes []uint64 `json:"worker_copied_bytes"` // by worker, summed over nursery collections
}

// heapStats accumulates over the whole run for the summary.
type heapStats struct {
	gcCount, nurseryCount, globalCount int
	gcMs, nurseryMs                    float64
	total                              workerStats // nursery collections only
	workerCopied                       []uint64    // by worker, nursery collections only
	classesUnloaded                    int
	warmups                            int // collection cycles that warmed GC threads up (tests)
}

// workerCopiedBytes returns each worker's copied bytes.
func workerCopiedBytes(ws []*worker) []uint64 {
	b := make([]uint64, len(ws))
	for i, w := range ws {
		b[i] = w.stats.copiedBytes()
	}
	return b
}

// addWorkerCopied adds one collection's worker_copied_bytes to the run's.
func (s *heapStats) addWorkerCopied(b []uint64) {
	for len(s.workerCopied) < len(b) {
		s.workerCopied = append(s.workerCopied, 0)
	}
	for i, n := range b {
		s.workerCopied[i] += n
	}
}

// workerReport describes one worker's share for the [gc,stats] detail.
func workerReport(ws []*worker) string {
	s := ""
	for i, w := range ws {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("w%d=%dB", i, w.stats.copiedBytes())
	}
	return s
}
