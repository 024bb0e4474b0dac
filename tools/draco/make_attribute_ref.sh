#!/bin/sh
# Makes lib/anim/test/data/draco/attributes.txt (and the gt_*.drc streams and
# the morphed pair AnimatedMorphCube_draco.glb beside it): every attribute of
# every stream there as Google's Draco library decodes it, GENERIC ones
# (glTF's JOINTS_n / WEIGHTS_n) included, which draco_decoder's PLY leaves
# out. draco_test checks that Maul's decoder gives the same bytes.
#
# Needs Debian's draco and libdraco-dev (apt-get install -y draco
# libdraco-dev), node with @gltf-transform/cli (npm install
# @gltf-transform/cli; GLTF_TRANSFORM names its gltf-transform, default the
# one on PATH) and ../shared/data/gltf. The tests need none of them.
#
# gt_<model>_<settings>_m<mesh>_p<primitive>.drc: the Draco views
# gltf-transform 4.5.1's `draco` (Google's encoder, as WebAssembly) wrote for
# the skinned shared models with the settings in the name:
#   eb<speed>q<bits>: --method edgebreaker --encode-speed <speed>
#                     --decode-speed <speed> --quantize-generic <bits>
#   seq q<bits>:      --method sequential --quantize-generic <bits>
# attributes.txt, a line an attribute (tools/draco/attribute_ref.cc):
#   name unique_id attribute_type data_type components points fnv1a64
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../lib/anim/test/data/draco}
shared="$here/../../../shared/data/gltf"
gt=${GLTF_TRANSFORM:-gltf-transform}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -O1 -std=c++17 "$here/attribute_ref.cc" -ldraco -o "$work/attribute_ref"

skinned() { # model path in shared, settings name, gltf-transform options...
    model=$1; glb=$2; settings=$3; shift 3
    "$gt" draco "$shared/$glb" "$work/$model.glb" "$@" > /dev/null
    python3 "$here/glb_streams.py" "$work/$model.glb" "$out" "gt_${model}_$settings" > /dev/null
}
for m in RiggedSimple Fox; do
    glb=khronos/$m/glTF-Binary/$m.glb
    skinned "$m" "$glb" eb0q8 --method edgebreaker --encode-speed 0 --decode-speed 0 --quantize-generic 8
    skinned "$m" "$glb" eb5q12 --method edgebreaker --quantize-generic 12
    skinned "$m" "$glb" eb10q16 --method edgebreaker --encode-speed 10 --decode-speed 10 --quantize-generic 16
    skinned "$m" "$glb" seqq8 --method sequential --quantize-generic 8
    skinned "$m" "$glb" seqq16 --method sequential --quantize-generic 16
done
skinned CesiumMan khronos/CesiumMan/glTF-Binary/CesiumMan.glb eb5q8 --method edgebreaker --quantize-generic 8

# The morphed pair: AnimatedMorphCube with its primitive Draco-compressed
# (the targets stay plain accessors, in the stream's vertex order).
"$gt" draco "$shared/khronos/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb" \
    "$out/AnimatedMorphCube_draco.glb" > /dev/null

"$work/attribute_ref" "$out"/*.drc > "$out/attributes.txt"
