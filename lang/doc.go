// Package lang turns Lox source (Crafting Interpreters' Lox plus arrays)
// into a resolved AST.
//
// Parse runs two stages:
//
//  1. parse (parser.go over scanner.go): a port of clox's one-pass
//     compiler pulls tokens from a port of clox's scanner and builds the
//     AST of ast.go where clox would emit bytecode. It reports every error
//     clox would, in clox's order and words, with clox's panic-mode
//     recovery ("[line N] Error at 'tok': message"), and bounds nesting
//     depth. A program with any error stops here.
//  2. resolve (resolve.go): clox's scoping rules give every variable
//     reference a Binding (global, frame slot or upvalue), every local its
//     slot, every function its upvalue list and frame size.
//
// Why the parser is a port rather than a grammar: clox never unwinds after
// an error. It keeps parsing with reports silenced and then skips tokens to
// a statement boundary, so which later errors exist at all depends on its
// exact control flow, and scope errors ("Already a variable with this name
// in this scope.") trigger that skipping too. Matching the conformance
// suite's expectations takes a faithful port. The resolver checks the
// static rules again; on programs the parser accepted it finds nothing,
// and FuzzParse holds the two to that.
//
// Both stages cost time linear in the source, and no Go stack grows with
// the length of a chain (a+a+..., a.x.x..., f()()...): see maxDepth in
// parser.go for why every recursion is bounded.
//
// Callers (interp, tests) use Parse; nothing here knows about bytecode or
// the heap.
package lang
