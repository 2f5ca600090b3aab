package interp

import (
	"fmt"
	"os"
	"testing"

	"minivm/internal/loxsuite"
	"minivm/lang"
)

// verifyProto checks the compiler's stack accounting on which the dispatch
// loop's unchecked stack accesses rely: following every path through the
// code, the stack height is the same at each instruction whatever the path,
// never drops below the frame's parameters, and never exceeds maxStack; and
// every instruction's operands lie inside the code.
func verifyProto(vm *VM, p *proto) error {
	heights := make([]int, len(p.code))
	for i := range heights {
		heights[i] = -1
	}
	type state struct{ ip, h int }
	work := []state{{0, 1 + p.arity}}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		for ip, h := s.ip, s.h; ; {
			if ip < 0 || ip >= len(p.code) {
				return fmt.Errorf("%s: ip %d outside the code", p.displayName(), ip)
			}
			if heights[ip] >= 0 {
				if heights[ip] != h {
					return fmt.Errorf("%s: height %d and %d at %d", p.displayName(), heights[ip], h, ip)
				}
				break
			}
			heights[ip] = h
			op := opcode(p.code[ip])
			if op >= numOpcodes {
				return fmt.Errorf("%s: bad opcode %d at %d", p.displayName(), op, ip)
			}
			next := ip + 1 + operandBytes[op]
			if next > len(p.code) {
				return fmt.Errorf("%s: operands of %s at %d outside the code", p.displayName(), op, ip)
			}
			switch op {
			case opGetLocal, opSetLocal, opGetLocalProperty, opSetLocalPop, opLocalAddConst, opLocalSubConst, opLocalLessConstJump, opReturnLocal:
				if slot := u16(p.code, ip+1); slot >= h {
					return fmt.Errorf("%s: %s of slot %d at height %d", p.displayName(), op, slot, h)
				}
			case opCallGlobalLocalAddConst, opCallGlobalLocalSubConst:
				if slot := u16(p.code, ip+5); slot >= h {
					return fmt.Errorf("%s: %s of slot %d at height %d", p.displayName(), op, slot, h)
				}
			case opGetUpvalue, opSetUpvalue:
				if i := u16(p.code, ip+1); i >= p.nUpvalues {
					return fmt.Errorf("%s: upvalue %d of %d", p.displayName(), i, p.nUpvalues)
				}
			case opClosure:
				q := vm.protos[u32(p.code, ip+1)]
				for k := range q.nUpvalues {
					at := ip + 5 + 3*k
					if at+3 > len(p.code) {
						return fmt.Errorf("%s: closure operands outside the code", p.displayName())
					}
					i := u16(p.code, at+1)
					if p.code[at] == 1 && i > h || p.code[at] == 0 && i >= p.nUpvalues {
						return fmt.Errorf("%s: closure captures %d (local %v) at height %d", p.displayName(), i, p.code[at] == 1, h)
					}
				}
			}
			h += stackEffect[op]
			switch op {
			case opPopN, opArray:
				h -= u32(p.code, ip+1)
				if op == opArray {
					h++
				}
			case opCall:
				h -= int(p.code[ip+1])
			case opInvoke:
				h -= int(p.code[ip+5])
			case opSuperInvoke:
				h -= int(p.code[ip+5]) + 1
			case opClosure:
				next += 3 * vm.protos[u32(p.code, ip+1)].nUpvalues
			}
			if h < 1 || h > p.maxStack-stackHeadroom {
				return fmt.Errorf("%s: height %d at %d (%s), max %d", p.displayName(), h, ip, op, p.maxStack)
			}
			switch op {
			case opReturn, opReturnLocal, opAddReturn:
				goto done
			case opJump, opLoop:
				ip = u32(p.code, ip+1)
				continue
			case opJumpIfFalse, opJumpIfTrue, opPopJumpIfFalse:
				work = append(work, state{u32(p.code, ip+1), h})
			case opLessConstJump:
				work = append(work, state{u32(p.code, ip+9), h})
			case opLocalLessConstJump:
				work = append(work, state{u32(p.code, ip+11), h})
			case opGlobalLessConstJump:
				work = append(work, state{u32(p.code, ip+13), h})
			}
			ip = next
		}
	done:
	}
	return nil
}

// TestVerifyBytecode compiles every test program and verifies its
// prototypes.
func TestVerifyBytecode(t *testing.T) {
	files := testdataFiles(t)
	if root, ok := loxsuite.Optional(t); ok {
		files = append(files, suiteFiles(t, root)...)
	}
	vm, err := New(Options{Heap: testHeap})
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		prog, errs := lang.Parse(string(src))
		if len(errs) > 0 {
			continue
		}
		u, cerrs := vm.compile(prog)
		if len(cerrs) > 0 {
			continue
		}
		vm.load(u)
		for _, p := range u.protos {
			if err := verifyProto(vm, p); err != nil {
				t.Errorf("%s: %v\n%s", f, err, vm.disassemble(p))
			}
			n++
		}
	}
	t.Logf("%d prototypes verified", n)
}
