// Package lang turns Lox source (Crafting Interpreters' Lox plus arrays)
// into a resolved AST.
//
// Parse runs four stages:
//
//  1. scan (lexer.go): participle's lexer tokenizes the source. Characters
//     no rule wants and unclosed strings become clox's error tokens.
//  2. check (check.go): a port of the error behaviour of clox's one-pass
//     compiler over those tokens. It reports every error clox would, in
//     clox's order and words, with clox's panic-mode recovery ("[line N]
//     Error at 'tok': message"), and bounds nesting depth. A program with
//     any error stops here.
//  3. grammar (grammar.go, build.go): participle parses the tokens into
//     grammar structs, which are converted into the AST of ast.go.
//  4. resolve (resolve.go): clox's scoping rules give every variable
//     reference a Binding (global, frame slot or upvalue), every local its
//     slot, every function its upvalue list and frame size.
//
// Why check is separate from the grammar: clox never unwinds after an
// error. It keeps parsing with reports silenced and then skips tokens to a
// statement boundary, so which later errors exist at all depends on its
// exact control flow, and scope errors ("Already a variable with this name
// in this scope.") trigger that skipping too. Matching the conformance
// suite's expectations takes a faithful port, which check.go is. Stages 3
// and 4 check the static rules again; on programs check accepted they find
// nothing, and FuzzParse holds the two halves to that.
//
// Callers (interp, tests) use Parse; nothing here knows about bytecode or
// the heap.
package lang
