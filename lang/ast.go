package lang

import "slices"

// The AST is the contract between lang (parser and resolver) and interp (the
// bytecode compiler). The parser builds it; the resolver checks the static
// rules and annotates it with where every variable lives (Binding, Local,
// Function.Upvalues), so the compiler never re-derives scopes.
//
// Slot numbering follows clox: in every function, slot 0 holds the callee
// (or `this` in methods and initializers), parameters take slots 1..n, and
// locals follow in declaration order; a slot is reused once its block ends.
// A local's Slot is its index in the frame's stack of live locals at the
// moment it is declared, so locals are always pushed and popped in order:
// a declaration's slot is exactly the next free one, and leaving a block
// (BlockStmt.Locals), a for loop (ForStmt.Locals) or a class with a
// superclass (ClassStmt.SuperLocal) frees the most recent slots.
//
// Lines follow clox: a token's line is the line of its last character
// (a string literal spanning lines has the line of its closing quote).

// Token is a lexeme with its source line; error messages quote Lexeme.
type Token struct {
	Lexeme string
	Line   int
}

// Program is a whole script (or one REPL entry).
type Program struct {
	Stmts []Stmt
	// MaxSlots is filled by the resolver: the frame size of the script
	// function in slots, including slot 0. Top-level declarations are
	// globals, but blocks, `for (var ...)` and the hidden "super" of a class
	// with a superclass make locals even at top level.
	MaxSlots int
}

// Stmt is any statement or declaration.
type Stmt interface{ stmtNode() }

// Expr is any expression.
type Expr interface{ exprNode() }

// BindKind says where a variable reference is found at run time.
type BindKind uint8

const (
	BindGlobal  BindKind = iota // looked up by Name in the globals
	BindLocal                   // Index is a slot in the current frame
	BindUpvalue                 // Index is an upvalue of the current closure
)

// Binding is the resolver's answer for one variable reference. For
// BindGlobal, Index is 0 and the name is the node's own token.
type Binding struct {
	Kind  BindKind
	Index int
}

// Local is one local variable declaration (including parameters, the
// implicit `this`/callee slot is not represented). Captured is true when some
// closure captures it, so leaving its scope must close an upvalue.
type Local struct {
	Name     Token
	Slot     int
	Captured bool
}

// UpvalueRef describes one upvalue of a function: captured from the
// enclosing function's local slot (IsLocal) or from its upvalue Index.
type UpvalueRef struct {
	IsLocal bool
	Index   int
}

// FunctionKind distinguishes the roles clox gives a function body.
type FunctionKind uint8

const (
	KindFunction FunctionKind = iota
	KindMethod
	KindInitializer
	KindScript
)

// Function is a function or method declaration. The script itself has no
// Function: its statements are Program.Stmts and its frame size is
// Program.MaxSlots (KindScript is for the compiler's own use).
//
// Params are the function's first locals: Params[i].Slot is i+1, and
// Params[i].Captured says whether a closure captures it. Locals declared
// directly in Body share the parameters' scope (as in clox, `fun f(a) {
// var a; }` is an error) and are never popped: returning discards the frame
// and closes whatever upvalues are still open.
type Function struct {
	Name     Token // for methods the method name; "script" never appears here
	Kind     FunctionKind
	Params   []*Local
	Body     []Stmt
	EndLine  int          // line of the closing brace (implicit return)
	Upvalues []UpvalueRef // filled by the resolver, in clox's order, deduplicated
	MaxSlots int          // filled by the resolver: frame size in slots, including slot 0
}

// ---- statements ----

// VarStmt: `var Name = Init;` Init may be nil. Local is nil for globals
// (scope depth 0 of the script: top-level declarations outside any block,
// for loop or function).
type VarStmt struct {
	Name  Token
	Init  Expr
	Local *Local
}

// FunStmt: `fun name(...) {...}`. Local is nil for globals. A local
// function's variable is initialized before its body is resolved, so the
// body can call it (as an upvalue of the enclosing slot).
type FunStmt struct {
	Func  *Function
	Local *Local
}

// ClassStmt: `class Name < Superclass { methods }`.
// Local is nil for a global class. When there is a superclass, SuperLocal is
// the hidden local named "super" that the methods capture (clox's scheme).
//
// The order is clox's: the class variable is declared and initialized
// first (Local, if any, takes the next slot); then, with a superclass, a new
// scope opens holding only SuperLocal, whose slot is the next free one (at
// top level that is a slot of the script frame, usually 1; for a local
// class it is Local.Slot+1). The compiler pushes the superclass value into
// that slot, inherits, compiles the methods, and when the class statement
// ends pops SuperLocal, closing it if SuperLocal.Captured (it is whenever a
// method uses super). Superclass.Binding locates the superclass name.
type ClassStmt struct {
	Name       Token
	Local      *Local
	Superclass *VariableExpr // nil without `<`
	SuperLocal *Local
	Methods    []*Function
}

// ExprStmt: an expression evaluated for its effect.
type ExprStmt struct {
	X    Expr
	Line int // line of the terminating ';' (clox pops there)
}

// PrintStmt: `print X;`. Line is the line of the ';' (clox emits OP_PRINT
// there).
type PrintStmt struct {
	X    Expr
	Line int
}

// BlockStmt: `{ ... }`. Locals lists the locals declared directly in this
// block in declaration order; leaving the block pops (or closes) them.
type BlockStmt struct {
	Stmts   []Stmt
	Locals  []*Local
	EndLine int
}

// IfStmt: Else may be nil. Line is the line of the `if` keyword (likewise
// for WhileStmt and ForStmt).
type IfStmt struct {
	Cond Expr
	Then Stmt
	Else Stmt
	Line int
}

// WhileStmt: `while (Cond) Body`.
type WhileStmt struct {
	Cond Expr
	Body Stmt
	Line int
}

// ForStmt: `for (Init; Cond; Incr) Body`; each part may be nil. Locals are
// the variables declared by Init (the loop's own scope).
//
// Init is a *VarStmt, an *ExprStmt or nil. The loop's scope opens before
// Init, even at top level, so `for (var i ...)` always makes a local: Locals
// is empty or that one variable, in the next free slot, and the body (a
// BlockStmt usually) has its own scope nested inside. As in clox there is
// one variable for the whole loop, not one per iteration. Leaving the loop
// pops Locals (closing it if Captured).
type ForStmt struct {
	Init   Stmt
	Cond   Expr
	Incr   Expr
	Body   Stmt
	Locals []*Local
	Line   int
}

// ReturnStmt: Value may be nil.
type ReturnStmt struct {
	Keyword Token
	Value   Expr
}

func (*VarStmt) stmtNode()    {}
func (*FunStmt) stmtNode()    {}
func (*ClassStmt) stmtNode()  {}
func (*ExprStmt) stmtNode()   {}
func (*PrintStmt) stmtNode()  {}
func (*BlockStmt) stmtNode()  {}
func (*IfStmt) stmtNode()     {}
func (*WhileStmt) stmtNode()  {}
func (*ForStmt) stmtNode()    {}
func (*ReturnStmt) stmtNode() {}

// ---- expressions ----

// LiteralExpr: nil, true, false, a number (float64) or a string (string,
// escapes none: Lox strings are raw between quotes).
type LiteralExpr struct {
	Value any // nil, bool, float64 or string
	Line  int
}

// VariableExpr reads a variable.
type VariableExpr struct {
	Name    Token
	Binding Binding
}

// AssignExpr: `Name = Value`.
type AssignExpr struct {
	Name    Token
	Value   Expr
	Binding Binding
}

// LogicalExpr: `and` / `or` (short-circuit). Op.Lexeme is "and" or "or".
type LogicalExpr struct {
	Op          Token
	Left, Right Expr
}

// BinaryExpr: Op.Lexeme is one of == != < <= > >= + - * /.
type BinaryExpr struct {
	Op          Token
	Left, Right Expr
}

// UnaryExpr: Op.Lexeme is "-" or "!".
type UnaryExpr struct {
	Op    Token
	Right Expr
}

// GroupingExpr: parentheses (kept so `(a) = 1` is rejected and for clarity).
type GroupingExpr struct {
	Inner Expr
}

// CallExpr: Callee(Args...). Paren is the closing parenthesis (its line is
// the call's line in stack traces, as in clox).
type CallExpr struct {
	Callee Expr
	Paren  Token
	Args   []Expr
}

// GetExpr: `Object.Name`.
type GetExpr struct {
	Object Expr
	Name   Token
}

// SetExpr: `Object.Name = Value`.
type SetExpr struct {
	Object Expr
	Name   Token
	Value  Expr
}

// ThisExpr: `this`; Binding locates it (BindLocal 0 directly in a method,
// or an upvalue in a function nested in one).
type ThisExpr struct {
	Keyword Token
	Binding Binding
}

// SuperExpr: `super.Method`. This locates `this`, Super locates the hidden
// "super" variable (always an upvalue: it lives in the frame enclosing the
// class). For `super.m(args)` the parser gives CallExpr{Callee: SuperExpr};
// clox compiles that as one OP_SUPER_INVOKE.
type SuperExpr struct {
	Keyword Token
	Method  Token
	This    Binding
	Super   Binding
}

// ArrayExpr: `[a, b, c]`.
type ArrayExpr struct {
	Bracket  Token // the opening '['
	Elements []Expr
}

// IndexExpr: `Object[Index]`. Bracket is the closing ']'.
type IndexExpr struct {
	Object  Expr
	Bracket Token
	Index   Expr
}

// IndexSetExpr: `Object[Index] = Value`.
type IndexSetExpr struct {
	Object  Expr
	Bracket Token
	Index   Expr
	Value   Expr
}

func (*LiteralExpr) exprNode()  {}
func (*VariableExpr) exprNode() {}
func (*AssignExpr) exprNode()   {}
func (*LogicalExpr) exprNode()  {}
func (*BinaryExpr) exprNode()   {}
func (*UnaryExpr) exprNode()    {}
func (*GroupingExpr) exprNode() {}
func (*CallExpr) exprNode()     {}
func (*GetExpr) exprNode()      {}
func (*SetExpr) exprNode()      {}
func (*ThisExpr) exprNode()     {}
func (*SuperExpr) exprNode()    {}
func (*ArrayExpr) exprNode()    {}
func (*IndexExpr) exprNode()    {}
func (*IndexSetExpr) exprNode() {}

// FirstOperand returns the child of e that is evaluated first, when that
// child is an expression that comes before everything else e does: the
// left operand of a binary or logical operator, the callee of a call, the
// object of a property or index access or assignment, the operand of a
// unary operator or grouping, the value of a variable assignment. It
// returns nil for the other nodes. Following it from an expression walks
// the expression's left spine, which the parser builds by iteration and
// which can be as long as the source: walkers follow it with a loop.
func FirstOperand(e Expr) Expr {
	switch e := e.(type) {
	case *AssignExpr:
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
		return e.Callee
	case *GetExpr:
		return e.Object
	case *SetExpr:
		return e.Object
	case *IndexExpr:
		return e.Object
	case *IndexSetExpr:
		return e.Object
	}
	return nil
}

// SpineLength is the number of FirstOperand steps from e to a node
// without one: walkers size their explicit stacks with it once, rather than
// growing them step by step on a chain a million long.
func SpineLength(e Expr) int {
	n := 0
	for e = FirstOperand(e); e != nil; e = FirstOperand(e) {
		n++
	}
	return n
}

// SpineWalker is a walk over expressions that follows each left spine with
// a loop (WalkSpine).
type SpineWalker interface {
	// Descend does e's work that comes before its first operand and
	// returns that operand, or nil at the bottom of the spine.
	Descend(e Expr) Expr
	// Finish does e's remaining work, after its first operand's.
	Finish(e Expr)
}

// WalkSpine walks e with w: Descend down e's left spine, keeping the nodes
// passed on *spine, then Finish on them innermost first. Finish may walk
// other children with the same spine: each walk pops only what it pushed.
func WalkSpine(w SpineWalker, e Expr, spine *[]Expr) {
	base := len(*spine)
	*spine = slices.Grow(*spine, SpineLength(e))
	for next := w.Descend(e); next != nil; next = w.Descend(e) {
		*spine = append(*spine, e)
		e = next
	}
	for len(*spine) > base {
		top := (*spine)[len(*spine)-1]
		*spine = (*spine)[:len(*spine)-1]
		w.Finish(top)
	}
}
