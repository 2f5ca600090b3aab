package gc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"testing"
)

// TestMarkOrdersPreserveRandomGraphs runs global collections in every
// mark order with one and several workers on random graphs (with long
// arrays, which are marked in segments), verifying the heap before and
// after each. Run it with -race.
func TestMarkOrdersPreserveRandomGraphs(t *testing.T) {
	for _, order := range []MarkOrder{MarkDepthFirst, MarkBreadthFirst, MarkPrefetch} {
		for _, threads := range []int{1, 2, 4} {
			t.Run(fmt.Sprintf("%s/threads%d", order, threads), func(t *testing.T) {
				cfg := Config{MaxHeap: 16 << 20, NurserySize: 1 << 20, GCThreads: threads, Verify: true, TenureAge: 2, MarkOrder: order}
				g := newGraphHeap(t, cfg)
				rng := rand.New(rand.NewSource(int64(threads)))
				for round := 0; round < 12; round++ {
					if round%3 == 0 {
						r := g.h.allocSlots(g.array, 2000, Nil)
						g.roots.vals = append(g.roots.vals, FromRef(r))
						for i := 0; i < 2000; i += 5 {
							g.h.Store(r, 2+i, g.roots.vals[rng.Intn(len(g.roots.vals))])
						}
					}
					g.mutate(rng, 400)
					want := g.shape()
					if round%2 == 0 {
						g.h.collectNursery(CauseStress)
					}
					g.h.collectGlobal(CauseSystemGC)
					if got := g.shape(); got != want {
						t.Fatalf("round %d: graph changed by the collections", round)
					}
				}
			})
		}
	}
}

// TestMarkedVolumeIndependentOfOrderAndThreads: every order and worker
// count marks the same objects and bytes.
func TestMarkedVolumeIndependentOfOrderAndThreads(t *testing.T) {
	var want *GlobalStats
	for _, order := range []MarkOrder{MarkDepthFirst, MarkBreadthFirst, MarkPrefetch} {
		for _, threads := range []int{1, 2, 4} {
			var out bytes.Buffer
			cfg := Config{MaxHeap: 64 << 20, NurserySize: 16 << 20, GCThreads: threads, MarkOrder: order, StatsFile: &out}
			g := newGraphHeap(t, cfg)
			buildWide(g, 3, 40)
			g.mutate(rand.New(rand.NewSource(1)), 2000)
			g.h.collectGlobal(CauseSystemGC)
			var st CollectionStats
			if err := json.Unmarshal(out.Bytes(), &st); err != nil {
				t.Fatal(err)
			}
			got := st.GlobalStats
			if got == nil || got.MarkedObjects == 0 {
				t.Fatalf("%s threads %d: no marking statistics", order, threads)
			}
			if want == nil {
				want = got
			}
			if got.MarkedObjects != want.MarkedObjects || got.MarkedBytes != want.MarkedBytes {
				t.Errorf("%s threads %d marked %d objects, %d bytes; depthFirst with one thread %d, %d",
					order, threads, got.MarkedObjects, got.MarkedBytes, want.MarkedObjects, want.MarkedBytes)
			}
		}
	}
}
