package lang

import (
	"strconv"

	"github.com/alecthomas/participle/v2/lexer"
)

// build converts the participle syntax tree into the AST. The grammar
// accepts any Or-expression left of '=', so build checks assignment targets
// (the checker has already rejected bad ones; this is a second line).

// maxParams is Lox's limit on parameters and arguments (a language rule,
// kept from clox although minivm's operands could take more).
const maxParams = 255

type builder struct {
	errs ErrorList
}

func tok(t lexer.Token) Token { return Token{Lexeme: t.Value, Line: t.Pos.Line} }

func (b *builder) program(g *gProgram) *Program {
	p := &Program{}
	for _, d := range g.Decls {
		p.Stmts = append(p.Stmts, b.decl(d))
	}
	return p
}

func (b *builder) decl(d *gDecl) Stmt {
	switch {
	case d.Class != nil:
		c := &ClassStmt{Name: tok(d.Class.Name)}
		if d.Class.Super != nil {
			c.Superclass = &VariableExpr{Name: tok(*d.Class.Super)}
		}
		for _, m := range d.Class.Methods {
			kind := KindMethod
			if m.Name.Value == "init" {
				kind = KindInitializer
			}
			c.Methods = append(c.Methods, b.function(m, kind))
		}
		return c
	case d.Fun != nil:
		return &FunStmt{Func: b.function(d.Fun, KindFunction)}
	case d.Var != nil:
		return b.varStmt(d.Var)
	}
	return b.stmt(&gStmt{Print: d.Print, Block: d.Block, If: d.If, While: d.While, For: d.For, Return: d.Return, Expr: d.Expr})
}

func (b *builder) function(g *gFunction, kind FunctionKind) *Function {
	f := &Function{Name: tok(g.Name), Kind: kind, EndLine: g.Body.End.Pos.Line}
	if len(g.Params) > maxParams {
		p := g.Params[maxParams].Name
		b.errs = append(b.errs, &Error{Line: p.Pos.Line, Where: " at '" + p.Value + "'", Msg: "Can't have more than 255 parameters."})
	}
	for _, p := range g.Params {
		f.Params = append(f.Params, &Local{Name: tok(p.Name)})
	}
	for _, d := range g.Body.Decls {
		f.Body = append(f.Body, b.decl(d))
	}
	return f
}

func (b *builder) varStmt(g *gVar) *VarStmt {
	v := &VarStmt{Name: tok(g.Name)}
	if g.Init != nil {
		v.Init = b.expr(g.Init)
	}
	return v
}

func (b *builder) block(g *gBlock) *BlockStmt {
	blk := &BlockStmt{EndLine: g.End.Pos.Line}
	for _, d := range g.Decls {
		blk.Stmts = append(blk.Stmts, b.decl(d))
	}
	return blk
}

func (b *builder) stmt(s *gStmt) Stmt {
	switch {
	case s.Print != nil:
		return &PrintStmt{X: b.expr(s.Print.X), Line: s.Print.Semi.Pos.Line}
	case s.Block != nil:
		return b.block(s.Block)
	case s.If != nil:
		st := &IfStmt{Cond: b.expr(s.If.Cond), Then: b.stmt(s.If.Then), Line: s.If.Keyword.Pos.Line}
		if s.If.Else != nil {
			st.Else = b.stmt(s.If.Else)
		}
		return st
	case s.While != nil:
		return &WhileStmt{Cond: b.expr(s.While.Cond), Body: b.stmt(s.While.Body), Line: s.While.Keyword.Pos.Line}
	case s.For != nil:
		g := s.For
		st := &ForStmt{Line: g.Keyword.Pos.Line}
		if g.Init != nil {
			if g.Init.Var != nil {
				st.Init = b.varStmt(g.Init.Var)
			} else {
				st.Init = b.exprStmt(g.Init.Expr)
			}
		}
		if g.Cond != nil {
			st.Cond = b.expr(g.Cond)
		}
		if g.Incr != nil {
			st.Incr = b.expr(g.Incr)
		}
		st.Body = b.stmt(g.Body)
		return st
	case s.Return != nil:
		r := &ReturnStmt{Keyword: tok(s.Return.Keyword)}
		if s.Return.Value != nil {
			r.Value = b.expr(s.Return.Value)
		}
		return r
	}
	return b.exprStmt(s.Expr)
}

func (b *builder) exprStmt(g *gExprStmt) *ExprStmt {
	return &ExprStmt{X: b.expr(g.X), Line: g.Semi.Pos.Line}
}

// ---- expressions ----

func (b *builder) expr(g *gExpr) Expr {
	operands := make([]Expr, 0, len(g.Ops)+1)
	ops := make([]Token, 0, len(g.Ops))
	operands = append(operands, b.unary(g.Left))
	for _, op := range g.Ops {
		ops = append(ops, tok(op.Op))
		operands = append(operands, b.unary(op.Right))
	}
	target, _ := fold(operands, ops, 0, precAssignment+1)
	if g.Equals == nil {
		return target
	}
	value := b.expr(g.Value)
	switch t := target.(type) {
	case *VariableExpr:
		return &AssignExpr{Name: t.Name, Value: value}
	case *GetExpr:
		return &SetExpr{Object: t.Object, Name: t.Name, Value: value}
	case *IndexExpr:
		return &IndexSetExpr{Object: t.Object, Bracket: t.Bracket, Index: t.Index, Value: value}
	}
	eq := *g.Equals
	b.errs = append(b.errs, &Error{Line: eq.Pos.Line, Where: " at '='", Msg: "Invalid assignment target."})
	return target
}

// binaryPrec is clox's precedence of each binary operator.
var binaryPrec = map[string]precedence{
	"or": precOr, "and": precAnd,
	"==": precEquality, "!=": precEquality,
	"<": precComparison, "<=": precComparison, ">": precComparison, ">=": precComparison,
	"+": precTerm, "-": precTerm,
	"*": precFactor, "/": precFactor,
}

// fold builds the tree of operands[i:] joined by ops[i:] (ops[k] sits
// between operands[k] and operands[k+1]) by precedence climbing, taking
// operators of precedence >= min; all are left-associative. It returns the
// tree and the index of the first operand not consumed. The recursion is
// at most one level per precedence level.
func fold(operands []Expr, ops []Token, i int, min precedence) (Expr, int) {
	left := operands[i]
	i++
	for i-1 < len(ops) {
		op := ops[i-1]
		p := binaryPrec[op.Lexeme]
		if p < min {
			break
		}
		var right Expr
		right, i = fold(operands, ops, i, p+1)
		if p <= precAnd {
			left = &LogicalExpr{Op: op, Left: left, Right: right}
		} else {
			left = &BinaryExpr{Op: op, Left: left, Right: right}
		}
	}
	return left, i
}

func (b *builder) unary(g *gUnary) Expr {
	if g.Op != nil {
		return &UnaryExpr{Op: tok(*g.Op), Right: b.unary(g.Right)}
	}
	return b.call(g.Call)
}

func (b *builder) call(g *gCall) Expr {
	x := b.primary(g.Primary)
	for _, s := range g.Suffix {
		switch {
		case s.Call != nil:
			c := &CallExpr{Callee: x, Paren: tok(s.Call.Paren)}
			if len(s.Call.Args) > maxParams {
				// clox reports it at the argument's last token; the checker
				// has that, this second line only needs a line.
				b.errs = append(b.errs, &Error{Line: s.Call.Paren.Pos.Line, Where: " at ')'", Msg: "Can't have more than 255 arguments."})
			}
			for _, a := range s.Call.Args {
				c.Args = append(c.Args, b.expr(a))
			}
			x = c
		case s.Property != nil:
			x = &GetExpr{Object: x, Name: tok(*s.Property)}
		default:
			x = &IndexExpr{Object: x, Bracket: tok(s.Index.Bracket), Index: b.expr(s.Index.Index)}
		}
	}
	return x
}

func (b *builder) primary(g *gPrimary) Expr {
	switch {
	case g.Atom != nil:
		t := *g.Atom
		switch {
		case t.Type == symIdent:
			return &VariableExpr{Name: tok(t)}
		case t.Type == symString:
			return &LiteralExpr{Value: t.Value[1 : len(t.Value)-1], Line: t.Pos.Line}
		case t.Type == symNumber:
			n, _ := strconv.ParseFloat(t.Value, 64) // [0-9]+(.[0-9]+)? always parses (huge ones to +Inf, like strtod)
			return &LiteralExpr{Value: n, Line: t.Pos.Line}
		case t.Value == "this":
			return &ThisExpr{Keyword: tok(t)}
		case t.Value == "true":
			return &LiteralExpr{Value: true, Line: t.Pos.Line}
		case t.Value == "false":
			return &LiteralExpr{Value: false, Line: t.Pos.Line}
		}
		return &LiteralExpr{Value: nil, Line: t.Pos.Line}
	case g.Super != nil:
		return &SuperExpr{Keyword: tok(g.Super.Keyword), Method: tok(g.Super.Method)}
	case g.Group != nil:
		return &GroupingExpr{Inner: b.expr(g.Group)}
	}
	a := &ArrayExpr{Bracket: tok(g.Array.Bracket)}
	for _, e := range g.Array.Elements {
		a.Elements = append(a.Elements, b.expr(e))
	}
	return a
}
