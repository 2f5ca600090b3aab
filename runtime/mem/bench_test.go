package mem

import (
	"fmt"
	"math/rand"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// Benchmarks of pretouch, the low-4GB region search and the segmented
// metadata heap. Run with
//
//	go test -run '^$' -bench . ./runtime/mem
//
// Figures are recorded in BENCHMARKS.md, section "runtime/mem".

// BenchmarkPretouch measures pretouching freshly committed memory: each
// iteration drops the pages (outside the timer) and touches them again.
// MB/s is the figure to compare.
func BenchmarkPretouch(b *testing.B) {
	const size = 64 << 20
	modes := []struct {
		name string
		run  func(addr, n uintptr) error
	}{
		{"store", func(a, n uintptr) error { return pretouch(a, n, PretouchStore) }},
		{"atomic", func(a, n uintptr) error { return pretouch(a, n, PretouchAtomic) }},
		{"populate", func(a, n uintptr) error { return pretouch(a, n, PretouchPopulate) }},
		{"parallel", func(a, n uintptr) error { return PretouchParallel(a, n, PretouchAtomic, runtime.GOMAXPROCS(0)) }},
	}
	for _, m := range modes {
		b.Run("mode="+m.name, func(b *testing.B) {
			res, err := Reserve(size)
			if err != nil {
				b.Fatal(err)
			}
			defer res.Release()
			b.SetBytes(size)
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if err := decommit(res.Addr, size); err != nil {
					b.Fatal(err)
				}
				if err := Commit(res.Addr, size); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := m.run(res.Addr, size); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLow4GReserve reserves a region below 4 GB in an address range
// fragmented by 1024 one-page mappings, one every 256 KB, so the first gap
// large enough for the 512 KB request lies past them: the brute-force loop
// steps one page at a time through 256 MB, the quick search reads
// /proc/self/maps once.
func BenchmarkLow4GReserve(b *testing.B) {
	const (
		window  = 256 << 20
		spacing = 256 << 10
		request = 512 << 10
	)
	// Find a free window below 4 GB, then fragment it.
	lo, err := reserveQuick(window+4*request, lowSearchFloor, limit4G)
	if err != nil {
		b.Fatal(err)
	}
	munmap(lo, window+4*request)
	var blocks []uintptr
	for p := lo; p < lo+window; p += spacing {
		got, err := mmap(p, PageSize, unix.PROT_NONE, reserveFlags|unix.MAP_FIXED_NOREPLACE)
		if err != nil || got != p {
			b.Fatalf("cannot fragment the window at %#x: %v", p, err)
		}
		blocks = append(blocks, got)
	}
	defer func() {
		for _, p := range blocks {
			munmap(p, PageSize)
		}
	}()
	hi := lo + window + 4*request
	for _, quick := range []bool{true, false} {
		b.Run(fmt.Sprintf("quick=%v", quick), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				var addr uintptr
				var err error
				if quick {
					addr, err = reserveQuick(request, lo, hi)
				} else {
					addr, err = reserveBrute(request, lo, hi)
				}
				if err != nil {
					b.Fatal(err)
				}
				if addr < lo+window-spacing {
					b.Fatalf("reserved %#x inside the fragmented window", addr)
				}
				munmap(addr, request)
			}
		})
	}
}

// segHeapVariants: the HotSpot-style heap against the naive one (the
// whole merged block's map rewritten on every join, no insertion hint).
var segHeapVariants = []struct {
	name  string
	naive bool
}{{"fast", false}, {"naive", true}}

func benchSegHeap(b *testing.B, size uintptr, naive bool) *segHeap {
	s := newTestSegHeap(b, size, size, segHeapConfig{})
	s.naiveJoin, s.noHint = naive, naive
	return s
}

func BenchmarkSegHeap(b *testing.B) {
	// alloc-free-random: a steady state of about 20000 live blocks of
	// ClassMeta-like sizes (with occasional large ones); each op frees a
	// random block and allocates a new one.
	b.Run("alloc-free-random", func(b *testing.B) {
		for _, v := range segHeapVariants {
			b.Run(v.name, func(b *testing.B) {
				s := benchSegHeap(b, 256<<20, v.naive)
				rng := rand.New(rand.NewSource(1))
				size := func() uintptr {
					if rng.Intn(50) == 0 {
						return uintptr(4096 + rng.Intn(64<<10))
					}
					return uintptr(24 + 2*rng.Intn(64))
				}
				live := make([]uintptr, 0, 20000)
				for len(live) < cap(live) {
					live = append(live, s.Allocate(size()))
				}
				// Churn to reach a fragmented steady state.
				for i := 0; i < 20000; i++ {
					k := rng.Intn(len(live))
					s.Free(live[k])
					live[k] = s.Allocate(size())
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					k := rng.Intn(len(live))
					if err := s.Free(live[k]); err != nil {
						b.Fatal(err)
					}
					if live[k] = s.Allocate(size()); live[k] == 0 {
						b.Fatal("heap full")
					}
				}
				b.StopTimer()
				b.ReportMetric(float64(s.Stats().FreeBlocks), "freeblocks")
			})
		}
	})
	// join-large-blocks: 256 blocks of 1 MB freed left to right, so each
	// free merges into the growing free block on its left (JDK-8231460).
	// One op is the whole sequence of 256 frees (the allocations are
	// outside the timer).
	b.Run("join-large-blocks", func(b *testing.B) {
		for _, v := range segHeapVariants {
			b.Run(v.name, func(b *testing.B) {
				s := benchSegHeap(b, 260<<20, v.naive)
				ps := make([]uintptr, 256)
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					for k := range ps {
						if ps[k] = s.Allocate(1<<20 - segHeaderSize); ps[k] == 0 {
							b.Fatal("heap full")
						}
					}
					b.StartTimer()
					for _, p := range ps {
						s.Free(p)
					}
				}
			})
		}
	})
	// long-freelist-insert: 5000 one-segment blocks freed in ascending
	// address order, every other block, so the free list grows to 5000
	// entries and each insertion goes to its end. One op is the 5000
	// frees; without the hint each insertion walks the whole list.
	b.Run("long-freelist-insert", func(b *testing.B) {
		const n = 5000
		for _, v := range segHeapVariants {
			b.Run(v.name, func(b *testing.B) {
				ps := make([]uintptr, 2*n)
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					s := benchSegHeap(b, 4<<20, v.naive)
					for k := range ps {
						ps[k] = s.Allocate(8)
					}
					b.StartTimer()
					for k := 0; k < len(ps); k += 2 {
						s.Free(ps[k])
					}
				}
			})
		}
	})
}

// decommit returns the pages wholly inside [addr, addr+size) to the
// operating system and makes them inaccessible again.
func decommit(addr, size uintptr) error {
	lo, hi := AlignUp(addr, PageSize), AlignDown(addr+size, PageSize)
	if hi <= lo {
		return nil
	}
	_, err := mmap(lo, hi-lo, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE|unix.MAP_FIXED)
	return err
}
