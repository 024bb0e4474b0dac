#!/bin/sh
# Maul's Draco decoder against Google's on the same streams, side by side in
# one run: `maul bench draco` (tools/cli/bench.c: maniDracoDecode, median of
# 5 runs of 10 decodes, CLOCK_MONOTONIC), Google's library timed the same way
# in process (tools/draco/google_bench.cc, Debian's libdraco-dev), and
# Google's draco_decoder tool (the decode milliseconds it prints, median of
# five; it includes its own mesh building): ns per decode by the wall clock
# and by the thread's CPU clock, MB of stream and Mpoints per CPU second (the
# machine is shared: load dilutes the wall clock, not the CPU clock).
# Run from anywhere; needs draco and libdraco-dev (tools/bootstrap installs
# them). Prints a Markdown table (docs/performance.md keeps one).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -O2 -std=c++17 tools/draco/google_bench.cc -ldraco -o "$work/google_bench"
tools/maul bench draco > "$work/maul.txt"
# the cases of bench.c's maul_BenchDraco, in its order
set -- draco-torus200-cl7 lib/anim/test/data/draco/bench_torus200_cl7.drc \
       draco-cesiumman lib/anim/test/data/draco/gltf_CesiumMan_m0_p0.drc
echo "| case | stream bytes | points | Maul ns/decode | Maul CPU ns/decode | Maul MB/cpu-s | Maul Mpoints/cpu-s | Google ns/decode | Google CPU ns/decode | Google MB/cpu-s | Google Mpoints/cpu-s | draco_decoder ms |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
while [ $# -ge 2 ]; do
    name=$1 stream=$2
    shift 2
    maul=$(awk -v n="$name" '$1 == n { print $3, $4, $11 }' "$work/maul.txt")
    google=$("$work/google_bench" 10 "$stream")
    echo "$google $maul" | awk -v n="$name" '{
        bytes = $2; points = $3; g = $4; gc = $5; m = $6; mc = $7; t = $8;
        printf "| `%s` | %d | %d | %.0f | %.0f | %.1f | %.2f | %.0f | %.0f | %.1f | %.2f | %s |\n",
            n, bytes, points, m, mc, bytes / mc * 1e3, points / mc * 1e3,
            g, gc, bytes / gc * 1e3, points / gc * 1e3, t }'
done
