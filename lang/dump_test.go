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
	var parts []string
	for _, e := range list {
		parts = append(parts, " "+dumpExpr(e))
	}
	return strings.Join(parts, "")
}

func dumpExpr(e Expr) string {
	switch e := e.(type) {
	case *LiteralExpr:
		switch v := e.Value.(type) {
		case nil:
			return "nil"
		case string:
			return fmt.Sprintf("%q", v)
		default:
			return fmt.Sprint(v)
		}
	case *VariableExpr:
		return bind(e.Name.Lexeme, e.Binding)
	case *AssignExpr:
		return fmt.Sprintf("(= %s %s)", bind(e.Name.Lexeme, e.Binding), dumpExpr(e.Value))
	case *LogicalExpr:
		return fmt.Sprintf("(%s %s %s)", e.Op.Lexeme, dumpExpr(e.Left), dumpExpr(e.Right))
	case *BinaryExpr:
		return fmt.Sprintf("(%s %s %s)", e.Op.Lexeme, dumpExpr(e.Left), dumpExpr(e.Right))
	case *UnaryExpr:
		return fmt.Sprintf("(%s %s)", e.Op.Lexeme, dumpExpr(e.Right))
	case *GroupingExpr:
		return fmt.Sprintf("(group %s)", dumpExpr(e.Inner))
	case *CallExpr:
		return fmt.Sprintf("(call %s%s)", dumpExpr(e.Callee), dumpExprs(e.Args))
	case *GetExpr:
		return fmt.Sprintf("(. %s %s)", dumpExpr(e.Object), e.Name.Lexeme)
	case *SetExpr:
		return fmt.Sprintf("(.= %s %s %s)", dumpExpr(e.Object), e.Name.Lexeme, dumpExpr(e.Value))
	case *ThisExpr:
		return bind("this", e.Binding)
	case *SuperExpr:
		return fmt.Sprintf("(super %s %s %s)", e.Method.Lexeme, bind("this", e.This), bind("super", e.Super))
	case *ArrayExpr:
		return fmt.Sprintf("(array%s)", dumpExprs(e.Elements))
	case *IndexExpr:
		return fmt.Sprintf("(index %s %s)", dumpExpr(e.Object), dumpExpr(e.Index))
	case *IndexSetExpr:
		return fmt.Sprintf("(index= %s %s %s)", dumpExpr(e.Object), dumpExpr(e.Index), dumpExpr(e.Value))
	}
	return fmt.Sprintf("<%T>", e)
}
