package lang

import (
	"math"
	"strconv"
	"strings"
)

// unparse renders a program back into Lox source that parses to the same
// tree (FuzzParse checks that it does). Parentheses appear only where the
// tree has a GroupingExpr, so the round trip also checks that the parser
// builds precedence into the tree and nowhere else. Expressions are walked
// like writeExpr walks them: the left spine with a loop.
func unparse(p *Program) string {
	var b strings.Builder
	for _, s := range p.Stmts {
		unparseStmt(&b, s)
		b.WriteByte('\n')
	}
	return b.String()
}

func unparseFunc(b *strings.Builder, f *Function) {
	b.WriteString(f.Name.Lexeme + "(")
	for i, p := range f.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.Name.Lexeme)
	}
	b.WriteString(") {")
	unparseStmts(b, f.Body)
	b.WriteString("}")
}

func unparseStmts(b *strings.Builder, list []Stmt) {
	for _, s := range list {
		b.WriteByte(' ')
		unparseStmt(b, s)
	}
	b.WriteByte(' ')
}

func unparseStmt(b *strings.Builder, s Stmt) {
	switch s := s.(type) {
	case *VarStmt:
		b.WriteString("var " + s.Name.Lexeme)
		if s.Init != nil {
			b.WriteString(" = ")
			unparseExpr(b, s.Init)
		}
		b.WriteByte(';')
	case *FunStmt:
		b.WriteString("fun ")
		unparseFunc(b, s.Func)
	case *ClassStmt:
		b.WriteString("class " + s.Name.Lexeme)
		if s.Superclass != nil {
			b.WriteString(" < " + s.Superclass.Name.Lexeme)
		}
		b.WriteString(" {")
		for _, m := range s.Methods {
			b.WriteByte(' ')
			unparseFunc(b, m)
		}
		b.WriteString(" }")
	case *ExprStmt:
		unparseExpr(b, s.X)
		b.WriteByte(';')
	case *PrintStmt:
		b.WriteString("print ")
		unparseExpr(b, s.X)
		b.WriteByte(';')
	case *BlockStmt:
		b.WriteByte('{')
		unparseStmts(b, s.Stmts)
		b.WriteByte('}')
	case *IfStmt:
		b.WriteString("if (")
		unparseExpr(b, s.Cond)
		b.WriteString(") ")
		unparseStmt(b, s.Then)
		if s.Else != nil {
			b.WriteString(" else ")
			unparseStmt(b, s.Else)
		}
	case *WhileStmt:
		b.WriteString("while (")
		unparseExpr(b, s.Cond)
		b.WriteString(") ")
		unparseStmt(b, s.Body)
	case *ForStmt:
		b.WriteString("for (")
		if s.Init != nil {
			unparseStmt(b, s.Init)
		} else {
			b.WriteByte(';')
		}
		if s.Cond != nil {
			unparseExpr(b, s.Cond)
		}
		b.WriteString("; ")
		if s.Incr != nil {
			unparseExpr(b, s.Incr)
		}
		b.WriteString(") ")
		unparseStmt(b, s.Body)
	case *ReturnStmt:
		b.WriteString("return")
		if s.Value != nil {
			b.WriteByte(' ')
			unparseExpr(b, s.Value)
		}
		b.WriteByte(';')
	}
}

func unparseExprs(b *strings.Builder, list []Expr) {
	for i, e := range list {
		if i > 0 {
			b.WriteString(", ")
		}
		unparseExpr(b, e)
	}
}

func unparseExpr(b *strings.Builder, e Expr) {
	var spine []Expr
	for next := unparseOpen(b, e); next != nil; next = unparseOpen(b, e) {
		spine = append(spine, e)
		e = next
	}
	for i := len(spine) - 1; i >= 0; i-- {
		unparseClose(b, spine[i])
	}
}

// unparseOpen writes what precedes e's first child and returns that child,
// or writes all of a node without one and returns nil.
func unparseOpen(b *strings.Builder, e Expr) Expr {
	switch e := e.(type) {
	case *LiteralExpr:
		switch v := e.Value.(type) {
		case nil:
			b.WriteString("nil")
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case float64:
			if math.IsInf(v, 1) {
				b.WriteString("1" + strings.Repeat("0", 400))
			} else {
				b.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
			}
		case string:
			b.WriteString(`"` + v + `"`)
		}
	case *VariableExpr:
		b.WriteString(e.Name.Lexeme)
	case *AssignExpr:
		b.WriteString(e.Name.Lexeme + " = ")
		return e.Value
	case *LogicalExpr:
		return e.Left
	case *BinaryExpr:
		return e.Left
	case *UnaryExpr:
		b.WriteString(e.Op.Lexeme)
		return e.Right
	case *GroupingExpr:
		b.WriteByte('(')
		return e.Inner
	case *CallExpr:
		return e.Callee
	case *GetExpr:
		return e.Object
	case *SetExpr:
		return e.Object
	case *ThisExpr:
		b.WriteString("this")
	case *SuperExpr:
		b.WriteString("super." + e.Method.Lexeme)
	case *ArrayExpr:
		b.WriteByte('[')
		unparseExprs(b, e.Elements)
		b.WriteByte(']')
	case *IndexExpr:
		return e.Object
	case *IndexSetExpr:
		return e.Object
	}
	return nil
}

// unparseClose writes the rest of e once its first child is written.
func unparseClose(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *LogicalExpr:
		b.WriteString(" " + e.Op.Lexeme + " ")
		unparseExpr(b, e.Right)
	case *BinaryExpr:
		b.WriteString(" " + e.Op.Lexeme + " ")
		unparseExpr(b, e.Right)
	case *GroupingExpr:
		b.WriteByte(')')
	case *CallExpr:
		b.WriteByte('(')
		unparseExprs(b, e.Args)
		b.WriteByte(')')
	case *GetExpr:
		b.WriteString("." + e.Name.Lexeme)
	case *SetExpr:
		b.WriteString("." + e.Name.Lexeme + " = ")
		unparseExpr(b, e.Value)
	case *IndexExpr:
		b.WriteByte('[')
		unparseExpr(b, e.Index)
		b.WriteByte(']')
	case *IndexSetExpr:
		b.WriteByte('[')
		unparseExpr(b, e.Index)
		b.WriteString("] = ")
		unparseExpr(b, e.Value)
	}
}
