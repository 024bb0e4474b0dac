// Reference data for the meshopt stream decoder (lib/anim/src/import/gltf/meshopt.c):
// meshoptimizer's own encoder and decoder (npm package `meshoptimizer`) encode
// seeded arrays in every mode, filter and vertex codec version and decode them
// again; the encoded bytes, the codec's input and the decoder's output are
// written to lib/anim/test/data/meshopt/streams.bin, and the meshopt views of
// the shared glTF models (../shared/data/gltf) with their decoded outputs to
// lib/anim/test/data/meshopt/models.bin. The tests read those files; they never
// run this script or need npm.
//
// Run from the worktree root (needs node >= 16 and the network once):
//   npm install --prefix /tmp/meshopt-ref meshoptimizer@1.3.0
//   node tools/gltf/meshopt_ref.mjs /tmp/meshopt-ref
//
// File layout (little-endian), both files:
//   "MOPTREF1", u32 record count, then per record:
//   u32 name length, name bytes (UTF-8),
//   u32 mode (0 ATTRIBUTES, 1 TRIANGLES, 2 INDICES),
//   u32 filter (0 NONE, 1 OCTAHEDRAL, 2 QUATERNION, 3 EXPONENTIAL, 4 COLOR),
//   u32 extension (0 EXT_meshopt_compression, 1 KHR_meshopt_compression),
//   u32 count, u32 byteStride,
//   u32 n + n bytes: the encoded stream,
//   u32 n + n bytes: the codec's input (what mode NONE decodes to; 0 bytes in
//                    models.bin, where the encoder's input is not known),
//   u32 n + n bytes: meshoptimizer's decode (MeshoptDecoder.decodeGltfBuffer),
//                    0 bytes when it equals the codec's input,
//   u32 n + n bytes: the reference JavaScript decoder's output
//                    (meshopt_decoder_reference.js), 0 bytes when it equals
//                    meshoptimizer's decode, the 1 byte 0 where it refused;
//   in models.bin only: 8 bytes, FNV-1a 64 (offset basis 0xcbf29ce484222325,
//   prime 0x100000001b3) of meshoptimizer's decode, little-endian; the decode
//   itself is not stored there (0 bytes) to keep the file small.
// models.bin names each record "<file under shared/data/gltf>#<bufferView>@<stream offset in that file>+<stream length>".
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const prefix = process.argv[2];
if (!prefix) {
    console.error('usage: node tools/gltf/meshopt_ref.mjs NPM_PREFIX [SHARED_DATA_DIR]');
    process.exit(2);
}
const pkg = path.join(prefix, 'node_modules', 'meshoptimizer');
const version = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version;
const { MeshoptEncoder } = await import(pathToFileURL(path.join(pkg, 'meshopt_encoder.js')).href);
const { MeshoptDecoder } = await import(pathToFileURL(path.join(pkg, 'meshopt_decoder.mjs')).href);
const RefDecoder = (await import(pathToFileURL(path.join(pkg, 'meshopt_decoder_reference.js')).href)).MeshoptDecoder;
await MeshoptEncoder.ready;
await MeshoptDecoder.ready;

const outDir = 'lib/anim/test/data/meshopt';
fs.mkdirSync(outDir, { recursive: true });

// A seeded generator (xorshift32): the arrays are the same on every run.
function rng(seed) {
    let s = seed >>> 0 || 1;
    return () => {
        s ^= s << 13; s >>>= 0;
        s ^= s >>> 17;
        s ^= s << 5; s >>>= 0;
        return s;
    };
}
const unit = (r) => r() / 4294967296;

const MODES = { ATTRIBUTES: 0, TRIANGLES: 1, INDICES: 2 };
const FILTERS = { NONE: 0, OCTAHEDRAL: 1, QUATERNION: 2, EXPONENTIAL: 3, COLOR: 4 };

function decodeBoth(count, stride, encoded, mode, filter) {
    const out = new Uint8Array(count * stride);
    MeshoptDecoder.decodeGltfBuffer(out, count, stride, encoded, mode, filter);
    let ref = new Uint8Array(count * stride);
    try {
        RefDecoder.decodeGltfBuffer(ref, count, stride, encoded, mode, filter);
    } catch (e) {
        ref = new Uint8Array(0);
    }
    return [out, ref];
}

function u32(v) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v >>> 0);
    return b;
}
function blob(bytes) {
    return Buffer.concat([u32(bytes.length), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)]);
}
function writeRecords(file, records) {
    const parts = [Buffer.from('MOPTREF1'), u32(records.length)];
    for (const r of records) {
        const name = Buffer.from(r.name, 'utf8');
        parts.push(u32(name.length), name, u32(MODES[r.mode]), u32(FILTERS[r.filter]), u32(r.ext), u32(r.count), u32(r.stride));
        const same = (a, b) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
        const decoded = same(r.decoded, r.input) ? new Uint8Array(0) : r.decoded;
        const ref = same(r.ref, r.decoded) ? new Uint8Array(0) : r.ref.length === 0 ? Uint8Array.of(0) : r.ref;
        parts.push(blob(r.encoded), blob(r.input), blob(decoded), blob(ref));
        if (r.hash !== undefined) parts.push(Buffer.from(r.hash));
    }
    const all = Buffer.concat(parts);
    fs.writeFileSync(file, all);
    return all.length;
}

// The lossless codecs give the input back; the triangle codec may rotate a
// triangle's indices (a, b, c) -> (b, c, a), never reorder triangles or flip them.
function sameUpToRotation(mode, stride, decoded, input) {
    if (Buffer.compare(Buffer.from(decoded), Buffer.from(input)) === 0) return true;
    if (mode !== 'TRIANGLES' || decoded.length !== input.length) return false;
    const rd = (b, i) => (stride === 2 ? b[2 * i] | (b[2 * i + 1] << 8) : new DataView(b.buffer, b.byteOffset).getUint32(4 * i, true));
    for (let t = 0; t < decoded.length / stride / 3; ++t) {
        const a = [0, 1, 2].map((j) => rd(decoded, 3 * t + j));
        const b = [0, 1, 2].map((j) => rd(input, 3 * t + j));
        if (![0, 1, 2].some((r) => a.every((v, j) => v === b[(j + r) % 3]))) return false;
    }
    return true;
}

function fnv1a64(bytes) {
    let h = 0xcbf29ce484222325n;
    for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
    const out = new Uint8Array(8);
    for (let i = 0; i < 8; ++i) out[i] = Number((h >> BigInt(8 * i)) & 0xffn);
    return out;
}

const records = [];
function add(name, mode, filter, ext, count, stride, input, encoded) {
    const [decoded, ref] = decodeBoth(count, stride, encoded, mode, filter);
    if (filter === 'NONE' && !sameUpToRotation(mode, stride, decoded, input)) {
        throw new Error(name + ': lossless decode differs from the input');
    }
    records.push({ name, mode, filter, ext, count, stride, encoded, input, decoded, ref });
}

// -- ATTRIBUTES, no filter: several kinds of element bytes -------------------
function attributeData(kind, count, stride, seed) {
    const r = rng(seed);
    const b = new Uint8Array(count * stride);
    const dv = new DataView(b.buffer);
    for (let i = 0; i < count; ++i) {
        for (let k = 0; k < stride; k += 4) {
            const o = i * stride + k;
            const c = k / 4;
            switch (kind) {
                case 'noise': dv.setUint32(o, r()); break;
                case 'const': dv.setUint32(o, 0x12345678 + c); break;
                case 'u8ramp': for (let j = 0; j < 4; ++j) b[o + j] = (i * (j + 1) + c + (r() & 3)) & 255; break;
                case 'u16': dv.setUint16(o, (i * 37 + c * 1000 + (r() & 15)) & 0xffff, true);
                    dv.setUint16(o + 2, (40000 - i * 11 + (r() & 7)) & 0xffff, true); break;
                case 'float': dv.setFloat32(o, Math.fround(Math.sin(i * 0.05 + c) * 10 + unit(r) * 0.01), true); break;
                case 'floatsmooth': dv.setFloat32(o, Math.fround(i * 0.125 + c), true); break;
                case 'mixed':
                    if (c % 3 === 0) dv.setFloat32(o, Math.fround(Math.cos(i * 0.02 + c) * 3), true);
                    else if (c % 3 === 1) { dv.setUint16(o, (i * 5 + c) & 0xffff, true); dv.setUint16(o + 2, (i * 3) & 0xffff, true); }
                    else for (let j = 0; j < 4; ++j) b[o + j] = (j === 3) ? 255 : ((i >> j) & 255);
                    break;
                case 'sparse': dv.setUint32(o, (r() % 17 === 0) ? r() : (i & 1)); break;
                // kinds on which level 3 picks channel mode 2 (XOR) with several rotations
                case 'altsign': dv.setFloat32(o, (i & 1 ? -1 : 1) * (1 + i * 0.01 + c), true); break;
                case 'hibits': dv.setUint32(o, (((r() & 0xf) << 28) | 0x123456) >>> 0, true); break;
                case 'bitflip': dv.setUint32(o, (1 << (r() % 32)) >>> 0, true); break;
                case 'signexp': dv.setFloat32(o, (r() & 1 ? -1 : 1) * Math.pow(2, (r() % 8) - 4), true); break;
            }
        }
    }
    return b;
}

const kinds = ['noise', 'const', 'u8ramp', 'u16', 'float', 'floatsmooth', 'mixed', 'sparse'];
const some = ['noise', 'u16', 'float', 'mixed'];
// [stride, count, kinds, versions]: every kind on short streams, a few on the
// longer ones, and one stream of several attribute blocks per stride class
// (a block holds min((8192 / stride) & ~15, 256) elements).
const shapes = [
    [4, 64, ['altsign', 'hibits', 'bitflip', 'signexp'], [1]], [8, 32, ['altsign', 'hibits', 'signexp'], [1]],
    [4, 0, ['noise'], [0, 1]], [4, 1, ['noise'], [0, 1]], [4, 15, kinds, [0, 1]], [4, 16, kinds, [0, 1]], [4, 17, kinds, [0, 1]],
    [4, 260, ['mixed'], [0, 1]], [4, 257, ['u16', 'float'], [1]], [8, 24, kinds, [0, 1]], [12, 17, some, [0, 1]], [16, 17, some, [0, 1]], [24, 17, some, [0, 1]],
    [32, 16, some, [0, 1]], [100, 5, ['mixed', 'noise'], [0, 1]], [128, 65, ['mixed'], [1]], [256, 33, ['u16'], [0]], [256, 2, ['mixed'], [1]],
];
let seed = 1000;
for (const [stride, count, which, versions] of shapes) {
    for (const kind of which) {
        const input = attributeData(kind, count, stride, ++seed);
        for (const version of versions) {
            // v1 at encoder levels 0..3 where the channel and control modes vary most
            const xor = ['altsign', 'hibits', 'bitflip', 'signexp'].includes(kind);
            const levels = xor ? [2, 3] : version === 1 && stride <= 16 && count >= 17 && count <= 40 && some.includes(kind) ? [0, 1, 2, 3] : [2];
            for (const level of levels) {
                const encoded = MeshoptEncoder.encodeVertexBufferLevel(input, count, stride, level, version);
                add(`attr-v${version}-s${stride}-n${count}-${kind}-l${level}`, 'ATTRIBUTES', 'NONE', version, count, stride, input, encoded);
            }
        }
    }
}

// -- TRIANGLES: a grid reordered for locality, a random soup, restarts -------
function grid(w, h) {
    const idx = [];
    for (let y = 0; y < h; ++y) for (let x = 0; x < w; ++x) {
        const a = y * (w + 1) + x, b = a + 1, c = a + w + 1, d = c + 1;
        idx.push(a, b, c, b, d, c);
    }
    return Uint32Array.from(idx);
}
function toSize(indices, size) {
    return size === 2 ? new Uint8Array(Uint16Array.from(indices).buffer) : new Uint8Array(Uint32Array.from(indices).buffer);
}
function addTriangles(name, indices, size) {
    for (const ext of [0]) {
        const input = toSize(indices, size);
        const encoded = MeshoptEncoder.encodeIndexBuffer(input, indices.length, size);
        add(`${name}-s${size}-e${ext}`, 'TRIANGLES', 'NONE', ext, indices.length, size, input, encoded);
    }
}
{
    const g = grid(8, 6);
    const [remap] = MeshoptEncoder.reorderMesh(g, true, false);
    const opt = g.map((i) => remap[i]);
    addTriangles('tri-grid-opt', opt, 2);
    addTriangles('tri-grid-opt', opt, 4);
    addTriangles('tri-grid-raw', g, 2);
    const r = rng(77);
    const soup = new Uint32Array(120);
    for (let i = 0; i < soup.length; ++i) soup[i] = r() % 70000;
    addTriangles('tri-soup', soup, 4);
    const soup16 = soup.map((v) => v % 65536);
    addTriangles('tri-soup', soup16, 2);
    const big = soup.map((v, i) => (i % 7 === 0) ? (v * 4099) >>> 0 : v);
    addTriangles('tri-big', big, 4);
    // two independent streams back to back: the second restarts `next`
    const small = grid(4, 3);
    const two = Uint32Array.from([...small, ...small]);
    addTriangles('tri-concat', two, 4);
    const degenerate = Uint32Array.from([0, 0, 0, 1, 1, 1, 0, 1, 2, 2, 1, 0, 5, 5, 6]);
    addTriangles('tri-degenerate', degenerate, 2);
    addTriangles('tri-empty', new Uint32Array(0), 2);
    const grid2 = grid(10, 8);
    const [remap2] = MeshoptEncoder.reorderMesh(grid2, true, true);
    addTriangles('tri-strip-opt', grid2.map((i) => remap2[i]), 2);
}

// -- INDICES ------------------------------------------------------------------
function addIndices(name, indices, size) {
    for (const ext of [0]) {
        const input = toSize(indices, size);
        const encoded = MeshoptEncoder.encodeIndexSequence(input, indices.length, size);
        add(`${name}-s${size}-e${ext}`, 'INDICES', 'NONE', ext, indices.length, size, input, encoded);
    }
}
{
    const strip = [];
    for (let i = 0; i < 120; ++i) strip.push(i % 2 === 0 ? i / 2 : 1000 + (i - 1) / 2);
    addIndices('idx-bimodal', Uint32Array.from(strip), 2);
    addIndices('idx-bimodal', Uint32Array.from(strip), 4);
    const r = rng(99);
    const rnd = new Uint32Array(150);
    for (let i = 0; i < rnd.length; ++i) rnd[i] = r() >>> 3; // deltas within [-2^30, 2^30)
    addIndices('idx-random32', rnd, 4);
    addIndices('idx-random16', rnd.map((v) => v & 0xffff), 2);
    const lines = [];
    for (let i = 0; i < 100; ++i) lines.push(i, i + 1);
    addIndices('idx-lines', Uint32Array.from(lines), 2);
    addIndices('idx-one', Uint32Array.from([7]), 4);
    // (no empty sequence: meshoptimizer's decoder refuses count 0 in this mode)
    addIndices('idx-extreme', Uint32Array.from([0, 0x1fffffff, 0, 0x1fffffff, 0x3ffffffe, 0x3ffffff9, 0x1fffffff]), 4);
}

// -- Filters ------------------------------------------------------------------
function unitVectors(n, seed) {
    const r = rng(seed);
    const v = new Float32Array(n * 4);
    for (let i = 0; i < n; ++i) {
        let x = unit(r) * 2 - 1, y = unit(r) * 2 - 1, z = unit(r) * 2 - 1;
        if (i === 0) { x = 0; y = 0; z = -1; }
        if (i === 1) { x = 1; y = 0; z = 0; }
        if (i === 2) { x = 0; y = -1; z = 0; }
        const l = Math.hypot(x, y, z) || 1;
        v[i * 4] = x / l; v[i * 4 + 1] = y / l; v[i * 4 + 2] = z / l; v[i * 4 + 3] = (i & 1) ? 1 : -1;
    }
    return v;
}
function quaternions(n, seed) {
    const r = rng(seed);
    const v = new Float32Array(n * 4);
    for (let i = 0; i < n; ++i) {
        let q = [unit(r) * 2 - 1, unit(r) * 2 - 1, unit(r) * 2 - 1, unit(r) * 2 - 1];
        if (i < 4) q = [0, 0, 0, 0].map((_, j) => (j === i ? 1 : 0));
        if (i === 4) q = [0.5, -0.5, 0.5, -0.5];
        const l = Math.hypot(...q) || 1;
        for (let j = 0; j < 4; ++j) v[i * 4 + j] = q[j] / l;
    }
    return v;
}
function floats(n, comps, seed) {
    const r = rng(seed);
    const v = new Float32Array(n * comps);
    for (let i = 0; i < v.length; ++i) {
        const e = (r() % 40) - 20;
        v[i] = (unit(r) * 2 - 1) * Math.pow(2, e);
        if (i % 13 === 0) v[i] = 0;
        if (i % 17 === 0) v[i] = 1e-30;
        if (i % 19 === 0) v[i] = -3e20;
    }
    return v;
}
function colors(n, seed) {
    const r = rng(seed);
    const v = new Float32Array(n * 4);
    for (let i = 0; i < v.length; ++i) v[i] = unit(r);
    v[0] = 0; v[1] = 0; v[2] = 0; v[3] = 0; v[4] = 1; v[5] = 1; v[6] = 1; v[7] = 1;
    return v;
}
function addFiltered(name, filter, count, stride, filtered, versions) {
    for (const version of versions) {
        const encoded = MeshoptEncoder.encodeVertexBufferLevel(filtered, count, stride, 2, version);
        add(`${name}-v${version}`, 'ATTRIBUTES', filter, version, count, stride, filtered, encoded);
    }
}
seed = 5000;
for (const stride of [4, 8]) {
    for (const bits of stride === 4 ? [2, 4, 7, 8] : [4, 10, 12, 16]) {
        const n = 40;
        addFiltered(`oct-s${stride}-b${bits}`, 'OCTAHEDRAL', n, stride, MeshoptEncoder.encodeFilterOct(unitVectors(n, ++seed), n, stride, bits), bits >= 4 ? [0, 1] : [1]);
    }
}
for (const bits of [4, 9, 12, 16]) {
    const n = 40;
    addFiltered(`quat-b${bits}`, 'QUATERNION', n, 8, MeshoptEncoder.encodeFilterQuat(quaternions(n, ++seed), n, 8, bits), [0, 1]);
}
for (const [stride, mode] of [[4, 'Separate'], [12, 'SharedVector'], [12, 'SharedComponent'], [8, 'Clamped'], [16, 'Separate']]) {
    for (const bits of [1, 8, 15, 24]) {
        const n = 12;
        const comps = stride / 4;
        addFiltered(`exp-s${stride}-${mode}-b${bits}`, 'EXPONENTIAL', n, stride, MeshoptEncoder.encodeFilterExp(floats(n, comps, ++seed), n, stride, bits, mode), [0, 1]);
    }
}
for (const stride of [4, 8]) {
    for (const bits of stride === 4 ? [2, 5, 8] : [6, 10, 12, 16]) {
        const n = 40;
        addFiltered(`color-s${stride}-b${bits}`, 'COLOR', n, stride, MeshoptEncoder.encodeFilterColor(colors(n, ++seed), n, stride, bits), [1]);
    }
}

const streamsSize = writeRecords(path.join(outDir, 'streams.bin'), records);

// -- The shared models' meshopt views ------------------------------------------
const shared = process.argv[3] || '../shared/data/gltf';
const models = [];
function scanModel(rel) {
    const file = path.join(shared, rel);
    if (!fs.existsSync(file)) return;
    const bytes = fs.readFileSync(file);
    let json;
    let bin = null;
    let binOffset = 0;
    if (bytes.readUInt32LE(0) === 0x46546c67) {
        const jsonLength = bytes.readUInt32LE(12);
        json = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString('utf8'));
        const at = 20 + jsonLength;
        if (at + 8 <= bytes.length) {
            const binLength = bytes.readUInt32LE(at);
            binOffset = at + 8;
            bin = bytes.subarray(binOffset, binOffset + binLength);
        }
    } else {
        json = JSON.parse(bytes.toString('utf8'));
    }
    (json.bufferViews || []).forEach((view, index) => {
        const exts = view.extensions || {};
        const extName = exts.KHR_meshopt_compression ? 'KHR_meshopt_compression' : exts.EXT_meshopt_compression ? 'EXT_meshopt_compression' : null;
        if (!extName) return;
        const m = exts[extName];
        const buffer = json.buffers[m.buffer];
        let source;
        let sourceName;
        let base;
        if (buffer.uri === undefined) {
            source = bin;
            sourceName = rel;
            base = binOffset;
        } else {
            sourceName = path.join(path.dirname(rel), buffer.uri);
            source = fs.readFileSync(path.join(shared, sourceName));
            base = 0;
        }
        const offset = m.byteOffset || 0;
        const encoded = new Uint8Array(source.subarray(offset, offset + m.byteLength));
        const filter = m.filter || 'NONE';
        const [decoded, ref] = decodeBoth(m.count, m.byteStride, encoded, m.mode, filter);
        models.push({
            name: `${sourceName}#${index}@${base + offset}+${m.byteLength}`, mode: m.mode, filter, ext: extName.startsWith('KHR') ? 1 : 0,
            count: m.count, stride: m.byteStride, encoded: new Uint8Array(0), input: new Uint8Array(0),
            decoded: new Uint8Array(0), ref: new Uint8Array(0), hash: fnv1a64(decoded), full: decoded, fullRef: ref,
        });
    });
}
for (const rel of ['meshopt/pirate.glb', 'meshopt/Duck-vp-3-vt-3-vn-3.glb', 'gltf-transform/BoxMeshopt.gltf']) scanModel(rel);
const modelsSize = writeRecords(path.join(outDir, 'models.bin'), models);

console.log(`meshoptimizer ${version}: ${records.length} streams (${streamsSize} bytes), ${models.length} model views (${modelsSize} bytes)`);
let refDiff = 0;
for (const r of [...records, ...models.map((m) => ({ name: m.name, decoded: m.full, ref: m.fullRef }))]) {
    if (r.ref.length !== r.decoded.length || Buffer.compare(Buffer.from(r.ref), Buffer.from(r.decoded)) !== 0) {
        ++refDiff;
        console.log(`  reference decoder differs or refused: ${r.name}`);
    }
}
console.log(`${refDiff} records where the reference JS decoder differs from the wasm decoder`);
