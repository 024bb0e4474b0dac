// Validator verdicts for the shared glTF models (reference data for the glTF
// importer, issue #17): runs Khronos' glTF-Validator (npm `gltf-validator`,
// version pinned in tools/gltf/package.json) on every .gltf/.glb/.vrm under
// ../shared/data/gltf and writes lib/anim/test/data/gltf-ref/validator.tsv.
// The C tests read the TSV; they never run this script or need npm.
//
// Run from the worktree root (node >= 20; the network is needed once, for npm):
//   P=$(mktemp -d); npm install --prefix "$P" gltf-validator@2.0.0-dev.3.10
//   node tools/gltf/validate_ref.mjs "$P" [SHARED_GLTF_DIR]
//
// External resources are read from disk beside each file. Images that the
// shared README says were not staged are missing: the validator reports each
// as an IO_ERROR at /images/N. Those (and only those) are left out of the
// error count and the error codes and counted in their own column. Rows are
// sorted by path (bytewise) and the report has no timestamp, so a second run
// writes the same bytes.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';

const prefix = process.argv[2];
if (!prefix) {
    console.error('usage: node tools/gltf/validate_ref.mjs NPM_PREFIX [SHARED_GLTF_DIR]');
    process.exit(2);
}
const root = path.resolve(process.argv[3] || '../shared/data/gltf');
const require = createRequire(path.join(path.resolve(prefix), 'noop.js'));
const validator = require('gltf-validator');
const version = JSON.parse(fs.readFileSync(
    path.join(prefix, 'node_modules', 'gltf-validator', 'package.json'), 'utf8')).version;

function walk(dir) {
    const out = [];
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) out.push(...walk(p));
        else if (/\.(gltf|glb|vrm)$/i.test(e.name)) out.push(p);
    }
    return out;
}
const files = walk(root).map((p) => path.relative(root, p).split(path.sep).join('/'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

const uniq = (xs) => [...new Set(xs)].sort();
const rows = [];
for (const rel of files) {
    const full = path.join(root, rel);
    const bytes = fs.readFileSync(full);
    const sha = crypto.createHash('sha256').update(bytes).digest('hex');
    const report = await validator.validateBytes(new Uint8Array(bytes), {
        uri: rel,
        maxIssues: 0,
        writeTimestamp: false,
        externalResourceFunction: (uri) => new Promise((resolve, reject) => {
            const p = path.resolve(path.dirname(full), decodeURIComponent(uri));
            fs.readFile(p, (err, data) => (err ? reject(`missing ${uri}`) : resolve(new Uint8Array(data))));
        }),
    });
    const msgs = report.issues.messages;
    const missingImage = (m) => m.severity === 0 && m.code === 'IO_ERROR' && /^\/images\/\d+\/uri$/.test(m.pointer || '');
    const errors = msgs.filter((m) => m.severity === 0 && !missingImage(m));
    const warnings = msgs.filter((m) => m.severity === 1);
    const missing = msgs.filter(missingImage);
    let expected = '-';
    const exp = full + '.report.json';
    if (fs.existsSync(exp)) {
        const e = JSON.parse(fs.readFileSync(exp, 'utf8')).issues;
        const eErr = uniq(e.messages.filter((m) => m.severity === 0).map((m) => m.code));
        expected = `${e.numErrors}/${e.numWarnings}/${eErr.join(',') || '-'}`;
    }
    if (errors.length + missing.length !== report.issues.numErrors) throw new Error(`${rel}: error count mismatch`);
    rows.push([rel, sha, errors.length, report.issues.numWarnings,
        uniq(errors.map((m) => m.code)).join(',') || '-',
        uniq(warnings.map((m) => m.code)).join(',') || '-',
        missing.length, missing.map((m) => m.pointer).join(',') || '-', expected].join('\t'));
}

const outDir = 'lib/anim/test/data/gltf-ref';
fs.mkdirSync(outDir, { recursive: true });
const header = [
    `# gltf-validator ${version} verdicts on ../shared/data/gltf (tools/gltf/validate_ref.mjs)`,
    '# columns: file (under shared/data/gltf), sha256 of the file, numErrors (missing-image IO_ERRORs excluded), numWarnings,',
    '# error codes (sorted, unique, missing-image IO_ERRORs excluded), warning codes, missing-image errors, their pointers,',
    '# expected report of validator/ cases (numErrors/numWarnings/error codes from the .report.json beside the file; - otherwise)',
    ['file', 'sha256', 'numErrors', 'numWarnings', 'errorCodes', 'warningCodes', 'missingImages', 'missingImagePointers', 'expectedReport'].join('\t'),
];
fs.writeFileSync(path.join(outDir, 'validator.tsv'), header.concat(rows).join('\n') + '\n');
console.log(`validator.tsv: ${rows.length} files, gltf-validator ${version}`);
