package lang

import "strings"

// The scanner is clox's scanner.c: it hands out one token at a time, so
// the parser never holds more than two, and a token's text is a slice of
// the source (nothing is copied). It never fails: a byte no rule wants is an
// error token "Unexpected character." (clox scans bytes, so a multi-byte
// character makes one error per byte) and a string without its closing
// quote is "Unterminated string.". A token's line is the line its last
// character is on, as in clox; only strings span lines. Comments, whitespace
// and string bodies are skipped with strings.IndexByte, so a huge comment
// costs about what reading it does.

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

// token is one clox token. For tError, text is the error message.
type token struct {
	kind tokKind
	text string
	line int
}

// singleKinds maps the one-byte punctuation tokens to their kinds (0 for
// bytes that start no such token; tEOF is never one of them).
var singleKinds = [256]tokKind{
	'(': tLeftParen, ')': tRightParen, '{': tLeftBrace, '}': tRightBrace,
	'[': tLeftBracket, ']': tRightBracket, ',': tComma, '.': tDot,
	'-': tMinus, '+': tPlus, ';': tSemicolon, '/': tSlash, '*': tStar,
}

// keywordKind is the kind of the word w: a reserved word's, else tIdent.
// Like clox's identifierType it switches on the first letter and compares
// one candidate, which is cheaper than a map lookup per identifier.
func keywordKind(w string) tokKind {
	k, kw := tIdent, ""
	switch w[0] {
	case 'a':
		k, kw = tAnd, "and"
	case 'c':
		k, kw = tClass, "class"
	case 'e':
		k, kw = tElse, "else"
	case 'f':
		switch {
		case len(w) > 1 && w[1] == 'a':
			k, kw = tFalse, "false"
		case len(w) > 1 && w[1] == 'o':
			k, kw = tFor, "for"
		default:
			k, kw = tFun, "fun"
		}
	case 'i':
		k, kw = tIf, "if"
	case 'n':
		k, kw = tNil, "nil"
	case 'o':
		k, kw = tOr, "or"
	case 'p':
		k, kw = tPrint, "print"
	case 'r':
		k, kw = tReturn, "return"
	case 's':
		k, kw = tSuper, "super"
	case 't':
		if len(w) > 1 && w[1] == 'h' {
			k, kw = tThis, "this"
		} else {
			k, kw = tTrue, "true"
		}
	case 'v':
		k, kw = tVar, "var"
	case 'w':
		k, kw = tWhile, "while"
	}
	if w != kw {
		return tIdent
	}
	return k
}

type scanner struct {
	src  string
	pos  int
	line int
}

func newScanner(src string) scanner { return scanner{src: src, line: 1} }

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipSpace skips whitespace and comments, counting lines.
func (s *scanner) skipSpace() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\r', '\t':
			s.pos++
		case '\n':
			s.line++
			s.pos++
		case '/':
			if s.pos+1 >= len(s.src) || s.src[s.pos+1] != '/' {
				return
			}
			// A comment runs to the end of the line; the newline is
			// left for the next round, which counts it.
			i := strings.IndexByte(s.src[s.pos:], '\n')
			if i < 0 {
				s.pos = len(s.src)
				return
			}
			s.pos += i
		default:
			return
		}
	}
}

// next scans one token; after the end it keeps returning tEOF.
func (s *scanner) next() token {
	s.skipSpace()
	if s.pos >= len(s.src) {
		return token{kind: tEOF, line: s.line}
	}
	start := s.pos
	c := s.src[s.pos]
	s.pos++
	switch {
	case isAlpha(c):
		for s.pos < len(s.src) && (isAlpha(s.src[s.pos]) || isDigit(s.src[s.pos])) {
			s.pos++
		}
		text := s.src[start:s.pos]
		return token{kind: keywordKind(text), text: text, line: s.line}
	case isDigit(c):
		for s.pos < len(s.src) && isDigit(s.src[s.pos]) {
			s.pos++
		}
		if s.pos+1 < len(s.src) && s.src[s.pos] == '.' && isDigit(s.src[s.pos+1]) {
			s.pos++
			for s.pos < len(s.src) && isDigit(s.src[s.pos]) {
				s.pos++
			}
		}
		return token{kind: tNumber, text: s.src[start:s.pos], line: s.line}
	case c == '"':
		i := strings.IndexByte(s.src[s.pos:], '"')
		if i < 0 {
			s.line += strings.Count(s.src[s.pos:], "\n")
			s.pos = len(s.src)
			return token{kind: tError, text: "Unterminated string.", line: s.line}
		}
		s.line += strings.Count(s.src[s.pos:s.pos+i], "\n")
		s.pos += i + 1
		return token{kind: tString, text: s.src[start:s.pos], line: s.line}
	}
	if k := singleKinds[c]; k != 0 {
		return token{kind: k, text: s.src[start:s.pos], line: s.line}
	}
	var kind tokKind
	switch c {
	case '!':
		kind = s.pair(tBang, tBangEqual)
	case '=':
		kind = s.pair(tEqual, tEqualEqual)
	case '<':
		kind = s.pair(tLess, tLessEqual)
	case '>':
		kind = s.pair(tGreater, tGreaterEqual)
	default:
		return token{kind: tError, text: "Unexpected character.", line: s.line}
	}
	return token{kind: kind, text: s.src[start:s.pos], line: s.line}
}

// pair returns two when the next byte is '=' (consuming it), else one.
func (s *scanner) pair(one, two tokKind) tokKind {
	if s.pos < len(s.src) && s.src[s.pos] == '=' {
		s.pos++
		return two
	}
	return one
}
