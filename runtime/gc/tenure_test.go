package gc

import (
	"math/rand"
	"testing"
)

// TestAdaptiveTenureAge: when a collection's survivors exceed the desired
// survivor size, the next collection tenures them sooner; with room to
// spare the age climbs back to the cap, the configured age; after a
// futile collection the next tenures everything; a fixed age never moves. The age
// table accounts for every survivor byte.
func TestAdaptiveTenureAge(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		g := newGraphHeap(t, Config{MaxHeap: 32 << 20, NurserySize: 2 << 20, TenureAge: 10, FixedTenureAge: fixed, TargetSurvivorRatio: 50})
		// About 700 KB of live nodes: more than half a 1 MB semispace.
		for len(g.roots.vals) < 700<<10/40 {
			g.newNode()
		}
		for i := 0; i < 300<<10/48; i++ {
			g.h.allocSlots(g.array, 4, Nil) // garbage: the collection is not futile
		}
		before := g.h.stats.total.regionBytes(survivorRegion)
		g.h.collectNursery(CauseStress)
		survivors := g.h.stats.total.regionBytes(survivorRegion) - before
		ages := g.h.stats.total.ages
		counted := g.h.stats.total.regionBytes(survivorRegion)
		if counted != survivors || ages[survivorRegion][0] != survivors {
			t.Errorf("fixed %v: age table %v, survivors %d bytes, all of age 0 before the copy", fixed, ages[survivorRegion], survivors)
		}
		want := 2 // threshold 1: the first age already exceeds 512 KB
		if fixed {
			want = 10
		}
		if got := g.h.nursery.tenureAge; got != want {
			t.Errorf("fixed %v: tenure age %d after %d survivor bytes, want %d", fixed, got, survivors, want)
		}
		// Drop the live set: the next collection's survivors fit.
		g.roots.vals = g.roots.vals[:10]
		g.mutate(rand.New(rand.NewSource(1)), 100)
		g.h.collectNursery(CauseStress)
		want = 10 // the cap is the configured age
		if got := g.h.nursery.tenureAge; got != want {
			t.Errorf("fixed %v: tenure age %d after a small collection, want %d", fixed, got, want)
		}
		// A futile collection (nearly everything allocated survives): the
		// next tenures every survivor, unless the age is fixed.
		for i := 0; i < 20000; i++ {
			g.newNode()
		}
		g.h.collectNursery(CauseStress)
		want = 1
		if fixed {
			want = 10
		}
		if got := g.h.nursery.tenureAge; got != want {
			t.Errorf("fixed %v: tenure age %d after a futile collection, want %d", fixed, got, want)
		}
	}
}
