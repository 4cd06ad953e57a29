// Gives the functions a wasm module imports from its wasm-bindgen glue short
// names, in the wasm and in the glue alike. wasm-bindgen names each one
// after the Rust item plus a 16-digit hash (`__wbg_addEventListener_f2d2…`),
// and each name is written twice, in the wasm's import section and as a key
// of the glue's import object: about 200 names, whose hashes gzip cannot
// shrink, in two files. Short names take about 6 KB off the page's gzip
// (3.4 KB of wasm, 2.6 KB of script, measured at d573d7e).
//
//   node scripts/short-imports.mjs MODULE.wasm GLUE.js
//
// Only imports from the glue's own module whose names wasm-bindgen made
// (`__wbg_…`, `__wbindgen_…`) are renamed, and only if each such name is in
// the glue exactly once, as a key: otherwise nothing is written and the
// script fails, so a change in wasm-bindgen's glue cannot half-rename a build.
import { readFileSync, writeFileSync } from "node:fs";

const [wasmPath, jsPath] = process.argv.slice(2);
if (!wasmPath || !jsPath) {
  console.error("usage: node scripts/short-imports.mjs MODULE.wasm GLUE.js");
  process.exit(2);
}
const wasm = readFileSync(wasmPath);
let js = readFileSync(jsPath, "utf8");

function fail(why) {
  console.error(`short-imports: ${wasmPath}: ${why}; left as it was`);
  process.exit(1);
}

// Unsigned LEB128, as the wasm binary format writes lengths and counts.
function readU32(buf, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (at >= buf.length) fail("the import section ends early");
    const byte = buf[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}
function writeU32(n) {
  const out = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Buffer.from(out);
}
function readName(buf, at) {
  const [len, start] = readU32(buf, at);
  return [buf.subarray(start, start + len).toString("utf8"), start + len];
}
// The bytes that describe an import after its kind byte: function (type
// index), table (type, limits), memory (limits), global (type, mutability),
// tag (attribute, type index).
function skipDescriptor(buf, kind, at) {
  const limits = (p) => {
    const flags = buf[p++];
    [, p] = readU32(buf, p);
    if (flags & 1) [, p] = readU32(buf, p);
    return p;
  };
  switch (kind) {
    case 0: return readU32(buf, at)[1];
    case 1: return limits(at + 1);
    case 2: return limits(at);
    case 3: return at + 2;
    case 4: return readU32(buf, at + 1)[1];
    default: fail(`an import of unknown kind ${kind}`);
  }
}

// _a, _b, …, _Z, _ba, …: keys of the glue's import object, so a variable
// of the same name elsewhere in the glue does not matter.
const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
function shortName(i) {
  let s = "";
  do {
    s = ALPHABET[i % ALPHABET.length] + s;
    i = Math.floor(i / ALPHABET.length);
  } while (i > 0);
  return `_${s}`;
}

// Exports the glue reads only as properties (`wasm.__wbindgen_malloc`):
// wasm-bindgen's own, and each closure's call shim, named after its hash
// (the glue's function of the same name is renamed with it). One the glue
// names any other way keeps its name.
const exportsRenamed = new Map();
function exportSection(bodyAt, end) {
  let [count, p] = readU32(wasm, bodyAt);
  const body = [writeU32(count)];
  while (count--) {
    let [name, afterName] = readName(wasm, p);
    const afterIndex = readU32(wasm, afterName + 1)[1];
    if (/^(__wbindgen_|__externref_|wasm_bindgen__convert__closures_)/.test(name)) {
      const all = js.match(new RegExp(`\\b${name}\\b`, "g"))?.length ?? 0;
      const asProperty = js.match(new RegExp(`\\.${name}\\b`, "g"))?.length ?? 0;
      const short = `_E${shortName(exportsRenamed.size).slice(1)}`;
      // A call shim's glue is a function of the same name, renamed with it.
      const shim = name.startsWith("wasm_bindgen__convert__closures_");
      const free = !new RegExp(`\\b${short}\\b`).test(js);
      if (all > 0 && (all === asProperty || (shim && free))) {
        exportsRenamed.set(name, short);
        name = short;
      }
    }
    const nameBytes = Buffer.from(name, "utf8");
    body.push(writeU32(nameBytes.length), nameBytes, wasm.subarray(afterName, afterIndex));
    p = afterIndex;
  }
  if (p !== end) fail("the export section is longer than its exports");
  const newBody = Buffer.concat(body);
  return Buffer.concat([Buffer.from([7]), writeU32(newBody.length), newBody]);
}

if (wasm.readUInt32LE(0) !== 0x6d736100) fail("not a wasm module");
const parts = [wasm.subarray(0, 8)];
const renamed = new Map();
let at = 8;
while (at < wasm.length) {
  const id = wasm[at];
  const [size, bodyAt] = readU32(wasm, at + 1);
  const end = bodyAt + size;
  if (id === 7) {
    parts.push(exportSection(bodyAt, end));
    at = end;
    continue;
  }
  if (id !== 2) {
    parts.push(wasm.subarray(at, end));
    at = end;
    continue;
  }
  let [count, p] = readU32(wasm, bodyAt);
  const body = [writeU32(count)];
  while (count--) {
    const [module, afterModule] = readName(wasm, p);
    let [name, afterName] = readName(wasm, afterModule);
    const kind = wasm[afterName];
    const afterDescriptor = skipDescriptor(wasm, kind, afterName + 1);
    if (/^__wb(g|indgen)_/.test(name) && !module.includes("/snippets/")) {
      if (!renamed.has(name)) renamed.set(name, shortName(renamed.size));
      name = renamed.get(name);
    }
    const moduleBytes = Buffer.from(module, "utf8");
    const nameBytes = Buffer.from(name, "utf8");
    body.push(writeU32(moduleBytes.length), moduleBytes, writeU32(nameBytes.length), nameBytes);
    body.push(wasm.subarray(afterName, afterDescriptor));
    p = afterDescriptor;
  }
  if (p !== end) fail("the import section is longer than its imports");
  const newBody = Buffer.concat(body);
  parts.push(Buffer.from([2]), writeU32(newBody.length), newBody);
  at = end;
}

for (const [long, short] of renamed) {
  const key = new RegExp(`\\b${long}\\b`, "g");
  const found = js.match(key)?.length ?? 0;
  if (found !== 1) fail(`${long} is in ${jsPath} ${found} times, not once`);
  js = js.replace(key, short);
}
for (const [long, short] of exportsRenamed) {
  js = js.replace(new RegExp(`\\b${long}\\b`, "g"), short);
}
writeFileSync(wasmPath, Buffer.concat(parts));
writeFileSync(jsPath, js);
console.log(
  `short-imports: ${renamed.size} imports and ${exportsRenamed.size} exports renamed in ${wasmPath.split("/").pop()}`,
);
