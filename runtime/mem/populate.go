package mem

import "golang.org/x/sys/unix"

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14).
const madvPopulateWrite = 23

// Populate backs a committed range with memory now rather than at first
// touch. It uses MADV_POPULATE_WRITE and falls back to touching each page.
func Populate(addr, size uintptr) {
	lo, hi := AlignDown(addr, PageSize), AlignUp(addr+size, PageSize)
	if hi <= lo {
		return
	}
	_, _, errno := unix.Syscall(unix.SYS_MADVISE, lo, hi-lo, madvPopulateWrite)
	if errno == 0 {
		return
	}
	for p := lo; p < hi; p += PageSize {
		*(*byte)(At(p)) = 0
	}
}
