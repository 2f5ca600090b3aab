package gc

import (
	"strings"
	"testing"
	"time"
)

func TestChainIsLink(t *testing.T) {
	g := newGraphHeap(t, Config{MaxHeap: 8 << 20, NurserySize: 512 << 10})
	node, _ := g.h.NewMeta(MetaSpec{Layout: LayoutFixed, NumSlots: 3, Kind: 1})
	sub, _ := g.h.NewMeta(MetaSpec{Layout: LayoutFixed, NumSlots: 4, Kind: 1})
	attr, _ := g.h.NewMeta(MetaSpec{Layout: LayoutFixed, NumSlots: 2, Kind: 1})
	var c chain
	if !c.isLink(node, node, false) {
		t.Error("an arc to the referrer's own class is not a link")
	}
	if c.isLink(node, g.array, true) || c.isLink(node, sub, false) {
		t.Error("an arc to another class is a link")
	}
	// Without a profile, class identity decides; the hottest slot links
	// a class family that shares it.
	if c.isLink(node, sub, true) {
		t.Error("a hot arc to a class with no hot slot is a link")
	}
	node.SetHotSlot(2)
	sub.SetHotSlot(2)
	attr.SetHotSlot(0)
	if !c.isLink(node, sub, true) {
		t.Error("a hot arc to a class of the family is not a link")
	}
	if c.isLink(node, sub, false) || c.isLink(node, attr, true) || c.isLink(node, g.array, true) {
		t.Error("a cold arc, or a hot arc out of the family, is a link")
	}
	c.start(g.array)
	if !c.isLink(node, g.array, false) {
		t.Error("a chain's link class does not continue it")
	}
	fr := copyspace{region: survivorRegion, base: g.h.survLo, scan: g.h.survLo, copy: g.h.survLo, end: g.h.survLo + 64}
	if err := c.verify(g.h, &fr); err != nil {
		t.Errorf("verify: %v", err)
	}
	bad := chain{link: Meta(uint32(g.node) + 8)}
	if err := bad.verify(g.h, &fr); err == nil || !strings.Contains(err.Error(), "not a ClassMeta") {
		t.Errorf("verify of a bad link class: %v", err)
	}
	fr.scan = fr.copy + 8
	if err := c.verify(g.h, &fr); err == nil {
		t.Error("verify of a frame out of order passed")
	}
}

// TestChainCopiesListBackToBack copies a 5000-node linked list (32-byte
// nodes: slot 0, a payload array, next) with the evacuator at distance 0.
// The payload is declared first, so the evacuator pushes it and then the
// next node, depth-first, until the stack overflows. With chain detection
// that overflow starts a chain: from then on each node is copied right
// behind the one that refers to it (but where the chain's whitespace is
// refreshed), the payload outside, and the stack does not overflow again.
// Without it the 32-frame stack overflows again and again.
func TestChainCopiesListBackToBack(t *testing.T) {
	const n = 5000
	run := func(t *testing.T, noChains bool) (*graphHeap, Meta) {
		return collectPayloadList(t, n, 0, !noChains)
	}
	g, node := run(t, false)
	s := &g.h.stats.total
	if s.stackOverflows > 1 || s.chain.chains == 0 {
		t.Errorf("with chains: %d stack overflows, %d chains", s.stackOverflows, s.chain.chains)
	}
	if s.chain.chainCopies < n-40 {
		t.Errorf("%d link copies, want nearly %d", s.chain.chainCopies, n-1)
	}
	apart := 0
	for r := g.roots.vals[0].AsRef(); ; {
		next := g.h.Load(r, 3)
		if next == Nil {
			break
		}
		if uintptr(next.AsRef()-r)<<3 != node.size() {
			apart++
		}
		r = next.AsRef()
	}
	t.Logf("%d nodes apart", apart)
	if apart > 40 {
		t.Errorf("%d of %d nodes not right behind their predecessor", apart, n-1)
	}
	g, _ = run(t, true)
	if s := &g.h.stats.total; s.stackOverflows < 10 || s.chain.chains != 0 {
		t.Errorf("without chains: %d stack overflows, %d chains", s.stackOverflows, s.chain.chains)
	}
}

// collectPayloadList builds an n-node payload list (buildPayloadList) and
// collects it once with the evacuator at the given frame width.
func collectPayloadList(t *testing.T, n, distance int, chains bool) (*graphHeap, Meta) {
	cfg := Config{MaxHeap: 64 << 20, NurserySize: 16 << 20, Collector: Recursive, Verify: true, InsideCopyDistance: distance, ChainDetection: chains}
	g := newGraphHeap(t, cfg)
	node, _ := g.h.NewMeta(MetaSpec{Layout: LayoutFixed, NumSlots: 3})
	buildPayloadList(g, node, n)
	g.h.collectNursery(CauseStress)
	return g, node
}

// TestChainPayloadListAtWidth copies the payload list at a 4 KB frame
// width. Without chains, at each window edge the payload's copy opens a
// frame and takes the stack whitespace with it, so the next node lands in
// the frame above: the list climbs one frame per window and overflows the
// stack. With them the window moves along the list instead: one chain, a
// window moved about once per 4 KB of list, and every copy inside.
func TestChainPayloadListAtWidth(t *testing.T) {
	const n = 5000
	g, node := collectPayloadList(t, n, 4096, true)
	s := &g.h.stats.total
	listBytes := uint64(n) * uint64(node.size()+slotsSize(4))
	if s.stackOverflows != 0 || s.chain.chains != 1 || s.chain.chainCopies < listBytes/4096/2 {
		t.Errorf("with chains: %d stack overflows, %d chains, %d windows moved", s.stackOverflows, s.chain.chains, s.chain.chainCopies)
	}
	if s.insideBytes < listBytes-uint64(node.size()) { // all but the root
		t.Errorf("with chains: %d of %d bytes copied inside", s.insideBytes, listBytes)
	}
	g, _ = collectPayloadList(t, n, 4096, false)
	if s := &g.h.stats.total; s.stackOverflows == 0 {
		t.Errorf("without chains: no stack overflow")
	}
}

// TestChainTreeIsBranch copies a complete 5-ary tree (five recursive arcs
// per node, after a number, as in trees.lox) with chain detection: a branch never starts a chain, and
// depth-first the tree is laid out exactly as without detection.
func TestChainTreeIsBranch(t *testing.T) {
	run := func(distance int, chains bool) (*graphHeap, []Ref) {
		cfg := Config{MaxHeap: 64 << 20, NurserySize: 16 << 20, Collector: Recursive, Verify: true, InsideCopyDistance: distance, ChainDetection: chains}
		g := newGraphHeap(t, cfg)
		node, _ := g.h.NewMeta(MetaSpec{Layout: LayoutFixed, NumSlots: 6})
		level := []Ref{}
		for i := 0; i < 5*5*5*5*5*5*5; i++ {
			level = append(level, g.h.allocFixed(node, Number(0)))
		}
		for len(level) > 1 {
			var up []Ref
			for i := 0; i < len(level); i += 5 {
				r := g.h.allocFixed(node, Nil)
				g.h.Store(r, 1, Number(1))
				for w := 2; w <= 6; w++ {
					g.h.Store(r, w, FromRef(level[i+w-2]))
				}
				up = append(up, r)
			}
			level = up
		}
		g.roots.vals = []Value{FromRef(level[0])}
		g.h.collectNursery(CauseStress)
		var order []Ref // breadth-first, after the collection
		for q := []Ref{g.roots.vals[0].AsRef()}; len(q) > 0; q = q[1:] {
			order = append(order, q[0])
			for w := 2; w <= 6; w++ {
				if v := g.h.Load(q[0], w); v.IsRef() {
					q = append(q, v.AsRef())
				}
			}
		}
		return g, order
	}
	for _, distance := range []int{0, 4096} {
		g, on := run(distance, true)
		if s := &g.h.stats.total; s.chain.chains != 0 || s.chain.chainCopies != 0 || s.stackOverflows != 0 {
			t.Errorf("distance %d: %d chains, %d link copies, %d stack overflows", distance, s.chain.chains, s.chain.chainCopies, s.stackOverflows)
		}
		if distance != 0 {
			continue
		}
		_, off := run(distance, false)
		for i := range on {
			if on[i] != off[i] {
				t.Fatalf("node %d of the tree at %#x with detection, %#x without", i, on[i], off[i])
			}
		}
	}
}

// TestChainTailHandedToIdlePeer releases a chain tail while a peer is
// waiting: it goes onto the worklist of the peer that has none, not the
// releasing worker's own (which would take it back first), and onto its
// own list when every peer has work.
func TestChainTailHandedToIdlePeer(t *testing.T) {
	g := newGraphHeap(t, Config{MaxHeap: 8 << 20, NurserySize: 512 << 10, Collector: Recursive, ChainDetection: true})
	h := g.h
	h.ctl = newController(h, 3)
	defer func() { h.ctl = nil }()
	workers := []*worker{{h: h, id: 0}, {h: h, id: 1}, {h: h, id: 2}}
	evacs := newEvacuators(workers).workers
	e0, e1, e2 := evacs[0].(*evacuator), evacs[1].(*evacuator), evacs[2].(*evacuator)
	busy := workspace{region: survivorRegion, base: h.survLo, size: 64}
	e1.work.add(busy)
	e1.volume.Store(int64(e1.work.volume))
	tail := workspace{region: survivorRegion, chain: g.node, base: h.survLo + 64, size: 32}
	if !e0.handTo(tail) {
		t.Fatal("no idle peer took the tail")
	}
	if ws, ok := e2.work.peek(); !ok || ws != tail || e2.volume.Load() != 32 || e0.work.volume != 0 {
		t.Errorf("the idle peer holds %+v (volume %d), the releasing worker %d bytes", ws, e2.volume.Load(), e0.work.volume)
	}
	if e0.handTo(tail) {
		t.Error("a tail was handed to a peer that has work")
	}
}

// TestHandedWorkEndsTheWait hands a chain tail to a waiting peer: its
// wait for work ends with the tail on its own worklist. (A wait that only
// stole would spin until the releasing worker took the tail back.)
func TestHandedWorkEndsTheWait(t *testing.T) {
	g := newGraphHeap(t, Config{MaxHeap: 8 << 20, NurserySize: 512 << 10, Collector: Recursive, ChainDetection: true})
	h := g.h
	h.ctl = newController(h, 2)
	defer func() { h.ctl = nil }()
	workers := []*worker{{h: h, id: 0}, {h: h, id: 1}}
	evacs := newEvacuators(workers).workers
	e0, e1 := evacs[0].(*evacuator), evacs[1].(*evacuator)
	e1.h.ctl.waiting.Add(1) // e1 is stalled when the tail is released
	if !e0.handTo(workspace{region: survivorRegion, chain: g.node, base: h.survLo, size: 32}) {
		t.Fatal("the waiting peer did not take the tail")
	}
	e1.h.ctl.waiting.Add(-1)
	got := make(chan bool, 1)
	go func() { got <- e1.waitForWork() }()
	select {
	case ok := <-got:
		if _, has := e1.work.peek(); !ok || !has {
			t.Errorf("waitForWork = %v with the tail on the list: %v", ok, has)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the peer still waits with a tail on its own worklist")
	}
}

// TestChainWalkedWithPeers collects a depth-first payload list with two
// GC threads. Whether the list is copied as a chain depends on timing:
// while the peer is stalled, copies go outside (the stall flush), and no
// chain forms. In a collection with a chain, the chain's worker walks
// while its worklist is short: it copies only the links and releases the
// walked nodes, whose arrays another scan copies (the collection checks
// that every byte copied was scanned once). Every list is whole
// afterwards. A list without payload is never walked: a node whose link
// is all it has left is scanned, not released again.
func TestChainWalkedWithPeers(t *testing.T) {
	const n = 5000
	collect := func(payload bool) chainStats {
		cfg := Config{MaxHeap: 64 << 20, NurserySize: 16 << 20, Collector: Recursive, GCThreads: 2, Verify: true, InsideCopyDistance: 0, ChainDetection: true}
		g := newGraphHeap(t, cfg)
		node, _ := g.h.NewMeta(MetaSpec{Layout: LayoutFixed, NumSlots: 3})
		if payload {
			buildPayloadList(g, node, n)
		} else {
			g.roots.vals = []Value{Nil}
			for i := 0; i < n; i++ {
				r := g.h.allocFixed(node, Nil)
				g.h.Store(r, 3, g.roots.vals[0])
				g.roots.vals[0] = FromRef(r)
			}
		}
		g.h.collectNursery(CauseStress)
		count := 0
		for v := g.roots.vals[0]; v != Nil; v = g.h.Load(v.AsRef(), 3) {
			if a := g.h.Load(v.AsRef(), 2); payload && (!a.IsRef() || g.h.Length(a.AsRef()) != 4 || g.h.Load(a.AsRef(), 2) != Number(1)) {
				t.Fatalf("node %d's payload is %v", count, a)
			}
			count++
		}
		if count != n {
			t.Fatalf("payload %v: %d nodes after the collection, want %d", payload, count, n)
		}
		return g.h.stats.total.chain
	}
	walked := false
	for try := 0; try < 30 && !walked; try++ {
		s := collect(true)
		walked = s.walked != 0
		if s := collect(false); s.walked != 0 {
			t.Fatalf("a list without payload: %d nodes walked", s.walked)
		}
	}
	if !walked {
		t.Error("no payload node walked in 30 collections")
	}
}
