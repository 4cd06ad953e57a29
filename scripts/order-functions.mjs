// Orders a wasm module's functions so that gzip finds more repeats: the
// functions of one crate side by side, and within a crate those whose code
// begins alike (same locals, same first instructions) next to each other.
// gzip looks back only 32 KB; the linker's order scatters a crate's
// monomorphised copies over the whole file. At 2140bb5 this took the page's
// download from 311.0 to 307.3 KB (the bench's count); binaryen's own
// --reorder-functions, by call count, made the wasm 5 KB larger instead.
//
//   node scripts/order-functions.mjs IN.wasm OUT.wasm
//
// IN must carry its function names (wasm-opt -g): a function's crate is read
// from its name. OUT names each function by its place in the new order,
// ready for `wasm-opt --reorder-functions-by-name --strip-debug`, which
// moves the code and drops the names. Without names the script fails rather
// than quietly giving up the gain.
import { readFileSync, writeFileSync } from "node:fs";

import * as bin from "./wasm-binary.mjs";

const [inPath, outPath] = process.argv.slice(2);
if (!inPath || !outPath) {
  console.error("usage: node scripts/order-functions.mjs IN.wasm OUT.wasm");
  process.exit(2);
}
const wasm = readFileSync(inPath);
function fail(why) {
  console.error(`order-functions: ${inPath}: ${why}`);
  process.exit(1);
}
const readU32 = (at) => bin.readU32(wasm, at, fail);
const readName = (at) => bin.readName(wasm, at, fail);

const all = bin.sections(wasm, fail);
const only = (id) => all.filter((s) => s.id === id);

let imported = 0;
for (const s of only(2)) {
  let [count, p] = readU32(s.body);
  while (count--) {
    [, p] = readName(p);
    [, p] = readName(p);
    const kind = wasm[p];
    if (kind === 0) imported++;
    p = bin.skipDescriptor(wasm, kind, p + 1, fail);
  }
}

const bodies = [];
for (const s of only(10)) {
  let [count, p] = readU32(s.body);
  while (count--) {
    const [size, at] = readU32(p);
    bodies.push(wasm.subarray(at, at + size));
    p = at + size;
  }
}

const isNameSection = (s) => s.id === 0 && readName(s.body)[0] === "name";
const names = new Map();
for (const s of all.filter(isNameSection)) {
  let p = readName(s.body)[1];
  while (p < s.end) {
    const kind = wasm[p];
    const [size, at] = readU32(p + 1);
    if (kind === 1) {
      let [count, q] = readU32(at);
      while (count--) {
        let index, name;
        [index, q] = readU32(q);
        [name, q] = readName(q);
        names.set(index, name);
      }
    }
    p = at + size;
  }
}
if (bodies.length === 0) fail("no code section");
if (names.size === 0) fail("no function names (keep them with wasm-opt -g)");

// The crate a function's code belongs to: the first name in its path, which
// for a trait's method is its Self type's (`<yew::html::Html as
// core::clone::Clone>::clone` is yew's).
function crateOf(name) {
  const m = /^(?:<|&|mut |\*const |\*mut |dyn )*([A-Za-z_][A-Za-z0-9_]*)/.exec(name);
  return m ? m[1] : "";
}

const order = bodies.map((code, i) => ({
  i,
  crate: crateOf(names.get(imported + i) ?? ""),
  code: code.toString("latin1"),
}));
const before = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
order.sort((a, b) => before(a.crate, b.crate) || before(a.code, b.code) || a.i - b.i);

// A name section of function names alone: each defined function's new place,
// zero-padded so that sorting the names sorts the places.
const width = String(bodies.length).length;
const entries = [bin.writeU32(order.length)];
const named = order.map((f, place) => [imported + f.i, `f${String(place).padStart(width, "0")}`]);
named.sort((a, b) => a[0] - b[0]);
for (const [index, name] of named) {
  const bytes = Buffer.from(name, "utf8");
  entries.push(bin.writeU32(index), bin.writeU32(bytes.length), bytes);
}
const functionNames = Buffer.concat(entries);
const label = Buffer.from("name", "utf8");
const content = Buffer.concat([
  bin.writeU32(label.length),
  label,
  Buffer.from([1]),
  bin.writeU32(functionNames.length),
  functionNames,
]);
const parts = [wasm.subarray(0, 8)];
for (const s of all) if (!isNameSection(s)) parts.push(wasm.subarray(s.start, s.end));
parts.push(Buffer.from([0]), bin.writeU32(content.length), content);
writeFileSync(outPath, Buffer.concat(parts));
const crates = new Set(order.map((f) => f.crate)).size;
console.log(`order-functions: ${bodies.length} functions of ${crates} crates ordered in ${inPath.split("/").pop()}`);
