package xlog

import (
	"fmt"
	"io"
	"strings"
)

// WriteHelp prints -Xlog:help: the grammar, levels, decorators, tags and
// tag sets, outputs, output options and examples.
func WriteHelp(w io.Writer) {
	fmt.Fprint(w, `-Xlog Usage: -Xlog[:[what][:[output][:[decorators][:output-options]]]]
	 where 'what' is a comma list of tag1[+tag2...][*][=level] or all[=level]
	 NOTE: Unless wildcard (*) is specified, only log messages tagged with exactly the tags specified will be matched.
	 An empty field takes its default: what all, output stdout, decorators uptime,level,tags.

Available log levels:
 `)
	fmt.Fprintln(w, strings.Join(levelNames[:], ", "))
	fmt.Fprintln(w, " The default level of a selection is info.")
	fmt.Fprint(w, "\nAvailable log decorators:\n ")
	names := make([]string, len(decoratorNames))
	for i, n := range decoratorNames {
		names[i] = fmt.Sprintf("%s (%s)", n[0], n[1])
	}
	fmt.Fprintln(w, strings.Join(names, ", "))
	fmt.Fprint(w, ` Decorators can also be specified as 'none' for no decoration.
 They are printed in this order, each in brackets, unpadded.

Available log tags:
 `)
	fmt.Fprintln(w, strings.Join(tags, ", "))
	fmt.Fprint(w, ` Specifying 'all' instead of a tag combination matches all tag combinations.
 An unknown tag is an error; known tags in a combination that matches no
 tag set are a warning (nothing is logged for that selection).

Described tag sets:
`)
	for _, ts := range tagSets {
		fmt.Fprintf(w, " %s: %s\n", ts.label, ts.about)
	}
	fmt.Fprint(w, `
Available log outputs:
 stdout/stderr
 file=<filename> (or a bare <filename>; quote it, file="a:b", if it holds a colon)
`)
	io.WriteString(w, "  If the filename contains %p, %t and/or %hn, they will expand to minivm's PID, startup timestamp and host name, respectively.\n")
	fmt.Fprint(w, `
Available log output options:
 foldmultilines=true|false - accepted; minivm's log lines are single lines.

Additional file output options:
 filesize=..       - Target byte size for log rotation (supports K/M/G suffix).
 filecount=..      - Number of files to keep in rotation (0..1000).
 Both are validated, but minivm does not rotate: the file grows without limit.
 Output options apply when an output is first named; later ones are ignored (a warning).

Without -Xlog, stdout logs all=warning (minivm logs nothing at warning or error).
-Xlog:disable turns off all logging, that default included; -verbose:gc is -Xlog:gc.
Naming an output again reconfigures it: the tag sets the new selection names take
its levels, the others keep theirs, and the new decorators replace the old.

Some examples:
 -Xlog
	 Log all messages up to 'info' level to stdout with 'uptime', 'level' and 'tags' decorations.
 -Xlog:gc
	 Log the [gc] pause lines (info) to stdout, with default decorations (GCViewer's input).
 -Xlog:gc*:file=gc.log
	 Log every gc tag set up to 'info' level to the file gc.log.
 -Xlog:gc*=debug,gc+tlab=trace:stderr:uptimemillis,tid
	 Everything gc up to 'debug', each thread's TLAB line too, on stderr with uptime in ms and thread id.
 -Xlog:gc+heap=info::time,uptime,level,tags
	 Each space before and after a collection, on stdout, with wall-clock time.
 -Xlog:gc:stdout -Xlog:gc+stats,safepoint:file=stats.log:none
	 Pause lines on stdout, minivm's metrics and safepoint lines undecorated in stats.log.
 -Xlog:disable -Xlog:safepoint:stderr
	 Turn off all logging, then log safepoint lines to stderr.
`)
}
