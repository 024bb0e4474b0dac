// Steps three-vrm's VRMSpringBoneManager on the documents add_springs.py
// writes, their VRMC_springBone_limit extensions removed (three-vrm 3.5.5
// does not read them), and on three-vrm's own example documents
// (../shared/data/gltf/vrm/three-vrm-springbone: their meshes and buffers
// left out, their "1.0-draft" limits unread by three-vrm as by Maul), and
// writes every spring joint's world position per step. Run by
// make_reference.sh from the temporary directory its npm install made:
//   node threevrm_reference.mjs [--kept] OUT_DIR DOC...
// writing OUT_DIR/<doc>-threevrm.txt (<doc> the file name less
// "-springs.gltf" or ".gltf"), or with --kept <doc>-threevrm-kept.txt.
//
// --kept: three-vrm 3.5.5 takes a joint's bone length each update as the
// distance from the joint's world position to its child's
// (VRMSpringBoneJoint._calcWorldSpaceBoneLength), but the child's world
// matrix is still the one the scene's updateMatrixWorld gave before the
// update, from the parent joint's rotation of the previous update
// (VRMSpringBoneManager.update refreshes a joint's own matrix before its
// update and only non-joint descendants after it). So a joint below
// another joint normalizes its tail to a length that grows and shrinks as
// its parent turns, and carries that tail into the next update's inertia.
// Maul's tails keep their bone's length (spring.h). With --kept the child's
// world matrix is refreshed from its parent's current one before the length
// is taken; nothing else in three-vrm changes.
//
// Motion, the same as lib/anim/test/gltf_springs_test.cc drives: the scene
// root placed at x = A sin(2 pi 1.3 t), z = A/2 sin(2 pi 0.7 t), t = k / 60
// for k = 0 ... 600, A five times the first spring's first bone's length at
// rest; one update of 1/60 s a step (Maul's fixed step at 60 Hz).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { VRMSpringBoneLoaderPlugin, VRMSpringBoneJoint } from '@pixiv/three-vrm';

function stripLimits(doc) {
  for (const spring of doc.extensions.VRMC_springBone.springs)
    for (const joint of spring.joints)
      if (joint.extensions) delete joint.extensions.VRMC_springBone_limit;
  doc.extensionsUsed = doc.extensionsUsed.filter((e) => e !== 'VRMC_springBone_limit');
  return doc;
}

// Nodes, scenes and extensions only (the examples' meshes name an external
// buffer the loader would fetch; the springs never read them).
function stripMeshes(doc) {
  for (const n of doc.nodes) delete n.mesh;
  for (const key of ['meshes', 'accessors', 'bufferViews', 'buffers', 'materials', 'textures', 'images', 'samplers'])
    delete doc[key];
  return doc;
}

const args = process.argv.slice(2);
const kept = args[0] === '--kept';
if (kept) {
  args.shift();
  const length = VRMSpringBoneJoint.prototype._calcWorldSpaceBoneLength;
  if (typeof length !== 'function') throw new Error('three-vrm without _calcWorldSpaceBoneLength: not 3.5.5?');
  VRMSpringBoneJoint.prototype._calcWorldSpaceBoneLength = function () {
    if (this.child) {
      // A joint's bone has matrixAutoUpdate off: mark its matrix for the
      // world update (three 0.187 skips a world matrix not marked).
      this.child.updateMatrix();
      this.child.updateWorldMatrix(false, false);
    }
    return length.call(this);
  };
}

async function run(outDir, file) {
  const doc = stripMeshes(stripLimits(JSON.parse(fs.readFileSync(file, 'utf8'))));
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMSpringBoneLoaderPlugin(parser));
  const gltf = await new Promise((ok, fail) => loader.parse(JSON.stringify(doc), '', ok, fail));
  const manager = gltf.userData.vrmSpringBoneManager;
  const scene = gltf.scene;
  scene.updateMatrixWorld(true);
  const springs = doc.extensions.VRMC_springBone.springs;
  const nodes = [];
  for (const spring of springs) for (const j of spring.joints) nodes.push(j.node);
  const objects = await Promise.all(nodes.map((n) => gltf.parser.getDependency('node', n)));
  const hair = springs[0].joints;
  const h0 = await gltf.parser.getDependency('node', hair[0].node);
  const h1 = await gltf.parser.getDependency('node', hair[1].node);
  const a = new THREE.Vector3(), b = new THREE.Vector3();
  h0.getWorldPosition(a);
  h1.getWorldPosition(b);
  const A = 5 * a.distanceTo(b);
  manager.setInitState();
  const lines = [];
  lines.push('# three-vrm reference: ' + path.basename(file) + ' without VRMC_springBone_limit' +
             (kept ? ', child matrices refreshed before the bone length (--kept)' : ''));
  lines.push('# @pixiv/three-vrm 3.5.5, three 0.187.0, node ' + process.version + ', tools/springs/make_reference.sh');
  lines.push('# sway amplitude ' + A.toPrecision(9) + '; joints (nodes) ' + nodes.join(' '));
  lines.push('# each line: step k, then every joint\'s world x y z after the update at t = k / 60');
  const p = new THREE.Vector3();
  for (let k = 0; k <= 600; ++k) {
    const t = k / 60;
    scene.position.set(A * Math.sin(2 * Math.PI * 1.3 * t), 0, A * 0.5 * Math.sin(2 * Math.PI * 0.7 * t));
    scene.updateMatrixWorld(true);
    manager.update(1 / 60);
    scene.updateMatrixWorld(true);
    const row = [String(k)];
    for (const o of objects) {
      o.getWorldPosition(p);
      row.push(p.x.toPrecision(9), p.y.toPrecision(9), p.z.toPrecision(9));
    }
    lines.push(row.join(' '));
  }
  const stem = path.basename(file).replace(/-springs\.gltf$/, '').replace(/\.gltf$/, '');
  const out = path.join(outDir, stem + (kept ? '-threevrm-kept.txt' : '-threevrm.txt'));
  fs.writeFileSync(out, lines.join('\n') + '\n');
}

const [outDir, ...files] = args;
for (const f of files) await run(outDir, f);
