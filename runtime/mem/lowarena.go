package mem

import (
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// LowArena hands out small blocks of memory whose addresses fit in 32 bits,
// for class metadata that compressed class pointers must reach.
//
// It is deliberately simple: one region reserved below 4 GB, committed in
// steps, carved by bumping, with exact-size free lists so that class
// unloading recycles blocks. Blocks are multiples of 8 bytes.
type LowArena struct {
	mu        sync.Mutex
	res       Reservation
	top       uintptr // next unused byte
	committed uintptr // end of committed memory
	free      map[uintptr][]uintptr
	inUse     uintptr
	blocks    int
}

const lowArenaCommitStep = 1 << 20

// ErrLowMemoryExhausted is returned when no more metadata fits below 4 GB.
var ErrLowMemoryExhausted = errors.New("class metadata space below 4 GB exhausted")

// NewLowArena reserves size bytes below 4 GB.
func NewLowArena(size uintptr) (*LowArena, error) {
	size = AlignUp(size, PageSize)
	addr, err := mmap(0, size, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE|unix.MAP_32BIT)
	if err != nil {
		return nil, fmt.Errorf("cannot reserve %d bytes below 4 GB: %v", size, err)
	}
	if addr+size > 1<<32 {
		Reservation{Addr: addr, Size: size}.Release()
		return nil, fmt.Errorf("cannot reserve %d bytes below 4 GB: kernel returned %#x", size, addr)
	}
	// Address 0 is never a block: start one word in so that a zero class
	// pointer is always invalid.
	return &LowArena{res: Reservation{Addr: addr, Size: size}, top: addr + 8, committed: addr, free: map[uintptr][]uintptr{}}, nil
}

// Alloc returns a zeroed block of at least size bytes.
func (a *LowArena) Alloc(size uintptr) (uint32, error) {
	size = AlignUp(size, 8)
	a.mu.Lock()
	defer a.mu.Unlock()
	var addr uintptr
	if list := a.free[size]; len(list) > 0 {
		addr = list[len(list)-1]
		a.free[size] = list[:len(list)-1]
		clear(Bytes(addr, size))
	} else {
		if a.top+size > a.res.Addr+a.res.Size {
			return 0, ErrLowMemoryExhausted
		}
		if a.top+size > a.committed {
			step := AlignUp(a.top+size-a.committed, lowArenaCommitStep)
			step = min(step, a.res.Addr+a.res.Size-a.committed)
			if err := Commit(a.committed, step); err != nil {
				return 0, err
			}
			a.committed += step
		}
		addr = a.top
		a.top += size
	}
	a.inUse += size
	a.blocks++
	return uint32(addr), nil
}

// Free returns a block obtained from Alloc with the same size.
func (a *LowArena) Free(addr uint32, size uintptr) {
	size = AlignUp(size, 8)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.free[size] = append(a.free[size], uintptr(addr))
	a.inUse -= size
	a.blocks--
}

// Contains reports whether addr lies in memory this arena handed out.
func (a *LowArena) Contains(addr uint32) bool {
	p := uintptr(addr)
	return p >= a.res.Addr+8 && p < a.top
}

// InUse returns the bytes and blocks currently allocated.
func (a *LowArena) InUse() (bytes uintptr, blocks int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.inUse, a.blocks
}

// Committed returns the bytes of the region backed by memory.
func (a *LowArena) Committed() uintptr {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.committed - a.res.Addr
}

// Release unmaps the arena. No block may be used afterwards.
func (a *LowArena) Release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.res.Release()
	a.res = Reservation{}
}
