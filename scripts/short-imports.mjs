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

import * as bin from "./wasm-binary.mjs";

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

const readU32 = (buf, at) => bin.readU32(buf, at, fail);
const readName = (buf, at) => bin.readName(buf, at, fail);
const skipDescriptor = (buf, kind, at) => bin.skipDescriptor(buf, kind, at, fail);
const { writeU32 } = bin;

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

const parts = [wasm.subarray(0, 8)];
const renamed = new Map();
for (const { id, start, body: bodyAt, end } of bin.sections(wasm, fail)) {
  if (id === 7) {
    parts.push(exportSection(bodyAt, end));
    continue;
  }
  if (id !== 2) {
    parts.push(wasm.subarray(start, end));
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
