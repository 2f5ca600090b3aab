// Package interp compiles the resolved Lox AST (package lang) to bytecode and
// runs it on a virtual machine whose every object lives in the minivm heap
// (package runtime/gc).
//
// # The VM model
//
// The VM is a stack machine in the style of clox. One value stack holds,
// for every active call, a frame of slots followed by the operand stack of
// that call:
//
//	stack: ... | slot 0 | params 1..n | locals ... | operands ... |
//	             ^ frame base
//
// Slot 0 holds the callee (the receiver `this` in methods and
// initializers), parameters take slots 1..n, and locals follow in
// declaration order; the resolver assigns the slot of every local, and the
// compiler emits code that leaves each local at exactly that slot (it
// checks this as it goes). A call pushes the callee and the arguments, and
// the callee's frame starts at the callee's own slot, so arguments become
// parameters without copying. The compiler computes each function's
// maximum stack height (slots plus operands); a call makes sure that much
// stack exists, growing the stack before the frame starts.
//
// Frames (closure, prototype, saved ip, base) live in a fixed array whose
// size is the call-depth limit; the dispatch loop never recurses in Go per
// Lox call, so deep recursion ends in "Stack overflow.", never a Go stack
// overflow.
//
// # Upvalues
//
// A closure captures variables through upvalue objects. While the captured
// variable's frame is live the upvalue is open: it records the stack index
// of the slot and reads and writes go to the stack. When the slot goes out
// of scope (a block ends with a captured local, or the frame returns) the
// VM closes the upvalue: it copies the slot's value into the upvalue
// object itself. Open upvalues are kept sorted by stack index so that
// closing is a walk from the top, and two closures capturing the same slot
// share one upvalue.
//
// # Operands
//
// Each instruction is an opcode byte followed by fixed-width little-endian
// operands (see opcode.go): u8 argument counts, u16 slot and upvalue
// indexes, f64 number immediates, u32 for everything else (constants,
// globals, inline caches, class descriptors, prototypes and absolute jump
// targets). The commonest instruction pairs are fused into one (fused.go),
// and expression statements without effects compile to checks of the
// globals they read (purestmt.go). There are no
// clox-style one-byte limits on constants, globals or jump distances. A
// line table parallel to the code gives the source line of every byte, for
// runtime error traces.
//
// Property accesses and method invocations carry an inline cache index
// (icache.go): the cache records the ClassMeta of the last receiver and
// the field slot or method index found for it, so the common case is one
// header load and a compare.
//
// # Objects
//
// No Lox object is a Go object: strings, arrays, instances, classes,
// closures, upvalues, bound methods and natives are all allocated in the gc
// heap (object.go gives each layout), and the Go side holds only NaN-boxed
// gc.Values in rooted places (value stack, frames, globals, constant
// tables, open upvalues, a handle stack) plus integer indexes into Go-side
// tables (prototypes, class records, names). Any allocation may move every
// object, so the VM never keeps a reference in a Go local across an
// allocation; see the GC-safety notes in vm.go.
package interp

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"minivm/lang"
	"minivm/runtime/gc"
	jithints "minivm/runtime/jit_hints"
)

// proto is a compiled function: the Go-side part of a closure, found by
// the index stored in the closure object.
type proto struct {
	name      string // "" for the top-level script
	arity     int
	nUpvalues int
	isInit    bool
	entry     bool // a thread's entry code (threads.go): not shown in traces
	code      []byte
	lines     []int32 // source line of each code byte
	consts    []gc.Value
	ics       []inlineCache
	maxStack  int // slots + operands

	pending []pendingString // string constants not yet in the heap
}

type pendingString struct {
	k int
	s string
}

func (p *proto) displayName() string {
	if p.name == "" {
		return "script"
	}
	return p.name
}

// classDesc is what the compiler knows about a class statement: its name,
// the fields its methods assign through `this` (candidates for inline
// slots) and its method count.
type classDesc struct {
	name      string
	line      int     // line of the declaration
	nameConst int     // constant index of the name string in the enclosing prototype
	fields    []int32 // name ids, in order of first assignment
	nMethods  int

	// prof is the hot-field profile of the declaration, shared by every
	// class object it creates (hotfields.go); hot caches its last order.
	prof *jithints.Class
	hot  hotOrder
}

// Limits of the encoding that a resolver-accepted program could exceed.
const (
	maxLocalSlots = math.MaxUint16 + 1
	maxUpvalues   = math.MaxUint16 + 1
)

// compileError aborts compilation (panic value, recovered by compile).
type compileError struct{ err *lang.Error }

// unit is the state shared by the compilers of one program: the
// prototypes and class descriptors it creates, committed to the VM (by
// vm.load) only when compilation succeeds.
type unit struct {
	vm     *VM
	protos []*proto
	descs  []*classDesc
}

// compiler compiles one function body.
type compiler struct {
	u      *unit
	p      *proto
	index  int // p's index among the VM's prototypes once loaded
	kind   lang.FunctionKind
	height int // stack height relative to the frame base
	consts map[any]int
	spine  []lang.Expr // expressions whose first child is being compiled (expr)
}

// compile turns a resolved program into prototypes and class descriptors;
// vm.load then makes them part of the VM. The script's prototype is the
// unit's first.
func (vm *VM) compile(prog *lang.Program) (u *unit, errs lang.ErrorList) {
	u = &unit{vm: vm}
	defer func() {
		if r := recover(); r != nil {
			ce, ok := r.(compileError)
			if !ok {
				panic(r)
			}
			errs = lang.ErrorList{ce.err}
		}
	}()
	c := u.newCompiler("", lang.KindScript, 0)
	c.stmts(prog.Stmts)
	c.emitReturn(lastLine(prog))
	c.finish()
	return u, nil
}

func lastLine(prog *lang.Program) int {
	// The script's implicit return is never the site of an error, so its
	// line matters little; use the last statement's line when known.
	line := 1
	if n := len(prog.Stmts); n > 0 {
		if l := stmtLine(prog.Stmts[n-1]); l > 0 {
			line = l
		}
	}
	return line
}

func (u *unit) newCompiler(name string, kind lang.FunctionKind, arity int) *compiler {
	p := &proto{name: name, arity: arity, isInit: kind == lang.KindInitializer, maxStack: 1 + arity}
	// The VM-wide index p will have once the unit is loaded.
	index := len(u.vm.protos) + len(u.protos)
	u.protos = append(u.protos, p)
	return &compiler{u: u, p: p, index: index, kind: kind, height: 1 + arity, consts: map[any]int{}}
}

// stackHeadroom is added to every function's computed maximum stack
// height: a margin for the unchecked stack accesses of the dispatch loop.
const stackHeadroom = 2

func (c *compiler) finish() {
	c.p.maxStack += stackHeadroom
}

func (c *compiler) errorAt(line int, msg string) {
	panic(compileError{&lang.Error{Line: line, Msg: msg}})
}

// ---- emission ----

// stackEffect gives the fixed stack effect of each opcode; opcodes with a
// variable effect adjust the height themselves.
var stackEffect = [numOpcodes]int{
	opConstant: 1, opNil: 1, opTrue: 1, opFalse: 1, opPop: -1,
	opGetLocal: 1, opSetLocal: 0, opGetGlobal: 1, opDefineGlobal: -1, opSetGlobal: 0,
	opGetUpvalue: 1, opSetUpvalue: 0, opGetProperty: 0, opSetProperty: -1, opGetSuper: -1,
	opEqual: -1, opNotEqual: -1, opGreater: -1, opGreaterEqual: -1, opLess: -1, opLessEqual: -1,
	opAdd: -1, opSubtract: -1, opMultiply: -1, opDivide: -1, opNot: 0, opNegate: 0,
	opPrint: -1, opJump: 0, opJumpIfFalse: 0, opJumpIfTrue: 0, opPopJumpIfFalse: -1, opLoop: 0,
	opClosure: 1, opCloseUpvalue: -1, opReturn: -1, opClass: 1, opInherit: -1, opMethod: -1,
	opEndClass: -1, opIndexGet: -1, opIndexSet: -2, opGetLocalProperty: 1,
	opAddConst: 0, opSubConst: 0, opLessConst: 0, opCheckGlobal: 0,
	opSetLocalPop: -1, opSetGlobalPop: -1, opLessConstJump: -1, opLocalAddConst: 1, opLocalSubConst: 1,
	opLocalLessConstJump: 0, opReturnLocal: 0, opSetPropertyPop: -2,
	opGlobalLessConstJump: 0, opGlobalAddConst: 1, opGlobalSubConst: 1,
	opCallGlobalLocalAddConst: 1, opCallGlobalLocalSubConst: 1, opAddReturn: -2,
}

func (c *compiler) adjust(delta int) {
	c.height += delta
	if c.height > c.p.maxStack {
		c.p.maxStack = c.height
	}
}

func (c *compiler) op(op opcode, line int) {
	c.p.code = append(c.p.code, byte(op))
	c.p.lines = append(c.p.lines, int32(line))
	c.adjust(stackEffect[op])
}

func (c *compiler) byte8(b byte) {
	c.p.code = append(c.p.code, b)
	c.p.lines = append(c.p.lines, c.p.lines[len(c.p.lines)-1])
}

func (c *compiler) word16(x int) {
	c.p.code = binary.LittleEndian.AppendUint16(c.p.code, uint16(x))
	l := c.p.lines[len(c.p.lines)-1]
	c.p.lines = append(c.p.lines, l, l)
}

func (c *compiler) word32(x int) {
	c.p.code = binary.LittleEndian.AppendUint32(c.p.code, uint32(x))
	l := c.p.lines[len(c.p.lines)-1]
	c.p.lines = append(c.p.lines, l, l, l, l)
}

func (c *compiler) word64(x uint64) {
	c.word64Line(x, int(c.p.lines[len(c.p.lines)-1]))
}

// word64Line appends x with a line of its own: an instruction that may
// fail at two places of the source reports the line of the operand it
// failed on (the trace reads the line of the byte before the saved ip).
func (c *compiler) word64Line(x uint64, line int) {
	c.p.code = binary.LittleEndian.AppendUint64(c.p.code, x)
	l := int32(line)
	c.p.lines = append(c.p.lines, l, l, l, l, l, l, l, l)
}

func (c *compiler) op16(op opcode, x, line int) {
	c.op(op, line)
	c.word16(x)
}

func (c *compiler) op32(op opcode, x, line int) {
	c.op(op, line)
	c.word32(x)
}

// jump emits a forward jump and returns the offset of its target operand.
func (c *compiler) jump(op opcode, line int) int {
	c.op32(op, 0, line)
	return len(c.p.code) - 4
}

// maxJumpTarget is the largest code offset a jump operand holds (u32).
// Past it a jump would wrap, so patch and loop report an error instead.
// It is a variable only so that a test can lower it.
var maxJumpTarget = math.MaxUint32

// patch points the jump operand at at the current end of the code.
func (c *compiler) patch(at, line int) {
	if len(c.p.code) > maxJumpTarget {
		c.errorAt(line, "Too much code to jump over.")
	}
	binary.LittleEndian.PutUint32(c.p.code[at:], uint32(len(c.p.code)))
}

// loop emits the backward jump to start.
func (c *compiler) loop(start, line int) {
	if start > maxJumpTarget {
		c.errorAt(line, "Loop body too large.")
	}
	c.op32(opLoop, start, line)
}

func (c *compiler) constant(key any, v gc.Value, s string, isString bool) int {
	if k, ok := c.consts[key]; ok {
		return k
	}
	k := len(c.p.consts)
	c.p.consts = append(c.p.consts, v)
	if isString {
		c.p.pending = append(c.p.pending, pendingString{k, s})
	}
	c.consts[key] = k
	return k
}

type stringKey string

func (c *compiler) numberConst(f float64) int {
	// Key by bits so that 0 and -0 stay distinct and NaN is found again.
	return c.constant(math.Float64bits(f), gc.Number(f), "", false)
}

func (c *compiler) stringConst(s string) int {
	return c.constant(stringKey(s), gc.Nil, s, true)
}

func (c *compiler) newIC(name string) int {
	c.p.ics = append(c.p.ics, inlineCache{name: c.u.vm.nameID(name)})
	return len(c.p.ics) - 1
}

// ---- variables ----

func (c *compiler) getVar(name string, b lang.Binding, line int) {
	switch b.Kind {
	case lang.BindLocal:
		c.op16(opGetLocal, c.slot(b.Index, line), line)
	case lang.BindUpvalue:
		c.op16(opGetUpvalue, c.upvalue(b.Index, line), line)
	default:
		c.op32(opGetGlobal, c.u.vm.globalID(name), line)
	}
}

func (c *compiler) setVar(name string, b lang.Binding, line int) {
	switch b.Kind {
	case lang.BindLocal:
		c.op16(opSetLocal, c.slot(b.Index, line), line)
	case lang.BindUpvalue:
		c.op16(opSetUpvalue, c.upvalue(b.Index, line), line)
	default:
		c.op32(opSetGlobal, c.u.vm.globalID(name), line)
	}
}

func (c *compiler) slot(i, line int) int {
	if i >= maxLocalSlots {
		c.errorAt(line, "Too many local variables in function.")
	}
	return i
}

func (c *compiler) upvalue(i, line int) int {
	if i >= maxUpvalues {
		c.errorAt(line, "Too many closure variables in function.")
	}
	return i
}

// declare finishes a declaration whose value is on top of the stack: a
// global is defined (popping the value), a local stays in its slot.
func (c *compiler) declare(name lang.Token, local *lang.Local) {
	if local == nil {
		c.op32(opDefineGlobal, c.u.vm.globalID(name.Lexeme), name.Line)
		return
	}
	c.checkSlot(local)
}

// checkSlot verifies that the value just pushed sits in the local's slot.
func (c *compiler) checkSlot(local *lang.Local) {
	if c.height-1 != local.Slot {
		panic(fmt.Sprintf("compiler: local %q at height %d, resolver slot %d", local.Name.Lexeme, c.height-1, local.Slot))
	}
	c.slot(local.Slot, local.Name.Line)
}

// endScope pops (or closes, when captured) the locals of a scope, last
// declared first.
func (c *compiler) endScope(locals []*lang.Local, line int) {
	pops := 0
	flush := func() {
		switch {
		case pops == 1:
			c.op(opPop, line)
		case pops > 1:
			c.op32(opPopN, pops, line)
			c.adjust(-pops)
		}
		pops = 0
	}
	for i := len(locals) - 1; i >= 0; i-- {
		if locals[i].Captured {
			flush()
			c.op(opCloseUpvalue, line)
		} else {
			pops++
		}
	}
	flush()
}

// ---- statements ----

func (c *compiler) stmt(s lang.Stmt) {
	switch s := s.(type) {
	case *lang.VarStmt:
		if s.Init != nil {
			c.expr(s.Init)
		} else {
			c.op(opNil, s.Name.Line)
		}
		c.declare(s.Name, s.Local)
	case *lang.FunStmt:
		c.function(s.Func)
		c.declare(s.Func.Name, s.Local)
	case *lang.ClassStmt:
		c.class(s)
	case *lang.ExprStmt:
		c.exprStmt(s.X, s.Line)
	case *lang.PrintStmt:
		c.expr(s.X)
		c.op(opPrint, s.Line)
	case *lang.BlockStmt:
		c.stmts(s.Stmts)
		c.endScope(s.Locals, s.EndLine)
	case *lang.IfStmt:
		elseJump := c.condJump(s.Cond, s.Line)
		c.stmt(s.Then)
		if s.Else == nil {
			c.patch(elseJump, s.Line)
			return
		}
		endJump := c.jump(opJump, s.Line)
		c.patch(elseJump, s.Line)
		c.stmt(s.Else)
		c.patch(endJump, s.Line)
	case *lang.WhileStmt:
		start := len(c.p.code)
		exit := c.condJump(s.Cond, s.Line)
		c.stmt(s.Body)
		c.loop(start, s.Line)
		c.patch(exit, s.Line)
	case *lang.ForStmt:
		if s.Init != nil {
			c.stmt(s.Init)
		}
		start := len(c.p.code)
		exit := -1
		if s.Cond != nil {
			exit = c.condJump(s.Cond, s.Line)
		}
		c.stmt(s.Body)
		if s.Incr != nil {
			c.exprStmt(s.Incr, s.Line)
		}
		c.loop(start, s.Line)
		if exit >= 0 {
			c.patch(exit, s.Line)
		}
		c.endScope(s.Locals, s.Line)
	case *lang.ReturnStmt:
		line := s.Keyword.Line
		if v, ok := s.Value.(*lang.VariableExpr); ok && v.Binding.Kind == lang.BindLocal {
			c.op16(opReturnLocal, c.slot(v.Binding.Index, v.Name.Line), line)
		} else if c.addReturn(s.Value) {
		} else if s.Value != nil {
			c.expr(s.Value)
			c.op(opReturn, line)
		} else {
			c.emitReturn(line)
		}
	default:
		panic(fmt.Sprintf("compiler: unknown statement %T", s))
	}
}

// emitReturn emits the implicit return: `this` from an initializer, nil
// otherwise.
func (c *compiler) emitReturn(line int) {
	if c.kind == lang.KindInitializer {
		c.op16(opGetLocal, 0, line)
	} else {
		c.op(opNil, line)
	}
	c.op(opReturn, line)
}

// function compiles fn into a new prototype and emits the closure that
// instantiates it.
func (c *compiler) function(fn *lang.Function) {
	fc := c.u.newCompiler(fn.Name.Lexeme, fn.Kind, len(fn.Params))
	for _, p := range fn.Params {
		if p.Slot >= maxLocalSlots {
			c.errorAt(p.Name.Line, "Too many local variables in function.")
		}
	}
	for _, s := range fn.Body {
		fc.stmt(s)
	}
	fc.emitReturn(fn.EndLine)
	fc.finish()
	if len(fn.Upvalues) > maxUpvalues {
		c.errorAt(fn.Name.Line, "Too many closure variables in function.")
	}
	fc.p.nUpvalues = len(fn.Upvalues)
	line := fn.Name.Line
	c.op32(opClosure, fc.index, line)
	for _, uv := range fn.Upvalues {
		if uv.IsLocal {
			c.byte8(1)
		} else {
			c.byte8(0)
		}
		c.word16(uv.Index)
	}
}

// class compiles a class declaration:
//
//	CLASS desc              push the class
//	(define the variable)
//	[superclass var]        push the superclass: the hidden local "super"
//	[class var] INHERIT     copy the superclass's methods and fields down
//	class var
//	CLOSURE m; METHOD name  for each method
//	END_CLASS               pop the class, finalize the instance layout
//	[end scope of "super"]
func (c *compiler) class(s *lang.ClassStmt) {
	vm := c.u.vm
	line := s.Name.Line
	desc := &classDesc{name: s.Name.Lexeme, line: line, nMethods: len(s.Methods)}
	desc.prof = vm.hot.prof.Class(desc.name, line)
	for _, f := range thisFields(s) {
		desc.fields = append(desc.fields, vm.nameID(f))
	}
	desc.nameConst = c.stringConst(s.Name.Lexeme)
	c.op32(opClass, len(vm.classDescs)+len(c.u.descs), line)
	c.u.descs = append(c.u.descs, desc)
	c.declare(s.Name, s.Local)
	classBinding := lang.Binding{Kind: lang.BindGlobal}
	if s.Local != nil {
		classBinding = lang.Binding{Kind: lang.BindLocal, Index: s.Local.Slot}
	}
	if s.Superclass != nil {
		sl := s.Superclass.Name.Line
		c.getVar(s.Superclass.Name.Lexeme, s.Superclass.Binding, sl)
		c.checkSlot(s.SuperLocal)
		c.getVar(s.Name.Lexeme, classBinding, sl)
		c.op(opInherit, sl)
	}
	c.getVar(s.Name.Lexeme, classBinding, line)
	for _, m := range s.Methods {
		c.function(m)
		c.op32(opMethod, int(vm.nameID(m.Name.Lexeme)), m.Name.Line)
	}
	c.op(opEndClass, line)
	if s.Superclass != nil {
		c.endScope([]*lang.Local{s.SuperLocal}, line)
	}
}

// ---- expressions ----

// expr compiles e and returns the line of its last token, which is where
// clox's single-pass compiler emits the instruction that consumes e (so
// runtime errors report the line where an operand ends). It walks down the
// left spine (the operand, callee or object compiled first) with a loop,
// keeping the nodes passed on c.spine, then finishes them innermost first,
// so `1 + 1 + ...` or `a.x.x...` a million long compiles without a deep Go
// stack. It recurses only into the other children, which lang's nesting
// bound covers (see lang.maxDepth). Returning the end line, rather than
// finding it again for each operator, keeps a chain like `- - - ... x`
// linear.
func (c *compiler) expr(e lang.Expr) (end int) {
	base := len(c.spine)
	c.spine = slices.Grow(c.spine, lang.SpineLength(e))
	next, end := c.exprFirst(e)
	for next != nil {
		c.spine = append(c.spine, e)
		e = next
		next, end = c.exprFirst(e)
	}
	for len(c.spine) > base {
		top := c.spine[len(c.spine)-1]
		c.spine = c.spine[:len(c.spine)-1]
		end = c.exprRest(top, end)
	}
	return end
}

// exprFirst returns the child of e that is compiled first, or compiles a
// node without one and returns nil and its end line.
func (c *compiler) exprFirst(e lang.Expr) (first lang.Expr, end int) {
	switch e := e.(type) {
	case *lang.LiteralExpr:
		switch v := e.Value.(type) {
		case nil:
			c.op(opNil, e.Line)
		case bool:
			if v {
				c.op(opTrue, e.Line)
			} else {
				c.op(opFalse, e.Line)
			}
		case float64:
			c.op32(opConstant, c.numberConst(v), e.Line)
		case string:
			c.op32(opConstant, c.stringConst(v), e.Line)
		default:
			panic(fmt.Sprintf("compiler: literal of type %T", v))
		}
		return nil, e.Line
	case *lang.VariableExpr:
		c.getVar(e.Name.Lexeme, e.Binding, e.Name.Line)
		return nil, e.Name.Line
	case *lang.AssignExpr:
		return e.Value, 0
	case *lang.LogicalExpr:
		return e.Left, 0
	case *lang.BinaryExpr:
		if end, ok := c.localConst(e); ok {
			return nil, end
		}
		return e.Left, 0
	case *lang.UnaryExpr:
		return e.Right, 0
	case *lang.GroupingExpr:
		return e.Inner, 0
	case *lang.CallExpr:
		switch callee := e.Callee.(type) {
		case *lang.GetExpr:
			return callee.Object, 0 // then the arguments and one INVOKE
		case *lang.SuperExpr:
			c.superInvoke(e, callee)
			return nil, e.Paren.Line
		}
		if c.callGlobalLocalConst(e) {
			return nil, e.Paren.Line
		}
		return e.Callee, 0
	case *lang.GetExpr:
		if v, ok := e.Object.(*lang.VariableExpr); ok && v.Binding.Kind == lang.BindLocal {
			c.op16(opGetLocalProperty, c.slot(v.Binding.Index, v.Name.Line), e.Name.Line)
			c.word32(c.newIC(e.Name.Lexeme))
			return nil, e.Name.Line
		}
		if v, ok := e.Object.(*lang.ThisExpr); ok && v.Binding.Kind == lang.BindLocal {
			c.op16(opGetLocalProperty, c.slot(v.Binding.Index, v.Keyword.Line), e.Name.Line)
			c.word32(c.newIC(e.Name.Lexeme))
			return nil, e.Name.Line
		}
		return e.Object, 0
	case *lang.SetExpr:
		return e.Object, 0
	case *lang.ThisExpr:
		c.getVar("this", e.Binding, e.Keyword.Line)
		return nil, e.Keyword.Line
	case *lang.SuperExpr:
		c.getVar("this", e.This, e.Keyword.Line)
		c.getVar("super", e.Super, e.Keyword.Line)
		c.op32(opGetSuper, c.newIC(e.Method.Lexeme), e.Method.Line)
		return nil, e.Method.Line
	case *lang.ArrayExpr:
		end := e.Bracket.Line
		for _, x := range e.Elements {
			end = c.expr(x)
		}
		c.op32(opArray, len(e.Elements), e.Bracket.Line)
		c.adjust(1 - len(e.Elements))
		return nil, end
	case *lang.IndexExpr:
		return e.Object, 0
	case *lang.IndexSetExpr:
		return e.Object, 0
	}
	panic(fmt.Sprintf("compiler: unknown expression %T", e))
}

// exprRest compiles the rest of e once the child exprFirst returned is on
// the stack; firstEnd is that child's end line. It returns e's end line.
func (c *compiler) exprRest(e lang.Expr, firstEnd int) (end int) {
	switch e := e.(type) {
	case *lang.AssignExpr:
		c.setVar(e.Name.Lexeme, e.Binding, firstEnd)
		return firstEnd
	case *lang.LogicalExpr:
		op := opJumpIfFalse
		if e.Op.Lexeme == "or" {
			op = opJumpIfTrue
		}
		jump := c.jump(op, e.Op.Line)
		c.op(opPop, e.Op.Line)
		end = c.expr(e.Right)
		c.patch(jump, e.Op.Line)
		return end
	case *lang.BinaryExpr:
		return c.binary(e)
	case *lang.UnaryExpr:
		if e.Op.Lexeme == "-" {
			c.op(opNegate, firstEnd)
		} else {
			c.op(opNot, firstEnd)
		}
		return firstEnd
	case *lang.GroupingExpr:
		return firstEnd
	case *lang.CallExpr:
		c.call(e)
		return e.Paren.Line
	case *lang.GetExpr:
		c.op32(opGetProperty, c.newIC(e.Name.Lexeme), e.Name.Line)
		return e.Name.Line
	case *lang.SetExpr:
		end = c.expr(e.Value)
		c.op32(opSetProperty, c.newIC(e.Name.Lexeme), end)
		return end
	case *lang.IndexExpr:
		c.expr(e.Index)
		c.op(opIndexGet, e.Bracket.Line)
		return e.Bracket.Line
	case *lang.IndexSetExpr:
		c.expr(e.Index)
		end = c.expr(e.Value)
		c.op(opIndexSet, end)
		return end
	}
	panic(fmt.Sprintf("compiler: unknown expression %T", e))
}

// binary compiles the right operand and the operator of e, whose left
// operand is on the stack, and returns the right operand's end line: clox
// emits the operator there.
func (c *compiler) binary(e *lang.BinaryExpr) int {
	if lit, ok := e.Right.(*lang.LiteralExpr); ok {
		if f, ok := lit.Value.(float64); ok {
			var op opcode
			switch e.Op.Lexeme {
			case "+":
				op = opAddConst
			case "-":
				op = opSubConst
			case "<":
				op = opLessConst
			}
			if op != 0 {
				c.op(op, lit.Line)
				c.word64(math.Float64bits(f))
				return lit.Line
			}
		}
	}
	line := c.expr(e.Right)
	var op opcode
	switch e.Op.Lexeme {
	case "==":
		op = opEqual
	case "!=":
		op = opNotEqual
	case "<":
		op = opLess
	case "<=":
		op = opLessEqual
	case ">":
		op = opGreater
	case ">=":
		op = opGreaterEqual
	case "+":
		op = opAdd
	case "-":
		op = opSubtract
	case "*":
		op = opMultiply
	case "/":
		op = opDivide
	default:
		panic("compiler: unknown operator " + e.Op.Lexeme)
	}
	c.op(op, line)
	return line
}

// call compiles the arguments and the call of e, whose callee (for a
// method call, the receiver) is on the stack.
func (c *compiler) call(e *lang.CallExpr) {
	line := e.Paren.Line
	argc := c.argCount(e)
	for _, a := range e.Args {
		c.expr(a)
	}
	if get, ok := e.Callee.(*lang.GetExpr); ok {
		c.op32(opInvoke, c.newIC(get.Name.Lexeme), line)
	} else {
		c.op(opCall, line)
	}
	c.byte8(byte(argc))
	c.adjust(-argc)
}

// superInvoke compiles `super.m(args)` as one SUPER_INVOKE.
func (c *compiler) superInvoke(e *lang.CallExpr, callee *lang.SuperExpr) {
	argc := c.argCount(e)
	c.getVar("this", callee.This, callee.Keyword.Line)
	for _, a := range e.Args {
		c.expr(a)
	}
	c.getVar("super", callee.Super, callee.Keyword.Line)
	c.op32(opSuperInvoke, c.newIC(callee.Method.Lexeme), e.Paren.Line)
	c.byte8(byte(argc))
	c.adjust(-argc - 1)
}

func (c *compiler) argCount(e *lang.CallExpr) int {
	if len(e.Args) > 255 {
		c.errorAt(e.Paren.Line, "Can't have more than 255 arguments.")
	}
	return len(e.Args)
}

func stmtLine(s lang.Stmt) int {
	switch s := s.(type) {
	case *lang.VarStmt:
		return s.Name.Line
	case *lang.FunStmt:
		return s.Func.EndLine
	case *lang.ClassStmt:
		return s.Name.Line
	case *lang.ExprStmt:
		return s.Line
	case *lang.PrintStmt:
		return s.Line
	case *lang.BlockStmt:
		return s.EndLine
	case *lang.IfStmt:
		return s.Line
	case *lang.WhileStmt:
		return s.Line
	case *lang.ForStmt:
		return s.Line
	case *lang.ReturnStmt:
		return s.Keyword.Line
	}
	return 0
}

// ---- static field discovery ----

// thisFields lists the field names assigned as `this.name = ...` in the
// class's methods (including functions nested in them, where `this` is
// the same instance, but not nested classes, which have their own),
// initializer first, in order of first appearance. These fields get
// inline slots.
func thisFields(s *lang.ClassStmt) []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	w := &fieldWalker{add: add}
	for _, m := range s.Methods {
		if m.Kind == lang.KindInitializer {
			w.stmts(m.Body)
		}
	}
	for _, m := range s.Methods {
		if m.Kind != lang.KindInitializer {
			w.stmts(m.Body)
		}
	}
	return names
}

type fieldWalker struct {
	add   func(string)
	spine []lang.Expr // expressions whose first child is being walked (expr)
}

func (w *fieldWalker) stmts(ss []lang.Stmt) {
	for _, s := range ss {
		w.stmt(s)
	}
}

func (w *fieldWalker) stmt(s lang.Stmt) {
	switch s := s.(type) {
	case *lang.VarStmt:
		w.expr(s.Init)
	case *lang.FunStmt:
		w.stmts(s.Func.Body)
	case *lang.ClassStmt:
		// A nested class's `this` is another object.
	case *lang.ExprStmt:
		w.expr(s.X)
	case *lang.PrintStmt:
		w.expr(s.X)
	case *lang.BlockStmt:
		w.stmts(s.Stmts)
	case *lang.IfStmt:
		w.expr(s.Cond)
		w.stmt(s.Then)
		if s.Else != nil {
			w.stmt(s.Else)
		}
	case *lang.WhileStmt:
		w.expr(s.Cond)
		w.stmt(s.Body)
	case *lang.ForStmt:
		if s.Init != nil {
			w.stmt(s.Init)
		}
		w.expr(s.Cond)
		w.expr(s.Incr)
		w.stmt(s.Body)
	case *lang.ReturnStmt:
		w.expr(s.Value)
	}
}

// expr walks e like compiler.expr: down the left spine with a loop,
// recursing only into the other children.
func (w *fieldWalker) expr(e lang.Expr) { lang.WalkSpine(w, e, &w.spine) }

// Descend records what e itself assigns and returns its first child, or
// walks a node without one and returns nil.
func (w *fieldWalker) Descend(e lang.Expr) lang.Expr {
	switch e := e.(type) {
	case *lang.AssignExpr:
		return e.Value
	case *lang.LogicalExpr:
		return e.Left
	case *lang.BinaryExpr:
		return e.Left
	case *lang.UnaryExpr:
		return e.Right
	case *lang.GroupingExpr:
		return e.Inner
	case *lang.CallExpr:
		return e.Callee
	case *lang.GetExpr:
		return e.Object
	case *lang.SetExpr:
		if _, ok := e.Object.(*lang.ThisExpr); ok {
			w.add(e.Name.Lexeme)
		}
		return e.Object
	case *lang.ArrayExpr:
		for _, x := range e.Elements {
			w.expr(x)
		}
	case *lang.IndexExpr:
		return e.Object
	case *lang.IndexSetExpr:
		return e.Object
	}
	return nil
}

// Finish walks the children of e after its first.
func (w *fieldWalker) Finish(e lang.Expr) {
	switch e := e.(type) {
	case *lang.LogicalExpr:
		w.expr(e.Right)
	case *lang.BinaryExpr:
		w.expr(e.Right)
	case *lang.CallExpr:
		for _, a := range e.Args {
			w.expr(a)
		}
	case *lang.SetExpr:
		w.expr(e.Value)
	case *lang.IndexExpr:
		w.expr(e.Index)
	case *lang.IndexSetExpr:
		w.expr(e.Index)
		w.expr(e.Value)
	}
}
