#!/bin/sh
# Writes lib/anim/test/data/springs/<doc>-threevrm.txt and
# <doc>-threevrm-kept.txt: three-vrm's spring joints per step (see
# threevrm_reference.mjs; -kept with each joint's child matrix refreshed
# before its bone length is taken) on the documents add_springs.py wrote and
# on three-vrm's own examples in ../shared/data/gltf/vrm/three-vrm-springbone.
# Installs @pixiv/three-vrm and three with npm into a temporary directory
# (never into the tree; the tests never run this).
# Run from the project root: sh tools/springs/make_reference.sh
set -eu
root=$(pwd)
data="$root/lib/anim/test/data/springs"
examples="$root/../shared/data/gltf/vrm/three-vrm-springbone"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp tools/springs/threevrm_reference.mjs "$tmp/"
cd "$tmp"
echo '{"type": "module", "private": true}' > package.json
npm install --no-audit --no-fund --silent @pixiv/three-vrm@3.5.5 three@0.187.0
set -- "$data/Fox-springs.gltf" "$data/CesiumMan-springs.gltf" "$data/RiggedFigure-springs.gltf" \
  "$examples/sphere-collider.gltf" "$examples/inside-collider.gltf" "$examples/cone-limit.gltf" \
  "$examples/hinge-limit.gltf"
node threevrm_reference.mjs "$data" "$@"
node threevrm_reference.mjs --kept "$data" "$@"
