package gc

import (
	"fmt"
	"math/rand"
	"testing"
)

// evacuatorConfigs are the parameter corners the evacuator must survive.
var evacuatorConfigs = []struct {
	name                    string
	depth, inside, distance int
	chains                  bool
}{
	{"default", 32, 256, 4096, false},
	{"depthFirst", 32, 256, 0, false},
	{"breadthFirst", 1, 256, 4096, false},
	{"depth2", 2, 256, 0, false},
	{"depth3", 3, 64, 0, false},
	{"inside16", 32, 16, 4096, false},
	{"insideHuge", 32, 131072, 0, false},
	{"chains", 32, 256, 4096, true},
	{"chainsDepthFirst", 32, 256, 0, true},
	{"chainsDepth3", 3, 64, 0, true},
}

func evacConfig(depth, inside, distance int) Config {
	return Config{MaxHeap: 8 << 20, NurserySize: 512 << 10, Collector: Recursive, Verify: true,
		MaxStackDepth: depth, MaxInsideCopySize: inside, InsideCopyDistance: distance, WorkVolumeQuantum: 4096}
}

func TestEvacuatorPreservesRandomGraphs(t *testing.T) {
	for _, c := range evacuatorConfigs {
		for _, tenureAge := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/age%d", c.name, tenureAge), func(t *testing.T) {
				cfg := evacConfig(c.depth, c.inside, c.distance)
				cfg.ChainDetection = c.chains
				cfg.TenureAge = tenureAge
				g := newGraphHeap(t, cfg)
				collectRounds(t, g, rand.New(rand.NewSource(int64(tenureAge))), 30, 300, nil)
			})
		}
	}
}

// buildTree makes a complete binary tree of the given depth from nodes
// whose words 2 and 3 are the children, rooted at roots.vals[0].
func buildTree(g *graphHeap, depth int) {
	g.roots.vals = append(g.roots.vals[:0], Nil)
	var build func(d int)
	build = func(d int) { // leaves the new node on top of the root stack
		i := g.newNode()
		if d > 0 {
			build(d - 1)
			g.h.Store(g.roots.vals[i].AsRef(), 2, g.roots.vals[len(g.roots.vals)-1])
			g.roots.vals = g.roots.vals[:len(g.roots.vals)-1]
			build(d - 1)
			g.h.Store(g.roots.vals[i].AsRef(), 3, g.roots.vals[len(g.roots.vals)-1])
			g.roots.vals = g.roots.vals[:len(g.roots.vals)-1]
		}
	}
	build(depth)
	g.roots.vals[0] = g.roots.vals[1]
	g.roots.vals = g.roots.vals[:1]
}

// containmentByHand walks the copied tree and counts arcs whose slot and
// target share an n-byte block; the root's copy counts but is never
// contained.
func containmentByHand(g *graphHeap, n uintptr) float64 {
	var arcs, contained int
	var walk func(r Ref)
	walk = func(r Ref) {
		for w := 2; w <= 3; w++ {
			v := g.h.Load(r, w)
			if !v.IsRef() {
				continue
			}
			slot := uintptr(r)<<3 + uintptr(w)*WordSize
			if slot^(uintptr(v.AsRef())<<3) < n {
				contained++
			}
			arcs++
			walk(v.AsRef())
		}
	}
	walk(g.roots.vals[0].AsRef())
	return 100 * float64(contained) / float64(arcs+1)
}

func TestContainmentMatchesHandCount(t *testing.T) {
	results := map[string]float64{}
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"breadthFirst", Config{MaxHeap: 16 << 20, NurserySize: 4 << 20, Collector: BreadthFirst}},
		{"hierarchical", Config{MaxHeap: 16 << 20, NurserySize: 4 << 20, Collector: Hierarchical}},
		{"evacuator4096", func() Config { c := evacConfig(32, 256, 4096); c.MaxHeap, c.NurserySize = 16<<20, 4<<20; return c }()},
		{"evacuator0", func() Config { c := evacConfig(32, 256, 0); c.MaxHeap, c.NurserySize = 16<<20, 4<<20; return c }()},
	} {
		g := newGraphHeap(t, c.cfg)
		buildTree(g, 12)
		g.h.collectNursery(CauseStress)
		s := &g.h.stats.total
		if s.copiedObjects() != 1<<13-1 {
			t.Fatalf("%s: copied %d objects, want %d", c.name, s.copiedObjects(), 1<<13-1)
		}
		for _, n := range []int{64, 128, 256} {
			want := containmentByHand(g, uintptr(n))
			if got := s.containedPct(n); got < want-0.01 || got > want+0.01 {
				t.Errorf("%s: contain_%d reported %.3f, hand count %.3f", c.name, n, got, want)
			}
		}
		results[c.name] = s.containedPct(64)
		t.Logf("%s: contain_64 %.1f%%", c.name, results[c.name])
	}
	if results["evacuator0"] < 2*results["breadthFirst"] {
		t.Errorf("depth-first containment %.1f%% is not twice breadth-first's %.1f%%", results["evacuator0"], results["breadthFirst"])
	}
}
