package gc

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"
	"unsafe"
)

// TestCompactionSameHeapWithAnyWorkers: parallel compaction gives the
// heap serial sliding gives. A tenure of many compaction regions, with
// garbage between live objects and some large arrays spanning regions,
// is collected globally with 1, 2 and 4 workers; the compacted tenure,
// the roots and the remembered set must be identical, and the graph
// unchanged. Run it with -race: the workers move regions that wait for
// each other.
func TestCompactionSameHeapWithAnyWorkers(t *testing.T) {
	var want []byte
	for _, threads := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("threads%d", threads), func(t *testing.T) {
			cfg := Config{MaxHeap: 64 << 20, NurserySize: 1 << 20, GCThreads: 1, Verify: true, TenureAge: 1, FixedTenureAge: true}
			g := newGraphHeap(t, cfg)
			rng := rand.New(rand.NewSource(7))
			for round := 0; round < 24; round++ {
				if round%4 == 0 {
					big := g.h.allocSlots(g.array, 12000, Nil) // spans compaction regions
					g.roots.vals = append(g.roots.vals, FromRef(big))
				}
				g.mutate(rng, 3000)
				g.h.collectNursery(CauseStress)
				// Drop a third of the roots: tenure fills with garbage.
				vals := g.roots.vals[:0]
				for i, v := range g.roots.vals {
					if i%3 != 0 {
						vals = append(vals, v)
					}
				}
				g.roots.vals = vals
			}
			g.mutate(rng, 2000) // objects in the nursery, some referring to tenure
			if regions := int(g.h.tenureTop-g.h.tenureLo) / (regionCells * cellWords * WordSize); regions < 20 {
				t.Fatalf("tenure holds %d compaction regions; the test needs more", regions)
			}
			before := g.shape()
			g.h.cfg.GCThreads = threads
			g.h.collectGlobal(CauseSystemGC)
			if got := g.shape(); got != before {
				t.Fatal("graph changed by the collection")
			}
			got := heapImage(g)
			if want == nil {
				want = got
			} else if !bytes.Equal(got, want) {
				t.Fatalf("%d workers compacted a different heap than one (%d bytes against %d)", threads, len(got), len(want))
			}
		})
	}
}

// heapImage returns tenure's bytes, the roots and the remembered set.
func heapImage(g *graphHeap) []byte {
	h := g.h
	img := append([]byte(nil), unsafe.Slice((*byte)(unsafe.Add(h.base, h.tenureLo)), h.tenureTop-h.tenureLo)...)
	for _, v := range g.roots.vals {
		img = fmt.Append(img, uint64(v))
	}
	for _, r := range h.remembered {
		img = fmt.Append(img, "r", r)
	}
	return img
}

// TestCompactionSourcesCoverOverlaps: before a region moves, it waits for
// every lower region whose objects lie in its destination range. Random
// plans of sliding (live and dead objects of random sizes, some longer
// than a region) are checked against all pairs of regions.
func TestCompactionSourcesCoverOverlaps(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	lm := &liveMap{}
	const regionBytes, n = 1000 * WordSize, 30
	for trial := 0; trial < 300; trial++ {
		c := &compactor{regions: make([]compactRegion, n)}
		for i := range c.regions {
			lo := uintptr(i) * regionBytes
			c.regions[i] = compactRegion{lm: lm, lo: lo, hi: lo + regionBytes, first: lo, end: lo}
		}
		dead, large := rng.Float64(), rng.Intn(4) == 0
		var pos, dest uintptr
		for pos < n*regionBytes {
			size := uintptr(1+rng.Intn(40)) * WordSize
			if large && rng.Intn(10) == 0 {
				size = uintptr(1+rng.Intn(3000)) * WordSize
			}
			if rng.Float64() >= dead {
				r := &c.regions[pos/regionBytes]
				if r.first == r.end {
					r.first, r.dest = pos, dest
				}
				r.end, r.destEnd = pos+size, dest+size
				dest += size
			}
			pos += size
		}
		for i := range c.regions {
			waits := map[int]bool{}
			c.sources(i, func(j int) { waits[j] = true })
			r := &c.regions[i]
			for j := range i {
				s := &c.regions[j]
				overlap := s.first < s.end && r.first < r.end && s.first < r.destEnd && r.dest < s.end
				if overlap && !waits[j] {
					t.Fatalf("trial %d: region %d (to [%#x,%#x)) does not wait for region %d (objects in [%#x,%#x))",
						trial, i, r.dest, r.destEnd, j, s.first, s.end)
				}
			}
		}
	}
}
