#include "textflag.h"

// The CPU hints the collectors use (prefetch_amd64.go): the copy loop's
// prefetch, the prefetching mark loop's and the spin loops' pause. Neither touches memory
// architecturally: a prefetch never faults, even past the end of a mapping.

// func prefetchBlock(addr uintptr)
TEXT ·prefetchBlock(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ addr+0(FP), AX
	// PREFETCHW (AX), 64(AX), 128(AX), 192(AX); Go's assembler has no
	// mnemonic for it.
	BYTE $0x0F; BYTE $0x0D; BYTE $0x08
	BYTE $0x0F; BYTE $0x0D; BYTE $0x48; BYTE $0x40
	BYTE $0x0F; BYTE $0x0D; BYTE $0x88; LONG $0x00000080
	BYTE $0x0F; BYTE $0x0D; BYTE $0x88; LONG $0x000000c0
	RET

// func prefetchLine(addr uintptr)
TEXT ·prefetchLine(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ addr+0(FP), AX
	PREFETCHT0 (AX)
	RET

// func spinPause()
TEXT ·spinPause(SB), NOSPLIT|NOFRAME, $0-0
	PAUSE
	RET
