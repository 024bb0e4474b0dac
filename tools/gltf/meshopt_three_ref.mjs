// Meshopt-decoded accessors of the shared glTF models as three.js decodes them
// (issue #17 reference data): GLTFLoader's EXT_meshopt_compression plugin with
// the MeshoptDecoder that npm `three` ships
// (examples/jsm/libs/meshopt_decoder.module.js, a build of meshoptimizer 1.1,
// separate from the meshoptimizer 1.3.0 package tools/gltf/meshopt_ref.mjs
// uses). For every bufferView of every model under ../shared/data/gltf that
// uses EXT_meshopt_compression or KHR_meshopt_compression, three's decoded view
// is hashed (SHA-256, and FNV-1a 64 to compare with meshopt/models.bin); for every accessor on such a view, its elements (packed tightly,
// componentType bytes little-endian, no normalization applied) are hashed and
// the raw components of its first 4 elements are written. Output:
// lib/anim/test/data/gltf-ref/meshopt-three.json. The C tests read it; they
// never run this script or need npm.
//
// Run from the worktree root (node >= 20; the network is needed once, for npm):
//   P=$(mktemp -d); npm install --prefix "$P" three@0.187.0
//   node tools/gltf/meshopt_three_ref.mjs "$P" [SHARED_GLTF_DIR]
// Images are never decoded (a loader plugin answers every texture with an
// empty THREE.Texture); only bufferViews and accessors are requested from the
// parser, so no mesh, material or scene is built.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';

const prefix = process.argv[2];
if (!prefix) {
    console.error('usage: node tools/gltf/meshopt_three_ref.mjs NPM_PREFIX [SHARED_GLTF_DIR]');
    process.exit(2);
}
const root = path.resolve(process.argv[3] || '../shared/data/gltf');
if (typeof globalThis.ProgressEvent === 'undefined') {
    globalThis.ProgressEvent = class ProgressEvent extends Event {
        constructor(type, init = {}) { super(type); Object.assign(this, init); }
    };
}
const threeDir = path.join(path.resolve(prefix), 'node_modules', 'three');
const THREE = await import(pathToFileURL(path.join(threeDir, 'build', 'three.module.js')).href);
const { GLTFLoader } = await import(pathToFileURL(path.join(threeDir, 'examples', 'jsm', 'loaders', 'GLTFLoader.js')).href);
const { MeshoptDecoder } = await import(pathToFileURL(path.join(threeDir, 'examples', 'jsm', 'libs', 'meshopt_decoder.module.js')).href);
const threeVersion = JSON.parse(fs.readFileSync(path.join(threeDir, 'package.json'), 'utf8')).version;
await MeshoptDecoder.ready;

const EXTS = ['EXT_meshopt_compression', 'KHR_meshopt_compression'];
const COMP = { 5120: [1, 'getInt8'], 5121: [1, 'getUint8'], 5122: [2, 'getInt16'], 5123: [2, 'getUint16'], 5125: [4, 'getUint32'], 5126: [4, 'getFloat32'] };
const NCOMP = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

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
    if (bytes.readUInt32LE(0) === 0x46546c67) return JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8'));
    return JSON.parse(bytes.toString('utf8'));
}
// FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3), the hash
// lib/anim/test/data/meshopt/models.bin gives meshoptimizer 1.3.0's decode.
function fnv1a64(u8) {
    let h = 0xcbf29ce484222325n;
    for (const x of u8) h = ((h ^ BigInt(x)) * 0x100000001b3n) & 0xffffffffffffffffn;
    return h.toString(16).padStart(16, '0');
}
const sha = (u8) => crypto.createHash('sha256').update(u8).digest('hex');

const models = [];
const files = walk(root).map((p) => path.relative(root, p).split(path.sep).join('/')).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
for (const rel of files) {
    const full = path.join(root, rel);
    const bytes = fs.readFileSync(full);
    let json;
    try { json = readJson(bytes); } catch { continue; }
    const views = (json.bufferViews || []).map((v, i) => [i, v]).filter(([, v]) => v.extensions && EXTS.some((e) => v.extensions[e]));
    if (views.length === 0) continue;
    const manager = new THREE.LoadingManager();
    manager.setURLModifier((url) => url.startsWith('data:') ? url
        : 'data:application/octet-stream;base64,' + fs.readFileSync(path.resolve(path.dirname(full), decodeURIComponent(url))).toString('base64'));
    const loader = new GLTFLoader(manager);
    loader.setMeshoptDecoder(MeshoptDecoder);
    loader.register(() => ({ name: 'MAUL_no_images', loadTexture: () => Promise.resolve(new THREE.Texture()) }));
    // onLoad runs after the scene is built; the parser is what we need, so
    // take it from the plugin callback (called with the parser before parsing).
    let parser = null;
    loader.register((p) => { parser = p; return { name: 'MAUL_parser_grab' }; });
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    await new Promise((resolve, reject) => loader.parse(ab, '', resolve, reject));
    const outViews = [];
    const decoded = new Map();
    for (const [i, v] of views) {
        const ext = EXTS.find((e) => v.extensions[e]);
        const d = new Uint8Array(await parser.getDependency('bufferView', i));
        decoded.set(i, d);
        const e = v.extensions[ext];
        outViews.push({ bufferView: i, extension: ext, mode: e.mode, filter: e.filter || 'NONE', count: e.count,
            byteStride: e.byteStride, byteLength: d.byteLength, sha256: sha(d), fnv1a64: fnv1a64(d) });
    }
    const accessors = [];
    (json.accessors || []).forEach((a, ai) => {
        if (a.bufferView === undefined || !decoded.has(a.bufferView)) return;
        const d = decoded.get(a.bufferView);
        const [size, getter] = COMP[a.componentType];
        const n = NCOMP[a.type];
        const stride = json.bufferViews[a.bufferView].byteStride || size * n;
        const off = a.byteOffset || 0;
        const dv = new DataView(d.buffer, d.byteOffset, d.byteLength);
        const packed = new Uint8Array(a.count * n * size);
        const first = [];
        for (let k = 0; k < a.count; k++) {
            for (let c = 0; c < n; c++) {
                const at = off + k * stride + c * size;
                packed.set(d.subarray(at, at + size), (k * n + c) * size);
                if (k < 4) first.push(getter === 'getFloat32' ? Number(dv.getFloat32(at, true).toPrecision(9)) : dv[getter](at, true));
            }
        }
        accessors.push({ accessor: ai, bufferView: a.bufferView, componentType: a.componentType, type: a.type,
            normalized: !!a.normalized, count: a.count, sha256: sha(packed), first4: first });
    });
    models.push({ source: rel, sha256: sha(bytes), bufferViews: outViews, accessors });
    console.log(`${rel}: ${outViews.length} meshopt view(s), ${accessors.length} accessor(s)`);
}
const out = { packages: { three: threeVersion, meshopt_decoder: 'three/examples/jsm/libs/meshopt_decoder.module.js (meshoptimizer 1.1 build)' }, models };
let text = JSON.stringify(out, null, 1);
text = text.replace(/\[\s*([-0-9.e,\s]+?)\s*\]/g, (m, body) => '[' + body.split(/,\s*/).join(',') + ']');
fs.mkdirSync('lib/anim/test/data/gltf-ref', { recursive: true });
fs.writeFileSync('lib/anim/test/data/gltf-ref/meshopt-three.json', text + '\n');
