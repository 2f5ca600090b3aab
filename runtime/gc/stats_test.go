package gc

import (
	"fmt"
	"testing"
)

// collectorConfigs are the nursery collectors with one configuration each.
var collectorConfigs = []struct {
	name string
	cfg  func(Config) Config
}{
	{"breadthFirst", func(c Config) Config { c.Collector = BreadthFirst; return c }},
	{"hierarchical", func(c Config) Config { c.Collector = Hierarchical; return c }},
	{"recursive", func(c Config) Config {
		c.Collector, c.MaxStackDepth, c.MaxInsideCopySize, c.InsideCopyDistance = Recursive, 32, 256, 4096
		return c
	}},
}

// buildChain roots a linked list of n 32-byte nodes (header, next and two
// numbers); next is word 1.
func buildChain(t *testing.T, g *graphHeap, n int) {
	link, err := g.h.NewMeta(MetaSpec{Layout: LayoutFixed, NumSlots: 3})
	if err != nil {
		t.Fatal(err)
	}
	g.roots.vals = []Value{Nil}
	for i := 0; i < n; i++ {
		r := g.h.allocFixed(link, Number(1))
		g.h.Store(r, 1, g.roots.vals[0])
		g.roots.vals[0] = FromRef(r)
	}
}

// TestInsideKnownAnswer checks inside_pct's one definition on a chain: the
// root's copy is never inside; every other node is copied, while its
// predecessor is scanned, into the scan structure (the scavenger's cache
// being scanned, the evacuator's stack) by every collector, except by the
// evacuator in breadth-first mode, which copies everything outside.
func TestInsideKnownAnswer(t *testing.T) {
	const n = 1024 // 32 KB: within the evacuator's 32 frames of 4 KB
	cases := append(collectorConfigs, struct {
		name string
		cfg  func(Config) Config
	}{"recursive/depth1", func(c Config) Config {
		c.Collector, c.MaxStackDepth, c.MaxInsideCopySize, c.InsideCopyDistance = Recursive, 1, 256, 4096
		return c
	}})
	for _, c := range cases {
		g := newGraphHeap(t, c.cfg(Config{MaxHeap: 8 << 20, NurserySize: 1 << 20, Verify: true}))
		buildChain(t, g, n)
		g.h.collectNursery(CauseStress)
		s := g.h.stats.total
		want := uint64(32 * (n - 1))
		if c.name == "recursive/depth1" {
			want = 0
		}
		if s.copiedObjects() != n || s.insideBytes != want {
			t.Errorf("%s: copied %d objects, %d bytes inside; want %d objects, %d inside", c.name, s.copiedObjects(), s.insideBytes, n, want)
		}
	}
}

// TestCollectorsCarveAlike runs the same graph under every collector with
// one configuration and checks that every chunk each one carved was sized
// by the one policy: the tenure ceiling, or for survivor space the size
// the policy gives for the space left. A collector with a sizing rule of
// its own fails here.
func TestCollectorsCarveAlike(t *testing.T) {
	for _, threads := range []int{1, 2} {
		first := map[region]uintptr{}
		for _, c := range collectorConfigs {
			t.Run(fmt.Sprintf("%s/%dT", c.name, threads), func(t *testing.T) {
				g := newGraphHeap(t, c.cfg(Config{MaxHeap: 16 << 20, NurserySize: 2 << 20, GCThreads: threads, TenureAge: 2, Verify: true}))
				policy := g.h.newChunkPolicy(threads)
				carves := 0
				seen := map[region]bool{}
				g.h.onCarve = func(r region, b block, want uintptr) {
					free := g.h.survHi - g.h.regions.survTop + b.size() // before this carve
					chunk := policy.size(r, free)
					// A chunk, or an object larger than one, exactly.
					if want != chunk && !(want > chunk && b.size() == want) {
						t.Errorf("%s carve of %d bytes asked for %d; the policy gives %d with %d bytes free", r, b.size(), want, chunk, free)
					}
					if f, ok := first[r]; !ok {
						first[r] = want
					} else if !seen[r] && f != want {
						t.Errorf("first %s chunk asked for %d, another collector's for %d", r, want, f)
					}
					seen[r] = true
					carves++
				}
				buildTree(g, 12)
				for range 3 {
					g.h.collectNursery(CauseStress)
				}
				if carves == 0 {
					t.Fatal("no whitespace was carved")
				}
			})
		}
	}
}
