package interp

import "minivm/lang"

// An expression statement whose expression has no effect but for failing
// on an undefined global (literals, variables, this, and ==, != and ! of
// such) compiles to no code but one CHECK_GLOBAL per global it reads, in
// evaluation order: the value would only be popped, and == and ! never
// fail. (CPython compiles a bare constant statement to a NOP.) In a run of
// such statements, a global is checked only where it is first read: no
// code runs between the checks, and a defined global stays defined, so the
// first failing check is the same one, at the same line.

// pureReads returns the global reads of e, left to right, and whether e is
// such an expression. It walks with an explicit stack: expressions may
// nest deeper than the Go stack should recurse.
func pureReads(e lang.Expr) ([]*lang.VariableExpr, bool) {
	var reads []*lang.VariableExpr
	todo := []lang.Expr{e}
	for len(todo) > 0 {
		e := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		switch e := e.(type) {
		case *lang.LiteralExpr, *lang.ThisExpr:
		case *lang.VariableExpr:
			if e.Binding.Kind == lang.BindGlobal {
				reads = append(reads, e)
			}
		case *lang.GroupingExpr:
			todo = append(todo, e.Inner)
		case *lang.UnaryExpr:
			if e.Op.Lexeme != "!" {
				return nil, false
			}
			todo = append(todo, e.Right)
		case *lang.BinaryExpr:
			if e.Op.Lexeme != "==" && e.Op.Lexeme != "!=" {
				return nil, false
			}
			todo = append(todo, e.Right, e.Left)
		default:
			return nil, false
		}
	}
	return reads, true
}

// stmts compiles a statement list, each run of pure expression
// statements in it as the checks of the distinct globals the run reads.
func (c *compiler) stmts(list []lang.Stmt) {
	for i := 0; i < len(list); {
		seen := map[string]bool{}
		j := i
		for ; j < len(list); j++ {
			s, ok := list[j].(*lang.ExprStmt)
			if !ok {
				break
			}
			reads, ok := pureReads(s.X)
			if !ok {
				break
			}
			for _, v := range reads {
				if !seen[v.Name.Lexeme] {
					seen[v.Name.Lexeme] = true
					c.op32(opCheckGlobal, c.u.vm.globalID(v.Name.Lexeme), v.Name.Line)
				}
			}
		}
		if j == i {
			c.stmt(list[i])
			j++
		}
		i = j
	}
}

// pureStmt compiles the expression statement of e if e is pure (see
// above) and reports whether it did.
func (c *compiler) pureStmt(e lang.Expr) bool {
	reads, ok := pureReads(e)
	if !ok {
		return false
	}
	for _, v := range reads {
		c.op32(opCheckGlobal, c.u.vm.globalID(v.Name.Lexeme), v.Name.Line)
	}
	return true
}
