package lang

// Parse scans, parses and resolves a whole script. On any error it returns
// the complete list of errors in source order and a nil program.
//
// The stages:
//  1. scan and parse: the parser (parser.go), a port of clox's one-pass
//     compiler, pulls tokens from the scanner (scanner.go) one at a time,
//     reports exactly the errors clox would, with clox's panic-mode
//     recovery, and builds the AST as it goes. If there are any errors,
//     Parse returns them.
//  2. resolve: scopes, slots, upvalues and captures (resolve.go).
//
// The resolver applies the static rules again; on a program the parser
// accepted it finds nothing, and should the two ever disagree Parse still
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
	prog, errs = parse(src)
	if len(errs) > 0 {
		return nil, errs
	}
	if errs := resolve(prog); len(errs) > 0 {
		return nil, errs
	}
	return prog, nil
}

// internalErrorMsg reports a panic inside Parse (a bug).
const internalErrorMsg = "Internal parser error."
