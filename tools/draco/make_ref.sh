#!/bin/sh
# Makes lib/anim/test/data/draco/: small meshes (tools/draco/meshes.py writes
# them as .obj) encoded by Google's draco_encoder with many settings, each
# stream decoded by Google's draco_decoder to binary PLY, and the PLY's bytes
# hashed (reference.txt) so draco_test can check that Maul's decoder gives the
# same bits. Needs Debian's `draco` package (apt-get install -y draco); the
# tests do not: they read the committed streams and hashes.
#
# reference.txt, one line a stream:
#   name settings points faces fnv1a64(vertex bytes) fnv1a64(face bytes)
# vertex bytes: per point POSITION then NORMAL (binary32, as the PLY stores
# them); face bytes: per face its three point indices (int32) then, when the
# mesh has TEX_COORD, the three corners' coordinates (binary32).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../lib/anim/test/data/draco}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
(cd "$work" && python3 "$here/meshes.py")
ref="$out/reference.txt"
: > "$ref.tmp"
enc() { # name mesh settings...
    name=$1; mesh=$2; shift 2
    draco_encoder -i "$work/$mesh.obj" -o "$out/$name.drc" "$@" > /dev/null
    draco_decoder -i "$out/$name.drc" -o "$work/$name.ply" > /dev/null
    python3 "$here/ply_hash.py" "$work/$name.ply" "$name" "$(echo "$@" | tr ' ' '_')" >> "$ref.tmp"
}
for cl in 0 1 2 3 4 5 6 7 8 9 10; do
    enc "torus_small_cl$cl" torus_small -cl "$cl"
    enc "holes_cl$cl" holes -cl "$cl"
done
for q in 8 10 12 14 16; do
    enc "wave_q$q" wave -cl 7 -qp "$q" -qt "$q" -qn "$q"
    enc "torus_q${q}_cl10" torus_small -cl 10 -qp "$q" -qn "$q"
    enc "holes_q${q}_cl4" holes -cl 4 -qp "$q" -qt "$q"
done
enc cube_cl7 cube -cl 7
enc cube_cl0 cube -cl 0
enc sphere_cl7 sphere -cl 7
enc sphere_cl10 sphere -cl 10
enc sphere_cl3 sphere -cl 3
enc torus_noquant torus_small -qp 0 -qn 0 -cl 7
mv "$ref.tmp" "$ref"
# The stream `maul bench draco` decodes (not in reference.txt: 40401 points).
draco_encoder -i "$work/bench_torus200.obj" -o "$out/bench_torus200_cl7.drc" -cl 7 > /dev/null

# The Draco streams of the shared glTF models (../shared/data/gltf), when
# there: the bytes of each KHR_draco_mesh_compression view, decoded the same
# way (their JOINTS/WEIGHTS are GENERIC, which PLY leaves out: draco_test and
# gltf_build_test check those against the uncompressed originals).
shared="$here/../../../shared/data/gltf"
if [ -d "$shared" ]; then
    python3 "$here/gltf_streams.py" "$shared" "$out" | while read -r name; do
        draco_decoder -i "$out/$name.drc" -o "$work/$name.ply" > /dev/null
        python3 "$here/ply_hash.py" "$work/$name.ply" "$name" gltf >> "$ref"
    done
fi
