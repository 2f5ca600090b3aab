package lang

import "strconv"

// The parser is a port of clox's one-pass compiler (compiler.c) that builds
// the AST where clox emits bytecode. It reproduces clox's diagnostics
// exactly. clox never unwinds after an error: it sets panic mode (which
// silences further reports), keeps parsing as if nothing happened, and, at
// the end of the innermost declaration, skips tokens to a statement
// boundary. Which tokens get skipped, and so which later errors exist at
// all, depends on that exact control flow, including for scope errors: in
//
//	{
//	  class Foo < Foo {}
//	}
//
// the self-inheritance error makes the recovery swallow the block's '}' and
// clox then reports "Expect '}' after block." at the end of the file. So
// this file keeps clox's functions, the same order of consume and match
// calls and the same scope bookkeeping (without the one-byte operand
// limits, which minivm does not have). Nodes are built all along; once an
// error is reported the tree is incomplete and Parse drops it.
//
// Chains the Pratt loop builds (a + b + c, a or b or c, a.x.y, f()(), x[i][j])
// are built by iteration: the tree is deep on its left, but no Go stack
// grows with it. Whatever the parser builds by recursion (parentheses,
// unary operators, assignments, the right operand of an operator, nested
// statements, blocks and functions) passes through enter, and maxDepth
// bounds it.

// maxDepth bounds the parser's recursion: every parsePrecedence, statement
// and function call counts one level. Past it Parse reports "Too much
// nesting." and stops.
//
// Every other recursive walk over the AST is bounded by the same number,
// because it recurses only where the parser did:
//   - the resolver (resolve.go), the bytecode compiler and the field
//     discovery walk (interp/compile.go) and the tests' printers walk the
//     left spine of an expression (the operand, callee or object evaluated
//     first: Binary, Logical, Call, Get, Set, Index, IndexSet, Unary,
//     Grouping, Assign) with a loop, and recurse only into the other
//     children (right operands, arguments, indexes, assigned values, array
//     elements), each of which the parser built with its own
//     parsePrecedence call;
//   - they recurse into statements and function bodies only where
//     statement and function did, and the resolver's upvalue search once
//     per enclosing function;
//   - none walks a subtree twice: the compiler learns each expression's
//     end line (where clox emits the instruction that consumes it) from
//     compiling it, so a chain of nested unary operators or assignments
//     costs linear time, not quadratic.
const maxDepth = 1000

// maxParams is Lox's limit on parameters and arguments (a language rule,
// kept from clox although minivm's operands could take more).
const maxParams = 255

type precedence uint8

const (
	precNone precedence = iota
	precAssignment
	precOr
	precAnd
	precEquality
	precComparison
	precTerm
	precFactor
	precUnary
	precCall
	precPrimary
)

type (
	prefixFn func(p *parser, canAssign bool) Expr
	infixFn  func(p *parser, canAssign bool, left Expr) Expr
)

type parseRule struct {
	prefix prefixFn
	infix  infixFn
	prec   precedence
}

var rules [tWhile + 1]parseRule

func init() {
	rules[tLeftParen] = parseRule{(*parser).grouping, (*parser).call, precCall}
	rules[tLeftBracket] = parseRule{(*parser).array, (*parser).index, precCall}
	rules[tDot] = parseRule{nil, (*parser).dot, precCall}
	rules[tMinus] = parseRule{(*parser).unary, (*parser).binary, precTerm}
	rules[tPlus] = parseRule{nil, (*parser).binary, precTerm}
	rules[tSlash] = parseRule{nil, (*parser).binary, precFactor}
	rules[tStar] = parseRule{nil, (*parser).binary, precFactor}
	rules[tBang] = parseRule{(*parser).unary, nil, precNone}
	rules[tBangEqual] = parseRule{nil, (*parser).binary, precEquality}
	rules[tEqualEqual] = parseRule{nil, (*parser).binary, precEquality}
	rules[tGreater] = parseRule{nil, (*parser).binary, precComparison}
	rules[tGreaterEqual] = parseRule{nil, (*parser).binary, precComparison}
	rules[tLess] = parseRule{nil, (*parser).binary, precComparison}
	rules[tLessEqual] = parseRule{nil, (*parser).binary, precComparison}
	rules[tIdent] = parseRule{(*parser).variable, nil, precNone}
	rules[tString] = parseRule{(*parser).literal, nil, precNone}
	rules[tNumber] = parseRule{(*parser).literal, nil, precNone}
	rules[tAnd] = parseRule{nil, (*parser).and, precAnd}
	rules[tOr] = parseRule{nil, (*parser).or, precOr}
	rules[tFalse] = parseRule{(*parser).literal, nil, precNone}
	rules[tTrue] = parseRule{(*parser).literal, nil, precNone}
	rules[tNil] = parseRule{(*parser).literal, nil, precNone}
	rules[tSuper] = parseRule{(*parser).super, nil, precNone}
	rules[tThis] = parseRule{(*parser).this, nil, precNone}
}

// checkFunc is clox's Compiler, reduced to what diagnostics need; its
// locals are clox's Locals.
type checkFunc struct {
	enclosing  *checkFunc
	kind       FunctionKind
	locals     localStack[struct{}]
	scopeDepth int
	arity      int
}

// checkClass is clox's ClassCompiler.
type checkClass struct {
	enclosing *checkClass
	hasSuper  bool
}

type parser struct {
	sc        scanner
	current   token
	previous  token
	panicMode bool
	errs      ErrorList
	fn        *checkFunc
	class     *checkClass
	depth     int
}

// errTooDeep aborts the parse when nesting passes maxDepth.
type errTooDeep struct{}

// parse runs clox's compile() over src. It returns the tree and every
// error clox would print, in order; with errors the tree is partial.
func parse(src string) (prog *Program, errs ErrorList) {
	p := &parser{sc: newScanner(src)}
	prog = &Program{}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(errTooDeep); !ok {
				panic(r)
			}
			errs = p.errs
		}
	}()
	// clox names slot 0 "this" in every frame but plain functions', the
	// script's included.
	p.fn = &checkFunc{kind: KindScript}
	p.fn.locals.push("this", 0, struct{}{})
	p.advance()
	for !p.match(tEOF) {
		prog.Stmts = append(prog.Stmts, p.declaration())
	}
	return prog, p.errs
}

// ---- error reporting and token plumbing (clox's parser functions) ----

func (p *parser) errorAt(tok token, msg string) {
	if p.panicMode {
		return
	}
	p.panicMode = true
	p.errs = append(p.errs, &Error{Line: tok.line, Where: where(tok), Msg: msg})
}

func (p *parser) error(msg string)          { p.errorAt(p.previous, msg) }
func (p *parser) errorAtCurrent(msg string) { p.errorAt(p.current, msg) }

func (p *parser) advance() {
	p.previous = p.current
	for {
		p.current = p.sc.next()
		if p.current.kind != tError {
			break
		}
		p.errorAtCurrent(p.current.text)
	}
}

func (p *parser) consume(k tokKind, msg string) {
	if p.current.kind == k {
		p.advance()
		return
	}
	p.errorAtCurrent(msg)
}

func (p *parser) check(k tokKind) bool { return p.current.kind == k }

func (p *parser) match(k tokKind) bool {
	if !p.check(k) {
		return false
	}
	p.advance()
	return true
}

// enter counts one level of nesting and aborts past maxDepth; the caller
// calls leave when it returns.
func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.errs = append(p.errs, &Error{Line: p.current.line, Where: where(p.current), Msg: "Too much nesting."})
		panic(errTooDeep{})
	}
}

func (p *parser) leave() { p.depth-- }

func tokenOf(t token) Token { return Token{Lexeme: t.text, Line: t.line} }

// ---- scopes ----

func (p *parser) beginScope() { p.fn.scopeDepth++ }

func (p *parser) endScope() {
	f := p.fn
	f.scopeDepth--
	f.locals.popDeeper(f.scopeDepth)
}

func (p *parser) addLocal(name string) {
	p.fn.locals.push(name, -1, struct{}{})
}

func (p *parser) declareVariable() {
	f := p.fn
	if f.scopeDepth == 0 {
		return
	}
	name := p.previous.text
	if i := f.locals.find(name); i >= 0 && f.locals.inScope(i, f.scopeDepth) {
		p.error("Already a variable with this name in this scope.")
	}
	p.addLocal(name)
}

// parseVariable consumes a variable's name, declares it and returns it.
func (p *parser) parseVariable(msg string) Token {
	p.consume(tIdent, msg)
	p.declareVariable()
	return tokenOf(p.previous)
}

func (p *parser) markInitialized() {
	f := p.fn
	if f.scopeDepth == 0 {
		return
	}
	f.locals.last().depth = f.scopeDepth
}

func (p *parser) defineVariable() { p.markInitialized() }

func (p *parser) resolveLocal(f *checkFunc, name string) int {
	i := f.locals.find(name)
	if i >= 0 && f.locals.at(i).depth == -1 {
		p.error("Can't read local variable in its own initializer.")
	}
	return i
}

func (p *parser) resolveUpvalue(f *checkFunc, name string) bool {
	for ; f.enclosing != nil; f = f.enclosing {
		if p.resolveLocal(f.enclosing, name) != -1 {
			return true
		}
	}
	return false
}

// namedVariable is clox's: it looks name up (for the diagnostics) and
// parses an assignment to it when one may follow.
func (p *parser) namedVariable(name token, canAssign bool) Expr {
	if p.resolveLocal(p.fn, name.text) == -1 {
		p.resolveUpvalue(p.fn, name.text)
	}
	if canAssign && p.match(tEqual) {
		return &AssignExpr{Name: tokenOf(name), Value: p.expression()}
	}
	return &VariableExpr{Name: tokenOf(name)}
}

// ---- expressions ----

func (p *parser) expression() Expr { return p.parsePrecedence(precAssignment) }

func (p *parser) parsePrecedence(prec precedence) Expr {
	p.enter()
	p.advance()
	prefix := rules[p.previous.kind].prefix
	if prefix == nil {
		p.error("Expect expression.")
		p.leave()
		return &LiteralExpr{Line: p.previous.line}
	}
	canAssign := prec <= precAssignment
	x := prefix(p, canAssign)
	for prec <= rules[p.current.kind].prec {
		p.advance()
		x = rules[p.previous.kind].infix(p, canAssign, x)
	}
	if canAssign && p.match(tEqual) {
		p.error("Invalid assignment target.")
	}
	p.leave()
	return x
}

func (p *parser) literal(bool) Expr {
	t := p.previous
	var v any
	switch t.kind {
	case tNumber:
		// [0-9]+(.[0-9]+)? always parses (huge ones to +Inf, like strtod).
		v, _ = strconv.ParseFloat(t.text, 64)
	case tString:
		v = t.text[1 : len(t.text)-1]
	case tTrue:
		v = true
	case tFalse:
		v = false
	}
	return &LiteralExpr{Value: v, Line: t.line}
}

func (p *parser) grouping(bool) Expr {
	x := p.expression()
	p.consume(tRightParen, "Expect ')' after expression.")
	return &GroupingExpr{Inner: x}
}

func (p *parser) unary(bool) Expr {
	op := tokenOf(p.previous)
	return &UnaryExpr{Op: op, Right: p.parsePrecedence(precUnary)}
}

func (p *parser) binary(_ bool, left Expr) Expr {
	op := p.previous
	right := p.parsePrecedence(rules[op.kind].prec + 1)
	return &BinaryExpr{Op: tokenOf(op), Left: left, Right: right}
}

// and and or parse their right operand one level tighter than clox does
// (clox passes PREC_AND / PREC_OR, nesting a chain to the right). Both
// consume the same tokens in the same order, so the diagnostics are the
// same; this way a long chain of `and`s is a loop, not a recursion, and
// its tree leans left like the other operators'.
func (p *parser) and(_ bool, left Expr) Expr {
	op := tokenOf(p.previous)
	return &LogicalExpr{Op: op, Left: left, Right: p.parsePrecedence(precAnd + 1)}
}

func (p *parser) or(_ bool, left Expr) Expr {
	op := tokenOf(p.previous)
	return &LogicalExpr{Op: op, Left: left, Right: p.parsePrecedence(precOr + 1)}
}

func (p *parser) variable(canAssign bool) Expr { return p.namedVariable(p.previous, canAssign) }

// argumentList parses the arguments and the closing parenthesis.
func (p *parser) argumentList() []Expr {
	var args []Expr
	if !p.check(tRightParen) {
		for {
			args = append(args, p.expression())
			if len(args) == maxParams+1 {
				p.error("Can't have more than 255 arguments.")
			}
			if !p.match(tComma) {
				break
			}
		}
	}
	p.consume(tRightParen, "Expect ')' after arguments.")
	return args
}

func (p *parser) call(_ bool, left Expr) Expr {
	args := p.argumentList()
	return &CallExpr{Callee: left, Paren: tokenOf(p.previous), Args: args}
}

func (p *parser) dot(canAssign bool, left Expr) Expr {
	p.consume(tIdent, "Expect property name after '.'.")
	name := tokenOf(p.previous)
	if canAssign && p.match(tEqual) {
		return &SetExpr{Object: left, Name: name, Value: p.expression()}
	} else if p.match(tLeftParen) {
		args := p.argumentList()
		return &CallExpr{Callee: &GetExpr{Object: left, Name: name}, Paren: tokenOf(p.previous), Args: args}
	}
	return &GetExpr{Object: left, Name: name}
}

// array and index are minivm's: `[a, b]` and `x[i]`, `x[i] = v`.
func (p *parser) array(bool) Expr {
	a := &ArrayExpr{Bracket: tokenOf(p.previous)}
	if !p.check(tRightBracket) {
		for {
			a.Elements = append(a.Elements, p.expression())
			if !p.match(tComma) {
				break
			}
		}
	}
	p.consume(tRightBracket, "Expect ']' after array elements.")
	return a
}

func (p *parser) index(canAssign bool, left Expr) Expr {
	i := p.expression()
	p.consume(tRightBracket, "Expect ']' after index.")
	bracket := tokenOf(p.previous)
	if canAssign && p.match(tEqual) {
		return &IndexSetExpr{Object: left, Bracket: bracket, Index: i, Value: p.expression()}
	}
	return &IndexExpr{Object: left, Bracket: bracket, Index: i}
}

func (p *parser) this(bool) Expr {
	kw := tokenOf(p.previous)
	if p.class == nil {
		p.error("Can't use 'this' outside of a class.")
	} else {
		p.variable(false)
	}
	return &ThisExpr{Keyword: kw}
}

func (p *parser) super(bool) Expr {
	kw := p.previous
	if p.class == nil {
		p.error("Can't use 'super' outside of a class.")
	} else if !p.class.hasSuper {
		p.error("Can't use 'super' in a class with no superclass.")
	}
	p.consume(tDot, "Expect '.' after 'super'.")
	p.consume(tIdent, "Expect superclass method name.")
	sup := &SuperExpr{Keyword: tokenOf(kw), Method: tokenOf(p.previous)}
	p.namedVariable(token{text: "this", line: kw.line}, false)
	var x Expr = sup
	if p.match(tLeftParen) {
		args := p.argumentList()
		x = &CallExpr{Callee: sup, Paren: tokenOf(p.previous), Args: args}
	}
	p.namedVariable(token{text: "super", line: kw.line}, false)
	return x
}

// ---- declarations and statements ----

func (p *parser) function(kind FunctionKind, name Token) *Function {
	p.enter()
	fn := &Function{Name: name, Kind: kind}
	f := &checkFunc{enclosing: p.fn, kind: kind}
	slot0 := ""
	if kind != KindFunction {
		slot0 = "this"
	}
	f.locals.push(slot0, 0, struct{}{})
	p.fn = f
	p.beginScope()
	p.consume(tLeftParen, "Expect '(' after function name.")
	if !p.check(tRightParen) {
		for {
			f.arity++
			if f.arity > maxParams {
				p.errorAtCurrent("Can't have more than 255 parameters.")
			}
			fn.Params = append(fn.Params, &Local{Name: p.parseVariable("Expect parameter name.")})
			p.defineVariable()
			if !p.match(tComma) {
				break
			}
		}
	}
	p.consume(tRightParen, "Expect ')' after parameters.")
	p.consume(tLeftBrace, "Expect '{' before function body.")
	fn.Body, fn.EndLine = p.block()
	p.fn = f.enclosing
	p.leave()
	return fn
}

func (p *parser) method() *Function {
	p.consume(tIdent, "Expect method name.")
	kind := KindMethod
	if p.previous.text == "init" {
		kind = KindInitializer
	}
	return p.function(kind, tokenOf(p.previous))
}

func (p *parser) classDeclaration() Stmt {
	p.consume(tIdent, "Expect class name.")
	className := p.previous
	s := &ClassStmt{Name: tokenOf(className)}
	p.declareVariable()
	p.defineVariable()

	cc := &checkClass{enclosing: p.class}
	p.class = cc
	if p.match(tLess) {
		p.consume(tIdent, "Expect superclass name.")
		s.Superclass = &VariableExpr{Name: tokenOf(p.previous)}
		p.variable(false)
		if className.text == p.previous.text {
			p.error("A class can't inherit from itself.")
		}
		p.beginScope()
		p.addLocal("super")
		p.defineVariable()
		p.namedVariable(className, false)
		cc.hasSuper = true
	}
	p.namedVariable(className, false)
	p.consume(tLeftBrace, "Expect '{' before class body.")
	for !p.check(tRightBrace) && !p.check(tEOF) {
		s.Methods = append(s.Methods, p.method())
	}
	p.consume(tRightBrace, "Expect '}' after class body.")
	if cc.hasSuper {
		p.endScope()
	}
	p.class = cc.enclosing
	return s
}

func (p *parser) funDeclaration() Stmt {
	name := p.parseVariable("Expect function name.")
	p.markInitialized()
	s := &FunStmt{Func: p.function(KindFunction, name)}
	p.defineVariable()
	return s
}

func (p *parser) varDeclaration() *VarStmt {
	s := &VarStmt{Name: p.parseVariable("Expect variable name.")}
	if p.match(tEqual) {
		s.Init = p.expression()
	}
	p.consume(tSemicolon, "Expect ';' after variable declaration.")
	p.defineVariable()
	return s
}

func (p *parser) expressionStatement() *ExprStmt {
	x := p.expression()
	p.consume(tSemicolon, "Expect ';' after expression.")
	return &ExprStmt{X: x, Line: p.previous.line}
}

func (p *parser) forStatement() Stmt {
	s := &ForStmt{Line: p.previous.line}
	p.beginScope()
	p.consume(tLeftParen, "Expect '(' after 'for'.")
	if p.match(tSemicolon) {
		// no initializer
	} else if p.match(tVar) {
		s.Init = p.varDeclaration()
	} else {
		s.Init = p.expressionStatement()
	}
	if !p.match(tSemicolon) {
		s.Cond = p.expression()
		p.consume(tSemicolon, "Expect ';' after loop condition.")
	}
	if !p.match(tRightParen) {
		s.Incr = p.expression()
		p.consume(tRightParen, "Expect ')' after for clauses.")
	}
	s.Body = p.statement()
	p.endScope()
	return s
}

func (p *parser) ifStatement() Stmt {
	s := &IfStmt{Line: p.previous.line}
	p.consume(tLeftParen, "Expect '(' after 'if'.")
	s.Cond = p.expression()
	p.consume(tRightParen, "Expect ')' after condition.")
	s.Then = p.statement()
	if p.match(tElse) {
		s.Else = p.statement()
	}
	return s
}

func (p *parser) printStatement() Stmt {
	x := p.expression()
	p.consume(tSemicolon, "Expect ';' after value.")
	return &PrintStmt{X: x, Line: p.previous.line}
}

func (p *parser) returnStatement() Stmt {
	s := &ReturnStmt{Keyword: tokenOf(p.previous)}
	if p.fn.kind == KindScript {
		p.error("Can't return from top-level code.")
	}
	if p.match(tSemicolon) {
		return s
	}
	if p.fn.kind == KindInitializer {
		p.error("Can't return a value from an initializer.")
	}
	s.Value = p.expression()
	p.consume(tSemicolon, "Expect ';' after return value.")
	return s
}

func (p *parser) whileStatement() Stmt {
	s := &WhileStmt{Line: p.previous.line}
	p.consume(tLeftParen, "Expect '(' after 'while'.")
	s.Cond = p.expression()
	p.consume(tRightParen, "Expect ')' after condition.")
	s.Body = p.statement()
	return s
}

func (p *parser) synchronize() {
	p.panicMode = false
	for p.current.kind != tEOF {
		if p.previous.kind == tSemicolon {
			return
		}
		switch p.current.kind {
		case tClass, tFun, tVar, tFor, tIf, tWhile, tPrint, tReturn:
			return
		}
		p.advance()
	}
}

func (p *parser) declaration() Stmt {
	var s Stmt
	switch {
	case p.match(tClass):
		s = p.classDeclaration()
	case p.match(tFun):
		s = p.funDeclaration()
	case p.match(tVar):
		s = p.varDeclaration()
	default:
		s = p.statement()
	}
	if p.panicMode {
		p.synchronize()
	}
	return s
}

func (p *parser) statement() Stmt {
	p.enter()
	var s Stmt
	switch {
	case p.match(tPrint):
		s = p.printStatement()
	case p.match(tFor):
		s = p.forStatement()
	case p.match(tIf):
		s = p.ifStatement()
	case p.match(tReturn):
		s = p.returnStatement()
	case p.match(tWhile):
		s = p.whileStatement()
	case p.match(tLeftBrace):
		p.beginScope()
		b := &BlockStmt{}
		b.Stmts, b.EndLine = p.block()
		p.endScope()
		s = b
	default:
		s = p.expressionStatement()
	}
	p.leave()
	return s
}

// block parses declarations up to the closing brace and returns them with
// the brace's line.
func (p *parser) block() ([]Stmt, int) {
	var list []Stmt
	for !p.check(tRightBrace) && !p.check(tEOF) {
		list = append(list, p.declaration())
	}
	p.consume(tRightBrace, "Expect '}' after block.")
	return list, p.previous.line
}
