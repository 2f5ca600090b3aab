package interp

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// An opcode is one byte; its operands follow it in the code, little-endian.
// Operand widths: u8 for argument counts (the parser limits calls to 255
// arguments), u16 for local slots and upvalue indexes, u32 for everything
// that indexes a table (constants, globals, inline caches, names, class
// descriptors, prototypes, array lengths) and for jump targets, which are
// absolute code offsets; f64 for the number operand of the instructions
// that take one (its bits, an immediate: no constant table lookup).
type opcode uint8

const (
	opConstant                opcode = iota // u32 k            push consts[k]
	opNil                                   //                  push nil
	opTrue                                  //                  push true
	opFalse                                 //                  push false
	opPop                                   //                  pop 1
	opPopN                                  // u32 n            pop n
	opGetLocal                              // u16 slot         push stack[base+slot]
	opSetLocal                              // u16 slot         stack[base+slot] = top (no pop)
	opGetGlobal                             // u32 g            push globals[g] ("Undefined variable" if unset)
	opDefineGlobal                          // u32 g            globals[g] = pop
	opSetGlobal                             // u32 g            globals[g] = top (must be set)
	opGetUpvalue                            // u16 i            push the current closure's upvalue i
	opSetUpvalue                            // u16 i            upvalue i = top
	opGetProperty                           // u32 ic           obj -> obj.name (field, else bound method)
	opSetProperty                           // u32 ic           obj value -> value
	opGetSuper                              // u32 ic           this super -> bound method of super
	opEqual                                 //                  a b -> a == b
	opNotEqual                              //                  a b -> a != b
	opGreater                               //                  a b -> a > b
	opGreaterEqual                          //                  a b -> !(a < b)  (clox's NaN behaviour)
	opLess                                  //                  a b -> a < b
	opLessEqual                             //                  a b -> !(a > b)
	opAdd                                   //                  a b -> a + b (numbers or strings)
	opSubtract                              //                  a b -> a - b
	opMultiply                              //                  a b -> a * b
	opDivide                                //                  a b -> a / b
	opNot                                   //                  a -> !a
	opNegate                                //                  a -> -a
	opPrint                                 //                  print pop
	opJump                                  // u32 target       ip = target
	opJumpIfFalse                           // u32 target       if falsey(top) ip = target (no pop)
	opJumpIfTrue                            // u32 target       if !falsey(top) ip = target (no pop)
	opPopJumpIfFalse                        // u32 target       if falsey(pop) ip = target
	opLoop                                  // u32 target       ip = target (backward; counts a step)
	opCall                                  // u8 argc          callee args... -> result
	opInvoke                                // u32 ic, u8 argc  recv args... -> recv.name(args...)
	opSuperInvoke                           // u32 ic, u8 argc  this args... super -> super.name(args...)
	opClosure                               // u32 proto, then per upvalue: u8 isLocal, u16 index
	opCloseUpvalue                          //                  close the upvalue of the top slot, pop
	opReturn                                //                  return pop
	opClass                                 // u32 desc         push a new class
	opInherit                               //                  super class -> super (copy methods down)
	opMethod                                // u32 name         class closure -> class
	opEndClass                              //                  class -> (finalize the instance layout)
	opArray                                 // u32 n            n values -> array
	opIndexGet                              //                  array index -> element
	opIndexSet                              //                  array index value -> value
	opGetLocalProperty                      // u16 slot, u32 ic push stack[base+slot].name (this.x, p.x)
	opAddConst                              // f64 k            a -> a + k
	opSubConst                              // f64 k            a -> a - k
	opLessConst                             // f64 k            a -> a < k
	opCheckGlobal                           // u32 g            "Undefined variable" if globals[g] is unset
	opSetLocalPop                           // u16 slot         stack[base+slot] = pop
	opSetGlobalPop                          // u32 g            globals[g] = pop (must be set)
	opLessConstJump                         // f64 k, u32 t     if !(pop < k) ip = t
	opLocalAddConst                         // u16 slot, f64 k  push stack[base+slot] + k
	opLocalSubConst                         // u16 slot, f64 k  push stack[base+slot] - k
	opLocalLessConstJump                    // u16 slot, f64 k, u32 t  if !(stack[base+slot] < k) ip = t
	opReturnLocal                           // u16 slot         return stack[base+slot]
	opSetPropertyPop                        // u32 ic           obj value -> (SET_PROPERTY, POP)
	opGlobalLessConstJump                   // u32 g, f64 k, u32 t  if !(globals[g] < k) ip = t
	opGlobalAddConst                        // u32 g, f64 k     push globals[g] + k
	opGlobalSubConst                        // u32 g, f64 k     push globals[g] - k
	opCallGlobalLocalAddConst               // u32 g, u16 slot, f64 k, u8 1  globals[g](stack[base+slot] + k)
	opCallGlobalLocalSubConst               // u32 g, u16 slot, f64 k, u8 1  globals[g](stack[base+slot] - k)
	opAddReturn                             //                  a b -> return a + b (ADD, RETURN)
	numOpcodes
)

var opNames = [numOpcodes]string{
	opConstant: "CONSTANT", opNil: "NIL", opTrue: "TRUE", opFalse: "FALSE",
	opPop: "POP", opPopN: "POPN", opGetLocal: "GET_LOCAL", opSetLocal: "SET_LOCAL",
	opGetGlobal: "GET_GLOBAL", opDefineGlobal: "DEFINE_GLOBAL", opSetGlobal: "SET_GLOBAL",
	opGetUpvalue: "GET_UPVALUE", opSetUpvalue: "SET_UPVALUE",
	opGetProperty: "GET_PROPERTY", opSetProperty: "SET_PROPERTY", opGetSuper: "GET_SUPER",
	opEqual: "EQUAL", opNotEqual: "NOT_EQUAL", opGreater: "GREATER", opGreaterEqual: "GREATER_EQUAL",
	opLess: "LESS", opLessEqual: "LESS_EQUAL", opAdd: "ADD", opSubtract: "SUBTRACT",
	opMultiply: "MULTIPLY", opDivide: "DIVIDE", opNot: "NOT", opNegate: "NEGATE", opPrint: "PRINT",
	opJump: "JUMP", opJumpIfFalse: "JUMP_IF_FALSE", opJumpIfTrue: "JUMP_IF_TRUE",
	opPopJumpIfFalse: "POP_JUMP_IF_FALSE", opLoop: "LOOP", opCall: "CALL", opInvoke: "INVOKE",
	opSuperInvoke: "SUPER_INVOKE", opClosure: "CLOSURE", opCloseUpvalue: "CLOSE_UPVALUE",
	opReturn: "RETURN", opClass: "CLASS", opInherit: "INHERIT", opMethod: "METHOD",
	opEndClass: "END_CLASS", opArray: "ARRAY", opIndexGet: "INDEX_GET", opIndexSet: "INDEX_SET",
	opGetLocalProperty: "GET_LOCAL_PROPERTY", opAddConst: "ADD_CONST", opSubConst: "SUB_CONST",
	opLessConst: "LESS_CONST", opCheckGlobal: "CHECK_GLOBAL",
	opSetLocalPop: "SET_LOCAL_POP", opSetGlobalPop: "SET_GLOBAL_POP", opLessConstJump: "LESS_CONST_JUMP",
	opLocalAddConst: "LOCAL_ADD_CONST", opLocalSubConst: "LOCAL_SUB_CONST",
	opLocalLessConstJump: "LOCAL_LESS_CONST_JUMP", opReturnLocal: "RETURN_LOCAL", opSetPropertyPop: "SET_PROPERTY_POP",
	opGlobalLessConstJump: "GLOBAL_LESS_CONST_JUMP", opGlobalAddConst: "GLOBAL_ADD_CONST", opGlobalSubConst: "GLOBAL_SUB_CONST",
	opCallGlobalLocalAddConst: "CALL_GLOBAL_LOCAL_ADD_CONST", opCallGlobalLocalSubConst: "CALL_GLOBAL_LOCAL_SUB_CONST",
	opAddReturn: "ADD_RETURN",
}

func (op opcode) String() string {
	if op < numOpcodes {
		return opNames[op]
	}
	return fmt.Sprintf("OP_%d", uint8(op))
}

// operandBytes is the size of each opcode's fixed operands (opClosure has a
// variable tail, see disassemble).
var operandBytes = [numOpcodes]int{
	opConstant: 4, opPopN: 4, opGetLocal: 2, opSetLocal: 2,
	opGetGlobal: 4, opDefineGlobal: 4, opSetGlobal: 4, opGetUpvalue: 2, opSetUpvalue: 2,
	opGetProperty: 4, opSetProperty: 4, opGetSuper: 4,
	opJump: 4, opJumpIfFalse: 4, opJumpIfTrue: 4, opPopJumpIfFalse: 4, opLoop: 4,
	opCall: 1, opInvoke: 5, opSuperInvoke: 5, opClosure: 4, opClass: 4, opMethod: 4,
	opArray: 4, opGetLocalProperty: 6, opAddConst: 8, opSubConst: 8, opLessConst: 8, opCheckGlobal: 4,
	opSetLocalPop: 2, opSetGlobalPop: 4, opLessConstJump: 12, opLocalAddConst: 10, opLocalSubConst: 10,
	opLocalLessConstJump: 14, opReturnLocal: 2, opSetPropertyPop: 4,
	opGlobalLessConstJump: 16, opGlobalAddConst: 12, opGlobalSubConst: 12,
	opCallGlobalLocalAddConst: 15, opCallGlobalLocalSubConst: 15,
}

func u16(code []byte, ip int) int { return int(binary.LittleEndian.Uint16(code[ip:])) }
func u32(code []byte, ip int) int { return int(binary.LittleEndian.Uint32(code[ip:])) }
func f64(code []byte, ip int) float64 {
	return math.Float64frombits(binary.LittleEndian.Uint64(code[ip:]))
}

// addend returns the number operand at ip of a fused add- or
// subtract-constant instruction as the source wrote it: the subtract
// forms hold it negated.
func addend(op opcode, code []byte, ip int) float64 {
	switch op {
	case opLocalSubConst, opGlobalSubConst, opCallGlobalLocalSubConst:
		return -f64(code, ip)
	}
	return f64(code, ip)
}

// disassemble renders a prototype's code, one instruction per line; it is
// a debugging aid (and used by tests to check the compiler's output).
func (vm *VM) disassemble(p *proto) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== %s (arity %d, stack %d) ==\n", p.displayName(), p.arity, p.maxStack)
	for ip := 0; ip < len(p.code); {
		op := opcode(p.code[ip])
		fmt.Fprintf(&b, "%04d %4d %-18s", ip, p.lines[ip], op)
		n := 0
		if op < numOpcodes {
			n = operandBytes[op]
		}
		switch {
		case op == opAddConst || op == opSubConst || op == opLessConst:
			fmt.Fprintf(&b, " %s", formatNumber(f64(p.code, ip+1)))
		case op == opLessConstJump:
			fmt.Fprintf(&b, " %s %d", formatNumber(f64(p.code, ip+1)), u32(p.code, ip+9))
		case op == opLocalLessConstJump:
			fmt.Fprintf(&b, " %d %s %d", u16(p.code, ip+1), formatNumber(f64(p.code, ip+3)), u32(p.code, ip+11))
		case op == opGlobalLessConstJump:
			fmt.Fprintf(&b, " %d %s %d", u32(p.code, ip+1), formatNumber(f64(p.code, ip+5)), u32(p.code, ip+13))
		case op == opGlobalAddConst || op == opGlobalSubConst:
			fmt.Fprintf(&b, " %d %s", u32(p.code, ip+1), formatNumber(addend(op, p.code, ip+5)))
		case op == opCallGlobalLocalAddConst || op == opCallGlobalLocalSubConst:
			fmt.Fprintf(&b, " %d %d %s %d", u32(p.code, ip+1), u16(p.code, ip+5), formatNumber(addend(op, p.code, ip+7)), p.code[ip+15])
		case op == opLocalAddConst || op == opLocalSubConst:
			fmt.Fprintf(&b, " %d %s", u16(p.code, ip+1), formatNumber(addend(op, p.code, ip+3)))
		case n == 1:
			fmt.Fprintf(&b, " %d", p.code[ip+1])
		case n == 2:
			fmt.Fprintf(&b, " %d", u16(p.code, ip+1))
		case n == 4:
			fmt.Fprintf(&b, " %d", u32(p.code, ip+1))
		case n == 5:
			fmt.Fprintf(&b, " %d %d", u32(p.code, ip+1), p.code[ip+5])
		case n == 6:
			fmt.Fprintf(&b, " %d %d", u16(p.code, ip+1), u32(p.code, ip+3))
		}
		ip += 1 + n
		if op == opClosure {
			q := vm.protos[u32(p.code, ip-4)]
			fmt.Fprintf(&b, " <%s>", q.displayName())
			for range q.nUpvalues {
				fmt.Fprintf(&b, " %s%d", map[byte]string{0: "up", 1: "local"}[p.code[ip]], u16(p.code, ip+1))
				ip += 3
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
