#!/bin/sh
# The locality experiment of BENCHMARKS.md ("Does placement help the
# program?"): every locality workload under the four traversal orders,
# exact counts under callgrind (minivm bench -sim). The last-level cache
# is set to 1 MB (--LL) so that the structures (2-4 MB) do not fit in it;
# D1 is the machine's. For counts that repeat exactly, MINIVM should be
# built with GOEXPERIMENT=norandomizedheapbase64 (bench -sim says so
# otherwise).
#
# usage: benchmarks/locality.sh [MINIVM] [-o FILE] [script.lox...]
set -e
cd "$(dirname "$0")/.."
minivm=${1:-./minivm}
[ $# -gt 0 ] && shift
scripts=no
for a in "$@"; do
  case $a in *.lox) scripts=yes ;; esac
done
[ $scripts = yes ] || set -- "$@" benchmarks/tree_search.lox benchmarks/dom_query.lox benchmarks/hash_lookup.lox benchmarks/list_walk.lox benchmarks/tree_walk.lox benchmarks/dom_walk.lox
exec "$minivm" bench -sim -LL 1048576,16,64 \
  -config 'bf=-Xmn16m -Xgc:breadthFirstScanOrdering' \
  -config 'hier=-Xmn16m -Xgc:hierarchicalScanOrdering' \
  -config 'df=-Xmn16m -Xgc:recursiveScanOrdering' \
  -config 'dfhot=-Xmn16m -Xgc:recursiveScanOrdering -Xgc:hotFieldScanOrdering' \
  "$@"
