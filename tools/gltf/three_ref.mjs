// Expected poses and skinned vertex positions for the glTF importer (issue #17),
// evaluated independently of Maul by three.js (npm `three`, version pinned in
// tools/gltf/package.json): GLTFLoader parses each animated model under
// ../shared/data/gltf, AnimationMixer samples each clip, SkinnedMesh skins the
// first vertices of the first skinned primitive. The outputs are written to
// lib/anim/test/data/gltf-ref/poses/*.json; the C tests read them and never run
// this script or need npm.
//
// Run from the worktree root (node >= 20; the network is needed once, for npm):
//   P=$(mktemp -d); npm install --prefix "$P" three@0.187.0
//   node tools/gltf/three_ref.mjs "$P" [SHARED_GLTF_DIR]
//
// How the files are loaded in node (no DOM):
// - The file's bytes are passed to GLTFLoader.parse (GLB or JSON).
// - External buffers: the loader's LoadingManager URL modifier maps each
//   relative URI to a data: URI holding the file read from disk beside the
//   .gltf (node's fetch decodes data: URIs); data: buffers are left as they are.
// - node 20 has no DOM ProgressEvent (FileLoader's progress callback): a
//   minimal Event subclass stands in.
// - Images are never decoded: a loader plugin answers every texture with an
//   empty THREE.Texture, so images missing from shared/ (see its README) and
//   embedded GLB images are both skipped; nothing here depends on textures.
// - Files whose extensionsRequired include KHR_draco_mesh_compression are left
//   out (three needs its DRACOLoader and a wasm decoder); their animations are
//   the same as the non-Draco variant's.
//
// Sampling: for each clip (three's AnimationClip made from one glTF animation)
// the times are the union of its keyframe times (float32, as stored) and the
// midpoints between consecutive ones (rounded to float32); when there are more
// than 64 such times, 64 are taken evenly by index (the first and the last
// always). At each time the action is reset, played with LoopOnce and
// clampWhenFinished (so t = duration gives the last key, not the first), and
// mixer.setTime(t) is called; then each node channel's target is read:
// Object3D.position / quaternion (x,y,z,w) / scale, or morphTargetInfluences of
// the node's mesh (its first primitive for a multi-primitive mesh). Values are
// the float32 results of three's interpolants (the mixer copies them at weight
// 1), written as decimals with 9 significant digits (they parse back to the
// same float32). KHR_animation_pointer channels (no target.node) are not
// evaluated by three 0.187's GLTFLoader and are not recorded; an animation
// with no node channel is left out, and a model with none is.
// Each channel also says at how many of its own key times it was sampled
// (keyTimesSampled) and at how many of those three's value is not the stored
// key's float32 value (keyTimesDiffering), and the largest absolute difference
// of a component there (keyMaxAbsDifference).
//
// Skinning: at t = 0, duration/4, duration/2, 3*duration/4 and duration of each clip, the scene's world
// matrices are updated, skeleton.update() runs, and for the first (up to) 64
// vertices of the POSITION attribute of the first skinned primitive (node
// order, primitive 0) SkinnedMesh.applyBoneTransform gives
//   sum_i w_i * jointWorld_i * inverseBind_i * position
// in binary64. GLTFLoader binds every skinned mesh with an identity bind
// matrix, so this is in the glTF scene root's space ("model space"): joint
// world matrices include the non-joint ancestors of the skeleton root (e.g.
// CesiumMan's Z_UP and Armature matrices) and the skinned mesh node's own
// transform is ignored, as the glTF specification says. GLTFLoader renormalizes
// skin weights (Mesh.normalizeSkinWeights: each set scaled by 1/sum); three uses
// only JOINTS_0/WEIGHTS_0. Morph targets are not applied to the skinned positions.
//
// Every output is sorted and deterministic: a second run writes the same bytes.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';

const prefix = process.argv[2];
if (!prefix) {
    console.error('usage: node tools/gltf/three_ref.mjs NPM_PREFIX [SHARED_GLTF_DIR]');
    process.exit(2);
}
const root = path.resolve(process.argv[3] || '../shared/data/gltf');
// FileLoader reports progress with the DOM's ProgressEvent, which node 20 lacks.
if (typeof globalThis.ProgressEvent === 'undefined') {
    globalThis.ProgressEvent = class ProgressEvent extends Event {
        constructor(type, init = {}) { super(type); Object.assign(this, init); }
    };
}
const threeDir = path.join(path.resolve(prefix), 'node_modules', 'three');
const THREE = await import(pathToFileURL(path.join(threeDir, 'build', 'three.module.js')).href);
const { GLTFLoader } = await import(pathToFileURL(path.join(threeDir, 'examples', 'jsm', 'loaders', 'GLTFLoader.js')).href);
const threeVersion = JSON.parse(fs.readFileSync(path.join(threeDir, 'package.json'), 'utf8')).version;

const MAX_TIMES = 64;
const MAX_VERTICES = 64;
// RecursiveSkeletons animates 840 nodes: only the first MAX_NODES channels (by
// channel order) are written in full; allNodesSha256 covers every channel.
const MAX_NODES = 48;

const f32 = Math.fround;
const num = (v) => Number(f32(v).toPrecision(9));

function walk(dir) {
    const out = [];
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) out.push(...walk(p));
        else if (/\.(gltf|glb|vrm)$/i.test(e.name)) out.push(p);
    }
    return out;
}

function readJson(bytes) {
    if (bytes.readUInt32LE(0) === 0x46546c67) {
        const len = bytes.readUInt32LE(12);
        return JSON.parse(bytes.subarray(20, 20 + len).toString('utf8'));
    }
    return JSON.parse(bytes.toString('utf8'));
}

function parseGltf(full, bytes) {
    const dir = path.dirname(full);
    const manager = new THREE.LoadingManager();
    manager.setURLModifier((url) => {
        if (url.startsWith('data:')) return url;
        const p = path.resolve(dir, decodeURIComponent(url));
        return 'data:application/octet-stream;base64,' + fs.readFileSync(p).toString('base64');
    });
    const loader = new GLTFLoader(manager);
    loader.register(() => ({ name: 'MAUL_no_images', loadTexture: () => Promise.resolve(new THREE.Texture()) }));
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    return new Promise((resolve, reject) => loader.parse(ab, '', resolve, reject));
}

function sampleTimes(clip) {
    const keys = new Set();
    for (const tr of clip.tracks) for (const t of tr.times) keys.add(t);
    const k = [...keys].sort((a, b) => a - b);
    const all = [];
    for (let i = 0; i < k.length; i++) {
        all.push(k[i]);
        if (i + 1 < k.length) {
            const m = f32((k[i] + k[i + 1]) / 2);
            if (m > k[i] && m < k[i + 1]) all.push(m);
        }
    }
    if (all.length <= MAX_TIMES) return all;
    const out = [];
    for (let i = 0; i < MAX_TIMES; i++) out.push(all[Math.round(i * (all.length - 1) / (MAX_TIMES - 1))]);
    return out;
}

// The key values as three's tracks hold them: normalized integers scaled by
// 1/(2^(bits-1)-1) or 1/(2^bits-1), as GLTFLoader._getArrayFromAccessor does.
function keyArray(attr, def) {
    const a = attr.array;
    if (!def.normalized) return a;
    const scale = { 5120: 1 / 127, 5121: 1 / 255, 5122: 1 / 32767, 5123: 1 / 65535 }[def.componentType];
    return Float32Array.from(a, (x) => x * scale);
}

function morphMesh(obj) {
    if (obj.morphTargetInfluences) return obj;
    for (const c of obj.children) if (c.morphTargetInfluences) return c;
    return null;
}

function readTarget(obj, p) {
    switch (p) {
        case 'translation': return [obj.position.x, obj.position.y, obj.position.z];
        case 'rotation': return [obj.quaternion.x, obj.quaternion.y, obj.quaternion.z, obj.quaternion.w];
        case 'scale': return [obj.scale.x, obj.scale.y, obj.scale.z];
        case 'weights': { const m = morphMesh(obj); return m ? [...m.morphTargetInfluences] : []; }
    }
    throw new Error(p);
}

function setTime(mixer, action, t) {
    action.reset();
    action.play();
    mixer.setTime(t);
}

const outDir = 'lib/anim/test/data/gltf-ref/poses';
fs.mkdirSync(outDir, { recursive: true });
for (const f of fs.readdirSync(outDir)) fs.unlinkSync(path.join(outDir, f));

const files = walk(root).map((p) => path.relative(root, p).split(path.sep).join('/'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const index = [];
for (const rel of files) {
    const full = path.join(root, rel);
    const bytes = fs.readFileSync(full);
    let json;
    try { json = readJson(bytes); } catch { continue; }
    if (!json.animations || json.animations.length === 0) continue;
    if ((json.extensionsRequired || []).includes('KHR_draco_mesh_compression')) continue;
    if (rel.startsWith('validator/')) continue; // invalid on purpose: the validator verdicts cover them
    const gltf = await parseGltf(full, bytes);
    const parser = gltf.parser;
    const nodeObj = new Map();
    gltf.scene.traverse((o) => {
        const a = parser.associations.get(o);
        if (a && a.nodes !== undefined && !nodeObj.has(a.nodes)) nodeObj.set(a.nodes, o);
    });
    const mixer = new THREE.AnimationMixer(gltf.scene);
    const animations = [];
    const skinnedObj = (() => {
        for (let i = 0; i < (json.nodes || []).length; i++) {
            const nd = json.nodes[i];
            if (nd.skin === undefined || nd.mesh === undefined || !nodeObj.has(i)) continue;
            let m = nodeObj.get(i);
            if (!m.isSkinnedMesh) m = m.children.find((c) => c.isSkinnedMesh);
            if (m) return { node: i, mesh: m };
        }
        return null;
    })();
    const skinned = [];
    for (let ai = 0; ai < json.animations.length; ai++) {
        const anim = json.animations[ai];
        // GLTFLoader keeps gltf.animations in animation order (one clip each).
        const clip = gltf.animations[ai];
        const action = mixer.clipAction(clip);
        action.setLoop(THREE.LoopOnce, 1);
        action.clampWhenFinished = true;
        const chans = anim.channels
            .filter((c) => c.target && c.target.node !== undefined && nodeObj.has(c.target.node))
            .map((c) => ({
                node: c.target.node, name: json.nodes[c.target.node].name ?? null, path: c.target.path,
                interpolation: anim.samplers[c.sampler].interpolation || 'LINEAR', values: [],
            }));
        // An animation of KHR_animation_pointer channels only gives three no
        // track: nothing to sample, left out (its index is kept on the others).
        if (chans.length === 0) { mixer.uncacheAction(clip); continue; }
        const times = sampleTimes(clip);
        for (const t of times) {
            setTime(mixer, action, t);
            for (const c of chans) for (const v of readTarget(nodeObj.get(c.node), c.path)) c.values.push(num(v));
        }
        // Key exactness: at each sampled time that is one of the channel's own
        // key times, compare three's value with the stored key (as float32).
        for (let ci = 0; ci < chans.length; ci++) {
            const c = chans[ci];
            const smp = anim.samplers[anim.channels.filter((x) => x.target && x.target.node !== undefined && nodeObj.has(x.target.node))[ci].sampler];
            const input = (await parser.getDependency('accessor', smp.input)).array;
            const outAcc = await parser.getDependency('accessor', smp.output);
            const outArr = keyArray(outAcc, json.accessors[smp.output]);
            const width = c.values.length / times.length;
            const triplet = c.interpolation === 'CUBICSPLINE' ? 3 : 1;
            let checked = 0, differ = 0, maxDiff = 0;
            for (let ti = 0; ti < times.length; ti++) {
                const k = input.indexOf(times[ti]);
                if (k < 0 || k !== input.lastIndexOf(times[ti])) continue;
                checked++;
                const base = (k * triplet + (triplet === 3 ? 1 : 0)) * width;
                let d = false;
                for (let j = 0; j < width; j++) {
                    const e = Math.abs(num(outArr[base + j]) - c.values[ti * width + j]);
                    if (e !== 0) d = true;
                    if (e > maxDiff) maxDiff = e;
                }
                if (d) differ++;
            }
            c.keyTimesSampled = checked;
            c.keyTimesDiffering = differ;
            c.keyMaxAbsDifference = num(maxDiff);
        }
        const all = crypto.createHash('sha256');
        for (const c of chans) all.update(Buffer.from(new Float32Array(c.values).buffer));
        const a = {
            index: ai, name: anim.name ?? null, duration: num(clip.duration), times: times.map(num),
            channels: chans.length, allNodesSha256: all.digest('hex'),
            nodes: chans.slice(0, MAX_NODES),
        };
        animations.push(a);
        if (skinnedObj) {
            const mesh = skinnedObj.mesh;
            const pos = mesh.geometry.attributes.position;
            const n = Math.min(MAX_VERTICES, pos.count);
            for (const t of [0, num(clip.duration / 4), num(clip.duration / 2), num(clip.duration * 3 / 4), num(clip.duration)]) {
                setTime(mixer, action, t);
                gltf.scene.updateMatrixWorld(true);
                mesh.skeleton.update();
                const v = new THREE.Vector3();
                const values = [];
                for (let i = 0; i < n; i++) {
                    v.fromBufferAttribute(pos, i);
                    mesh.applyBoneTransform(i, v);
                    values.push(num(v.x), num(v.y), num(v.z));
                }
                skinned.push({ animation: ai, time: t, values });
            }
        }
        action.stop();
        mixer.uncacheAction(clip);
    }
    if (animations.length === 0) continue;
    const out = {
        source: rel,
        sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
        packages: { three: threeVersion },
        sampler: { maxTimes: MAX_TIMES, maxNodes: MAX_NODES, valueFormat: 'float32 as decimal, 9 significant digits' },
        animations,
    };
    if (skinnedObj) {
        out.skinning = {
            node: skinnedObj.node, skin: json.nodes[skinnedObj.node].skin, mesh: json.nodes[skinnedObj.node].mesh,
            primitive: 0, vertices: Math.min(MAX_VERTICES, skinnedObj.mesh.geometry.attributes.position.count),
            space: 'glTF scene root (identity bind matrix; skinned mesh node transform ignored)',
            samples: skinned,
        };
    }
    const name = rel.replace(/\.(gltf|glb|vrm)$/i, '').replace(/[^A-Za-z0-9_-]+/g, '_') + '.json';
    // One line per channel / sample keeps the files diffable.
    let text = JSON.stringify(out, null, 1);
    text = text.replace(/\[\s*([-0-9.e,\s]+?)\s*\]/g, (m, body) => '[' + body.split(/,\s*/).join(',') + ']');
    fs.writeFileSync(path.join(outDir, name), text + '\n');
    index.push([name, rel, animations.length, animations.reduce((s, a) => s + a.channels, 0), skinnedObj ? 'yes' : 'no'].join('\t'));
    console.log(`${name}: ${animations.length} animation(s)${skinnedObj ? ', skinned' : ''}`);
}
fs.writeFileSync(path.join(outDir, 'index.tsv'),
    `# three ${threeVersion} poses (tools/gltf/three_ref.mjs): file, source under shared/data/gltf, animations, node channels, skinned vertices\n` +
    index.join('\n') + '\n');
