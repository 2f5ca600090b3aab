package lang

import (
	"errors"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Parse lexes, parses and resolves a whole script. On any error it returns
// the complete list of errors in source order (prog may be nil or partial).
//
// The stages:
//  1. scan: the participle lexer tokenizes src (lexer.go).
//  2. check: a port of clox's one-pass compiler over those tokens reports
//     exactly the errors clox would, with clox's panic-mode recovery
//     (check.go). If there are any, Parse returns them and nil.
//  3. grammar: participle parses the tokens into the grammar structs
//     (grammar.go), which build.go converts into the AST.
//  4. resolve: scopes, slots, upvalues and captures (resolve.go).
//
// Stages 3 and 4 apply the static rules again; on a program the checker
// accepted they find nothing, and should they ever disagree Parse still
// reports an error rather than return a tree it doubts.
func Parse(src string) (prog *Program, errs ErrorList) {
	defer func() {
		// Parse must not panic on any input. Every stage is written to be
		// total; this is the last line, and a panic here is a bug.
		if r := recover(); r != nil {
			prog = nil
			errs = ErrorList{{Line: 1, Msg: internalErrorMsg}}
		}
	}()
	toks, ptoks, _ := scan(src)
	if errs := check(toks); len(errs) > 0 {
		return nil, errs
	}
	return parseTree(ptoks)
}

// parseTree runs the participle grammar over the tokens of a program the
// checker accepted, builds the AST and resolves it.
func parseTree(ptoks []lexer.Token) (*Program, ErrorList) {
	g, err := grammar.ParseFromLexer(newTokenStream(ptoks))
	if err != nil {
		return nil, ErrorList{grammarError(err)}
	}
	b := &builder{}
	prog := b.program(g)
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	if errs := resolve(prog); len(errs) > 0 {
		return nil, errs
	}
	return prog, nil
}

// internalErrorMsg reports a panic inside Parse (a bug).
const internalErrorMsg = "Internal parser error."

// newTokenStream feeds already-lexed tokens to participle.
func newTokenStream(toks []lexer.Token) *lexer.PeekingLexer {
	pl, _ := lexer.Upgrade(&sliceLexer{toks: toks})
	return pl
}

type sliceLexer struct {
	toks []lexer.Token
	i    int
}

func (s *sliceLexer) Next() (lexer.Token, error) {
	if s.i >= len(s.toks) {
		return lexer.EOFToken(lexer.Position{}), nil
	}
	t := s.toks[s.i]
	s.i++
	return t, nil
}

// grammarError turns a participle error into a clox-style one at the
// offending token (only reachable if grammar and checker disagree).
func grammarError(err error) *Error {
	var perr participle.Error
	if !errors.As(err, &perr) {
		return &Error{Line: 1, Msg: err.Error()}
	}
	var ute *participle.UnexpectedTokenError
	if errors.As(err, &ute) {
		t := ute.Unexpected
		if t.EOF() {
			return &Error{Line: t.Pos.Line, Where: " at end", Msg: "Expect expression."}
		}
		return &Error{Line: t.Pos.Line, Where: " at '" + t.Value + "'", Msg: "Expect expression."}
	}
	return &Error{Line: perr.Position().Line, Msg: perr.Message()}
}
