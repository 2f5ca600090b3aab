// Command minivm runs Lox scripts on minivm's bytecode VM and managed heap.
//
//	minivm [options] script.lox [args...]
//	minivm [options]                        (REPL)
//
// Run 'minivm -help' for the options and 'minivm -X' for the heap and GC
// options. The command line lives in package cli so tests can run it
// in-process. default.pgo beside this file is the CPU profile 'go build'
// optimizes the command with (benchmarks/pgo.sh regenerates it).
package main

import (
	"os"

	"minivm/cmd/minivm/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
