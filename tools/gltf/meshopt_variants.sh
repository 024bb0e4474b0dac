#!/bin/bash
# Writes lib/anim/test/data/gltf-meshopt/*.glb: EXT_meshopt_compression
# variants of shared models made by gltf-transform's `meshopt` command
# (meshoptimizer's own encoder, --level medium: geometry, morph targets and
# animation compressed, attributes quantized), for gltf_meshopt_variants_test.
# Run from the worktree root with @gltf-transform/cli installed into a
# temporary prefix (never into the tree):
#   P=$(mktemp -d); npm install --prefix "$P" --ignore-scripts @gltf-transform/cli@4.5.1
#   tools/gltf/meshopt_variants.sh "$P" [SHARED_GLTF_DIR]
set -euo pipefail
prefix=$1
shared=${2:-../shared/data/gltf}
out=lib/anim/test/data/gltf-meshopt
mkdir -p "$out"
for m in khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb khronos/RiggedFigure/glTF-Binary/RiggedFigure.glb \
         khronos/Fox/glTF-Binary/Fox.glb khronos/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb \
         khronos/InterpolationTest/glTF-Binary/InterpolationTest.glb; do
  b=$(basename "$m" .glb)
  "$prefix/node_modules/.bin/gltf-transform" meshopt "$shared/$m" "$out/$b-meshopt.glb" --level medium >/dev/null
  echo "$b-meshopt.glb $(sha256sum < "$shared/$m" | cut -c1-64) $(sha256sum < "$out/$b-meshopt.glb" | cut -c1-64)"
done
