package mem

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Pretouch: back committed memory with real pages before the mutator
// first writes it, so that the mutator does not pay a page fault (15-30 µs
// here) per page, as HotSpot's os::pretouch_memory and PretouchTask do
// (JDK-8272807, JDK-8315923).

// PretouchMode selects how pages are touched.
type PretouchMode uint8

const (
	// PretouchNone touches nothing.
	PretouchNone PretouchMode = iota
	// PretouchStore writes a zero byte to each page: the old HotSpot loop,
	// kept as the baseline. It destroys concurrent writes, so it is only
	// for memory nobody uses yet.
	PretouchStore
	// PretouchAtomic atomically adds 0 to a word of each page: a write
	// access (so the fault maps a real page, not the shared zero page)
	// that preserves concurrent writes.
	PretouchAtomic
	// PretouchPopulate asks the kernel to populate the whole range in one
	// madvise(MADV_POPULATE_WRITE) call (Linux 5.14+), falling back to
	// PretouchAtomic where the kernel does not know the advice (EINVAL).
	// It does not change the data, so it is safe on memory in use.
	PretouchPopulate
	// PretouchBackground is a heap policy, not a way of touching: a
	// goroutine pretouches committed memory ahead of the allocator while
	// the program runs (BackgroundPretoucher). Pretouch itself treats it
	// as PretouchPopulate.
	PretouchBackground
)

var pretouchNames = [...]string{"none", "store", "atomic", "populate", "background"}

func (m PretouchMode) String() string {
	if int(m) < len(pretouchNames) {
		return pretouchNames[m]
	}
	return fmt.Sprintf("PretouchMode(%d)", m)
}

// ParsePretouchMode parses none, store, atomic, populate or background.
func ParsePretouchMode(s string) (PretouchMode, error) {
	for i, n := range pretouchNames {
		if s == n {
			return PretouchMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown pretouch mode %q (want none, store, atomic, populate or background)", s)
}

// pretouchChunkSize is the unit parallel workers claim (HotSpot's
// PreTouchParallelChunkSize on Linux).
const pretouchChunkSize = 4 << 20

// populateState: 0 unknown, 1 works, 2 unsupported (EINVAL once).
var populateState atomic.Int32

// PopulateSupported reports whether MADV_POPULATE_WRITE is known not to
// fail with EINVAL (true until it has failed once).
func PopulateSupported() bool { return populateState.Load() != 2 }

// forEachPage calls touch with the address of every page that overlaps
// [addr, addr+size): page-aligned, the last page always included, and no
// overflow even when the range ends at the top of the address space (the
// loop tests before it advances, as after JDK-8272807). size 0 touches
// nothing. addr+size may wrap to exactly 0 (a range ending at 2^64).
func forEachPage(addr, size, page uintptr, touch func(uintptr)) {
	if size == 0 {
		return
	}
	first := AlignDown(addr, page)
	last := AlignDown(addr+(size-1), page)
	for cur := first; ; cur += page {
		touch(cur)
		if cur >= last {
			break
		}
	}
}

func touchStore(p uintptr) { *(*byte)(At(p)) = 0 }

func touchAtomic(p uintptr) { atomic.AddUint32((*uint32)(At(p)), 0) }

// pretouch backs the committed range [addr, addr+size) with memory using
// mode. It returns an error only when populate fails for a reason other
// than an unsupported kernel (the range is then left to fault normally).
func pretouch(addr, size uintptr, mode PretouchMode) error {
	switch mode {
	case PretouchNone:
		return nil
	case PretouchStore:
		forEachPage(addr, size, PageSize, touchStore)
	case PretouchAtomic:
		forEachPage(addr, size, PageSize, touchAtomic)
	case PretouchPopulate, PretouchBackground:
		return populate(addr, size)
	default:
		return fmt.Errorf("unknown pretouch mode %d", mode)
	}
	return nil
}

// populate is MADV_POPULATE_WRITE with the EINVAL fallback.
func populate(addr, size uintptr) error {
	if size == 0 {
		return nil
	}
	if populateState.Load() != 2 {
		lo := AlignDown(addr, PageSize)
		hi := AlignDown(addr+(size-1), PageSize) + PageSize
		_, _, errno := unix.Syscall(unix.SYS_MADVISE, lo, hi-lo, madvPopulateWrite)
		switch errno {
		case 0:
			populateState.Store(1)
			return nil
		case unix.EINVAL:
			populateState.Store(2)
		case unix.EINTR, unix.EAGAIN:
			// Interrupted part-way: touch the rest page by page.
		default:
			return fmt.Errorf("madvise(MADV_POPULATE_WRITE) of %d bytes at %#x: %v", hi-lo, lo, errno)
		}
	}
	forEachPage(addr, size, PageSize, touchAtomic)
	return nil
}

// PretouchParallel pretouches [addr, addr+size) with up to workers
// goroutines. The range is cut into page-aligned pretouchChunkSize chunks
// that workers claim from a shared cursor by compare-and-swap (never by
// fetch-and-add, which could push the cursor past the end); workers =
// min(chunks, workers). PretouchStore is not allowed to run in parallel
// with anything but itself, which is fine: each chunk has one owner.
func PretouchParallel(addr, size uintptr, mode PretouchMode, workers int) error {
	return pretouchParallel(addr, size, pretouchChunkSize, workers, func(lo, n uintptr) error {
		return pretouch(lo, n, mode)
	})
}

func pretouchParallel(addr, size, chunk uintptr, workers int, touch func(lo, n uintptr) error) error {
	if size == 0 {
		return nil
	}
	chunk = max(AlignDown(chunk, PageSize), PageSize)
	// Chunks start at page boundaries so no page is shared by two chunks.
	lo := AlignDown(addr, PageSize)
	hi := AlignDown(addr+(size-1), PageSize) + PageSize // may wrap to 0 at the very top
	total := hi - lo
	chunks := (total-1)/chunk + 1
	workers = int(min(uintptr(max(workers, 1)), chunks))
	if workers == 1 {
		return touch(lo, total)
	}
	var cursor atomic.Uintptr // offset from lo of the next unclaimed byte
	var wg sync.WaitGroup
	var firstErr atomic.Pointer[error]
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				cur := cursor.Load()
				if cur >= total {
					return
				}
				next := cur + min(chunk, total-cur)
				if !cursor.CompareAndSwap(cur, next) {
					continue
				}
				if err := touch(lo+cur, next-cur); err != nil {
					firstErr.CompareAndSwap(nil, &err)
				}
			}
		}()
	}
	wg.Wait()
	if p := firstErr.Load(); p != nil {
		return *p
	}
	return nil
}

// BestPretouch pretouches [addr, addr+size) the fastest way available:
// populate where the kernel has it, else atomic, in parallel on up to
// workers goroutines. This is what -XX:+AlwaysPreTouch uses.
func BestPretouch(addr, size uintptr, workers int) error {
	return PretouchParallel(addr, size, PretouchPopulate, workers)
}

// BackgroundPretoucher pretouches committed memory on a goroutine, ahead
// of an allocator that moves upward through it. Ranges are queued with
// Add as they are committed; AllocatorAt tells it where the allocator is,
// so that it skips what the allocator has already touched itself and keeps
// working just ahead of it. Touching uses MADV_POPULATE_WRITE (or an
// atomic add of 0), both safe while the mutator uses the memory.
//
// The owner must call Stop before unmapping any queued range, and Trim
// before decommitting one.
type BackgroundPretoucher struct {
	// touching is held while a chunk is claimed and touched, so that
	// Trim can wait for a chunk in flight.
	touching sync.Mutex
	mu       sync.Mutex
	queue    []addrRange // committed, not yet touched, address order
	floor    uintptr     // the allocator's position
	wake     chan struct{}
	stop     chan struct{}
	done     chan struct{}
	touched  atomic.Uintptr
	stopped  bool
}

// backgroundChunk is the unit the background goroutine touches between
// looks at the queue: small enough to stay just ahead of the allocator.
const backgroundChunk = 1 << 20

// NewBackgroundPretoucher starts the goroutine.
func NewBackgroundPretoucher() *BackgroundPretoucher {
	b := &BackgroundPretoucher{
		wake: make(chan struct{}, 1),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	go b.run()
	return b
}

// Add queues the committed range [addr, addr+size).
func (b *BackgroundPretoucher) Add(addr, size uintptr) {
	if size == 0 {
		return
	}
	b.mu.Lock()
	if !b.stopped {
		b.queue = append(b.queue, addrRange{addr, addr + size})
		slicesSortRanges(b.queue)
	}
	b.mu.Unlock()
	b.signal()
}

// AllocatorAt records that the allocator has reached addr: memory below
// it needs no pretouching any more.
func (b *BackgroundPretoucher) AllocatorAt(addr uintptr) {
	b.mu.Lock()
	b.floor = max(b.floor, addr)
	b.mu.Unlock()
}

// Trim drops the queued memory at and above addr and waits for a chunk
// being touched to finish: afterwards nothing above addr is touched until
// it is queued again, so it may be decommitted.
func (b *BackgroundPretoucher) Trim(addr uintptr) {
	b.touching.Lock()
	defer b.touching.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.queue[:0]
	for _, r := range b.queue {
		if r.lo < addr {
			r.hi = min(r.hi, addr)
			kept = append(kept, r)
		}
	}
	b.queue = kept
}

// Touched returns the bytes pretouched so far.
func (b *BackgroundPretoucher) Touched() uintptr { return b.touched.Load() }

// Pending returns the bytes queued and not yet pretouched.
func (b *BackgroundPretoucher) Pending() uintptr {
	b.mu.Lock()
	defer b.mu.Unlock()
	var n uintptr
	for _, r := range b.queue {
		n += r.hi - r.lo
	}
	return n
}

// Stop ends the goroutine and waits for it. Queued work is dropped.
func (b *BackgroundPretoucher) Stop() {
	b.mu.Lock()
	if b.stopped {
		b.mu.Unlock()
		<-b.done
		return
	}
	b.stopped = true
	b.queue = nil
	b.mu.Unlock()
	close(b.stop)
	<-b.done
}

func (b *BackgroundPretoucher) signal() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// next claims the next chunk to touch, skipping what lies below the
// allocator.
func (b *BackgroundPretoucher) next() (addrRange, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for len(b.queue) > 0 {
		r := &b.queue[0]
		r.lo = max(r.lo, min(AlignDown(b.floor, PageSize), r.hi))
		if r.lo >= r.hi {
			b.queue = b.queue[1:]
			continue
		}
		c := addrRange{r.lo, min(r.hi, r.lo+backgroundChunk)}
		r.lo = c.hi
		return c, true
	}
	return addrRange{}, false
}

func (b *BackgroundPretoucher) run() {
	defer close(b.done)
	for {
		select {
		case <-b.stop:
			return
		default:
		}
		b.touching.Lock()
		c, ok := b.next()
		if ok {
			populate(c.lo, c.hi-c.lo)
		}
		b.touching.Unlock()
		if !ok {
			select {
			case <-b.stop:
				return
			case <-b.wake:
			}
			continue
		}
		b.touched.Add(c.hi - c.lo)
		runtime.Gosched()
	}
}

func slicesSortRanges(q []addrRange) {
	for i := len(q) - 1; i > 0 && q[i].lo < q[i-1].lo; i-- {
		q[i], q[i-1] = q[i-1], q[i]
	}
}
