package mem

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func pagesTouched(addr, size, page uintptr) []uintptr {
	var got []uintptr
	forEachPage(addr, size, page, func(p uintptr) { got = append(got, p) })
	return got
}

func TestPretouchAlignment(t *testing.T) {
	const pg = 4096
	cases := []struct {
		addr, size uintptr
		want       []uintptr
	}{
		{0x10000, 0, nil},
		{0x10000, 1, []uintptr{0x10000}},
		{0x10000, pg, []uintptr{0x10000}},
		{0x10000, pg + 1, []uintptr{0x10000, 0x11000}},
		// Unaligned start: the first page is its page; the last page
		// (holding the last byte) is included.
		{0x10010, pg, []uintptr{0x10000, 0x11000}},
		{0x10fff, 2, []uintptr{0x10000, 0x11000}},
		{0x10fff, 1, []uintptr{0x10000}},
		{0x10800, 2 * pg, []uintptr{0x10000, 0x11000, 0x12000}},
	}
	for _, c := range cases {
		if got := pagesTouched(c.addr, c.size, pg); !slices.Equal(got, c.want) {
			t.Errorf("pages(%#x, %d) = %#x, want %#x", c.addr, c.size, got, c.want)
		}
	}
}

// TestPretouchEndOfAddressSpace: a range that ends at the very top of the
// address space must touch its last page and stop, without the cursor
// wrapping around to page 0.
func TestPretouchEndOfAddressSpace(t *testing.T) {
	const pg = 4096
	top := ^uintptr(0)
	lastPage := top &^ (pg - 1)
	addr := lastPage - 2*pg + 100
	size := top - addr + 1 // up to and including the last byte
	got := pagesTouched(addr, size, pg)
	want := []uintptr{lastPage - 2*pg, lastPage - pg, lastPage}
	if !slices.Equal(got, want) {
		t.Fatalf("pages = %#x, want %#x", got, want)
	}
	// Only the very last byte.
	if got := pagesTouched(top, 1, pg); !slices.Equal(got, []uintptr{lastPage}) {
		t.Fatalf("last byte: %#x", got)
	}
	// Parallel chunks at the top: every page once, no wrap.
	var mu sync.Mutex
	seen := map[uintptr]int{}
	chunkAddr := lastPage - 40*pg
	err := pretouchParallel(chunkAddr+1, top-chunkAddr, 8*pg, 4, func(lo, n uintptr) error {
		forEachPage(lo, n, pg, func(p uintptr) {
			mu.Lock()
			seen[p]++
			mu.Unlock()
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 41 {
		t.Fatalf("parallel at the top touched %d pages, want 41", len(seen))
	}
	for p, n := range seen {
		if n != 1 || p < chunkAddr {
			t.Fatalf("page %#x touched %d times", p, n)
		}
	}
}

func TestPretouchParallelChunks(t *testing.T) {
	pg := PageSize
	var mu sync.Mutex
	var chunks [][2]uintptr
	pretouchParallel(0x100000+5, 37*pg, 8*pg+123, 3, func(lo, n uintptr) error {
		mu.Lock()
		chunks = append(chunks, [2]uintptr{lo, n})
		mu.Unlock()
		return nil
	})
	slices.SortFunc(chunks, func(a, b [2]uintptr) int { return int(a[0]) - int(b[0]) })
	next := uintptr(0x100000)
	for _, c := range chunks {
		if c[0] != next || c[0]%pg != 0 || c[1] > 8*pg {
			t.Fatalf("chunks %#x: not contiguous page-aligned chunks of at most 8 pages", chunks)
		}
		next += c[1]
	}
	if next != 0x100000+38*pg {
		t.Fatalf("chunks end at %#x, want %#x", next, 0x100000+38*pg)
	}
}

func TestPretouchModesPreserveData(t *testing.T) {
	size := 64 * PageSize
	res, err := Reserve(size)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	if err := Commit(res.Addr, size); err != nil {
		t.Fatal(err)
	}
	b := bytesAt(res.Addr, size)
	b[PageSize+1] = 7
	for _, m := range []PretouchMode{PretouchAtomic, PretouchPopulate, PretouchBackground, PretouchNone} {
		if err := pretouch(res.Addr+3, size-3, m); err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		if err := PretouchParallel(res.Addr, size, m, 4); err != nil {
			t.Fatalf("parallel %v: %v", m, err)
		}
		if b[PageSize+1] != 7 {
			t.Fatalf("%v destroyed data", m)
		}
	}
	if err := pretouch(res.Addr, size, PretouchStore); err != nil {
		t.Fatal(err)
	}
	if err := BestPretouch(res.Addr, size, 2); err != nil {
		t.Fatal(err)
	}
	if err := pretouch(res.Addr, size, PretouchMode(99)); err == nil {
		t.Fatal("unknown mode accepted")
	}
}

func TestParsePretouchMode(t *testing.T) {
	for i, n := range []string{"none", "store", "atomic", "populate", "background"} {
		m, err := ParsePretouchMode(n)
		if err != nil || m != PretouchMode(i) || m.String() != n {
			t.Errorf("%s: %v %v", n, m, err)
		}
	}
	if _, err := ParsePretouchMode("fast"); err == nil {
		t.Error("bad mode accepted")
	}
}

func TestBackgroundPretoucher(t *testing.T) {
	size := 3*backgroundChunk + 5*PageSize
	res, err := Reserve(size)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	if err := Commit(res.Addr, size); err != nil {
		t.Fatal(err)
	}
	b := NewBackgroundPretoucher()
	// The allocator is already past the first chunk: it is skipped.
	b.AllocatorAt(res.Addr + backgroundChunk)
	b.Add(res.Addr, size)
	for b.Pending() > 0 { // a hang ends in go test's timeout, not a deadline here
		time.Sleep(time.Millisecond)
	}
	b.Stop() // waits for a chunk in flight
	if got, want := b.Touched(), size-backgroundChunk; got != want {
		t.Fatalf("touched %d bytes, want %d", got, want)
	}
	b.Stop() // idempotent
	b.Add(res.Addr, size)
	if b.Pending() != 0 {
		t.Fatal("Add after Stop queued work")
	}
}

func TestBackgroundPretoucherTrim(t *testing.T) {
	// No goroutine: the queue is only what Add and Trim leave.
	b := &BackgroundPretoucher{wake: make(chan struct{}, 1)}
	b.Add(0x10000, 0x4000)
	b.Add(0x20000, 0x4000)
	b.Add(0x30000, 0x4000)
	b.Trim(0x22000)
	want := []addrRange{{0x10000, 0x14000}, {0x20000, 0x22000}}
	if len(b.queue) != len(want) || b.queue[0] != want[0] || b.queue[1] != want[1] {
		t.Fatalf("queue after Trim: %v, want %v", b.queue, want)
	}
	b.Trim(0x10000)
	if len(b.queue) != 0 {
		t.Fatalf("queue after Trim at its bottom: %v", b.queue)
	}
}
