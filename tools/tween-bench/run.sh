#!/bin/bash
# tools/tween-bench/run.sh: Maul's tween update beside the JavaScript engines
# UI developers use, per item per frame, in one run (docs/performance.md,
# "Tween update beside the JavaScript engines").
#   tools/tween-bench/run.sh [--config=NAME]
# MAUL_BIN=path runs that maul binary instead of building tools/maul's.
# Installs the engines pinned in package.json (npm: gsap, animejs,
# @tweenjs/tween.js, motion) into a temporary prefix that is removed at the
# end (never into the tree; no test runs this), then runs
# `maul bench tween-update` and engines.mjs on the same workloads, one
# workload after the other, and prints the table: ns per item per frame, and
# Maul's cost as a share of GSAP's. An engine that does not install or run
# is reported as such and left out. Both sides are timed in CPU time
# (MAUL_BENCH_CPU=1; set it to 0 for the wall clock).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cp "$here/package.json" "$prefix/"
( cd "$prefix" && npm install --ignore-scripts --no-audit --no-fund --no-package-lock >/dev/null 2>&1 ) ||
  echo "note: npm install failed in part; the engines that installed are measured" >&2
# CPU time on both sides (bench.c's maul_Now, engines.mjs's realNow): the
# machine is shared, and wall time under load says little.
export MAUL_BENCH_CPU=${MAUL_BENCH_CPU:-1}
maul_out=$prefix/maul.txt
js_out=$prefix/js.txt
if [[ -n ${MAUL_BIN:-} ]]; then "$MAUL_BIN" bench tween-update > "$maul_out"
else "$root/tools/maul" "$@" bench tween-update > "$maul_out"; fi
node "$here/engines.mjs" "$prefix/node_modules" > "$js_out"
# maul lines: "tween-update-KIND-N iterations ns/op ns/item"; engines.mjs
# lines: "ENGINE KIND-N frames ns/frame ns/item" (or "ENGINE failed WHY").
awk '
  FNR == NR { if ($1 ~ /^tween-update-/) { k = $1; sub(/^tween-update-/, "", k); maul[k] = $4 } next }
  $2 == "failed" { failed[$1] = $0; next }
  { js[$1 "|" $2] = $5; engines[$1] = 1; cases[$2] = 1 }
  END {
    n = split("gsap anime.js tween.js motion", order, " ")
    printf "%-28s %10s", "case (ns per item per frame)", "maul"
    for (i = 1; i <= n; ++i) if (order[i] in engines) printf " %10s", order[i]
    printf " %12s\n", "maul/gsap"
    m = split("transitions-1000 transitions-10000 transitions-100000 players-1000 players-10000 players-100000 players-linear-1000 players-linear-10000 players-linear-100000", want, " ")
    for (j = 1; j <= m; ++j) {
      c = want[j]
      printf "%-28s %10s", c, (c in maul) ? sprintf("%.1f", maul[c]) : "-"
      for (i = 1; i <= n; ++i) if (order[i] in engines) printf " %10s", ((order[i] "|" c) in js) ? sprintf("%.1f", js[order[i] "|" c]) : "-"
      g = js["gsap|" c]
      printf " %12s\n", (c in maul && g > 0) ? sprintf("%.2f", maul[c] / g) : "-"
    }
    for (e in failed) print "note: " failed[e]
  }' "$maul_out" "$js_out"
