#!/bin/sh
# Builds clox, the C interpreter of Crafting Interpreters, as its own
# release build does (C99, -O3 -flto, NaN boxing, no debug tracing), for
# peers.py's CLOX variable.
#
# usage: benchmarks/peers/build_clox.sh CHECKOUT [OUT]
#   CHECKOUT: a clone of github.com/munificent/craftinginterpreters
#   OUT: the binary to write (default ./clox)
# then:  CLOX=./clox python3 benchmarks/peers.py -n 5
set -e
if [ $# -lt 1 ] || [ ! -f "$1/c/main.c" ]; then
	echo "usage: build_clox.sh CHECKOUT [OUT] (CHECKOUT/c/main.c must exist)" >&2
	exit 64
fi
out=${2:-./clox}
cc=${CC:-gcc}
$cc -std=c99 -O3 -flto -Wall -Wno-unused-parameter -o "$out" "$1"/c/*.c
echo "wrote $out"
