package gc

import (
	"fmt"
	"math/rand"
	"runtime"
	"testing"
)

// TestParallelCollectorsPreserveRandomGraphs runs every collector with
// several GC workers on random graphs, verifying the heap before and after
// every collection. Run it with -race.
func TestParallelCollectorsPreserveRandomGraphs(t *testing.T) {
	configs := map[string]Config{
		"breadthFirst": {Collector: BreadthFirst},
		"hierarchical": {Collector: Hierarchical},
		"evacuator":    evacConfig(32, 256, 4096),
		"evacuator0":   evacConfig(32, 256, 0),
		"evacuatorBF":  evacConfig(1, 256, 4096),
	}
	for name, cfg := range configs {
		for _, threads := range []int{2, 4} {
			t.Run(fmt.Sprintf("%s/threads%d", name, threads), func(t *testing.T) {
				cfg := cfg
				cfg.MaxHeap, cfg.NurserySize, cfg.GCThreads, cfg.Verify, cfg.TenureAge = 16<<20, 1<<20, threads, true, 3
				g := newGraphHeap(t, cfg)
				rng := rand.New(rand.NewSource(int64(threads)))
				collectRounds(t, g, rng, 20, 300, func(round int) {
					if round%5 == 0 {
						// Large arrays exercise segment splitting.
						r := g.h.allocSlots(g.array, 3000, Nil)
						g.roots.vals = append(g.roots.vals, FromRef(r))
						for i := 0; i < 3000; i += 7 {
							g.h.Store(g.roots.vals[len(g.roots.vals)-1].AsRef(), 2+i, g.roots.vals[rng.Intn(len(g.roots.vals))])
						}
					}
				})
			})
		}
	}
}

// TestParallelWideTree copies a tree with wide child arrays with several
// workers and checks the copied volume is what one worker copies.
func TestParallelWideTree(t *testing.T) {
	var want uint64
	for _, threads := range []int{1, 2, 4} {
		for _, collector := range []Collector{Hierarchical, Recursive} {
			cfg := Config{MaxHeap: 64 << 20, NurserySize: 16 << 20, GCThreads: threads, Collector: collector, Verify: true}
			g := newGraphHeap(t, cfg)
			buildWide(g, 3, 40)
			g.h.collectNursery(CauseStress)
			got := g.h.stats.total.copiedBytes()
			if want == 0 {
				want = got
			}
			if got != want {
				t.Errorf("%s threads %d copied %d bytes, one worker copied %d", collector, threads, got, want)
			}
		}
	}
}

// buildWide makes a tree whose nodes hold an array of fanout children,
// depth levels deep, rooted at roots.vals[0].
func buildWide(g *graphHeap, depth, fanout int) {
	g.roots.vals = g.roots.vals[:0]
	var build func(d int)
	build = func(d int) {
		i := g.newNode()
		if d == 0 {
			return
		}
		arr := g.h.allocSlots(g.array, fanout, Nil)
		g.h.Store(g.roots.vals[i].AsRef(), 2, FromRef(arr))
		for k := 0; k < fanout; k++ {
			build(d - 1)
			child := g.roots.vals[len(g.roots.vals)-1]
			g.roots.vals = g.roots.vals[:len(g.roots.vals)-1]
			g.h.Store(g.h.Load(g.roots.vals[i].AsRef(), 2).AsRef(), 2+k, child)
		}
	}
	build(depth)
}

// TestSurvivorOverflowKeepsTenureTight: when the survivor space is full,
// copies overflow into tenure through each worker's current tenure cache;
// they must not carve a fresh cache per object (a leak that once filled a
// 4 MB heap's tenure with 32 KB holes).
func TestSurvivorOverflowKeepsTenureTight(t *testing.T) {
	for _, threads := range []int{1, 2, 4} {
		// Without TLABs the allocate space fills exactly up to allocHi.
		g := newGraphHeap(t, Config{MaxHeap: 16 << 20, NurserySize: 1 << 20, GCThreads: threads, Collector: Hierarchical, Verify: true, NoTLAB: true})
		g.roots.vals = []Value{Nil}
		// 3 KB arrays leave tails in the copy chunks, so a full
		// allocate space of them overflows the survivor space.
		for g.h.allocTop+slotsSize(375) <= g.h.allocHi {
			r := g.h.allocSlots(g.array, 375, Nil)
			g.h.Store(r, 2, g.roots.vals[0])
			g.roots.vals[0] = FromRef(r)
		}
		g.h.collectNursery(CauseStress)
		tenured := g.h.stats.total.regionBytes(tenureRegion)
		used := uint64(g.h.tenureTop - g.h.tenureLo)
		if tenured == 0 {
			t.Fatalf("%d threads: nothing overflowed into tenure", threads)
		}
		if slack := uint64(threads) * 4 * defaultScanCacheMaximumSize; used > tenured+slack {
			t.Errorf("%d threads: tenure holds %d bytes for %d bytes tenured", threads, used, tenured)
		}
	}
}

// TestGCThreadWarmup runs verified nursery collections with two GC threads
// and warm-up at 50%: the pool thread is woken before each collection
// (after the first, which starts it) and the collections still agree.
func TestGCThreadWarmup(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("warm-up needs a CPU the mutator leaves free")
	}
	for _, noTLAB := range []bool{false, true} {
		t.Run(fmt.Sprintf("noTLAB=%v", noTLAB), func(t *testing.T) {
			cfg := Config{GCThreads: 2, GCThreadWarmupPercent: 50, Verify: true, TenureAge: 3, NoTLAB: noTLAB}
			cfg.MaxHeap, cfg.NurserySize = 32<<20, 1<<20
			g := newGraphHeap(t, cfg)
			for i := 0; i < 200_000; i++ {
				r := g.newNode()
				if i%16 != 0 {
					g.roots.vals = g.roots.vals[:r] // most nodes die young
				}
			}
			if g.h.stats.nurseryCount < 10 {
				t.Fatalf("only %d nursery collections", g.h.stats.nurseryCount)
			}
			if g.h.stats.warmups == 0 {
				t.Fatalf("no warm-up in %d nursery collections", g.h.stats.nurseryCount)
			}
			t.Logf("%d nursery collections, %d warm-ups", g.h.stats.nurseryCount, g.h.stats.warmups)
		})
	}
}
