#!/bin/sh
# Turns data files into a C table (mconf_gltfFiles, conformance/suites/gltf.h)
# so every conformance binary, the arm64 one under qemu included, carries
# them. Usage: files_to_c.sh OUT.c PREFIX FILE...; each file is named by its
# path with PREFIX taken off the front.
set -eu
out="$1"; prefix="$2"; shift 2
{
  echo '/* Generated from conformance/data/gltf by conformance/framework/files_to_c.sh. */'
  echo '#include "conformance/suites/gltf.h"'
} > "$out"
i=0
for f in "$@"; do
  printf '_Alignas(16) static const unsigned char mconf_file%d[] = {\n' "$i" >> "$out"
  od -An -v -tu1 "$f" | awk '{ line = "   "; for (k = 1; k <= NF; k++) line = line " " $k ","; print line }' >> "$out"
  echo '    0};' >> "$out"
  i=$((i + 1))
done
echo 'const mconf_EmbeddedFile mconf_gltfFiles[] = {' >> "$out"
i=0
for f in "$@"; do
  name=${f#"$prefix"}
  size=$(wc -c < "$f" | tr -d ' ')
  printf '    {"%s", mconf_file%d, %s},\n' "$name" "$i" "$size" >> "$out"
  i=$((i + 1))
done
echo '    {0, 0, 0}};' >> "$out"
echo "const size_t mconf_gltfFileCount = $i;" >> "$out"
