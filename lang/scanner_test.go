package lang

import (
	"fmt"
	"strings"
	"testing"
)

// scanAll renders every token of src as kind:text@line, up to and
// including the first EOF.
func scanAll(src string) string {
	var out []string
	sc := newScanner(src)
	for {
		t := sc.next()
		out = append(out, fmt.Sprintf("%d:%s@%d", t.kind, t.text, t.line))
		if t.kind == tEOF {
			return strings.Join(out, " ")
		}
	}
}

func TestScanner(t *testing.T) {
	tok := func(k tokKind, text string, line int) string { return fmt.Sprintf("%d:%s@%d", k, text, line) }
	eof := func(line int) string { return tok(tEOF, "", line) }
	join := func(s ...string) string { return strings.Join(s, " ") }
	cases := []struct{ name, src, want string }{
		{"empty", "", eof(1)},
		{"punctuation", "(){}[],.-+;/*", join(tok(tLeftParen, "(", 1), tok(tRightParen, ")", 1), tok(tLeftBrace, "{", 1),
			tok(tRightBrace, "}", 1), tok(tLeftBracket, "[", 1), tok(tRightBracket, "]", 1), tok(tComma, ",", 1),
			tok(tDot, ".", 1), tok(tMinus, "-", 1), tok(tPlus, "+", 1), tok(tSemicolon, ";", 1), tok(tSlash, "/", 1),
			tok(tStar, "*", 1), eof(1))},
		{"one or two", "! != = == < <= > >= !==", join(tok(tBang, "!", 1), tok(tBangEqual, "!=", 1), tok(tEqual, "=", 1),
			tok(tEqualEqual, "==", 1), tok(tLess, "<", 1), tok(tLessEqual, "<=", 1), tok(tGreater, ">", 1),
			tok(tGreaterEqual, ">=", 1), tok(tBangEqual, "!=", 1), tok(tEqual, "=", 1), eof(1))},
		{"words", "and andy _x x1 class classy this", join(tok(tAnd, "and", 1), tok(tIdent, "andy", 1), tok(tIdent, "_x", 1),
			tok(tIdent, "x1", 1), tok(tClass, "class", 1), tok(tIdent, "classy", 1), tok(tThis, "this", 1), eof(1))},
		// clox's numbers: no leading or trailing dot, no sign, no exponent.
		{"numbers", "1 1.5 2. .5 007 1e3", join(tok(tNumber, "1", 1), tok(tNumber, "1.5", 1), tok(tNumber, "2", 1),
			tok(tDot, ".", 1), tok(tDot, ".", 1), tok(tNumber, "5", 1), tok(tNumber, "007", 1), tok(tNumber, "1", 1),
			tok(tIdent, "e3", 1), eof(1))},
		{"number then dot at end", "3.", join(tok(tNumber, "3", 1), tok(tDot, ".", 1), eof(1))},
		{"lines", "a\n\n b\r\n\tc", join(tok(tIdent, "a", 1), tok(tIdent, "b", 3), tok(tIdent, "c", 4), eof(4))},
		// A string's line is its closing quote's, as in clox.
		{"multi-line string", "\"a\nb\n\" x", join(tok(tString, "\"a\nb\n\"", 3), tok(tIdent, "x", 3), eof(3))},
		{"empty string", `""`, join(tok(tString, `""`, 1), eof(1))},
		{"comment to end of line", "a // b \"c\n d", join(tok(tIdent, "a", 1), tok(tIdent, "d", 2), eof(2))},
		{"comment at end of input", "a //", join(tok(tIdent, "a", 1), eof(1))},
		{"comment then newline", "// x\n", eof(2)},
		{"slash is not a comment", "a / /b", join(tok(tIdent, "a", 1), tok(tSlash, "/", 1), tok(tSlash, "/", 1), tok(tIdent, "b", 1), eof(1))},
		// An unterminated string runs to the end of input, counting lines.
		{"unterminated", "x \"abc\n\ndef", join(tok(tIdent, "x", 1), tok(tError, "Unterminated string.", 3), eof(3))},
		{"unterminated at end", "\"", join(tok(tError, "Unterminated string.", 1), eof(1))},
		// clox scans bytes: é is two errors, and a NUL byte is one.
		{"unexpected", "@é\x00#", join(tok(tError, "Unexpected character.", 1), tok(tError, "Unexpected character.", 1),
			tok(tError, "Unexpected character.", 1), tok(tError, "Unexpected character.", 1), tok(tError, "Unexpected character.", 1), eof(1))},
		{"unexpected between tokens", "a$b", join(tok(tIdent, "a", 1), tok(tError, "Unexpected character.", 1), tok(tIdent, "b", 1), eof(1))},
	}
	for _, tc := range cases {
		if got := scanAll(tc.src); got != tc.want {
			t.Errorf("%s: scan(%q)\ngot  %s\nwant %s", tc.name, tc.src, got, tc.want)
		}
	}
}

// TestScannerEOF checks that the end of input is sticky: the parser may
// ask again after EOF (error recovery at the end does).
func TestScannerEOF(t *testing.T) {
	sc := newScanner("a\n")
	sc.next()
	for range 3 {
		if tk := sc.next(); tk.kind != tEOF || tk.line != 2 {
			t.Fatalf("got %+v, want EOF at line 2", tk)
		}
	}
}

// TestScannerLong scans inputs of a few megabytes: a comment, a string and
// many lines, checking the line count at the end.
func TestScannerLong(t *testing.T) {
	for _, tc := range []struct {
		src  string
		line int
	}{
		{"//" + strings.Repeat("x", 4<<20) + "\nx", 2},
		{"\"" + strings.Repeat("ab\n", 1<<20) + "\" x", 1<<20 + 1},
		{strings.Repeat("a;\n", 1<<20) + "x", 1<<20 + 1},
	} {
		sc := newScanner(tc.src)
		var last token
		for tk := sc.next(); tk.kind != tEOF; tk = sc.next() {
			last = tk
		}
		if last.kind != tIdent || last.text != "x" || last.line != tc.line {
			t.Errorf("last token %v %q at line %d, want x at line %d", last.kind, last.text, last.line, tc.line)
		}
	}
}

// TestKeywords checks every reserved word and near misses of each.
func TestKeywords(t *testing.T) {
	words := map[string]tokKind{
		"and": tAnd, "class": tClass, "else": tElse, "false": tFalse,
		"for": tFor, "fun": tFun, "if": tIf, "nil": tNil, "or": tOr,
		"print": tPrint, "return": tReturn, "super": tSuper, "this": tThis,
		"true": tTrue, "var": tVar, "while": tWhile,
	}
	for w, k := range words {
		if got := keywordKind(w); got != k {
			t.Errorf("keywordKind(%q) = %d, want %d", w, got, k)
		}
		for _, near := range []string{w[:len(w)-1], w + "x", "x" + w, strings.ToUpper(w[:1]) + w[1:]} {
			if _, ok := words[near]; ok {
				continue
			}
			if got := keywordKind(near); got != tIdent {
				t.Errorf("keywordKind(%q) = %d, want an identifier", near, got)
			}
		}
	}
	for _, w := range []string{"f", "t", "fa", "fo", "th", "tr", "_", "x"} {
		if got := keywordKind(w); got != tIdent {
			t.Errorf("keywordKind(%q) = %d, want an identifier", w, got)
		}
	}
}
