package lang

import (
	"fmt"
	"strings"
)

// dump renders a program as S-expressions for shape tests. Variable
// references carry their binding: "a" global, "a:L1" local slot 1, "a:U0"
// upvalue 0; declarations of locals carry their slot, and a '*' when
// captured ("a:L1*").

func dump(p *Program) string {
	var parts []string
	for _, s := range p.Stmts {
		parts = append(parts, dumpStmt(s))
	}
	return strings.Join(parts, " ")
}

func bind(name string, b Binding) string {
	switch b.Kind {
	case BindLocal:
		return fmt.Sprintf("%s:L%d", name, b.Index)
	case BindUpvalue:
		return fmt.Sprintf("%s:U%d", name, b.Index)
	}
	return name
}

func decl(name string, l *Local) string {
	if l == nil {
		return name
	}
	s := fmt.Sprintf("%s:L%d", name, l.Slot)
	if l.Captured {
		s += "*"
	}
	return s
}

func dumpFunc(f *Function) string {
	var params []string
	for _, p := range f.Params {
		params = append(params, decl(p.Name.Lexeme, p))
	}
	var body []string
	for _, s := range f.Body {
		body = append(body, dumpStmt(s))
	}
	var ups []string
	for _, u := range f.Upvalues {
		if u.IsLocal {
			ups = append(ups, fmt.Sprintf("L%d", u.Index))
		} else {
			ups = append(ups, fmt.Sprintf("U%d", u.Index))
		}
	}
	return fmt.Sprintf("(%s (%s) [%s] slots=%d %s)", f.Name.Lexeme, strings.Join(params, " "), strings.Join(ups, " "), f.MaxSlots, strings.Join(body, " "))
}

func dumpStmt(s Stmt) string {
	switch s := s.(type) {
	case *VarStmt:
		if s.Init == nil {
			return fmt.Sprintf("(var %s)", decl(s.Name.Lexeme, s.Local))
		}
		return fmt.Sprintf("(var %s %s)", decl(s.Name.Lexeme, s.Local), dumpExpr(s.Init))
	case *FunStmt:
		return fmt.Sprintf("(fun %s %s)", decl(s.Func.Name.Lexeme, s.Local), dumpFunc(s.Func))
	case *ClassStmt:
		out := "(class " + decl(s.Name.Lexeme, s.Local)
		if s.Superclass != nil {
			out += " < " + bind(s.Superclass.Name.Lexeme, s.Superclass.Binding) + " " + decl("super", s.SuperLocal)
		}
		for _, m := range s.Methods {
			out += " " + dumpFunc(m)
		}
		return out + ")"
	case *ExprStmt:
		return fmt.Sprintf("(expr %s)", dumpExpr(s.X))
	case *PrintStmt:
		return fmt.Sprintf("(print %s)", dumpExpr(s.X))
	case *BlockStmt:
		var parts []string
		for _, x := range s.Stmts {
			parts = append(parts, dumpStmt(x))
		}
		return fmt.Sprintf("(block %s)", strings.Join(parts, " "))
	case *IfStmt:
		if s.Else == nil {
			return fmt.Sprintf("(if %s %s)", dumpExpr(s.Cond), dumpStmt(s.Then))
		}
		return fmt.Sprintf("(if %s %s %s)", dumpExpr(s.Cond), dumpStmt(s.Then), dumpStmt(s.Else))
	case *WhileStmt:
		return fmt.Sprintf("(while %s %s)", dumpExpr(s.Cond), dumpStmt(s.Body))
	case *ForStmt:
		init, cond, incr := "_", "_", "_"
		if s.Init != nil {
			init = dumpStmt(s.Init)
		}
		if s.Cond != nil {
			cond = dumpExpr(s.Cond)
		}
		if s.Incr != nil {
			incr = dumpExpr(s.Incr)
		}
		return fmt.Sprintf("(for %s %s %s %s)", init, cond, incr, dumpStmt(s.Body))
	case *ReturnStmt:
		if s.Value == nil {
			return "(return)"
		}
		return fmt.Sprintf("(return %s)", dumpExpr(s.Value))
	}
	return fmt.Sprintf("<%T>", s)
}

func dumpExprs(list []Expr) string {
	var b strings.Builder
	for _, e := range list {
		b.WriteByte(' ')
		writeExpr(&b, e)
	}
	return b.String()
}

func dumpExpr(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

// writeExpr writes e as an S-expression. Like the resolver it walks the
// left spine with a loop, so a chain of a million operators dumps without a
// deep Go stack.
func writeExpr(b *strings.Builder, e Expr) {
	var spine []Expr
	for next := dumpOpen(b, e); next != nil; next = dumpOpen(b, e) {
		spine = append(spine, e)
		e = next
	}
	for i := len(spine) - 1; i >= 0; i-- {
		dumpClose(b, spine[i])
	}
}

// dumpOpen writes what precedes e's first child and returns that child, or
// writes all of a node without one and returns nil.
func dumpOpen(b *strings.Builder, e Expr) Expr {
	switch e := e.(type) {
	case *LiteralExpr:
		switch v := e.Value.(type) {
		case nil:
			b.WriteString("nil")
		case string:
			fmt.Fprintf(b, "%q", v)
		default:
			fmt.Fprint(b, v)
		}
	case *VariableExpr:
		b.WriteString(bind(e.Name.Lexeme, e.Binding))
	case *AssignExpr:
		fmt.Fprintf(b, "(= %s ", bind(e.Name.Lexeme, e.Binding))
		return e.Value
	case *LogicalExpr:
		fmt.Fprintf(b, "(%s ", e.Op.Lexeme)
		return e.Left
	case *BinaryExpr:
		fmt.Fprintf(b, "(%s ", e.Op.Lexeme)
		return e.Left
	case *UnaryExpr:
		fmt.Fprintf(b, "(%s ", e.Op.Lexeme)
		return e.Right
	case *GroupingExpr:
		b.WriteString("(group ")
		return e.Inner
	case *CallExpr:
		b.WriteString("(call ")
		return e.Callee
	case *GetExpr:
		b.WriteString("(. ")
		return e.Object
	case *SetExpr:
		b.WriteString("(.= ")
		return e.Object
	case *ThisExpr:
		b.WriteString(bind("this", e.Binding))
	case *SuperExpr:
		fmt.Fprintf(b, "(super %s %s %s)", e.Method.Lexeme, bind("this", e.This), bind("super", e.Super))
	case *ArrayExpr:
		b.WriteString("(array")
		b.WriteString(dumpExprs(e.Elements))
		b.WriteByte(')')
	case *IndexExpr:
		b.WriteString("(index ")
		return e.Object
	case *IndexSetExpr:
		b.WriteString("(index= ")
		return e.Object
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
	return nil
}

// dumpClose writes the rest of e once its first child is written.
func dumpClose(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *LogicalExpr:
		b.WriteString(" " + dumpExpr(e.Right))
	case *BinaryExpr:
		b.WriteString(" " + dumpExpr(e.Right))
	case *CallExpr:
		b.WriteString(dumpExprs(e.Args))
	case *GetExpr:
		b.WriteString(" " + e.Name.Lexeme)
	case *SetExpr:
		b.WriteString(" " + e.Name.Lexeme + " " + dumpExpr(e.Value))
	case *IndexExpr:
		b.WriteString(" " + dumpExpr(e.Index))
	case *IndexSetExpr:
		b.WriteString(" " + dumpExpr(e.Index) + " " + dumpExpr(e.Value))
	}
	b.WriteByte(')')
}
