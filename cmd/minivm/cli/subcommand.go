package cli

// The research subcommands, `minivm bench` and `minivm gcplot`, share this
// small argument parser: flags that take a value ("-count 5", "-count=5")
// may come before, between or after the positional arguments; "--" ends
// the flags; -h, -help and --help print the usage.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// subcommands maps the first argument of the command line to a
// subcommand. A script with one of these names runs with
// `minivm -- bench` or `minivm ./bench`.
var subcommands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"bench":  runBench,
	"gcplot": runGCPlot,
}

// errHelp is returned by parseSubArgs for -h / -help.
var errHelp = errors.New("help requested")

// parseSubArgs splits args into flag values (handed to the setters in
// flags, keyed by name without the dash) and positional arguments.
func parseSubArgs(args []string, flags map[string]func(string) error) ([]string, error) {
	var pos []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			return append(pos, args[i+1:]...), nil
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			pos = append(pos, arg)
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-")
		if name == "h" || name == "help" {
			return nil, errHelp
		}
		val, hasVal := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, val, hasVal = k, v, true
		}
		set := flags[name]
		if set == nil {
			return nil, fmt.Errorf("unknown flag '-%s'", name)
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag '-%s' needs a value", name)
			}
			i++
			val = args[i]
		}
		if err := set(val); err != nil {
			return nil, err
		}
	}
	return pos, nil
}

// isTerminal reports whether w is a terminal (progress bars are drawn only
// there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
