#!/bin/sh
# Makes fuzz/corpus/gltf_draco_fuzzer/: GLBs with KHR_draco_mesh_compression
# primitives, from the shared glTF models (../shared/data/gltf) through
# @gltf-transform/cli's `draco` (GLTF_TRANSFORM names its gltf-transform,
# default the one on PATH). Provenance in the folder's README.md.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../fuzz/corpus/gltf_draco_fuzzer}
shared="$here/../../../shared/data/gltf"
gt=${GLTF_TRANSFORM:-gltf-transform}
mkdir -p "$out"
cp "$shared/draco-testdata/Box/glTF_Binary/Box_Draco.glb" "$out/box_draco.glb"
chmod 644 "$out/box_draco.glb"
cp "$here/../../lib/anim/test/data/draco/AnimatedMorphCube_draco.glb" "$out/animated_morph_cube_draco.glb"
rs="$shared/khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb"
"$gt" draco "$rs" "$out/rigged_simple_edgebreaker.glb" --quantize-generic 8 > /dev/null
"$gt" draco "$rs" "$out/rigged_simple_sequential.glb" --method sequential > /dev/null
# The Draco versions of the Khronos samples, their streams as published,
# packed into GLBs (tools/draco/gltf_to_glb.py).
python3 "$here/gltf_to_glb.py" "$shared/khronos/MorphPrimitivesTest/glTF-Draco/MorphPrimitivesTest.gltf" \
    "$out/morph_primitives_test_draco.glb"
python3 "$here/gltf_to_glb.py" "$shared/khronos/RiggedSimple/glTF-Draco/RiggedSimple.gltf" \
    "$out/rigged_simple_draco.glb"
"$gt" draco "$shared/khronos/SimpleMorph/glTF/SimpleMorph.gltf" "$out/simple_morph.glb" > /dev/null
