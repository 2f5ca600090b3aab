package mem

import (
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func newTestLow4G(t *testing.T, cfg Low4GConfig) *Low4G {
	t.Helper()
	a, err := NewLow4G(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Release)
	return a
}

func TestLow4GRegionsAndLarge(t *testing.T) {
	for _, brute := range []bool{false, true} {
		t.Run(map[bool]string{false: "quick", true: "brute"}[brute], func(t *testing.T) {
			a := newTestLow4G(t, Low4GConfig{InitialSize: 64 << 10, CommitSize: 16 << 10, IncrementSize: 32 << 10, BruteForce: brute, Zap: true})
			type blk struct {
				p    uint32
				size uintptr
			}
			var live []blk
			for i := 0; i < 3000; i++ {
				size := uintptr(24 + 2*(i%40))
				if i%500 == 0 {
					size = 40 << 10 // larger than the increment: own region
				}
				p, err := a.Alloc(size)
				if err != nil {
					t.Fatal(err)
				}
				if p == 0 || uintptr(p)%8 != 0 {
					t.Fatalf("bad address %#x", p)
				}
				for _, c := range bytesAt(uintptr(p), size) {
					if c != 0 {
						t.Fatal("block not zeroed")
					}
				}
				if !a.IsBlockStart(p) {
					t.Fatalf("%#x is not a block start", p)
				}
				if s, ok := a.findStart(p + uint32(size) - 1); !ok || s != p {
					t.Fatalf("findStart(end of %#x) = %#x, %v", p, s, ok)
				}
				bytesAt(uintptr(p), size)[0] = 0xAA
				live = append(live, blk{p, size})
			}
			st := a.Stats()
			if st.Regions < 10 || st.LargeRegions != 6 || st.Blocks != 3000 {
				t.Fatalf("stats: %+v", st)
			}
			if err := a.Verify(); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewSource(1))
			rng.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
			for _, b := range live {
				if err := a.Free(b.p, b.size); err != nil {
					t.Fatal(err)
				}
				if a.IsBlockStart(b.p) {
					t.Fatalf("freed %#x still a block start", b.p)
				}
			}
			if err := a.Verify(); err != nil {
				t.Fatal(err)
			}
			st2 := a.Stats()
			if st2.Blocks != 0 || st2.InUse != 0 || st2.LargeRegions != 0 {
				t.Fatalf("after freeing everything: %+v", st2)
			}
			// Large regions are gone; the others stay for the next wave.
			if st2.PeakCommitted < st.Committed || st2.Committed != st.Committed-6*(40<<10) {
				t.Fatalf("committed: before %+v after %+v", st, st2)
			}
			if err := a.Free(live[0].p, live[0].size); err == nil {
				t.Fatal("double free accepted")
			}
		})
	}
}

// TestLow4GRelease: empty increment regions are unmapped as long as the
// other regions keep room for the peak demand.
func TestLow4GRelease(t *testing.T) {
	a := newTestLow4G(t, Low4GConfig{InitialSize: 4 << 10, CommitSize: 4 << 10, IncrementSize: 4 << 10})
	alloc := func(n int, size uintptr) (ps []uint32) {
		for i := 0; i < n; i++ {
			p, err := a.Alloc(size)
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
		return ps
	}
	// 1000 one-segment blocks, every other one freed: holes too small for
	// the next 500 two-segment blocks, which need new regions.
	small := alloc(1000, 40)
	for i := 0; i < len(small); i += 2 {
		a.Free(small[i], 40)
	}
	big := alloc(500, 100)
	st := a.Stats()
	if st.Released != 0 {
		t.Fatalf("released while in use: %+v", st)
	}
	peak := uintptr(500*64 + 500*128)
	for i := 1; i < len(small); i += 2 {
		a.Free(small[i], 40)
	}
	for _, p := range big {
		a.Free(p, 100)
	}
	st2 := a.Stats()
	if st2.Released == 0 || st2.Regions+st2.Released != st.Regions {
		t.Fatalf("before %+v, after %+v: no region released", st, st2)
	}
	if room := st2.Free + st2.Unused; room < peak || room > peak+8<<10 {
		t.Fatalf("kept %d bytes of room for a peak of %d", room, peak)
	}
	// A wave as large as the peak fits without a new region.
	alloc(int(peak/64)-10, 40)
	if st3 := a.Stats(); st3.Regions != st2.Regions {
		t.Fatalf("a wave below the peak grew the regions: %+v", st3)
	}
	if err := a.Verify(); err != nil {
		t.Fatal(err)
	}
}

func TestLow4GAddressesBelow4G(t *testing.T) {
	a := newTestLow4G(t, Low4GConfig{InitialSize: 1 << 20, CommitSize: 64 << 10, IncrementSize: 64 << 10})
	for _, r := range a.regions.Load().sorted {
		if r.base+r.size > limit4G || r.base < lowSearchFloor {
			t.Fatalf("region %#x+%#x outside [floor, 4 GB)", r.base, r.size)
		}
	}
	// Committing in steps: only the first step is committed.
	if st := a.Stats(); st.Committed != 64<<10 || st.Reserved != 1<<20 {
		t.Fatalf("initial region: %+v", st)
	}
	for i := 0; i < 2000; i++ {
		if _, err := a.Alloc(100); err != nil {
			t.Fatal(err)
		}
	}
	st := a.Stats()
	if st.Regions != 1 || st.Committed <= 64<<10 || st.Committed > 1<<20 {
		t.Fatalf("commit steps: %+v", st)
	}
}

// TestLow4GExhausted confines the allocator to a small window and checks
// that it fails with a clear error, both ways, instead of returning an
// address outside the window.
func TestLow4GExhausted(t *testing.T) {
	// Find a free window first.
	probe, err := NewLow4G(Low4GConfig{InitialSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	lo := probe.regions.Load().sorted[0].base
	probe.Release()
	for _, brute := range []bool{false, true} {
		a, err := NewLow4G(Low4GConfig{InitialSize: 256 << 10, IncrementSize: 256 << 10, BruteForce: brute, SearchLo: lo, SearchHi: lo + 1<<20})
		if err != nil {
			t.Fatal(err)
		}
		var got error
		for i := 0; i < 100 && got == nil; i++ {
			_, got = a.Alloc(200 << 10)
		}
		if !errors.Is(got, ErrLow4GExhausted) {
			t.Fatalf("brute=%v: err = %v, want ErrLow4GExhausted", brute, got)
		}
		if st := a.Stats(); st.Regions != 4 {
			t.Fatalf("brute=%v: %d regions in a 1 MB window of 256 KB regions", brute, st.Regions)
		}
		if err := a.Verify(); err != nil {
			t.Fatal(err)
		}
		a.Release()
	}
	// A window that cannot hold the initial region.
	if _, err := NewLow4G(Low4GConfig{InitialSize: 2 << 20, SearchLo: lo, SearchHi: lo + 1<<20}); !errors.Is(err, ErrLow4GExhausted) {
		t.Fatalf("initial region in a too small window: %v", err)
	}
}

func TestLow4GConcurrent(t *testing.T) {
	a := newTestLow4G(t, Low4GConfig{InitialSize: 64 << 10, CommitSize: 16 << 10, IncrementSize: 16 << 10, Zap: true})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(seed))
			var mine []uint32
			for i := 0; i < 3000; i++ {
				if len(mine) > 0 && rng.Intn(3) == 0 {
					k := rng.Intn(len(mine))
					p := mine[k]
					mine[k] = mine[len(mine)-1]
					mine = mine[:len(mine)-1]
					if bytesAt(uintptr(p), 1)[0] != byte(seed) {
						t.Errorf("block %#x overwritten", p)
						return
					}
					if err := a.Free(p, 40); err != nil {
						t.Error(err)
						return
					}
					continue
				}
				p, err := a.Alloc(40)
				if err != nil {
					t.Error(err)
					return
				}
				bytesAt(uintptr(p), 1)[0] = byte(seed)
				mine = append(mine, p)
			}
			for _, p := range mine {
				a.Free(p, 40)
			}
		}(int64(g))
	}
	wg.Wait()
	if err := a.Verify(); err != nil {
		t.Fatal(err)
	}
	if _, blocks := a.InUse(); blocks != 0 {
		t.Fatalf("%d blocks left", blocks)
	}
}

func TestFindGap(t *testing.T) {
	p := PageSize
	maps := []addrRange{{10 * p, 20 * p}, {22 * p, 30 * p}, {40 * p, 41 * p}}
	cases := []struct {
		size, lo, hi uintptr
		want         uintptr
		ok           bool
	}{
		{4 * p, 0, 100 * p, 0, true},
		{4 * p, 8 * p, 100 * p, 30 * p, true},
		{2 * p, 15 * p, 100 * p, 20 * p, true},
		{3 * p, 15 * p, 100 * p, 30 * p, true},
		{11 * p, 15 * p, 100 * p, 41 * p, true},
		{11 * p, 15 * p, 45 * p, 0, false},
		{p, 40 * p, 41 * p, 0, false},
		{p, 41 * p, 42 * p, 41 * p, true},
		{p, 15*p + 1, 21 * p, 20 * p, true},
	}
	for _, c := range cases {
		got, ok := findGap(maps, c.size, c.lo, c.hi)
		if got != c.want || ok != c.ok {
			t.Errorf("findGap(%d pages in [%d, %d)) = %d, %v; want %d, %v", c.size/p, c.lo/p, c.hi/p, got/p, ok, c.want/p, c.ok)
		}
	}
}

func TestReadMappings(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) {
		mapsPath = filepath.Join(dir, "maps")
		os.WriteFile(mapsPath, []byte(s), 0o644)
	}
	defer func() { mapsPath = "/proc/self/maps" }()
	write("00400000-00401000 r-xp 00000000 fe:00 1 /bin/x\n00401000-00402000 rw-p 0 0:0 0\n10000000-10001000 ---p 0 0:0 0\n7f0000000000-7f0000001000 rw-p 0 0:0 0 [stack]\n")
	got, err := readMappings(limit4G)
	if err != nil {
		t.Fatal(err)
	}
	want := []addrRange{{0x400000, 0x402000}, {0x10000000, 0x10001000}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("readMappings = %x, want %x", got, want)
	}
	for _, bad := range []string{"zz-10 x\n", "2000-1000 x\n", "1000-2000 x\n0800-0900 x\n", "1000-2000 x"} {
		write(bad)
		if _, err := readMappings(limit4G); !errors.Is(err, errMapsUnusable) {
			t.Errorf("readMappings(%q): err = %v", bad, err)
		}
	}
	// The real file parses.
	mapsPath = "/proc/self/maps"
	if _, err := readMappings(^uintptr(0)); err != nil {
		t.Fatal(err)
	}
}
