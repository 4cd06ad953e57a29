// An order of a wasm module's functions in which gzip finds more repeats:
// the functions of one crate side by side, and within a crate those whose
// code begins alike next to each other. gzip looks back only 32 KB, and the
// linker scatters a crate's monomorphised copies over the whole file;
// binaryen's own --reorder-functions (by call count) makes the download
// larger instead (docs/ARCHITECTURE.md, "How the build shrinks it").
//
//   node scripts/build-tools/order-functions.mjs IN.wasm OUT.wasm
//
// IN carries its function names (wasm-opt -g): a function's crate is read
// from its name. OUT is IN with a name section that names each function by
// its place in the new order, for `wasm-opt --reorder-functions-by-name
// --strip-debug`, which moves the code (binaryen renumbers every call and
// table entry) and drops the names. The order changes where code sits, never
// what it does. A module without function names is an error, rather than
// the gain quietly given up.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

import { readName, readU32, sections, skipDescriptor, WasmFormatError, writeName, writeU32 } from "./wasm-binary.mjs";

/** The module cannot be ordered (it has no function names). */
export class OrderError extends Error {}

const IMPORT_SECTION = 2;
const CODE_SECTION = 10;
const CUSTOM_SECTION = 0;
const FUNCTION_NAMES = 1;

/**
 * The crate a function's code belongs to: the first name of its path, which
 * for a trait's method is its Self type's (`<yew::html::Html as
 * core::clone::Clone>::clone` is yew's).
 */
export function crateOf(name) {
  const m = /^(?:<|&|mut |\*const |\*mut |dyn )*([A-Za-z_][A-Za-z0-9_]*)/.exec(name);
  return m ? m[1] : "";
}

/** The name section's function names: Map(function index -> name). */
export function functionNames(wasm) {
  const names = new Map();
  for (const s of sections(wasm)) {
    if (s.id !== CUSTOM_SECTION || readName(wasm, s.body)[0] !== "name") continue;
    let p = readName(wasm, s.body)[1];
    while (p < s.end) {
      const kind = wasm[p];
      const [size, at] = readU32(wasm, p + 1);
      if (kind === FUNCTION_NAMES) {
        let [count, q] = readU32(wasm, at);
        while (count--) {
          let index, name;
          [index, q] = readU32(wasm, q);
          [name, q] = readName(wasm, q);
          names.set(index, name);
        }
      }
      p = at + size;
    }
  }
  return names;
}

/**
 * `wasm` with its name section replaced by one that names each defined
 * function `fNNNN` after its place in the order; returns { wasm, functions,
 * crates }.
 */
export function order(wasm) {
  const all = sections(wasm);
  let imported = 0;
  for (const s of all.filter((s) => s.id === IMPORT_SECTION)) {
    let [count, p] = readU32(wasm, s.body);
    while (count--) {
      [, p] = readName(wasm, p);
      [, p] = readName(wasm, p);
      const kind = wasm[p];
      if (kind === 0) imported++;
      p = skipDescriptor(wasm, kind, p + 1);
    }
  }
  const bodies = [];
  for (const s of all.filter((s) => s.id === CODE_SECTION)) {
    let [count, p] = readU32(wasm, s.body);
    while (count--) {
      const [size, at] = readU32(wasm, p);
      bodies.push(wasm.subarray(at, at + size));
      p = at + size;
    }
  }
  const names = functionNames(wasm);
  if (bodies.length === 0) throw new OrderError("the module has no code");
  if (names.size === 0) throw new OrderError("the module has no function names (keep them with wasm-opt -g)");

  const functions = bodies.map((code, i) => ({
    index: imported + i,
    crate: crateOf(names.get(imported + i) ?? ""),
    code: code.toString("latin1"),
  }));
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...functions].sort((a, b) => cmp(a.crate, b.crate) || cmp(a.code, b.code) || a.index - b.index);

  // Zero-padded, so that binaryen's sort of the names is the order's.
  const width = String(sorted.length).length;
  const place = new Map(sorted.map((f, i) => [f.index, `f${String(i).padStart(width, "0")}`]));
  const entries = functions.map((f) => Buffer.concat([writeU32(f.index), writeName(place.get(f.index))]));
  const subsection = Buffer.concat([writeU32(entries.length), ...entries]);
  const content = Buffer.concat([writeName("name"), Buffer.from([FUNCTION_NAMES]), writeU32(subsection.length), subsection]);
  const isNames = (s) => s.id === CUSTOM_SECTION && readName(wasm, s.body)[0] === "name";
  const parts = [wasm.subarray(0, 8)];
  for (const s of all) if (!isNames(s)) parts.push(wasm.subarray(s.start, s.end));
  parts.push(Buffer.from([CUSTOM_SECTION]), writeU32(content.length), content);
  return { wasm: Buffer.concat(parts), functions: functions.length, crates: new Set(functions.map((f) => f.crate)).size };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [inPath, outPath] = process.argv.slice(2);
  if (!inPath || !outPath) {
    console.error("usage: node scripts/build-tools/order-functions.mjs IN.wasm OUT.wasm");
    process.exit(2);
  }
  try {
    const r = order(readFileSync(inPath));
    writeFileSync(outPath, r.wasm);
    console.log(`order-functions: ${inPath.split("/").pop()}: ${r.functions} functions of ${r.crates} crates ordered`);
  } catch (e) {
    if (!(e instanceof OrderError || e instanceof WasmFormatError)) throw e;
    console.error(`order-functions: ${inPath}: ${e.message}`);
    process.exit(1);
  }
}
