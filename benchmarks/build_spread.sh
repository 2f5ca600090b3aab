#!/bin/sh
# Measures how much the interpreter's speed depends on where the linker
# puts it. Builds minivm from HEAD several times, each with a padding
# function of a different size added to package runtime/gc (which is
# linked before interp), so the builds differ only outside interp/ and
# only in the addresses of the code after the padding. Prints where
# interp's dispatch loop landed in each build, then times the builds on
# the programs interleaved (peers.py --builds: medians, and each build's
# ratio to the first).
#
# usage: benchmarks/build_spread.sh [-n ROUNDS] [-b fib,equality] [--cpu] [PAD ...]
#   PAD: padding sizes in bytes (default 0 32 64 96 2080 4128)
#   --cpu: time CPU seconds (peers.py --cpu), which other load disturbs less
# e.g.  flock /tmp/bench.lock benchmarks/build_spread.sh -n 7
#
# Only committed code is built (a temporary worktree of HEAD), with the
# default build flags (cmd/minivm/default.pgo applies). Needs ../shared/lox.
set -e
rounds=5
progs=fib,equality
cpu=""
while [ $# -gt 0 ]; do
	case "$1" in
	-n) rounds=$2; shift 2 ;;
	-b) progs=$2; shift 2 ;;
	--cpu) cpu=--cpu; shift ;;
	-*) echo "build_spread.sh: unknown option $1" >&2; exit 64 ;;
	*) break ;;
	esac
done
pads=${*:-0 32 64 96 2080 4128}
cd "$(dirname "$0")/.."
root=$(pwd)
tmp=$(mktemp -d)
src="$tmp/src"
cleanup() {
	git -C "$root" worktree remove --force "$src" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
git worktree add --detach "$src" HEAD >/dev/null
builds=""
for pad in $pads; do
	case "$pad" in
	*[!0-9]* | "") echo "build_spread.sh: padding '$pad' is not a byte count" >&2; exit 64 ;;
	esac
	rm -f "$src/runtime/gc/zz_pad_amd64.s" "$src/runtime/gc/zz_pad.go"
	if [ "$pad" -gt 0 ]; then
		# A function of pad one-byte NOPs, kept by a call the compiler
		# cannot rule out (padNever is a variable).
		{
			echo '#include "textflag.h"'
			echo 'TEXT ·buildPad(SB), NOSPLIT, $0-0'
			i=0
			while [ $i -lt "$pad" ]; do echo '	BYTE $0x90'; i=$((i + 1)); done
			echo '	RET'
		} >"$src/runtime/gc/zz_pad_amd64.s"
		printf 'package gc\n\nfunc buildPad()\n\nvar padNever bool\n\nfunc init() {\n\tif padNever {\n\t\tbuildPad()\n\t}\n}\n' \
			>"$src/runtime/gc/zz_pad.go"
	fi
	bin="$tmp/minivm-pad$pad"
	(cd "$src" && go build -o "$bin" ./cmd/minivm)
	at=$(go tool nm "$bin" | awk '$3 ~ /interp\.\(\*VM\)\.run$/ { print $1 }')
	echo "pad $pad: interp.(*VM).run at 0x$at ($bin)"
	builds="$builds --minivm $bin"
done
# shellcheck disable=SC2086
python3 "$root/benchmarks/peers.py" --builds $cpu -n "$rounds" -b "$progs" $builds
