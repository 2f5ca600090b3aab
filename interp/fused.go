package interp

import (
	"encoding/binary"
	"math"

	"minivm/lang"
)

// Fused instructions: the commonest pairs of instructions in statements
// and conditions compile to one, so that they cost one dispatch.

// exprStmt compiles an expression statement: nothing for a pure one (see
// pureStmt), one SET_LOCAL_POP, SET_GLOBAL_POP or SET_PROPERTY_POP after
// the value for an assignment, else the expression and a POP.
func (c *compiler) exprStmt(e lang.Expr, line int) {
	if c.pureStmt(e) {
		return
	}
	if a, ok := e.(*lang.AssignExpr); ok && a.Binding.Kind != lang.BindUpvalue {
		end := c.expr(a.Value)
		if a.Binding.Kind == lang.BindLocal {
			c.op16(opSetLocalPop, c.slot(a.Binding.Index, end), end)
		} else {
			c.op32(opSetGlobalPop, c.u.vm.globalID(a.Name.Lexeme), end)
		}
		return
	}
	if s, ok := e.(*lang.SetExpr); ok {
		c.expr(s.Object)
		end := c.expr(s.Value)
		c.op32(opSetPropertyPop, c.newIC(s.Name.Lexeme), end)
		return
	}
	c.expr(e)
	c.op(opPop, line)
}

// numberLiteral returns e's value if e is a number literal.
func numberLiteral(e lang.Expr) (float64, *lang.LiteralExpr, bool) {
	lit, ok := e.(*lang.LiteralExpr)
	if !ok {
		return 0, nil, false
	}
	f, ok := lit.Value.(float64)
	return f, lit, ok
}

// condJump compiles the condition of an if or a loop and the jump taken
// when it is false, returning the jump's operand offset for patch: `x < k`
// with a number literal k is one LESS_CONST_JUMP after x, or one
// LOCAL_LESS_CONST_JUMP or GLOBAL_LESS_CONST_JUMP for a variable x.
func (c *compiler) condJump(cond lang.Expr, line int) int {
	if b, ok := cond.(*lang.BinaryExpr); ok && b.Op.Lexeme == "<" {
		if f, lit, ok := numberLiteral(b.Right); ok {
			if v, ok := b.Left.(*lang.VariableExpr); ok && v.Binding.Kind == lang.BindLocal {
				c.op16(opLocalLessConstJump, c.slot(v.Binding.Index, v.Name.Line), lit.Line)
				c.word64(math.Float64bits(f))
				c.word32(0)
				return len(c.p.code) - 4
			}
			if v, ok := b.Left.(*lang.VariableExpr); ok && v.Binding.Kind == lang.BindGlobal {
				c.op32(opGlobalLessConstJump, c.u.vm.globalID(v.Name.Lexeme), v.Name.Line)
				c.word64Line(math.Float64bits(f), lit.Line)
				c.word32(0)
				return len(c.p.code) - 4
			}
			c.expr(b.Left)
			c.op(opLessConstJump, lit.Line)
			c.word64(math.Float64bits(f))
			c.word32(0)
			return len(c.p.code) - 4
		}
	}
	c.expr(cond)
	return c.jump(opPopJumpIfFalse, line)
}

// localConst compiles `x + k` and `x - k` (x a local or global variable,
// k a number literal) as one instruction, reporting whether e was one and
// its end line.
func (c *compiler) localConst(e *lang.BinaryExpr) (int, bool) {
	v, ok := e.Left.(*lang.VariableExpr)
	if !ok || v.Binding.Kind == lang.BindUpvalue || e.Op.Lexeme != "+" && e.Op.Lexeme != "-" {
		return 0, false
	}
	f, lit, ok := numberLiteral(e.Right)
	if !ok {
		return 0, false
	}
	sub := e.Op.Lexeme == "-"
	if sub {
		f = -f // the VM adds (see constOperandError)
	}
	if v.Binding.Kind == lang.BindGlobal {
		op := opGlobalAddConst
		if sub {
			op = opGlobalSubConst
		}
		c.op32(op, c.u.vm.globalID(v.Name.Lexeme), v.Name.Line)
		c.word64Line(math.Float64bits(f), lit.Line)
		return lit.Line, true
	}
	op := opLocalAddConst
	if sub {
		op = opLocalSubConst
	}
	c.op16(op, c.slot(v.Binding.Index, v.Name.Line), lit.Line)
	c.word64(math.Float64bits(f))
	return lit.Line, true
}

// callGlobalLocalConst compiles `g(x + k)` and `g(x - k)` (g a global, x a
// local, k a number literal), the shape of a recursive call, as one
// instruction, and reports whether e was one. It does what GET_GLOBAL,
// LOCAL_ADD_CONST and CALL do, in that order, and each error keeps its
// line: the global's bytes carry the callee's line, the slot and number
// the literal's, and a last byte (the argument count, 1) the call's,
// which is also the line of the caller's frame in a trace.
func (c *compiler) callGlobalLocalConst(e *lang.CallExpr) bool {
	g, ok := e.Callee.(*lang.VariableExpr)
	if !ok || g.Binding.Kind != lang.BindGlobal || len(e.Args) != 1 {
		return false
	}
	b, ok := e.Args[0].(*lang.BinaryExpr)
	if !ok || b.Op.Lexeme != "+" && b.Op.Lexeme != "-" {
		return false
	}
	v, ok := b.Left.(*lang.VariableExpr)
	if !ok || v.Binding.Kind != lang.BindLocal {
		return false
	}
	f, lit, ok := numberLiteral(b.Right)
	if !ok {
		return false
	}
	op := opCallGlobalLocalAddConst
	if b.Op.Lexeme == "-" {
		op = opCallGlobalLocalSubConst
		f = -f // the VM adds (see constOperandError)
	}
	c.op32(op, c.u.vm.globalID(g.Name.Lexeme), g.Name.Line)
	c.adjust(1) // the argument, above the callee, before the call pops it
	c.adjust(-1)
	slot := c.slot(v.Binding.Index, v.Name.Line)
	c.p.code = binary.LittleEndian.AppendUint16(c.p.code, uint16(slot))
	c.p.lines = append(c.p.lines, int32(lit.Line), int32(lit.Line))
	c.word64Line(math.Float64bits(f), lit.Line)
	c.p.code = append(c.p.code, 1)
	c.p.lines = append(c.p.lines, int32(e.Paren.Line))
	return true
}

// addReturn compiles `return a + b;` (b not a number literal, which
// ADD_CONST takes) as the operands and one ADD_RETURN, reporting whether
// e was such a sum. The instruction is where ADD would be, at the right
// operand's end line, so that an error and any jump to the end of the
// operands are where they were.
func (c *compiler) addReturn(e lang.Expr) bool {
	b, ok := e.(*lang.BinaryExpr)
	if !ok || b.Op.Lexeme != "+" {
		return false
	}
	if _, _, ok := numberLiteral(b.Right); ok {
		return false
	}
	c.expr(b.Left)
	c.op(opAddReturn, c.expr(b.Right))
	return true
}
