package lang

// The resolver walks the AST in clox's compile order and records where each
// variable lives: a slot of the current frame, an upvalue of the current
// closure, or a global (everything declared at scope depth 0 of the
// script). It keeps clox's bookkeeping exactly: slot 0 of every frame holds
// the callee ("this" in methods and initializers, unnamed otherwise),
// parameters take slots 1..n, a local's slot is its index in the frame's
// local stack, and a block's slots are reused once it ends. Upvalues are
// added with clox's addUpvalue dedup, in the order clox's one-pass compiler
// meets the references.
//
// The static rules are checked here too, as a second line behind the
// parser (which reports them clox-exactly); on valid programs the resolver
// finds nothing.

type resolveFunc struct {
	enclosing  *resolveFunc
	kind       FunctionKind
	locals     localStack[*Local] // the *Local is nil for slot 0
	scopeDepth int
	maxSlots   int
	upvalues   []UpvalueRef
	upvalueIdx map[UpvalueRef]int // index of each in upvalues
}

type resolveClass struct {
	enclosing *resolveClass
	hasSuper  bool
}

type resolver struct {
	fn    *resolveFunc
	class *resolveClass
	errs  ErrorList
	spine []Expr // expressions whose first child is being resolved (expr)
}

// resolve annotates prog in place.
func resolve(prog *Program) ErrorList {
	r := &resolver{}
	r.fn = newResolveFunc(nil, KindScript)
	for _, s := range prog.Stmts {
		r.stmt(s)
	}
	prog.MaxSlots = r.fn.maxSlots
	return r.errs
}

func newResolveFunc(enclosing *resolveFunc, kind FunctionKind) *resolveFunc {
	slot0 := "this" // as in clox, the script's slot 0 too (only reachable in code with errors)
	if kind == KindFunction {
		slot0 = ""
	}
	f := &resolveFunc{enclosing: enclosing, kind: kind, maxSlots: 1}
	f.locals.push(slot0, 0, nil)
	return f
}

func (r *resolver) error(t Token, msg string) {
	r.errs = append(r.errs, &Error{Line: t.Line, Where: " at '" + t.Lexeme + "'", Msg: msg})
}

// ---- scopes ----

func (r *resolver) beginScope() { r.fn.scopeDepth++ }

// endScope pops the scope's locals and returns them in declaration order.
func (r *resolver) endScope() []*Local {
	f := r.fn
	f.scopeDepth--
	var out []*Local
	for _, l := range f.locals.popDeeper(f.scopeDepth) {
		out = append(out, l.data)
	}
	return out
}

// declare adds a local named name (still uninitialized) to the current
// scope, or returns nil at global scope.
func (r *resolver) declare(name Token) *Local {
	f := r.fn
	if f.scopeDepth == 0 {
		return nil
	}
	if i := f.locals.find(name.Lexeme); i >= 0 && f.locals.inScope(i, f.scopeDepth) {
		r.error(name, "Already a variable with this name in this scope.")
	}
	return r.addLocal(name)
}

func (r *resolver) addLocal(name Token) *Local {
	f := r.fn
	l := &Local{Name: name, Slot: f.locals.len()}
	f.locals.push(name.Lexeme, -1, l)
	f.maxSlots = max(f.maxSlots, f.locals.len())
	return l
}

func (r *resolver) markInitialized() {
	f := r.fn
	if f.scopeDepth == 0 {
		return
	}
	f.locals.last().depth = f.scopeDepth
}

func (r *resolver) findLocal(f *resolveFunc, name Token) int {
	i := f.locals.find(name.Lexeme)
	if i >= 0 && f.locals.at(i).depth == -1 {
		r.error(name, "Can't read local variable in its own initializer.")
	}
	return i
}

// findUpvalue recurses once per enclosing function, which the parser's
// depth bound covers.
func (r *resolver) findUpvalue(f *resolveFunc, name Token) int {
	if f.enclosing == nil {
		return -1
	}
	if i := r.findLocal(f.enclosing, name); i != -1 {
		if l := f.enclosing.locals.at(i).data; l != nil {
			l.Captured = true
		}
		return addUpvalue(f, UpvalueRef{IsLocal: true, Index: i})
	}
	if i := r.findUpvalue(f.enclosing, name); i != -1 {
		return addUpvalue(f, UpvalueRef{IsLocal: false, Index: i})
	}
	return -1
}

// addUpvalue is clox's: an upvalue captured twice is one upvalue (found
// by map, not clox's scan, for functions with thousands).
func addUpvalue(f *resolveFunc, u UpvalueRef) int {
	if i, ok := f.upvalueIdx[u]; ok {
		return i
	}
	if f.upvalueIdx == nil {
		f.upvalueIdx = map[UpvalueRef]int{}
	}
	f.upvalueIdx[u] = len(f.upvalues)
	f.upvalues = append(f.upvalues, u)
	return len(f.upvalues) - 1
}

// lookup resolves a reference to name as clox's namedVariable does.
func (r *resolver) lookup(name Token) Binding {
	if i := r.findLocal(r.fn, name); i != -1 {
		return Binding{Kind: BindLocal, Index: i}
	}
	if i := r.findUpvalue(r.fn, name); i != -1 {
		return Binding{Kind: BindUpvalue, Index: i}
	}
	return Binding{Kind: BindGlobal}
}

// ---- statements ----

func (r *resolver) stmts(list []Stmt) {
	for _, s := range list {
		r.stmt(s)
	}
}

func (r *resolver) stmt(s Stmt) {
	switch s := s.(type) {
	case *VarStmt:
		s.Local = r.declare(s.Name)
		if s.Init != nil {
			r.expr(s.Init)
		}
		r.markInitialized()
	case *FunStmt:
		s.Local = r.declare(s.Func.Name)
		r.markInitialized()
		r.function(s.Func)
	case *ClassStmt:
		r.classStmt(s)
	case *ExprStmt:
		r.expr(s.X)
	case *PrintStmt:
		r.expr(s.X)
	case *BlockStmt:
		r.beginScope()
		r.stmts(s.Stmts)
		s.Locals = r.endScope()
	case *IfStmt:
		r.expr(s.Cond)
		r.stmt(s.Then)
		if s.Else != nil {
			r.stmt(s.Else)
		}
	case *WhileStmt:
		r.expr(s.Cond)
		r.stmt(s.Body)
	case *ForStmt:
		r.beginScope()
		if s.Init != nil {
			r.stmt(s.Init)
		}
		if s.Cond != nil {
			r.expr(s.Cond)
		}
		if s.Incr != nil {
			r.expr(s.Incr)
		}
		r.stmt(s.Body)
		s.Locals = r.endScope()
	case *ReturnStmt:
		if r.fn.kind == KindScript {
			r.error(s.Keyword, "Can't return from top-level code.")
		}
		if s.Value != nil {
			if r.fn.kind == KindInitializer {
				r.error(s.Keyword, "Can't return a value from an initializer.")
			}
			r.expr(s.Value)
		}
	}
}

func (r *resolver) classStmt(s *ClassStmt) {
	s.Local = r.declare(s.Name)
	r.markInitialized()
	rc := &resolveClass{enclosing: r.class}
	r.class = rc
	if s.Superclass != nil {
		s.Superclass.Binding = r.lookup(s.Superclass.Name)
		if s.Superclass.Name.Lexeme == s.Name.Lexeme {
			r.error(s.Superclass.Name, "A class can't inherit from itself.")
		}
		r.beginScope()
		s.SuperLocal = r.addLocal(Token{Lexeme: "super", Line: s.Superclass.Name.Line})
		r.markInitialized()
		rc.hasSuper = true
	}
	for _, m := range s.Methods {
		r.function(m)
	}
	if rc.hasSuper {
		r.endScope()
	}
	r.class = rc.enclosing
}

func (r *resolver) function(fn *Function) {
	f := newResolveFunc(r.fn, fn.Kind)
	r.fn = f
	r.beginScope()
	for _, p := range fn.Params {
		l := r.declare(p.Name)
		*p = *l
		r.markInitialized()
		f.locals.last().data = p
	}
	r.stmts(fn.Body)
	fn.MaxSlots = f.maxSlots
	fn.Upvalues = f.upvalues
	r.fn = f.enclosing
}

// ---- expressions ----

// expr resolves e in clox's order. It walks down the left spine (the
// operand, callee or object resolved first) with a loop, keeping the nodes
// passed on r.spine, then finishes them innermost first; it recurses only
// into the other children, which the parser's own depth bound covers.
func (r *resolver) expr(e Expr) { WalkSpine(r, e, &r.spine) }

// Descend does what comes before e's first child and returns that child,
// or resolves a node without one and returns nil.
func (r *resolver) Descend(e Expr) Expr {
	switch e := e.(type) {
	case *VariableExpr:
		e.Binding = r.lookup(e.Name)
	case *AssignExpr:
		e.Binding = r.lookup(e.Name)
		return e.Value
	case *LogicalExpr:
		return e.Left
	case *BinaryExpr:
		return e.Left
	case *UnaryExpr:
		return e.Right
	case *GroupingExpr:
		return e.Inner
	case *CallExpr:
		if sup, ok := e.Callee.(*SuperExpr); ok {
			// clox resolves `this`, then the arguments, then `super`.
			r.superExpr(sup, e.Args)
			return nil
		}
		return e.Callee
	case *GetExpr:
		return e.Object
	case *SetExpr:
		return e.Object
	case *IndexExpr:
		return e.Object
	case *IndexSetExpr:
		return e.Object
	case *ThisExpr:
		if r.class == nil {
			r.error(e.Keyword, "Can't use 'this' outside of a class.")
			return nil
		}
		e.Binding = r.lookup(Token{Lexeme: "this", Line: e.Keyword.Line})
	case *SuperExpr:
		r.superExpr(e, nil)
	case *ArrayExpr:
		for _, x := range e.Elements {
			r.expr(x)
		}
	}
	return nil
}

// Finish resolves the children of e after its first.
func (r *resolver) Finish(e Expr) {
	switch e := e.(type) {
	case *LogicalExpr:
		r.expr(e.Right)
	case *BinaryExpr:
		r.expr(e.Right)
	case *CallExpr:
		for _, a := range e.Args {
			r.expr(a)
		}
	case *SetExpr:
		r.expr(e.Value)
	case *IndexExpr:
		r.expr(e.Index)
	case *IndexSetExpr:
		r.expr(e.Index)
		r.expr(e.Value)
	}
}

func (r *resolver) superExpr(e *SuperExpr, args []Expr) {
	if r.class == nil {
		r.error(e.Keyword, "Can't use 'super' outside of a class.")
	} else if !r.class.hasSuper {
		r.error(e.Keyword, "Can't use 'super' in a class with no superclass.")
	}
	e.This = r.lookup(Token{Lexeme: "this", Line: e.Keyword.Line})
	for _, a := range args {
		r.expr(a)
	}
	e.Super = r.lookup(Token{Lexeme: "super", Line: e.Keyword.Line})
}
