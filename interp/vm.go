package interp

import (
	"fmt"
	"math"
	"strings"
	"unsafe"

	"minivm/runtime/gc"
)

// GC safety.
//
// Any allocation may run a collection that moves every object, and the
// collector finds the interpreter's values only through VisitRoots. The
// dispatch loop keeps the stack pointer and the current ip in Go locals for
// speed, so the rule is: before any operation that may allocate (or fail
// with a runtime error, whose trace reads the saved ips), the loop stores
// them back (fr.ip = ip; vm.sp = sp). Every allocating operation keeps its
// inputs on the value stack until the allocation is done and reloads
// references from there afterwards; nothing holds a gc.Ref in a Go local
// across an allocation.
//
// Roots (machine.VisitRoots, threads.go): the globals, every prototype's
// constants, and per thread the value stack below sp, every frame's
// closure, the open upvalues and the handle stack used by natives.
//
// Threads (threads.go): the loop polls for safepoints at backward jumps
// and on entering a function, after saving its state as for an
// allocation. Slow paths that read or change class records or refill
// inline caches take tablesMu themselves, so that the loop has no
// closures (which would keep its locals in memory).

// Limits, each with its reason.
const (
	// maxFrames bounds the call depth: deep enough for any sensible
	// recursion (clox allows 64), small enough that runaway recursion is
	// reported quickly as "Stack overflow.".
	maxFrames = 1 << 14
	// initialStack is the value stack's starting size in values; it grows
	// on demand as frames need it.
	initialStack = 1 << 12
	// initialFrames is the frame array's starting size; it grows on demand.
	initialFrames = 1 << 6
	// maxStack bounds the value stack (128 MB of values), so that deep
	// recursion through functions with huge frames is a "Stack overflow."
	// rather than the Go runtime running out of memory.
	maxStack = 1 << 24
)

// frame is one active call.
type frame struct {
	closure gc.Value // the running closure (rooted)
	proto   *proto
	ip      int // saved instruction pointer (next instruction) when not running
	base    int // stack index of slot 0
}

// RuntimeError is a Lox runtime error with its stack trace.
type RuntimeError struct {
	Msg   string
	Trace []string // "[line N] in f()" lines, innermost first
}

func (e *RuntimeError) Error() string {
	return e.Msg + "\n" + strings.Join(e.Trace, "\n")
}

// A runtime error's trace shows at most the traceHead innermost and the
// traceTail outermost frames (a stack overflow has thousands).
const (
	traceHead = 16
	traceTail = 8
)

// runtimeError builds a RuntimeError from the frames (whose ips must be
// saved).
func (vm *VM) runtimeError(format string, args ...any) error {
	e := &RuntimeError{Msg: fmt.Sprintf(format, args...)}
	for i := vm.fp - 1; i >= 0; i-- {
		if n := vm.fp - 1 - i; n == traceHead && i >= traceTail {
			e.Trace = append(e.Trace, fmt.Sprintf("... %d frames omitted ...", i-traceTail))
			i = traceTail
		}
		f := &vm.frames[i]
		if f.proto.entry {
			continue
		}
		line := 0
		if f.ip > 0 && f.ip <= len(f.proto.lines) {
			line = int(f.proto.lines[f.ip-1])
		}
		if f.proto.name == "" {
			e.Trace = append(e.Trace, fmt.Sprintf("[line %d] in script", line))
		} else {
			e.Trace = append(e.Trace, fmt.Sprintf("[line %d] in %s()", line, f.proto.name))
		}
	}
	return e
}

// growStack makes the value stack at least need values long; it fails
// (returning false) beyond maxStack.
func (vm *VM) growStack(need int) bool {
	if need > maxStack {
		return false
	}
	n := min(max(2*len(vm.stack), need+initialStack), maxStack)
	s := make([]gc.Value, n)
	vm.stackMu.Lock() // other threads may be reading through open upvalues
	copy(s, vm.stack)
	vm.stack = s
	vm.stackMu.Unlock()
	return true
}

// growFrames doubles the frame array, up to maxFrames frames; it reports
// false at the limit. Threads start small: most never go deep.
func (vm *VM) growFrames() bool {
	if len(vm.frames) >= maxFrames {
		return false
	}
	f := make([]frame, min(2*len(vm.frames), maxFrames))
	copy(f, vm.frames)
	vm.frames = f
	return true
}

// Unchecked access to code and stack for the dispatch loop. The compiler
// guarantees that operands lie inside the code (every function ends with
// RETURN) and computes each function's maximum stack height, which a call
// makes room for before the frame starts; the loop therefore reads the code
// and the stack through base pointers without bounds checks.
func rd8(code unsafe.Pointer, ip int) int     { return int(*(*uint8)(unsafe.Add(code, ip))) }
func rd16(code unsafe.Pointer, ip int) int    { return int(*(*uint16)(unsafe.Add(code, ip))) }
func rd32(code unsafe.Pointer, ip int) int    { return int(*(*uint32)(unsafe.Add(code, ip))) }
func rd64(code unsafe.Pointer, ip int) uint64 { return *(*uint64)(unsafe.Add(code, ip)) }

func ld(stk unsafe.Pointer, i int) gc.Value { return *(*gc.Value)(unsafe.Add(stk, i*8)) }
func st(stk unsafe.Pointer, i int, v gc.Value) {
	*(*gc.Value)(unsafe.Add(stk, i*8)) = v
}

// isNumber is gc.Value.IsNumber (the quiet-NaN bits 50-62 not all set)
// computed by two shifts: it needs one scratch register and no 64-bit
// immediate, where the mask needs two of each, and the fast paths of the
// dispatch loop have few registers to spare.
func isNumber(v gc.Value) bool { return uint64(v)<<1>>51 != 1<<13-1 }

// addNonNumbers is the slow path of ADD and ADD_RETURN: two strings
// concatenate into slot dst (the first operand's), anything else fails.
func (vm *VM) addNonNumbers(a, b gc.Value, dst int) error {
	if !vm.isString(a) || !vm.isString(b) {
		return vm.runtimeError("Operands must be two numbers or two strings.")
	}
	vm.concat(dst)
	return nil
}

// constOperandError is the message of the fused add- and
// subtract-constant instructions for an operand that is not a number
// (ADD's and SUBTRACT's). Their subtract forms hold the constant negated
// (x - k is x + -k, exactly, in IEEE arithmetic), so that both forms add.
// The handlers pass their opcode as read back from the code, so that
// their fast paths need not keep it in a register.
func constOperandError(op opcode) string {
	switch op {
	case opGlobalAddConst, opLocalAddConst, opCallGlobalLocalAddConst:
		return "Operands must be two numbers or two strings."
	}
	return "Operands must be numbers."
}

// The same for frames and prototypes on calls and returns: the running
// frame is vm.frames[vm.fp-1] and a call has checked that vm.fp is below
// len(vm.frames), so its neighbours are inside the array; a closure's
// prototype index was valid when the closure was made, and prototypes are
// never removed.
func nextFrame(fr *frame, d int) *frame {
	return (*frame)(unsafe.Add(unsafe.Pointer(fr), d*int(unsafe.Sizeof(frame{}))))
}
func protoAt(protos []*proto, i uint64) *proto {
	return *(**proto)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(protos)), i*8))
}

// globAt is &glob[g] unchecked, for the same reason: a global's index is
// allocated when code naming it is compiled, and the view vm.glob is
// renewed before that code runs (refreshViews).
func globAt(glob []gc.Value, g int) *gc.Value {
	return (*gc.Value)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(glob)), g*8))
}

// run is the dispatch loop.
//
// It keeps the machine state in a few locals: the current frame, the code
// base pointer, ip, the stack base pointer and sp (a stack index). More
// locals than that cost a spill per dispatch (the register allocator
// spills a loop-carried value at the loop head) or moves in the handlers
// short of scratch registers, so the heap is read from the VM where a case
// needs it, the frame's base from fr.base, and number operands are
// immediates in the code, needing no constants pointer. Fast paths use
// only these. Every slow path first saves ip and sp (fr.ip, vm.sp), calls
// out with the stack slots of its operands and result as parameters, and
// then jumps to reload, which rebuilds all the locals from the VM: so no
// local (not even the opcode) is live across a call, and the register
// allocator has no reason to spill the state at every dispatch.
func (vm *VM) run() error {
	var (
		fr     *frame
		code   unsafe.Pointer // fr.proto.code
		stk    unsafe.Pointer // vm.stack
		ip     int
		sp     int
		callee gc.Value // call: the value to call, at stack[sp-1-argc]
		argc   int
		retval gc.Value // ret: the value returned
	)
	fr = &vm.frames[vm.fp-1]
	code = unsafe.Pointer(unsafe.SliceData(fr.proto.code))
	stk = unsafe.Pointer(unsafe.SliceData(vm.stack))
	ip, sp = fr.ip, vm.sp
	for {
		{
			// Each case steps past its opcode itself: with one increment
			// here, ip+1 lived in a second register, and every case left
			// through a shared block that moved it back before the jump to
			// the head.
			op := opcode(rd8(code, ip))
			switch op {
			case opConstant:
				ip++
				st(stk, sp, fr.proto.consts[rd32(code, ip)])
				ip += 4
				sp++
			case opNil:
				ip++
				st(stk, sp, gc.Nil)
				sp++
			case opTrue:
				ip++
				st(stk, sp, gc.True)
				sp++
			case opFalse:
				ip++
				st(stk, sp, gc.False)
				sp++
			case opPop:
				ip++
				sp--
			case opPopN:
				ip++
				sp -= rd32(code, ip)
				ip += 4
			case opGetLocal:
				ip++
				st(stk, sp, ld(stk, fr.base+rd16(code, ip)))
				ip += 2
				sp++
			case opSetLocal:
				ip++
				st(stk, fr.base+rd16(code, ip), ld(stk, sp-1))
				ip += 2
			case opGetGlobal:
				ip++
				g := rd32(code, ip)
				ip += 4
				v := *globAt(vm.glob, g)
				if v == gc.Undefined {
					fr.ip, vm.sp = ip, sp
					return vm.runtimeError("Undefined variable '%s'.", vm.globalNames[g])
				}
				st(stk, sp, v)
				sp++
			case opSetLocalPop:
				ip++
				sp--
				st(stk, fr.base+rd16(code, ip), ld(stk, sp))
				ip += 2
			case opSetGlobalPop:
				ip++
				g := rd32(code, ip)
				ip += 4
				if *globAt(vm.glob, g) == gc.Undefined {
					fr.ip, vm.sp = ip, sp
					return vm.runtimeError("Undefined variable '%s'.", vm.globalNames[g])
				}
				sp--
				*globAt(vm.glob, g) = ld(stk, sp)
			case opCheckGlobal:
				ip++
				g := rd32(code, ip)
				ip += 4
				if *globAt(vm.glob, g) == gc.Undefined {
					fr.ip, vm.sp = ip, sp
					return vm.runtimeError("Undefined variable '%s'.", vm.globalNames[g])
				}
			case opDefineGlobal:
				ip++
				sp--
				*globAt(vm.glob, rd32(code, ip)) = ld(stk, sp)
				ip += 4
			case opSetGlobal:
				ip++
				g := rd32(code, ip)
				ip += 4
				if *globAt(vm.glob, g) == gc.Undefined {
					fr.ip, vm.sp = ip, sp
					return vm.runtimeError("Undefined variable '%s'.", vm.globalNames[g])
				}
				*globAt(vm.glob, g) = ld(stk, sp-1)
			case opGetUpvalue:
				ip++
				h := vm.heap
				up := h.Load(fr.closure.AsRef(), slotsFirst+rd16(code, ip)).AsRef()
				ip += 2
				if w := h.RawWord(up, upvalueStateWord); w>>32 == vm.tid && w != 0 {
					st(stk, sp, ld(stk, int(uint32(w))-1))
				} else if w == 0 {
					st(stk, sp, h.Load(up, upvalueValueWord))
				} else {
					fr.ip, vm.sp = ip, sp
					vm.pushForeignUpvalue(up, sp)
					goto reload
				}
				sp++
			case opSetUpvalue:
				ip++
				h := vm.heap
				up := h.Load(fr.closure.AsRef(), slotsFirst+rd16(code, ip)).AsRef()
				ip += 2
				w := h.RawWord(up, upvalueStateWord)
				if w>>32 == vm.tid && w != 0 {
					st(stk, int(uint32(w))-1, ld(stk, sp-1))
					continue
				}
				fr.ip, vm.sp = ip, sp
				if w == 0 {
					h.Store(up, upvalueValueWord, ld(stk, sp-1))
				} else {
					vm.setForeignUpvalue(up, ld(stk, sp-1))
				}
				goto reload

			case opGetProperty:
				ip++
				h := vm.heap
				ic := &fr.proto.ics[rd32(code, ip)]
				ip += 4
				v := ld(stk, sp-1)
				if e, ok := icMatch(h, ic, v); ok && e.slot() != 0 {
					if f := vm.icField(h, ic, e, v); f != gc.Undefined {
						st(stk, sp-1, f)
						continue
					}
				}
				fr.ip, vm.sp = ip, sp
				if err := vm.getProperty(ic, sp-1); err != nil {
					return err
				}
				goto reload
			case opGetLocalProperty:
				ip++
				h := vm.heap
				v := ld(stk, fr.base+rd16(code, ip))
				ic := &fr.proto.ics[rd32(code, ip+2)]
				ip += 6
				st(stk, sp, v)
				sp++
				if e, ok := icMatch(h, ic, v); ok && e.slot() != 0 {
					if f := vm.icField(h, ic, e, v); f != gc.Undefined {
						st(stk, sp-1, f)
						continue
					}
				}
				fr.ip, vm.sp = ip, sp
				if err := vm.getProperty(ic, sp-1); err != nil {
					return err
				}
				goto reload
			case opSetProperty, opSetPropertyPop:
				ip++
				h := vm.heap
				ic := &fr.proto.ics[rd32(code, ip)]
				ip += 4
				v := ld(stk, sp-2)
				if e, ok := icMatch(h, ic, v); ok && e.slot() != 0 {
					x := ld(stk, sp-1)
					st(stk, sp-2, x)
					fr.ip, vm.sp = ip, sp-1
					if op == opSetPropertyPop {
						vm.sp--
					}
					h.Store(v.AsRef(), e.slot(), x)
					goto reload
				}
				fr.ip, vm.sp = ip, sp
				top := sp - 1
				if op == opSetPropertyPop {
					top--
				}
				if err := vm.setProperty(ic, sp-2, top); err != nil {
					return err
				}
				goto reload
			case opGetSuper:
				ip++
				ic := &fr.proto.ics[rd32(code, ip)]
				ip += 4
				fr.ip, vm.sp = ip, sp
				if err := vm.getSuper(ic, sp-2); err != nil {
					return err
				}
				goto reload

			case opEqual, opNotEqual:
				// Lox equality, with everything but comparing the bytes of
				// two strings of equal length and hash inline.
				ip++
				a, b := ld(stk, sp-2), ld(stk, sp-1)
				sp--
				var eq bool
				switch {
				case isNumber(a) && isNumber(b):
					eq = a.AsNumber() == b.AsNumber()
				case a == b:
					eq = true
				case !a.IsRef() || !b.IsRef():
					eq = false
				default:
					h := vm.heap
					ra, rb := a.AsRef(), b.AsRef()
					if h.Kind(ra) != kString || h.Kind(rb) != kString || h.RawWord(ra, 1) != h.RawWord(rb, 1) {
						eq = false
						break
					}
					fr.ip, vm.sp = ip, sp+1
					vm.compareStrings(sp-1, op == opEqual)
					goto reload
				}
				st(stk, sp-1, gc.Bool(eq == (op == opEqual)))
			case opGreater, opGreaterEqual, opLess, opLessEqual, opSubtract, opMultiply, opDivide:
				ip++
				a, b := ld(stk, sp-2), ld(stk, sp-1)
				if !isNumber(a) || !isNumber(b) {
					fr.ip, vm.sp = ip, sp
					return vm.runtimeError("Operands must be numbers.")
				}
				x, y := a.AsNumber(), b.AsNumber()
				var v gc.Value
				switch op {
				case opGreater:
					v = gc.Bool(x > y)
				case opGreaterEqual:
					v = gc.Bool(!(x < y))
				case opLess:
					v = gc.Bool(x < y)
				case opLessEqual:
					v = gc.Bool(!(x > y))
				case opSubtract:
					v = gc.Number(x - y)
				case opMultiply:
					v = gc.Number(x * y)
				default:
					v = gc.Number(x / y)
				}
				sp--
				st(stk, sp-1, v)
			case opAdd:
				ip++
				a, b := ld(stk, sp-2), ld(stk, sp-1)
				if isNumber(a) && isNumber(b) {
					sp--
					st(stk, sp-1, gc.Number(a.AsNumber()+b.AsNumber()))
					continue
				}
				fr.ip, vm.sp = ip, sp
				if err := vm.addNonNumbers(a, b, sp-2); err != nil {
					return err
				}
				goto reload
			case opAddConst:
				ip++
				a := ld(stk, sp-1)
				b := gc.Value(rd64(code, ip))
				ip += 8
				if !isNumber(a) {
					fr.ip, vm.sp = ip, sp
					return vm.runtimeError("Operands must be two numbers or two strings.")
				}
				st(stk, sp-1, gc.Number(a.AsNumber()+b.AsNumber()))
			case opSubConst:
				ip++
				a := ld(stk, sp-1)
				b := gc.Value(rd64(code, ip))
				ip += 8
				if !isNumber(a) {
					fr.ip, vm.sp = ip, sp
					return vm.runtimeError("Operands must be numbers.")
				}
				st(stk, sp-1, gc.Number(a.AsNumber()-b.AsNumber()))
			case opLessConst:
				ip++
				a := ld(stk, sp-1)
				b := gc.Value(rd64(code, ip))
				ip += 8
				if !isNumber(a) {
					fr.ip, vm.sp = ip, sp
					return vm.runtimeError("Operands must be numbers.")
				}
				st(stk, sp-1, gc.Bool(a.AsNumber() < b.AsNumber()))
			case opLessConstJump:
				ip++
				a := ld(stk, sp-1)
				if !isNumber(a) {
					fr.ip, vm.sp = ip+12, sp
					return vm.runtimeError("Operands must be numbers.")
				}
				sp--
				if a.AsNumber() < gc.Value(rd64(code, ip)).AsNumber() {
					ip += 12
				} else {
					ip = rd32(code, ip+8)
				}
			case opLocalLessConstJump:
				ip++
				a := ld(stk, fr.base+rd16(code, ip))
				if !isNumber(a) {
					fr.ip, vm.sp = ip+14, sp
					return vm.runtimeError("Operands must be numbers.")
				}
				if a.AsNumber() < gc.Value(rd64(code, ip+2)).AsNumber() {
					ip += 14
				} else {
					ip = rd32(code, ip+10)
				}
			case opGlobalLessConstJump:
				ip++
				g := rd32(code, ip)
				a := *globAt(vm.glob, g)
				if a == gc.Undefined {
					fr.ip, vm.sp = ip+4, sp
					return vm.runtimeError("Undefined variable '%s'.", vm.globalNames[g])
				}
				if !isNumber(a) {
					fr.ip, vm.sp = ip+16, sp
					return vm.runtimeError("Operands must be numbers.")
				}
				if a.AsNumber() < gc.Value(rd64(code, ip+4)).AsNumber() {
					ip += 16
				} else {
					ip = rd32(code, ip+12)
				}
			case opGlobalAddConst, opGlobalSubConst:
				ip++
				g := rd32(code, ip)
				a := *globAt(vm.glob, g)
				if a == gc.Undefined {
					fr.ip, vm.sp = ip+4, sp
					return vm.runtimeError("Undefined variable '%s'.", vm.globalNames[g])
				}
				b := gc.Value(rd64(code, ip+4)).AsNumber()
				ip += 12
				st(stk, sp, a)
				sp++
				if !isNumber(a) {
					fr.ip, vm.sp = ip, sp
					return vm.runtimeError("%s", constOperandError(opcode(rd8(code, ip-13))))
				}
				st(stk, sp-1, gc.Number(a.AsNumber()+b))
			case opLocalAddConst, opLocalSubConst:
				ip++
				a := ld(stk, fr.base+rd16(code, ip))
				b := gc.Value(rd64(code, ip+2)).AsNumber()
				ip += 10
				st(stk, sp, a)
				sp++
				if !isNumber(a) {
					fr.ip, vm.sp = ip, sp
					return vm.runtimeError("%s", constOperandError(opcode(rd8(code, ip-11))))
				}
				st(stk, sp-1, gc.Number(a.AsNumber()+b))
			case opNot:
				ip++
				st(stk, sp-1, gc.Bool(ld(stk, sp-1).IsFalsey()))
			case opNegate:
				ip++
				a := ld(stk, sp-1)
				if !isNumber(a) {
					fr.ip, vm.sp = ip, sp
					return vm.runtimeError("Operand must be a number.")
				}
				st(stk, sp-1, gc.Number(-a.AsNumber()))
			case opPrint:
				ip++
				fr.ip, vm.sp = ip, sp
				vm.printSlot(sp - 1) // locks the output: the value stays on the stack meanwhile
				goto reload

			case opJump:
				ip++
				ip = rd32(code, ip)
			case opJumpIfFalse:
				ip++
				if ld(stk, sp-1).IsFalsey() {
					ip = rd32(code, ip)
				} else {
					ip += 4
				}
			case opJumpIfTrue:
				ip++
				if !ld(stk, sp-1).IsFalsey() {
					ip = rd32(code, ip)
				} else {
					ip += 4
				}
			case opPopJumpIfFalse:
				ip++
				sp--
				if ld(stk, sp).IsFalsey() {
					ip = rd32(code, ip)
				} else {
					ip += 4
				}
			case opLoop:
				ip++
				vm.steps--
				if vm.steps < 0 || vm.poll.Load() {
					// No local may be used after the call (see run).
					if vm.steps < 0 {
						fr.ip, vm.sp = ip+4, sp
						return vm.runtimeError("Step limit exceeded.")
					}
					fr.ip, vm.sp = rd32(code, ip), sp
					if err := vm.safepoint(); err != nil {
						return err
					}
					goto reload
				}
				ip = rd32(code, ip)

			case opCall:
				ip++
				argc = rd8(code, ip)
				ip++
				callee = ld(stk, sp-1-argc)
				goto call
			case opCallGlobalLocalAddConst, opCallGlobalLocalSubConst:
				// GET_GLOBAL, LOCAL_ADD/SUB_CONST and CALL 1; each error at
				// the line of its part (see callGlobalLocalConst). An unset
				// global is reported where it fails first: at the operand's
				// check, or else at the call (undefinedCallee), which only
				// this instruction gives an Undefined callee.
				ip++
				callee = *globAt(vm.glob, rd32(code, ip))
				a := ld(stk, fr.base+rd16(code, ip+4))
				st(stk, sp, callee)
				st(stk, sp+1, a)
				sp += 2
				if !isNumber(a) {
					if callee == gc.Undefined {
						fr.ip, vm.sp = ip+15, sp
						return vm.undefinedCallee(code, ip+15)
					}
					fr.ip, vm.sp = ip+14, sp
					return vm.runtimeError("%s", constOperandError(opcode(rd8(code, ip-1))))
				}
				st(stk, sp-1, gc.Number(a.AsNumber()+gc.Value(rd64(code, ip+6)).AsNumber()))
				ip += 15
				argc = 1
				goto call
			case opInvoke:
				ip++
				h := vm.heap
				ic := &fr.proto.ics[rd32(code, ip)]
				argc = rd8(code, ip+4)
				ip += 5
				{
					recv := ld(stk, sp-1-argc)
					if e, ok := icMatch(h, ic, recv); ok {
						if e.slot() != 0 {
							if f := vm.icField(h, ic, e, recv); f != gc.Undefined {
								st(stk, sp-1-argc, f)
								callee = f
								goto call
							}
						} else if h.Load(recv.AsRef(), instOverflow) != gc.Undefined {
							goto slowInvoke
						}
						if e.method() >= 0 {
							callee = h.Load(h.Load(gc.Meta(e.meta()).ClassObject(), classMethodsWord).AsRef(), slotsFirst+int(e.method()))
							goto call
						}
					}
				}
			slowInvoke:
				{
					fr.ip, vm.sp = ip, sp
					var err error
					if callee, argc, err = vm.invoke(ic, sp-1-argc, argc); err != nil {
						return err
					}
				}
				goto reloadCall
			case opSuperInvoke:
				ip++
				ic := &fr.proto.ics[rd32(code, ip)]
				argc = rd8(code, ip+4)
				ip += 5
				fr.ip, vm.sp = ip, sp
				var err error
				if callee, argc, err = vm.superInvoke(ic, sp-1, argc); err != nil {
					return err
				}
				goto reloadCall
			case opClosure:
				ip++
				fr.ip, vm.sp = ip, sp
				vm.makeClosure(sp)
				goto reload
			case opCloseUpvalue:
				ip++
				sp--
				fr.ip, vm.sp = ip, sp
				vm.closeUpvalues(sp)
				goto reload
			case opReturn:
				ip++
				sp--
				retval = ld(stk, sp)
				goto ret
			case opAddReturn:
				ip++
				a, b := ld(stk, sp-2), ld(stk, sp-1)
				if isNumber(a) && isNumber(b) {
					sp -= 2
					retval = gc.Number(a.AsNumber() + b.AsNumber())
					goto ret
				}
				fr.ip, vm.sp = ip, sp
				if err := vm.addNonNumbers(a, b, sp-2); err != nil {
					return err
				}
				goto reloadAndReturn
			case opReturnLocal:
				ip++
				retval = ld(stk, fr.base+rd16(code, ip))
				ip += 2
				goto ret

			case opClass:
				ip++
				d := vm.classDescs[rd32(code, ip)]
				ip += 4
				fr.ip, vm.sp = ip, sp
				vm.newClass(d, fr.proto.consts, sp)
				goto reload
			case opInherit:
				ip++
				fr.ip, vm.sp = ip, sp
				if !vm.isKind(ld(stk, sp-2), kClass) {
					return vm.runtimeError("Superclass must be a class.")
				}
				vm.inherit(sp - 2)
				goto reload
			case opMethod:
				ip++
				name := int32(rd32(code, ip))
				ip += 4
				fr.ip, vm.sp = ip, sp
				vm.defineMethod(name, sp-2)
				goto reload
			case opEndClass:
				ip++
				fr.ip, vm.sp = ip, sp
				vm.endClass(sp - 1)
				goto reload

			case opArray:
				ip++
				n := rd32(code, ip)
				ip += 4
				fr.ip, vm.sp = ip, sp
				vm.makeArray(sp-n, n)
				goto reload
			case opIndexGet:
				ip++
				h := vm.heap
				if a, x := ld(stk, sp-2), ld(stk, sp-1); a.IsRef() && isNumber(x) {
					r := a.AsRef()
					if f := x.AsNumber(); h.Kind(r) == kArray && f >= 0 && f < float64(h.Length(r)) && float64(int(f)) == f {
						sp--
						st(stk, sp-1, h.Load(r, slotsFirst+int(f)))
						continue
					}
				}
				fr.ip, vm.sp = ip, sp
				return vm.indexError(ld(stk, sp-2), ld(stk, sp-1))
			case opIndexSet:
				ip++
				h := vm.heap
				if a, x := ld(stk, sp-3), ld(stk, sp-2); a.IsRef() && isNumber(x) {
					r := a.AsRef()
					if f := x.AsNumber(); h.Kind(r) == kArray && f >= 0 && f < float64(h.Length(r)) && float64(int(f)) == f {
						v := ld(stk, sp-1)
						st(stk, sp-3, v)
						fr.ip, vm.sp = ip, sp-2
						h.Store(r, slotsFirst+int(f), v)
						goto reload
					}
				}
				fr.ip, vm.sp = ip, sp
				return vm.indexError(ld(stk, sp-3), ld(stk, sp-2))

			default:
				ip++
				fr.ip, vm.sp = ip, sp
				return vm.runtimeError("internal error: bad opcode %d", op)
			}
			continue
		}

	ret:
		// Return retval from the running frame (sp is its height without
		// the value).
		if n := len(vm.openIdx); n > 0 && vm.openIdx[n-1] >= fr.base {
			st(stk, sp, retval)
			fr.ip, vm.sp = ip, sp+1
			vm.closeUpvalues(fr.base)
			goto reloadReturn
		}
		vm.fp--
		if vm.fp == 0 {
			vm.result, vm.sp = retval, 0
			return nil
		}
		sp = fr.base
		st(stk, sp, retval)
		sp++
		fr = nextFrame(fr, -1)
		code = unsafe.Pointer(unsafe.SliceData(fr.proto.code))
		ip = fr.ip
		continue

	call:
		// Call callee (at stack[sp-1-argc]) with argc arguments above it.
		if callee.IsRef() {
			h := vm.heap
			r := callee.AsRef()
			// The closure case is tested first: a switch would compare
			// kinds in numeric order.
			switch k := h.Kind(r); {
			case k == kClosure:
				np := protoAt(vm.protoT, h.RawWord(r, 1)>>32)
				if argc != np.arity {
					fr.ip, vm.sp = ip, sp
					return vm.runtimeError("Expected %d arguments but got %d.", np.arity, argc)
				}
				if vm.fp == len(vm.frames) {
					fr.ip, vm.sp = ip, sp
					vm.pendingCallee, vm.pendingArgc = callee, argc
					if !vm.growFrames() {
						return vm.runtimeError("Stack overflow.")
					}
					callee, argc = vm.pendingCallee, vm.pendingArgc
					goto reloadCall // fr points into the old frames
				}
				vm.steps--
				if vm.steps < 0 {
					fr.ip, vm.sp = ip, sp
					return vm.runtimeError("Step limit exceeded.")
				}
				base := sp - 1 - argc
				fr.ip = ip
				fr = nextFrame(fr, 1)
				vm.fp++
				// fr.ip is set where a slow path leaves the loop (the
				// running frame's ip lives in the local until then).
				fr.closure, fr.proto, fr.base = callee, np, base
				if base+np.maxStack > len(vm.stack) {
					fr.ip, vm.sp = 0, sp
					if !vm.growStack(base + np.maxStack) {
						vm.fp--
						return vm.runtimeError("Stack overflow.")
					}
					goto reload
				}
				if vm.poll.Load() {
					// The new frame holds the callee: park here.
					fr.ip, vm.sp = 0, sp
					if err := vm.safepoint(); err != nil {
						return err
					}
					goto reload
				}
				code = unsafe.Pointer(unsafe.SliceData(np.code))
				ip = 0
				continue
			case k == kBound:
				st(stk, sp-1-argc, h.Load(r, boundReceiverWord))
				callee = h.Load(r, boundMethodWord)
				goto call
			case k == kClass:
				fr.ip, vm.sp = ip, sp
				callee, argc = vm.instantiate(sp-1-argc, argc)
				if callee != gc.Nil {
					goto reloadCall
				}
				if argc != 0 {
					return vm.runtimeError("Expected 0 arguments but got %d.", argc)
				}
				goto reload
			case k == kNative:
				fr.ip, vm.sp = ip, sp
				if err := vm.callNative(int(h.RawWord(r, nativeIndexWord)), sp-1-argc, argc); err != nil {
					return err
				}
				goto reload
			}
		}
		fr.ip, vm.sp = ip, sp
		if callee == gc.Undefined {
			return vm.undefinedCallee(code, ip)
		}
		return vm.runtimeError("Can only call functions and classes.")

	reloadReturn:
		// Finish a RETURN whose frame had open upvalues (now closed).
		{
			fr := &vm.frames[vm.fp-1]
			vm.fp--
			if vm.fp == 0 {
				vm.result, vm.sp = vm.stack[vm.sp-1], 0
				return nil
			}
			vm.stack[fr.base] = vm.stack[vm.sp-1]
			vm.sp = fr.base + 1
		}
	reload:
		// Rebuild the locals from the VM after a call out or a frame change.
		fr = &vm.frames[vm.fp-1]
		code = unsafe.Pointer(unsafe.SliceData(fr.proto.code))
		stk = unsafe.Pointer(unsafe.SliceData(vm.stack))
		ip, sp = fr.ip, vm.sp
		continue
	reloadAndReturn:
		// Reload, then return the value on top of the stack.
		fr = &vm.frames[vm.fp-1]
		code = unsafe.Pointer(unsafe.SliceData(fr.proto.code))
		stk = unsafe.Pointer(unsafe.SliceData(vm.stack))
		ip, sp = fr.ip, vm.sp-1
		retval = ld(stk, sp)
		goto ret
	reloadCall:
		// Reload, then call callee with argc arguments.
		fr = &vm.frames[vm.fp-1]
		code = unsafe.Pointer(unsafe.SliceData(fr.proto.code))
		stk = unsafe.Pointer(unsafe.SliceData(vm.stack))
		ip, sp = fr.ip, vm.sp
		goto call
	}
}

// undefinedCallee reports the unset global that CALL_GLOBAL_LOCAL_ADD/
// SUB_CONST ending at end (the saved ip) read, at the line of the global.
func (vm *VM) undefinedCallee(code unsafe.Pointer, end int) error {
	start := end - 1 - operandBytes[opCallGlobalLocalAddConst]
	vm.frames[vm.fp-1].ip = start + 5
	return vm.runtimeError("Undefined variable '%s'.", vm.globalNames[rd32(code, start+1)])
}

// makeClosure executes CLOSURE at fr.ip: it reads the prototype and the
// upvalue descriptors, allocates the closure into stack[dst], the top, and
// captures its upvalues.
func (vm *VM) makeClosure(dst int) {
	h := vm.heap
	fr := &vm.frames[vm.fp-1]
	code := fr.proto.code
	ip := fr.ip
	pi := u32(code, ip)
	ip += 4
	np := vm.protoT[pi]
	r := vm.mut.AllocSlots(vm.m.closure, np.nUpvalues, gc.Nil)
	h.SetRawWord(r, 1, uint64(np.nUpvalues)|uint64(pi)<<32)
	vm.stack[dst] = gc.FromRef(r)
	vm.sp = dst + 1
	for i := 0; i < np.nUpvalues; i++ {
		isLocal, idx := code[ip], u16(code, ip+1)
		ip += 3
		var up gc.Value
		if isLocal == 1 {
			up = vm.captureUpvalue(fr.base + idx) // may allocate: reload the closure below
		} else {
			up = h.Load(fr.closure.AsRef(), slotsFirst+idx)
		}
		h.Store(vm.stack[dst].AsRef(), slotsFirst+i, up)
	}
	fr.ip = ip
}

// makeArray replaces the n values at stack[first:], the top, with an
// array of them at stack[first].
func (vm *VM) makeArray(first, n int) {
	h := vm.heap
	r := vm.newArray(n, gc.Nil)
	for i := 0; i < n; i++ {
		h.Store(r, slotsFirst+i, vm.stack[first+i])
	}
	vm.stack[first] = gc.FromRef(r) // first may be the top: n == 0
	vm.sp = first + 1
}

// getSuper replaces `this super` at stack[slot] and stack[slot+1], the
// top, with this bound to the superclass's method ic.name.
func (vm *VM) getSuper(ic *inlineCache, slot int) error {
	vm.lockTables()
	defer vm.tablesMu.Unlock()
	m, err := vm.superMethod(ic, vm.stack[slot+1].AsRef())
	if err != nil {
		return err
	}
	vm.bindMethod(m, slot, slot+1) // the superclass stays rooted meanwhile
	vm.sp = slot + 1
	return nil
}

// instantiate replaces the class at stack[slot], below its argc
// arguments, with a new instance and returns the class's initializer
// closure, or Nil, and argc.
func (vm *VM) instantiate(slot, argc int) (gc.Value, int) {
	rec := vm.classOf(vm.stack[slot].AsRef())
	meta := rec.meta
	if meta == 0 {
		vm.lockTables()
		meta = vm.ensureLayout(rec, vm.stack[slot].AsRef()) // after the lock: the class may have moved
		vm.tablesMu.Unlock()
	}
	inst := vm.mut.AllocFixed(meta, gc.Undefined)
	init := gc.Nil
	if rec.init >= 0 {
		init = vm.method(vm.stack[slot].AsRef(), rec.init) // reload the class: it may have moved
	}
	vm.stack[slot] = gc.FromRef(inst)
	return init, argc
}

// indexError reports why arr[idx] is not a valid element access.
func (vm *VM) indexError(arr, idx gc.Value) error {
	if !vm.isKind(arr, kArray) {
		return vm.runtimeError("Only arrays can be indexed.")
	}
	if !idx.IsNumber() {
		return vm.runtimeError("Array index must be a number.")
	}
	if f := idx.AsNumber(); f != math.Trunc(f) {
		return vm.runtimeError("Array index must be an integer.")
	}
	return vm.runtimeError("Array index out of bounds.")
}
