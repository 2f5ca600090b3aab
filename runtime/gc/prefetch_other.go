//go:build !amd64

package gc

// prefetchBlock is a hint; without an assembly version it does nothing.
func prefetchBlock(addr uintptr) {}

// prefetchLine is a hint; without an assembly version it does nothing.
func prefetchLine(addr uintptr) {}

// spinPause is a hint; without an assembly version it does nothing.
func spinPause() {}
