#!/bin/sh
# Turns golden/<suite>.txt files into a C table (mconf_golden) so every
# conformance binary, the arm64 one under qemu included, carries its goldens.
# Usage: golden_to_c.sh OUT.c golden/a.txt golden/b.txt ...
# Fails on any line that is not "case-name 16-hex-digit-hash".
set -eu
out="$1"; shift
{
  echo '/* Generated from the golden files by conformance/framework/golden_to_c.sh. */'
  echo '#include "conformance/framework/conformance.h"'
  echo 'const mconf_GoldenLine mconf_golden[] = {'
} > "$out"
count=0
for f in "$@"; do
  suite=$(basename "$f" .txt)
  awk -v suite="$suite" -v file="$f" '
    NF == 0 { next }
    NF != 2 || $1 !~ /^[A-Za-z0-9._-]+$/ || length($2) != 16 || $2 !~ /^[0-9a-f]+$/ {
      printf "%s:%d: not \"case-name 16-hex-digit-hash\": %s\n", file, NR, $0 > "/dev/stderr"; exit 1 }
    { printf "    {\"%s\", \"%s\", UINT64_C(0x%s)},\n", suite, $1, $2 }' "$f" >> "$out"
  n=$(awk 'NF > 0' "$f" | wc -l)
  count=$((count + n))
done
{
  echo '    {0, 0, 0} /* sentinel, not counted */'
  echo '};'
  echo "const size_t mconf_goldenCount = $count;"
} >> "$out"
