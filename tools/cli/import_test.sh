#!/bin/bash
# maul import on tools/cli/testdata/SimpleSkin (external buffers beside the
# file): the report's rows and counts, the files written by --out (each one
# opens: `maul hash` reads it and its size matches the report), and a
# refused document (exit 1 with the reason) and usage errors (exit 2).
set -uo pipefail
maul="$1"
data="$(dirname "$2")"
out="${TEST_TMPDIR:-$(mktemp -d)}/import-out"
fail() { echo "FAIL: $*"; exit 1; }

report=$("$maul" import "$data/SimpleSkin.gltf" --out "$out" 2>"$out.err")
rc=$?
echo "$report"
[[ $rc == 0 ]] || fail "exit $rc"
grep -q "^open .*SimpleSkin.gltf: ok$" <<<"$report" || fail "open line"
for b in skinGeometry.bin skinningData.bin inverseBindMatrices.bin skinAnimation.bin; do
  grep -q "^buffer [0-3] $b: [0-9]* bytes, ok$" <<<"$report" || fail "buffer $b not supplied"
done
row() { awk -v k="$1" '$1 == k' <<<"$report"; }
# kind index name count bytes identity result; SimpleSkin's nodes and skin are unnamed.
[[ $(row skeleton | awk '{print $2, $3, $4, $7}') == "0 #1 2 ok" ]] || fail "skeleton row: $(row skeleton)"
[[ $(row skin | awk '{print $2, $3, $6}') == "0 2 ok" ]] || fail "skin row: $(row skin)"
[[ $(row influences | awk '{print $2, $3, $6}') == "0.0 10 ok" ]] || fail "influences row: $(row influences)"
[[ $(row clip | awk '{print $2, $3, $6}') == "0@0 1 ok" ]] || fail "clip row: $(row clip)"
grep -q "^4 items, 0 refused, [0-9]* bytes built, 4 files written to " <<<"$report" || fail "summary line"
grep -q "maul import: done in" "$out.err" || fail "no progress line on stderr"
for f in skeleton-0 skin-0 influences-0-0 clip-0-skeleton-0; do
  [[ -s "$out/$f.mani" ]] || fail "$f.mani not written"
done
[[ $(stat -c %s "$out/skeleton-0.mani") == $(row skeleton | awk '{print $5}') ]] || fail "skeleton size"
[[ $(stat -c %s "$out/clip-0-skeleton-0.mani") == $(row clip | awk '{print $4}') ]] || fail "clip size"
# Every file starts with the Maul container's magic (docs/formats.md).
for f in "$out"/*.mani; do
  [[ $(head -c 4 "$f") == MAUL ]] || fail "$f: not a Maul file"
done

# Without --out: the same table, nothing written.
"$maul" import "$data/SimpleSkin.gltf" >/dev/null 2>&1 || fail "exit without --out"

# A refused document: a GLB cut after its header.
printf 'glTF\002\000\000\000\100\000\000\000' > "$out/cut.glb"
refused=$("$maul" import "$out/cut.glb" 2>/dev/null)
rc=$?
[[ $rc == 1 ]] || fail "refused document exit $rc"
grep -q "^open .*cut.glb: mani_errorFormat reason=container" <<<"$refused" || fail "refused line: $refused"
# Usage and I/O errors.
"$maul" import >/dev/null 2>&1; [[ $? == 2 ]] || fail "no file: not usage"
"$maul" import "$out/missing.gltf" >/dev/null 2>&1; [[ $? == 2 ]] || fail "missing file: not 2"
echo PASS
