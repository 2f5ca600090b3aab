package xlog

import (
	"fmt"
	"io"
	"strings"
)

// WriteHelp prints -Xlog:help: the grammar, levels, decorators, tags and
// tag sets, outputs, output options and examples.
func WriteHelp(w io.Writer) {
	fmt.Fprint(w, `Usage: -Xlog[:[what][:[output][:[decorators][:output-options]]]]
  what        comma list of tag[+tag...][*][=level], or all[=level]
              (a selector without * takes exactly its tag set, in any tag order;
              with *, every tag set holding its tags; the last match wins)
  output      stdout, stderr, file=<path> or <path>
  decorators  comma list of the decorators below, or none
An empty field means all, stdout and uptime,level,tags respectively.

Levels, most severe first (a selector without one takes info):
 `)
	fmt.Fprintln(w, strings.Join(levelNames[:], ", "))
	fmt.Fprint(w, "\nDecorators, name (abbreviation), in the order they are printed:\n ")
	names := make([]string, len(decoratorNames))
	for i, n := range decoratorNames {
		names[i] = fmt.Sprintf("%s (%s)", n[0], n[1])
	}
	fmt.Fprintln(w, strings.Join(names, ", "))
	fmt.Fprint(w, ` Each is printed in brackets, without HotSpot's padding; none prints the bare message.

Tags:
 `)
	fmt.Fprintln(w, strings.Join(tags, ", "))
	fmt.Fprint(w, ` A tag not in this list is an error; a selector of known tags that matches
 none of the tag sets below is a warning and selects nothing.

Tag sets minivm logs:
`)
	for _, ts := range tagSets {
		fmt.Fprintf(w, " %s: %s\n", ts.label, ts.about)
	}
	fmt.Fprint(w, `
Outputs:
 stdout, stderr, file=<path> or a bare <path>; a path with a colon goes in
 double quotes (file="a:b.log").
`)
	io.WriteString(w, " In a path, %p becomes the process id, %t the start time and %hn the host name.\n")
	fmt.Fprint(w, `
Output options (comma list; given when an output is first named, ignored
with a warning later):
 filecount=<0..1000>, filesize=<bytes, k, m or g>
   checked for file outputs; minivm does not rotate, the file just grows
 foldmultilines=true|false
   checked; every minivm log line is a single line anyway

Without -Xlog, stdout takes all=warning, and minivm logs nothing at warning
or error. -Xlog:disable turns every output off, that default included.
-verbose:gc is -Xlog:gc. Each -Xlog configures one output; naming it again
sets the levels of the tag sets the new selectors match, keeps the others,
and replaces its decorators.

Examples:
 -Xlog
     every tag set at info on stdout
 -Xlog:gc
     the [gc] pause lines that GCViewer reads, on stdout
 -Xlog:gc*:file=gc.log
     every tag set with gc, at info, in gc.log
 -Xlog:gc*=debug,gc+tlab=trace:stderr:uptimemillis,tid
     gc tag sets at debug and each thread's TLAB line, on stderr, with the
     uptime in ms and the thread id
 -Xlog:gc+heap::time,uptime,level,tags
     each space before and after every collection, with wall-clock time
 -Xlog:gc -Xlog:gc+stats,safepoint:file=stats.log:none
     pause lines on stdout; metrics and safepoint lines, undecorated, in stats.log
 -Xlog:disable -Xlog:safepoint:stderr
     nothing but the safepoint lines, on stderr
`)
}
