package lang

import (
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// The lexer is a participle lexer: one regular expression per token class,
// tried in order at each position (the commonest classes first, since every
// failed try costs a regexp match). It never fails: a character no rule
// wants becomes a Bad token and an unclosed string an Unterminated token;
// scan turns both into clox's error tokens. Words all lex as Ident; scan
// retypes the reserved ones as Keyword, so the grammar's @Ident never
// captures a keyword.
//
// Lines are clox's: a token's line is the line its last character is on,
// which differs from participle's (first character) only for strings that
// span lines.
var lexDef = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "whitespace", Pattern: `(?:[ \t\r\n]+|//[^\n]*)+`},
	{Name: "Ident", Pattern: `[a-zA-Z_][a-zA-Z0-9_]*`},
	{Name: "Punct", Pattern: `!=|==|<=|>=|[-+*/(){}\[\];,.!=<>]`},
	{Name: "Number", Pattern: `[0-9]+(?:\.[0-9]+)?`},
	{Name: "String", Pattern: `"[^"]*"`},
	{Name: "Unterminated", Pattern: `"[^"]*`},
	{Name: "Bad", Pattern: `(?s).`},
	// The token classes below are never matched here (Bad above matches
	// anything): scan assigns them, so the grammar can test one token type
	// where it would otherwise try a dozen literals, each a backtracking
	// branch in participle.
	{Name: "Keyword", Pattern: `class|else|for|fun|if|print|return|super|var|while`},
	{Name: "Value", Pattern: `true|false|nil|this`},
	{Name: "BinOp", Pattern: `or|and|!=|==|>|>=|<|<=|\+|-|/|\*`},
	{Name: "Bang", Pattern: `!`},
})

var (
	symNumber       = lexDef.Symbols()["Number"]
	symString       = lexDef.Symbols()["String"]
	symUnterminated = lexDef.Symbols()["Unterminated"]
	symIdent        = lexDef.Symbols()["Ident"]
	symKeyword      = lexDef.Symbols()["Keyword"]
	symValue        = lexDef.Symbols()["Value"]
	symBinOp        = lexDef.Symbols()["BinOp"]
	symBang         = lexDef.Symbols()["Bang"]
	symBad          = lexDef.Symbols()["Bad"]
)

// tokKind is clox's TokenType (plus the two brackets of arrays).
type tokKind uint8

const (
	tEOF tokKind = iota
	tError
	tLeftParen
	tRightParen
	tLeftBrace
	tRightBrace
	tLeftBracket
	tRightBracket
	tComma
	tDot
	tMinus
	tPlus
	tSemicolon
	tSlash
	tStar
	tBang
	tBangEqual
	tEqual
	tEqualEqual
	tGreater
	tGreaterEqual
	tLess
	tLessEqual
	tIdent
	tString
	tNumber
	tAnd
	tClass
	tElse
	tFalse
	tFor
	tFun
	tIf
	tNil
	tOr
	tPrint
	tReturn
	tSuper
	tThis
	tTrue
	tVar
	tWhile
)

// fixedKinds maps punctuation and keyword lexemes to their kinds.
var fixedKinds = map[string]tokKind{
	"(": tLeftParen, ")": tRightParen, "{": tLeftBrace, "}": tRightBrace,
	"[": tLeftBracket, "]": tRightBracket, ",": tComma, ".": tDot,
	"-": tMinus, "+": tPlus, ";": tSemicolon, "/": tSlash, "*": tStar,
	"!": tBang, "!=": tBangEqual, "=": tEqual, "==": tEqualEqual,
	">": tGreater, ">=": tGreaterEqual, "<": tLess, "<=": tLessEqual,
	"and": tAnd, "class": tClass, "else": tElse, "false": tFalse,
	"for": tFor, "fun": tFun, "if": tIf, "nil": tNil, "or": tOr,
	"print": tPrint, "return": tReturn, "super": tSuper, "this": tThis,
	"true": tTrue, "var": tVar, "while": tWhile,
}

// grammarClass is the participle token type scan gives each kind of word
// or punctuation.
var grammarClass = func() (m [tWhile + 1]lexer.TokenType) {
	punct := lexDef.Symbols()["Punct"]
	for _, k := range fixedKinds {
		m[k] = punct
	}
	for _, k := range []tokKind{tClass, tElse, tFor, tFun, tIf, tPrint, tReturn, tSuper, tVar, tWhile} {
		m[k] = symKeyword
	}
	for _, k := range []tokKind{tTrue, tFalse, tNil, tThis} {
		m[k] = symValue
	}
	for _, k := range []tokKind{tOr, tAnd, tBangEqual, tEqualEqual, tGreater, tGreaterEqual, tLess, tLessEqual, tPlus, tMinus, tSlash, tStar} {
		m[k] = symBinOp
	}
	m[tBang] = symBang
	m[tIdent] = symIdent
	return m
}()

// token is one clox token. For tError, text is the error message.
type token struct {
	kind tokKind
	text string
	line int
}

// scan lexes src with the participle lexer. It returns clox's token stream
// (ending in tEOF, with error tokens where clox's scanner makes them) and
// the participle tokens of the well-formed part, with Pos.Line set to clox's
// line, ready for the grammar. bad reports whether any error token exists.
func scan(src string) (toks []token, ptoks []lexer.Token, bad bool) {
	lx, err := lexDef.LexString("", src)
	if err != nil { // LexString never fails; stay total anyway.
		return []token{{kind: tError, text: "Unexpected character.", line: 1}, {kind: tEOF, line: 1}}, nil, true
	}
	toks = make([]token, 0, len(src)/4+1)
	ptoks = make([]lexer.Token, 0, len(src)/4+1)
	for {
		pt, err := lx.Next()
		if err != nil { // unreachable: the Bad rule matches anything
			toks = append(toks, token{kind: tError, text: "Unexpected character.", line: pt.Pos.Line}, token{kind: tEOF, line: pt.Pos.Line})
			return toks, nil, true
		}
		line := pt.Pos.Line
		switch pt.Type {
		case lexer.EOF:
			toks = append(toks, token{kind: tEOF, line: line})
			ptoks = append(ptoks, pt)
			return toks, ptoks, bad
		case symBad:
			// clox scans bytes: a multi-byte character is one error per byte.
			n := len(pt.Value)
			if r, size := utf8.DecodeRuneInString(pt.Value); r == utf8.RuneError && size <= 1 {
				n = 1
			}
			for range n {
				toks = append(toks, token{kind: tError, text: "Unexpected character.", line: line})
			}
			bad = true
			continue
		case symUnterminated:
			line += strings.Count(pt.Value, "\n")
			toks = append(toks, token{kind: tError, text: "Unterminated string.", line: line})
			bad = true
			continue
		case symString:
			line += strings.Count(pt.Value, "\n")
			toks = append(toks, token{kind: tString, text: pt.Value, line: line})
		case symNumber:
			toks = append(toks, token{kind: tNumber, text: pt.Value, line: line})
		default: // Ident, Punct
			k, ok := fixedKinds[pt.Value]
			if !ok {
				k = tIdent
			}
			pt.Type = grammarClass[k]
			toks = append(toks, token{kind: k, text: pt.Value, line: line})
		}
		pt.Pos.Line = line
		ptoks = append(ptoks, pt)
	}
}
