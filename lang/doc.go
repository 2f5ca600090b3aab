// Package lang turns Lox source (Crafting Interpreters' Lox plus arrays)
// into a resolved AST.
//
// The pipeline is: lexer and grammar (participle/v2) -> AST (ast.go) ->
// resolver, which enforces Lox's static rules and records where every
// variable lives. Errors are reported exactly as clox reports them,
// "[line N] Error at 'tok': message", and parsing recovers at statement
// boundaries so one run reports every independent error.
//
// Callers (interp, tests) use Parse; nothing here knows about bytecode or
// the heap.
package lang
