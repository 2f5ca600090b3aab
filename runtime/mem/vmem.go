package mem

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// PageSize is the operating system's page size.
var PageSize = uintptr(os.Getpagesize())

// Reservation is a range of address space reserved with PROT_NONE. Parts of
// it are committed (made readable and writable) as they are used.
type Reservation struct {
	Addr uintptr // first byte, page aligned
	Size uintptr // bytes reserved, a multiple of the page size
}

// Reserve reserves size bytes of address space without backing memory.
func Reserve(size uintptr) (Reservation, error) {
	size = AlignUp(size, PageSize)
	addr, err := mmap(0, size, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return Reservation{}, fmt.Errorf("cannot reserve %d bytes of address space: %v", size, err)
	}
	return Reservation{Addr: addr, Size: size}, nil
}

// Commit makes [addr, addr+size) readable and writable. The range is
// widened to whole pages.
func Commit(addr, size uintptr) error {
	lo, hi := AlignDown(addr, PageSize), AlignUp(addr+size, PageSize)
	if err := mprotect(lo, hi-lo, unix.PROT_READ|unix.PROT_WRITE); err != nil {
		return fmt.Errorf("cannot commit %d bytes at %#x: %v", hi-lo, lo, err)
	}
	return nil
}

// Decommit gives the pages of [addr, addr+size) back to the operating
// system and makes them inaccessible again, as reserved: MADV_DONTNEED
// frees them at once (a later Commit finds zero-filled pages), and
// PROT_NONE turns a stray access into a fault instead of a silent
// re-fault of fresh memory. The range is narrowed to whole pages, so a
// page that is partly outside it is kept.
func Decommit(addr, size uintptr) error {
	lo, hi := AlignUp(addr, PageSize), AlignDown(addr+size, PageSize)
	if hi <= lo {
		return nil
	}
	if _, _, errno := unix.Syscall(unix.SYS_MADVISE, lo, hi-lo, unix.MADV_DONTNEED); errno != 0 {
		return fmt.Errorf("cannot decommit %d bytes at %#x: madvise: %v", hi-lo, lo, errno)
	}
	if err := mprotect(lo, hi-lo, unix.PROT_NONE); err != nil {
		return fmt.Errorf("cannot decommit %d bytes at %#x: %v", hi-lo, lo, err)
	}
	return nil
}

// Release unmaps the whole reservation.
func (r Reservation) Release() error {
	if r.Size == 0 {
		return nil
	}
	_, _, errno := unix.Syscall(unix.SYS_MUNMAP, r.Addr, r.Size, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// AlignUp rounds n up to a multiple of a (a power of two).
func AlignUp(n, a uintptr) uintptr { return (n + a - 1) &^ (a - 1) }

// AlignDown rounds n down to a multiple of a (a power of two).
func AlignDown(n, a uintptr) uintptr { return n &^ (a - 1) }

func mmap(hint, size uintptr, prot, flags int) (uintptr, error) {
	addr, _, errno := unix.Syscall6(unix.SYS_MMAP, hint, size, uintptr(prot), uintptr(flags), ^uintptr(0), 0)
	if errno != 0 {
		return 0, errno
	}
	return addr, nil
}

func mprotect(addr, size uintptr, prot int) error {
	_, _, errno := unix.Syscall(unix.SYS_MPROTECT, addr, size, uintptr(prot))
	if errno != 0 {
		return errno
	}
	return nil
}
