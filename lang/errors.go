package lang

import (
	"fmt"
	"strings"
)

// Error is one compile error, positioned and worded as clox words it.
type Error struct {
	Line  int
	Where string // " at 'tok'", " at end" or "" (lexical errors)
	Msg   string
}

// Error formats the error as clox prints it: "[line N] Error at 'tok': msg",
// "[line N] Error at end: msg" or "[line N] Error: msg".
func (e *Error) Error() string {
	return fmt.Sprintf("[line %d] Error%s: %s", e.Line, e.Where, e.Msg)
}

// ErrorList is every compile error of one script, in the order clox would
// print them. A successful Parse returns a nil ErrorList; test it with
// len(errs) > 0 rather than by converting it to error (a nil ErrorList in
// an error interface is not a nil error).
type ErrorList []*Error

// Error joins the errors one per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// where renders the " at ..." part of a message about tok.
func where(tok token) string {
	switch tok.kind {
	case tEOF:
		return " at end"
	case tError:
		return ""
	}
	return " at '" + tok.text + "'"
}
