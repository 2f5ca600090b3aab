package lang

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar of Lox plus arrays. It builds the syntax tree of
// programs the checker has accepted; build.go converts that tree into the
// AST of ast.go.
//
//	program     decl*
//	decl        exprStmt | "var" var | ... | "fun" function | "class" class
//	stmt        exprStmt | "print" print | "{" block | return | if | for | while
//	expr        unary ( binop unary )* ( "=" expr )?
//	unary       call | ( "!" | "-" ) unary
//	call        primary ( "(" args ")" | "." Ident | "[" expr "]" )*
//	primary     atom | "super" "." Ident | "(" expr ")" | "[" elements "]"
//
// Binary operators are read as a flat operand/operator list and folded by
// precedence in build.go (clox's table: or < and < equality < comparison <
// term < factor, all left-associative); the assignment target is whatever
// precedes '=', and build.go checks it is a variable, property or element.
// This keeps the grammar shallow: participle's cost grows with every struct
// level an expression passes through (each level allocates and tries its
// optional parts), and a one-struct-per-level grammar was markedly slower.
//
// Operators and atoms are matched by token class (BinOp, Bang, Value; see
// lexer.go) rather than by a choice of literals, and choices put common
// alternatives first and keywords outside the struct they introduce: each
// failed alternative costs participle a backtracking branch.
//
// Tokens are captured as lexer.Token so their lines reach the AST.

type gProgram struct {
	Decls []*gDecl `parser:"@@*"`
}

// gDecl is a declaration or a statement. The statement alternatives repeat
// gStmt's, flattened into one choice.
type gDecl struct {
	Expr   *gExprStmt `parser:"  @@"`
	Var    *gVar      `parser:"| 'var' @@"`
	Print  *gPrint    `parser:"| 'print' @@"`
	Block  *gBlock    `parser:"| '{' @@"`
	Return *gReturn   `parser:"| @@"`
	If     *gIf       `parser:"| @@"`
	Fun    *gFunction `parser:"| 'fun' @@"`
	For    *gFor      `parser:"| @@"`
	While  *gWhile    `parser:"| @@"`
	Class  *gClass    `parser:"| 'class' @@"`
}

type gClass struct {
	Name    lexer.Token  `parser:"@Ident"`
	Super   *lexer.Token `parser:"( '<' @Ident )?"`
	Methods []*gFunction `parser:"'{' @@* '}'"`
}

type gFunction struct {
	Name   lexer.Token `parser:"@Ident '('"`
	Params []*gParam   `parser:"( @@ ( ',' @@ )* )? ')'"`
	Body   *gBlock     `parser:"'{' @@"`
}

type gParam struct {
	Name lexer.Token `parser:"@Ident"`
}

type gBlock struct {
	Decls []*gDecl    `parser:"@@*"`
	End   lexer.Token `parser:"@'}'"`
}

type gVar struct {
	Name lexer.Token `parser:"@Ident"`
	Init *gExpr      `parser:"( '=' @@ )? ';'"`
}

// gStmt is a statement (the body of if, while and for).
type gStmt struct {
	Expr   *gExprStmt `parser:"  @@"`
	Print  *gPrint    `parser:"| 'print' @@"`
	Block  *gBlock    `parser:"| '{' @@"`
	Return *gReturn   `parser:"| @@"`
	If     *gIf       `parser:"| @@"`
	For    *gFor      `parser:"| @@"`
	While  *gWhile    `parser:"| @@"`
}

type gPrint struct {
	X    *gExpr      `parser:"@@"`
	Semi lexer.Token `parser:"@';'"`
}

type gExprStmt struct {
	X    *gExpr      `parser:"@@"`
	Semi lexer.Token `parser:"@';'"`
}

type gIf struct {
	Keyword lexer.Token `parser:"@'if' '('"`
	Cond    *gExpr      `parser:"@@ ')'"`
	Then    *gStmt      `parser:"@@"`
	Else    *gStmt      `parser:"( 'else' @@ )?"`
}

type gWhile struct {
	Keyword lexer.Token `parser:"@'while' '('"`
	Cond    *gExpr      `parser:"@@ ')'"`
	Body    *gStmt      `parser:"@@"`
}

type gFor struct {
	Keyword lexer.Token `parser:"@'for' '('"`
	Init    *gForInit   `parser:"( @@ | ';' )"`
	Cond    *gExpr      `parser:"@@? ';'"`
	Incr    *gExpr      `parser:"@@? ')'"`
	Body    *gStmt      `parser:"@@"`
}

type gForInit struct {
	Var  *gVar      `parser:"  'var' @@"`
	Expr *gExprStmt `parser:"| @@"`
}

type gReturn struct {
	Keyword lexer.Token `parser:"@'return'"`
	Value   *gExpr      `parser:"@@? ';'"`
}

// ---- expressions ----

type gExpr struct {
	Left   *gUnary      `parser:"@@"`
	Ops    []*gBinOp    `parser:"@@*"`
	Equals *lexer.Token `parser:"( @'='"`
	Value  *gExpr       `parser:"  @@ )?"`
}

// gBinOp is one operator and its right operand. (Repeated captures into a
// []lexer.Token field do not accumulate in participle: the field is set to
// the latest capture. So each repeated token gets its own struct.)
type gBinOp struct {
	Op    lexer.Token `parser:"@BinOp"`
	Right *gUnary     `parser:"@@"`
}

type gUnary struct {
	Call  *gCall       `parser:"  @@"`
	Op    *lexer.Token `parser:"| @( Bang | '-' )"`
	Right *gUnary      `parser:"  @@"`
}

type gCall struct {
	Primary *gPrimary  `parser:"@@"`
	Suffix  []*gSuffix `parser:"@@*"`
}

// gSuffix is one of: a call's argument list, a property name, an index.
type gSuffix struct {
	Call     *gArgs       `parser:"  '(' @@"`
	Property *lexer.Token `parser:"| '.' @Ident"`
	Index    *gIndex      `parser:"| '[' @@"`
}

type gArgs struct {
	Args  []*gExpr    `parser:"( @@ ( ',' @@ )* )?"`
	Paren lexer.Token `parser:"@')'"`
}

type gIndex struct {
	Index   *gExpr      `parser:"@@"`
	Bracket lexer.Token `parser:"@']'"`
}

type gPrimary struct {
	Atom  *lexer.Token `parser:"  @( Ident | Number | String | Value )"`
	Super *gSuper      `parser:"| @@"`
	Group *gExpr       `parser:"| '(' @@ ')'"`
	Array *gArray      `parser:"| @@"`
}

type gSuper struct {
	Keyword lexer.Token `parser:"@'super' '.'"`
	Method  lexer.Token `parser:"@Ident"`
}

type gArray struct {
	Bracket  lexer.Token `parser:"@'['"`
	Elements []*gExpr    `parser:"( @@ ( ',' @@ )* )? ']'"`
}

var grammar = participle.MustBuild[gProgram](
	participle.Lexer(lexDef),
	participle.UseLookahead(2),
)
