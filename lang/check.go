package lang

// The checker reproduces clox's diagnostics exactly. clox compiles in one
// pass and never unwinds after an error: it sets panic mode (which silences
// further reports), keeps parsing as if nothing happened, and, at the end of
// the innermost declaration, skips tokens to a statement boundary. Which
// tokens get skipped, and so which later errors exist at all, depends on
// that exact control flow, including for scope errors: in
//
//	{
//	  class Foo < Foo {}
//	}
//
// the self-inheritance error makes the recovery swallow the block's '}' and
// clox then reports "Expect '}' after block." at the end of the file. No
// recovery scheme over a finished tree can reproduce that, so this file is a
// line-by-line port of the error behaviour of clox's compiler.c over the
// participle token stream: the same functions, the same order of consume and
// match calls, the same scope bookkeeping (without the one-byte operand
// limits, which minivm does not have), and no code generation.
//
// Parse runs the checker first. When it reports nothing, the program is
// valid Lox and the participle grammar builds the tree. The checker also
// bounds nesting (maxDepth), so the recursive grammar and resolver never run
// on input nested deep enough to threaten the stack.

// maxDepth bounds the checker's recursion (expressions, statements and
// function bodies nested in one another). Past it Parse reports
// "Too much nesting." and stops.
const maxDepth = 1000

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

type parseFn func(c *checker, canAssign bool)

type parseRule struct {
	prefix, infix parseFn
	prec          precedence
}

var rules [tWhile + 1]parseRule

func init() {
	rules[tLeftParen] = parseRule{(*checker).grouping, (*checker).call, precCall}
	rules[tLeftBracket] = parseRule{(*checker).array, (*checker).index, precCall}
	rules[tDot] = parseRule{nil, (*checker).dot, precCall}
	rules[tMinus] = parseRule{(*checker).unary, (*checker).binary, precTerm}
	rules[tPlus] = parseRule{nil, (*checker).binary, precTerm}
	rules[tSlash] = parseRule{nil, (*checker).binary, precFactor}
	rules[tStar] = parseRule{nil, (*checker).binary, precFactor}
	rules[tBang] = parseRule{(*checker).unary, nil, precNone}
	rules[tBangEqual] = parseRule{nil, (*checker).binary, precEquality}
	rules[tEqualEqual] = parseRule{nil, (*checker).binary, precEquality}
	rules[tGreater] = parseRule{nil, (*checker).binary, precComparison}
	rules[tGreaterEqual] = parseRule{nil, (*checker).binary, precComparison}
	rules[tLess] = parseRule{nil, (*checker).binary, precComparison}
	rules[tLessEqual] = parseRule{nil, (*checker).binary, precComparison}
	rules[tIdent] = parseRule{(*checker).variable, nil, precNone}
	rules[tString] = parseRule{(*checker).literal, nil, precNone}
	rules[tNumber] = parseRule{(*checker).literal, nil, precNone}
	rules[tAnd] = parseRule{nil, (*checker).and, precAnd}
	rules[tOr] = parseRule{nil, (*checker).or, precOr}
	rules[tFalse] = parseRule{(*checker).literal, nil, precNone}
	rules[tTrue] = parseRule{(*checker).literal, nil, precNone}
	rules[tNil] = parseRule{(*checker).literal, nil, precNone}
	rules[tSuper] = parseRule{(*checker).super, nil, precNone}
	rules[tThis] = parseRule{(*checker).this, nil, precNone}
}

// checkLocal is clox's Local: depth -1 means declared, not yet initialized.
type checkLocal struct {
	name  string
	depth int
}

// checkFunc is clox's Compiler, reduced to what diagnostics need.
type checkFunc struct {
	enclosing  *checkFunc
	kind       FunctionKind
	locals     []checkLocal
	scopeDepth int
	arity      int
}

// checkClass is clox's ClassCompiler.
type checkClass struct {
	enclosing *checkClass
	hasSuper  bool
}

type checker struct {
	toks      []token
	next      int // index of the token after current
	current   token
	previous  token
	panicMode bool
	errs      ErrorList
	fn        *checkFunc
	class     *checkClass
	depth     int
}

// errTooDeep aborts the check when nesting passes maxDepth.
type errTooDeep struct{}

// check runs clox's compile() over toks (which end in tEOF) and returns
// every error clox would print, in order.
func check(toks []token) (errs ErrorList) {
	c := &checker{toks: toks}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(errTooDeep); !ok {
				panic(r)
			}
			errs = c.errs
		}
	}()
	// clox names slot 0 "this" in every frame but plain functions', the
	// script's included.
	c.fn = &checkFunc{kind: KindScript, locals: []checkLocal{{name: "this", depth: 0}}}
	c.advance()
	for !c.match(tEOF) {
		c.declaration()
	}
	return c.errs
}

// ---- error reporting and token plumbing (clox's parser functions) ----

func (c *checker) errorAt(tok token, msg string) {
	if c.panicMode {
		return
	}
	c.panicMode = true
	c.errs = append(c.errs, &Error{Line: tok.line, Where: where(tok), Msg: msg})
}

func (c *checker) error(msg string)          { c.errorAt(c.previous, msg) }
func (c *checker) errorAtCurrent(msg string) { c.errorAt(c.current, msg) }

func (c *checker) advance() {
	c.previous = c.current
	for {
		c.current = c.toks[c.next]
		if c.next < len(c.toks)-1 {
			c.next++
		}
		if c.current.kind != tError {
			break
		}
		c.errorAtCurrent(c.current.text)
	}
}

func (c *checker) consume(k tokKind, msg string) {
	if c.current.kind == k {
		c.advance()
		return
	}
	c.errorAtCurrent(msg)
}

func (c *checker) check(k tokKind) bool { return c.current.kind == k }

func (c *checker) match(k tokKind) bool {
	if !c.check(k) {
		return false
	}
	c.advance()
	return true
}

// enter counts one level of nesting and aborts past maxDepth.
func (c *checker) enter() {
	c.depth++
	if c.depth > maxDepth {
		c.errs = append(c.errs, &Error{Line: c.current.line, Where: where(c.current), Msg: "Too much nesting."})
		panic(errTooDeep{})
	}
}

func (c *checker) leave() { c.depth-- }

// ---- scopes ----

func (c *checker) beginScope() { c.fn.scopeDepth++ }

func (c *checker) endScope() {
	f := c.fn
	f.scopeDepth--
	for len(f.locals) > 0 && f.locals[len(f.locals)-1].depth > f.scopeDepth {
		f.locals = f.locals[:len(f.locals)-1]
	}
}

func (c *checker) addLocal(name string) {
	c.fn.locals = append(c.fn.locals, checkLocal{name: name, depth: -1})
}

func (c *checker) declareVariable() {
	f := c.fn
	if f.scopeDepth == 0 {
		return
	}
	name := c.previous.text
	for i := len(f.locals) - 1; i >= 0; i-- {
		l := &f.locals[i]
		if l.depth != -1 && l.depth < f.scopeDepth {
			break
		}
		if l.name == name {
			c.error("Already a variable with this name in this scope.")
		}
	}
	c.addLocal(name)
}

func (c *checker) parseVariable(msg string) {
	c.consume(tIdent, msg)
	c.declareVariable()
}

func (c *checker) markInitialized() {
	f := c.fn
	if f.scopeDepth == 0 {
		return
	}
	f.locals[len(f.locals)-1].depth = f.scopeDepth
}

func (c *checker) defineVariable() { c.markInitialized() }

func (c *checker) resolveLocal(f *checkFunc, name string) int {
	for i := len(f.locals) - 1; i >= 0; i-- {
		if f.locals[i].name == name {
			if f.locals[i].depth == -1 {
				c.error("Can't read local variable in its own initializer.")
			}
			return i
		}
	}
	return -1
}

func (c *checker) resolveUpvalue(f *checkFunc, name string) bool {
	if f.enclosing == nil {
		return false
	}
	if c.resolveLocal(f.enclosing, name) != -1 {
		return true
	}
	return c.resolveUpvalue(f.enclosing, name)
}

func (c *checker) namedVariable(name string, canAssign bool) {
	if c.resolveLocal(c.fn, name) == -1 {
		c.resolveUpvalue(c.fn, name)
	}
	if canAssign && c.match(tEqual) {
		c.expression()
	}
}

// ---- expressions ----

func (c *checker) expression() { c.parsePrecedence(precAssignment) }

func (c *checker) parsePrecedence(p precedence) {
	c.enter()
	defer c.leave()
	c.advance()
	prefix := rules[c.previous.kind].prefix
	if prefix == nil {
		c.error("Expect expression.")
		return
	}
	canAssign := p <= precAssignment
	prefix(c, canAssign)
	for p <= rules[c.current.kind].prec {
		c.advance()
		rules[c.previous.kind].infix(c, canAssign)
	}
	if canAssign && c.match(tEqual) {
		c.error("Invalid assignment target.")
	}
}

func (c *checker) literal(bool) {}

func (c *checker) grouping(bool) {
	c.expression()
	c.consume(tRightParen, "Expect ')' after expression.")
}

func (c *checker) unary(bool) { c.parsePrecedence(precUnary) }

func (c *checker) binary(bool) {
	c.parsePrecedence(rules[c.previous.kind].prec + 1)
}

// and and or parse their right operand one level tighter than clox does
// (clox passes PREC_AND / PREC_OR, nesting a chain to the right). Both
// consume the same tokens in the same order, so the diagnostics are the
// same; this way a long chain of `and`s is a loop, not a recursion.
func (c *checker) and(bool) { c.parsePrecedence(precAnd + 1) }
func (c *checker) or(bool)  { c.parsePrecedence(precOr + 1) }

func (c *checker) variable(canAssign bool) { c.namedVariable(c.previous.text, canAssign) }

func (c *checker) argumentList() {
	n := 0
	if !c.check(tRightParen) {
		for {
			c.expression()
			if n == 255 {
				c.error("Can't have more than 255 arguments.")
			}
			n++
			if !c.match(tComma) {
				break
			}
		}
	}
	c.consume(tRightParen, "Expect ')' after arguments.")
}

func (c *checker) call(bool) { c.argumentList() }

func (c *checker) dot(canAssign bool) {
	c.consume(tIdent, "Expect property name after '.'.")
	if canAssign && c.match(tEqual) {
		c.expression()
	} else if c.match(tLeftParen) {
		c.argumentList()
	}
}

// array and index are minivm's: `[a, b]` and `x[i]`, `x[i] = v`.
func (c *checker) array(bool) {
	if !c.check(tRightBracket) {
		for {
			c.expression()
			if !c.match(tComma) {
				break
			}
		}
	}
	c.consume(tRightBracket, "Expect ']' after array elements.")
}

func (c *checker) index(canAssign bool) {
	c.expression()
	c.consume(tRightBracket, "Expect ']' after index.")
	if canAssign && c.match(tEqual) {
		c.expression()
	}
}

func (c *checker) this(bool) {
	if c.class == nil {
		c.error("Can't use 'this' outside of a class.")
		return
	}
	c.variable(false)
}

func (c *checker) super(bool) {
	if c.class == nil {
		c.error("Can't use 'super' outside of a class.")
	} else if !c.class.hasSuper {
		c.error("Can't use 'super' in a class with no superclass.")
	}
	c.consume(tDot, "Expect '.' after 'super'.")
	c.consume(tIdent, "Expect superclass method name.")
	c.namedVariable("this", false)
	if c.match(tLeftParen) {
		c.argumentList()
	}
	c.namedVariable("super", false)
}

// ---- declarations and statements ----

func (c *checker) function(kind FunctionKind) {
	c.enter()
	defer c.leave()
	f := &checkFunc{enclosing: c.fn, kind: kind}
	slot0 := ""
	if kind != KindFunction {
		slot0 = "this"
	}
	f.locals = append(f.locals, checkLocal{name: slot0, depth: 0})
	c.fn = f
	c.beginScope()
	c.consume(tLeftParen, "Expect '(' after function name.")
	if !c.check(tRightParen) {
		for {
			f.arity++
			if f.arity > 255 {
				c.errorAtCurrent("Can't have more than 255 parameters.")
			}
			c.parseVariable("Expect parameter name.")
			c.defineVariable()
			if !c.match(tComma) {
				break
			}
		}
	}
	c.consume(tRightParen, "Expect ')' after parameters.")
	c.consume(tLeftBrace, "Expect '{' before function body.")
	c.block()
	c.fn = f.enclosing
}

func (c *checker) method() {
	c.consume(tIdent, "Expect method name.")
	kind := KindMethod
	if c.previous.text == "init" {
		kind = KindInitializer
	}
	c.function(kind)
}

func (c *checker) classDeclaration() {
	c.consume(tIdent, "Expect class name.")
	className := c.previous.text
	c.declareVariable()
	c.defineVariable()

	cc := &checkClass{enclosing: c.class}
	c.class = cc
	if c.match(tLess) {
		c.consume(tIdent, "Expect superclass name.")
		c.variable(false)
		if className == c.previous.text {
			c.error("A class can't inherit from itself.")
		}
		c.beginScope()
		c.addLocal("super")
		c.defineVariable()
		c.namedVariable(className, false)
		cc.hasSuper = true
	}
	c.namedVariable(className, false)
	c.consume(tLeftBrace, "Expect '{' before class body.")
	for !c.check(tRightBrace) && !c.check(tEOF) {
		c.method()
	}
	c.consume(tRightBrace, "Expect '}' after class body.")
	if cc.hasSuper {
		c.endScope()
	}
	c.class = cc.enclosing
}

func (c *checker) funDeclaration() {
	c.parseVariable("Expect function name.")
	c.markInitialized()
	c.function(KindFunction)
	c.defineVariable()
}

func (c *checker) varDeclaration() {
	c.parseVariable("Expect variable name.")
	if c.match(tEqual) {
		c.expression()
	}
	c.consume(tSemicolon, "Expect ';' after variable declaration.")
	c.defineVariable()
}

func (c *checker) expressionStatement() {
	c.expression()
	c.consume(tSemicolon, "Expect ';' after expression.")
}

func (c *checker) forStatement() {
	c.beginScope()
	c.consume(tLeftParen, "Expect '(' after 'for'.")
	if c.match(tSemicolon) {
		// no initializer
	} else if c.match(tVar) {
		c.varDeclaration()
	} else {
		c.expressionStatement()
	}
	if !c.match(tSemicolon) {
		c.expression()
		c.consume(tSemicolon, "Expect ';' after loop condition.")
	}
	if !c.match(tRightParen) {
		c.expression()
		c.consume(tRightParen, "Expect ')' after for clauses.")
	}
	c.statement()
	c.endScope()
}

func (c *checker) ifStatement() {
	c.consume(tLeftParen, "Expect '(' after 'if'.")
	c.expression()
	c.consume(tRightParen, "Expect ')' after condition.")
	c.statement()
	if c.match(tElse) {
		c.statement()
	}
}

func (c *checker) printStatement() {
	c.expression()
	c.consume(tSemicolon, "Expect ';' after value.")
}

func (c *checker) returnStatement() {
	if c.fn.kind == KindScript {
		c.error("Can't return from top-level code.")
	}
	if c.match(tSemicolon) {
		return
	}
	if c.fn.kind == KindInitializer {
		c.error("Can't return a value from an initializer.")
	}
	c.expression()
	c.consume(tSemicolon, "Expect ';' after return value.")
}

func (c *checker) whileStatement() {
	c.consume(tLeftParen, "Expect '(' after 'while'.")
	c.expression()
	c.consume(tRightParen, "Expect ')' after condition.")
	c.statement()
}

func (c *checker) synchronize() {
	c.panicMode = false
	for c.current.kind != tEOF {
		if c.previous.kind == tSemicolon {
			return
		}
		switch c.current.kind {
		case tClass, tFun, tVar, tFor, tIf, tWhile, tPrint, tReturn:
			return
		}
		c.advance()
	}
}

func (c *checker) declaration() {
	switch {
	case c.match(tClass):
		c.classDeclaration()
	case c.match(tFun):
		c.funDeclaration()
	case c.match(tVar):
		c.varDeclaration()
	default:
		c.statement()
	}
	if c.panicMode {
		c.synchronize()
	}
}

func (c *checker) statement() {
	c.enter()
	defer c.leave()
	switch {
	case c.match(tPrint):
		c.printStatement()
	case c.match(tFor):
		c.forStatement()
	case c.match(tIf):
		c.ifStatement()
	case c.match(tReturn):
		c.returnStatement()
	case c.match(tWhile):
		c.whileStatement()
	case c.match(tLeftBrace):
		c.beginScope()
		c.block()
		c.endScope()
	default:
		c.expressionStatement()
	}
}

func (c *checker) block() {
	for !c.check(tRightBrace) && !c.check(tEOF) {
		c.declaration()
	}
	c.consume(tRightBrace, "Expect '}' after block.")
}
