#!/bin/sh
# Writes lib/anim/test/data/springs/<Model>-threevrm.txt: three-vrm's spring
# joints per step on the documents add_springs.py wrote (see
# threevrm_reference.mjs). Installs @pixiv/three-vrm and three with npm into
# a temporary directory (never into the tree; the tests never run this).
# Run from the project root: sh tools/springs/make_reference.sh
set -eu
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp tools/springs/threevrm_reference.mjs "$tmp/"
cd "$tmp"
echo '{"type": "module", "private": true}' > package.json
npm install --no-audit --no-fund --silent @pixiv/three-vrm@3.5.5 three@0.187.0
node threevrm_reference.mjs "$root/lib/anim/test/data/springs" \
  "$root/lib/anim/test/data/springs/Fox-springs.gltf" \
  "$root/lib/anim/test/data/springs/CesiumMan-springs.gltf" \
  "$root/lib/anim/test/data/springs/RiggedFigure-springs.gltf"
