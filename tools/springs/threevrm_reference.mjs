// Steps three-vrm's VRMSpringBoneManager on the documents add_springs.py
// writes, their VRMC_springBone_limit extensions removed (three-vrm 3.5.5
// does not read them), and writes every spring joint's world position per
// step. Run by make_reference.sh from the temporary directory its npm
// install made: node threevrm_reference.mjs OUT_DIR DOC...
//
// Motion, the same as lib/anim/test/gltf_springs_test.cc drives: the scene
// root placed at x = A sin(2 pi 1.3 t), z = A/2 sin(2 pi 0.7 t), t = k / 60
// for k = 0 ... 600, A five times the hair's first bone's length at rest;
// one update of 1/60 s a step (Maul's fixed step at 60 Hz).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { VRMSpringBoneLoaderPlugin } from '@pixiv/three-vrm';

function stripLimits(doc) {
  for (const spring of doc.extensions.VRMC_springBone.springs)
    for (const joint of spring.joints)
      if (joint.extensions) delete joint.extensions.VRMC_springBone_limit;
  doc.extensionsUsed = doc.extensionsUsed.filter((e) => e !== 'VRMC_springBone_limit');
  return doc;
}

async function run(outDir, file) {
  const doc = stripLimits(JSON.parse(fs.readFileSync(file, 'utf8')));
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
  lines.push('# three-vrm reference: ' + path.basename(file) + ' without VRMC_springBone_limit');
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
  const out = path.join(outDir, path.basename(file).replace('-springs.gltf', '-threevrm.txt'));
  fs.writeFileSync(out, lines.join('\n') + '\n');
}

const [outDir, ...files] = process.argv.slice(2);
for (const f of files) await run(outDir, f);
