#!/bin/sh
# Regenerates cmd/minivm/default.pgo, the CPU profile that 'go build' uses
# for profile-guided optimization of the minivm command (inlining, and
# alignment of the dispatch loop's hot blocks). The workload is the
# interp package's Lox benchmarks: clox's interpreter-bound programs and
# the collection-bound tree builders. Needs ../shared/lox beside the
# checkout. Rerun after large changes to the interpreter or the collectors.
set -e
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test ./interp -run '^$' -bench '^BenchmarkLox' -benchtime 3x \
	-cpuprofile "$tmp/cpu.prof" -o "$tmp/interp.test" >/dev/null
go tool pprof -proto "$tmp/cpu.prof" >cmd/minivm/default.pgo 2>/dev/null
echo "wrote cmd/minivm/default.pgo"
