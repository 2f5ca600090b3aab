package mem

import (
	"math/rand"
	"strings"
	"testing"
)

// newTestSegHeap maps size bytes, commits committed of them and lays a
// segHeap over them.
func newTestSegHeap(tb testing.TB, size, committed uintptr, cfg segHeapConfig) *segHeap {
	tb.Helper()
	res, err := Reserve(size)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { res.Release() })
	if committed > 0 {
		if err := Commit(res.Addr, committed); err != nil {
			tb.Fatal(err)
		}
	}
	s, err := newSegHeap(res.Addr, size, committed, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func mustVerify(t *testing.T, s *segHeap) {
	t.Helper()
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
}

func TestSegHeapAllocFreeFindStart(t *testing.T) {
	s := newTestSegHeap(t, 1<<20, 1<<20, segHeapConfig{Zap: true})
	seg := s.SegmentSize()
	a := s.Allocate(10)      // 1 segment
	b := s.Allocate(3 * seg) // 4 segments (header pushes it over)
	c := s.Allocate(300 * seg)
	if a == 0 || b == 0 || c == 0 {
		t.Fatal("allocation failed")
	}
	if a%8 != 0 || b%8 != 0 || c%8 != 0 {
		t.Fatal("payload not 8-aligned")
	}
	for _, p := range []uintptr{a, b, c} {
		for _, off := range []uintptr{0, 1, 7, 55} {
			if got := s.FindStart(p + off); got != p {
				t.Fatalf("FindStart(%#x+%d) = %#x, want %#x", p, off, got, p)
			}
		}
	}
	if got := s.FindStart(c + 299*seg); got != c {
		t.Fatalf("FindStart deep inside a 300-segment block = %#x, want %#x", got, c)
	}
	if s.FindStart(s.Base()+s.Committed()-1) != 0 {
		t.Fatal("FindStart found a block in unused space")
	}
	if s.FindStart(s.Base()-8) != 0 {
		t.Fatal("FindStart found a block below the heap")
	}
	mustVerify(t, s)
	if err := s.Free(b); err != nil {
		t.Fatal(err)
	}
	if s.FindStart(b) != 0 {
		t.Fatal("FindStart found a freed block")
	}
	if err := s.Free(b); err == nil || !strings.Contains(err.Error(), "not in use") {
		t.Fatalf("double free: err = %v", err)
	}
	if err := s.Free(a + 8); err == nil {
		t.Fatal("free of an interior address succeeded")
	}
	mustVerify(t, s)
	// Best fit, exact: the 4-segment hole is reused.
	if d := s.Allocate(3 * seg); d != b {
		t.Fatalf("exact fit: got %#x, want the freed block %#x", d, b)
	}
	mustVerify(t, s)
}

func TestSegHeapTailCarvingAndBestFit(t *testing.T) {
	s := newTestSegHeap(t, 1<<20, 1<<20, segHeapConfig{Zap: true})
	seg := s.SegmentSize()
	var ps []uintptr
	for i := 0; i < 8; i++ {
		ps = append(ps, s.Allocate(10*seg-segHeaderSize)) // 10 segments each
	}
	s.Free(ps[1]) // hole of 10
	s.Free(ps[4]) // hole of 10
	s.Free(ps[5]) // joins: hole of 20
	mustVerify(t, s)
	if st := s.Stats(); st.FreeBlocks != 2 || st.Fragmentation != 1 {
		t.Fatalf("stats after join: %+v", st)
	}
	// 15 segments: only the 20-hole fits; its tail is carved.
	p := s.Allocate(15*seg - segHeaderSize)
	hole := ps[4] - segHeaderSize
	if want := hole + 5*seg + segHeaderSize; p != want {
		t.Fatalf("tail carving: got %#x, want %#x", p, want)
	}
	// 5 segments: best fit is the 5-segment remainder, not the 10-hole.
	if q := s.Allocate(5*seg - segHeaderSize); q != ps[4] {
		t.Fatalf("best fit: got %#x, want %#x", q, ps[4])
	}
	mustVerify(t, s)
	// Payload of a reused block must be cleared by the caller; check that
	// zapping left the documented pattern.
	if bytesAt(p, 1)[0] != zapByte {
		t.Fatal("reused free block does not hold the zap pattern")
	}
}

func TestSegHeapJoinEncodingAndRebuild(t *testing.T) {
	// Free long blocks right to left so every free joins its right
	// neighbour: each join rewrites one map byte and adds hops.
	s := newTestSegHeap(t, 8<<20, 8<<20, segHeapConfig{})
	seg := s.SegmentSize()
	var ps []uintptr
	for i := 0; i < 200; i++ {
		ps = append(ps, s.Allocate(300*seg))
	}
	for i := len(ps) - 1; i >= 0; i-- {
		if err := s.Free(ps[i]); err != nil {
			t.Fatal(err)
		}
	}
	mustVerify(t, s)
	st := s.Stats()
	if st.FreeBlocks != 1 || st.Fragmentation != 199 {
		t.Fatalf("after right-to-left frees: %+v", st)
	}
	// Every interior address still resolves once reallocated.
	big := s.Allocate(150 * 300 * seg)
	if big == 0 {
		t.Fatal("cannot reallocate the joined space")
	}
	for off := uintptr(0); off < 150*300*seg; off += 97 * seg {
		if s.FindStart(big+off) != big {
			t.Fatalf("FindStart(big+%d) wrong after joins", off)
		}
	}
	mustVerify(t, s)
}

func TestSegHeapRebuildPastLimit(t *testing.T) {
	s := newTestSegHeap(t, 4<<20, 4<<20, segHeapConfig{SegmentSize: 16})
	n := segFragmentationLimit + 10
	ps := make([]uintptr, n)
	for i := range ps {
		ps[i] = s.Allocate(8)
	}
	// Free right to left: n-1 joins.
	for i := n - 1; i >= 0; i-- {
		s.Free(ps[i])
	}
	st := s.Stats()
	if st.Rebuilds != 1 || st.Fragmentation != n-1-segFragmentationLimit {
		t.Fatalf("expected one rebuild: %+v", st)
	}
	mustVerify(t, s)
}

func TestSegHeapExpand(t *testing.T) {
	s := newTestSegHeap(t, 1<<20, 64<<10, segHeapConfig{Zap: true})
	var n int
	for s.Allocate(1000) != 0 {
		n++
	}
	added, err := s.Expand(100 << 10)
	if err != nil || added < 100<<10 {
		t.Fatalf("Expand: %d, %v", added, err)
	}
	if s.Allocate(1000) == 0 {
		t.Fatal("no room after Expand")
	}
	mustVerify(t, s)
	s.Expand(1 << 30)
	if s.Committed() != s.Reserved() {
		t.Fatal("Expand did not stop at the reservation")
	}
	if added, _ := s.Expand(1); added != 0 {
		t.Fatal("Expand past the reservation")
	}
	mustVerify(t, s)
}

// TestSegHeapRandom runs random allocations and frees against a model,
// with and without the hint and the O(1) join, verifying as it goes.
func TestSegHeapRandom(t *testing.T) {
	for _, v := range []struct {
		name          string
		naive, noHint bool
		seg           uintptr
	}{{"fast", false, false, 64}, {"naive", true, true, 64}, {"seg16", false, false, 16}} {
		t.Run(v.name, func(t *testing.T) {
			s := newTestSegHeap(t, 4<<20, 4<<20, segHeapConfig{Zap: true, SegmentSize: v.seg})
			s.naiveJoin, s.noHint = v.naive, v.noHint
			rng := rand.New(rand.NewSource(7))
			live := map[uintptr]uintptr{}
			var keys []uintptr
			for step := 0; step < 20000; step++ {
				if len(keys) > 0 && (rng.Intn(2) == 0 || len(keys) > 1500) {
					i := rng.Intn(len(keys))
					p := keys[i]
					keys[i] = keys[len(keys)-1]
					keys = keys[:len(keys)-1]
					// The payload must be intact.
					b := bytesAt(p, live[p])
					for j := range b {
						if b[j] != byte(p) {
							t.Fatalf("block %#x corrupted", p)
						}
					}
					if err := s.Free(p); err != nil {
						t.Fatal(err)
					}
					delete(live, p)
				} else {
					size := uintptr(1 + rng.Intn(200))
					if rng.Intn(20) == 0 {
						size = uintptr(rng.Intn(40000))
					}
					p := s.Allocate(size)
					if p == 0 {
						continue
					}
					if _, dup := live[p]; dup {
						t.Fatalf("block %#x handed out twice", p)
					}
					b := bytesAt(p, size)
					for j := range b {
						b[j] = byte(p)
					}
					live[p] = size
					keys = append(keys, p)
					if q := s.FindStart(p + size/2); q != p {
						t.Fatalf("FindStart(interior of %#x) = %#x", p, q)
					}
				}
				if step%2000 == 0 {
					mustVerify(t, s)
				}
			}
			mustVerify(t, s)
			if st := s.Stats(); st.UsedBlocks != len(live) {
				t.Fatalf("used blocks %d, model %d", st.UsedBlocks, len(live))
			}
		})
	}
}

func TestSegHeapInsertionHint(t *testing.T) {
	s := newTestSegHeap(t, 4<<20, 4<<20, segHeapConfig{})
	var ps []uintptr
	for i := 0; i < 2*segFreelistLimit+100; i++ {
		ps = append(ps, s.Allocate(8))
	}
	// Every other block, ascending: a long list, each insert at the tail.
	for i := 0; i < len(ps); i += 2 {
		s.Free(ps[i])
	}
	mustVerify(t, s)
	// Allocate a hinted block away, then insert behind it: the hint must
	// be revalidated, not trusted.
	hint := s.hint
	if hint == noSeg {
		t.Fatal("no insertion hint set on a long list")
	}
	for s.Allocate(8) != 0 && s.hdr(hint)[0]&usedBit == 0 {
	}
	for i := 1; i < len(ps); i += 4 {
		s.Free(ps[i])
	}
	mustVerify(t, s)
}

func TestSegHeapConfigErrors(t *testing.T) {
	for _, seg := range []uintptr{8, 48, 8192} {
		if _, err := newSegHeap(1<<20, 1<<20, 0, segHeapConfig{SegmentSize: seg}); err == nil {
			t.Errorf("segment size %d accepted", seg)
		}
	}
	if _, err := newSegHeap(1<<20+8, 1<<20, 0, segHeapConfig{}); err == nil {
		t.Error("unaligned base accepted")
	}
}

// TestSegHeapVerifyCatches corrupts a heap and checks that Verify notices.
func TestSegHeapVerifyCatches(t *testing.T) {
	s := newTestSegHeap(t, 1<<20, 1<<20, segHeapConfig{Zap: true})
	p := s.Allocate(500)
	q := s.Allocate(500)
	s.Allocate(8)
	s.Free(p)
	mustVerify(t, s)
	bytesAt(p, 1)[0] = 1 // write after free
	if err := s.Verify(); err == nil || !strings.Contains(err.Error(), "written") {
		t.Fatalf("write after free not caught: %v", err)
	}
	bytesAt(p, 1)[0] = zapByte
	seg := (q - segHeaderSize - s.Base()) / s.SegmentSize()
	s.segmap[seg+3] = 0xFF
	if err := s.Verify(); err == nil {
		t.Fatal("bad map byte not caught")
	}
	s.segmap[seg+3] = 3
	mustVerify(t, s)
}
