#include "textflag.h"

// The two CPU hints the collectors use (prefetch_amd64.go): the copy
// loop's prefetch and the spin loops' pause. Neither touches memory
// architecturally: a prefetch never faults, even past the end of a mapping.

// func prefetchWrite(addr uintptr)
TEXT ·prefetchWrite(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ addr+0(FP), AX
	// PREFETCHW (AX); Go's assembler has no mnemonic for it.
	BYTE $0x0F; BYTE $0x0D; BYTE $0x08
	RET

// func spinPause()
TEXT ·spinPause(SB), NOSPLIT|NOFRAME, $0-0
	PAUSE
	RET
