// Short names for what a wasm module and its wasm-bindgen glue call each
// other by. wasm-bindgen names each function the wasm imports after the Rust
// item plus a 16-digit hash (`__wbg_addEventListener_f2d27251d333a631`), and
// writes each name twice: in the wasm's import section and as a key of the
// glue's import object. The closures' call shims it exports are named the
// same way. The hashes are noise gzip cannot shrink, in two files of the
// first load (docs/ARCHITECTURE.md, "How the build shrinks it").
//
//   node scripts/build-tools/short-names.mjs MODULE_bg.wasm GLUE.js
//
// Run on wasm-bindgen's glue as it writes it (before terser) and the wasm
// after wasm-opt. The glue is read with a JavaScript parser, not patterns:
//
// - every import of a module the glue answers with an object literal
//   (`"./x_bg.js": import0`) is renamed, and must be a key of that object,
//   once, and nowhere else in the glue; anything else is an error, and
//   nothing is written. A key the wasm no longer imports (wasm-opt removed
//   the call) is dropped from the object.
// - an export is renamed when the glue names it only as `wasm.NAME`; one it
//   names any other way (a string, another object's property) keeps its name.
//   A glue with no `wasm.NAME` at all is an error: wasm-bindgen's layout
//   changed, and this step must be looked at rather than quietly do nothing.
//
// The rewritten wasm is compiled before it is written, and the rewritten
// glue parsed again and checked to answer every import.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

import * as acorn from "acorn";

import { readName, readU32, sections, skipDescriptor, WasmFormatError, writeName, writeU32 } from "./wasm-binary.mjs";

/** The glue's or the wasm's layout is not the one this step knows. */
export class ShortNamesError extends Error {}

function fail(why) {
  throw new ShortNamesError(why);
}

const IMPORT_SECTION = 2;
const EXPORT_SECTION = 7;

/** The imports: { module, name, rest (kind and descriptor bytes) }. */
function readImports(wasm, s) {
  let [count, p] = readU32(wasm, s.body);
  const out = [];
  while (count--) {
    const [module, afterModule] = readName(wasm, p);
    const [name, afterName] = readName(wasm, afterModule);
    const end = skipDescriptor(wasm, wasm[afterName], afterName + 1);
    out.push({ module, name, rest: wasm.subarray(afterName, end) });
    p = end;
  }
  if (p !== s.end) fail("wasm: the import section is longer than its imports");
  return out;
}

/** The exports: { name, rest (kind and index bytes) }. */
function readExports(wasm, s) {
  let [count, p] = readU32(wasm, s.body);
  const out = [];
  while (count--) {
    const [name, afterName] = readName(wasm, p);
    const end = readU32(wasm, afterName + 1)[1];
    out.push({ name, rest: wasm.subarray(afterName, end) });
    p = end;
  }
  if (p !== s.end) fail("wasm: the export section is longer than its exports");
  return out;
}

function section(id, entries) {
  const body = Buffer.concat([writeU32(entries.length), ...entries]);
  return Buffer.concat([Buffer.from([id]), writeU32(body.length), body]);
}

// --- the glue ---

/** Every node of an acorn tree, each with its parent. */
function* nodes(node, parent = null) {
  yield [node, parent];
  for (const key of Object.keys(node)) {
    const value = node[key];
    for (const child of Array.isArray(value) ? value : [value]) {
      if (child && typeof child.type === "string") yield* nodes(child, node);
    }
  }
}

/** A property's key as written, if it is a plain name or a string. */
function keyName(prop) {
  if (prop.type !== "Property" || prop.computed) return null;
  if (prop.key.type === "Identifier") return prop.key.name;
  if (prop.key.type === "Literal" && typeof prop.key.value === "string") return prop.key.value;
  return null;
}

// a, b, …, Z, ba, bb, …: plain identifiers, none of them a JavaScript word.
const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const RESERVED = new Set(["do", "if", "in"]);
function* shortNames(taken) {
  for (let i = 0; ; i++) {
    let s = "";
    let n = i;
    do {
      s = ALPHABET[n % ALPHABET.length] + s;
      n = Math.floor(n / ALPHABET.length);
    } while (n > 0);
    if (!RESERVED.has(s) && !taken(s)) yield s;
  }
}

/** How often `name` is in `text` as a whole word (not part of a longer name). */
function wordCount(text, name) {
  const escaped = name.replace(/[$]/g, "\\$");
  return text.match(new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`, "g"))?.length ?? 0;
}

function parseGlue(glue) {
  const comments = [];
  let ast;
  try {
    ast = acorn.parse(glue, { ecmaVersion: "latest", sourceType: "module", onComment: comments });
  } catch (e) {
    fail(`glue: not JavaScript this parser reads (${e.message})`);
  }
  // The glue's text with its comments blanked, for counting names.
  let code = glue;
  for (const c of comments) code = code.slice(0, c.start) + " ".repeat(c.end - c.start) + code.slice(c.end);
  return { ast, code };
}

/**
 * The object literal the glue answers `module`'s imports with: the value of
 * the property `"module": …`, written in place or as a `const` of its own.
 */
function importObject(ast, module) {
  const found = [];
  const declared = new Map();
  for (const [node] of nodes(ast)) {
    if (node.type === "Property" && keyName(node) === module) found.push(node.value);
    if (node.type === "VariableDeclarator" && node.id.type === "Identifier") {
      declared.set(node.id.name, [...(declared.get(node.id.name) ?? []), node.init]);
    }
  }
  if (found.length !== 1) fail(`glue: the imports of "${module}" are given ${found.length} times, not once`);
  let value = found[0];
  if (value.type === "Identifier") {
    const inits = declared.get(value.name) ?? [];
    if (inits.length !== 1) fail(`glue: "${module}"'s import object ${value.name} is declared ${inits.length} times`);
    value = inits[0];
  }
  if (value?.type !== "ObjectExpression") fail(`glue: the imports of "${module}" are not an object literal`);
  return value;
}

/**
 * Renames in `wasm` (a Buffer) and `glue` (its wasm-bindgen glue, as
 * written) and returns { wasm, glue, imports, exports, dropped }: the new
 * files, and how many imports and exports were renamed and glue keys dropped.
 * Throws ShortNamesError, and changes nothing, when the pair is not laid out
 * as this step expects.
 */
export function shorten(wasm, glue) {
  const all = sections(wasm);
  const importSections = all.filter((s) => s.id === IMPORT_SECTION);
  const exportSections = all.filter((s) => s.id === EXPORT_SECTION);
  if (importSections.length !== 1) fail(`wasm: ${importSections.length} import sections, not one`);
  if (exportSections.length !== 1) fail(`wasm: ${exportSections.length} export sections, not one`);
  const imports = readImports(wasm, importSections[0]);
  const exports = readExports(wasm, exportSections[0]);
  const { ast, code } = parseGlue(glue);

  // Edits of the glue's text: [start, end, replacement].
  const edits = [];

  // Imports, module by module. A module the glue imports with an ES import
  // (a snippet) is named by its own file's exports and keeps its names.
  const byModule = new Map();
  for (const imp of imports) byModule.set(imp.module, [...(byModule.get(imp.module) ?? []), imp]);
  const renamedImports = new Map(); // module -> Map(long -> short)
  let dropped = 0;
  for (const [module, list] of byModule) {
    if (module.startsWith("./snippets/")) continue;
    const object = importObject(ast, module);
    const keys = new Map();
    for (const prop of object.properties) {
      const name = keyName(prop);
      if (name === null) fail(`glue: the import object of "${module}" has a key that is not a plain name`);
      if (name === "__proto__") continue;
      if (keys.has(name)) fail(`glue: ${name} is a key of "${module}"'s import object twice`);
      keys.set(name, prop);
    }
    const wanted = new Set(list.map((imp) => imp.name));
    const names = new Map();
    const fresh = shortNames((s) => keys.has(s));
    for (const name of wanted) {
      if (!keys.has(name)) fail(`glue: the wasm imports ${name} from "${module}", which is not a key of its import object`);
      const seen = wordCount(code, name);
      if (seen !== 1) fail(`glue: ${name} is in the glue ${seen} times, not once as its import object's key`);
      const short = fresh.next().value;
      names.set(name, short);
      const key = keys.get(name).key;
      edits.push([key.start, key.end, short]);
    }
    // Keys the wasm no longer imports: functions nothing can call.
    const props = object.properties;
    props.forEach((prop, i) => {
      const name = keyName(prop);
      if (name === "__proto__" || wanted.has(name)) return;
      if (wordCount(code, name) !== 1) fail(`glue: ${name}, a key the wasm does not import, is named elsewhere in the glue`);
      if (i + 1 < props.length) edits.push([prop.start, props[i + 1].start, ""]);
      else if (i > 0) edits.push([props[i - 1].end, prop.end, ""]);
      else edits.push([prop.start, prop.end, ""]);
      dropped++;
    });
    renamedImports.set(module, names);
  }

  // Exports the glue reads only as `wasm.NAME`.
  const exportNames = new Set(exports.map((e) => e.name));
  const uses = new Map(); // name -> the property nodes of its `wasm.NAME`
  const identifiers = new Map(); // name -> how often it is a JavaScript identifier
  let wasmMembers = 0;
  for (const [node, parent] of nodes(ast)) {
    if (node.type !== "Identifier") continue;
    const member = parent?.type === "MemberExpression" && parent.property === node && !parent.computed;
    // A key (`{ NAME: … }`, a class's `NAME() {}`) names a property too.
    const key = /^(Property|MethodDefinition|PropertyDefinition)$/.test(parent?.type) && parent.key === node && !parent.computed;
    if (member && parent.object.type === "Identifier" && parent.object.name === "wasm") {
      wasmMembers++;
      if (exportNames.has(node.name)) uses.set(node.name, [...(uses.get(node.name) ?? []), node]);
    } else if (!member && !key) {
      identifiers.set(node.name, (identifiers.get(node.name) ?? 0) + 1);
    }
  }
  if (wasmMembers === 0) fail("glue: no `wasm.NAME` anywhere: the glue no longer calls the wasm's exports this way");
  const renamedExports = new Map();
  const fresh = shortNames((s) => exportNames.has(s));
  for (const { name } of exports) {
    const members = uses.get(name);
    if (!members) continue;
    // Every whole-word use of the name is `wasm.NAME` or a JavaScript
    // identifier (a shim function named after the export it calls, which is
    // JavaScript's own binding); a string or another object's property could
    // reach the export by another path, so such a name stays.
    if (wordCount(code, name) !== members.length + (identifiers.get(name) ?? 0)) continue;
    const short = fresh.next().value;
    renamedExports.set(name, short);
    for (const prop of members) edits.push([prop.start, prop.end, short]);
  }

  // The new glue, edited from the end so that earlier offsets hold.
  edits.sort((a, b) => b[0] - a[0]);
  let out = glue;
  let limit = Infinity;
  for (const [start, end, text] of edits) {
    if (end > limit) fail("glue: two edits overlap");
    out = out.slice(0, start) + text + out.slice(end);
    limit = start;
  }

  // The new wasm: the two sections rewritten, every other byte as it was.
  const importEntries = imports.map(({ module, name, rest }) =>
    Buffer.concat([writeName(module), writeName(renamedImports.get(module)?.get(name) ?? name), rest]),
  );
  const exportEntries = exports.map(({ name, rest }) => Buffer.concat([writeName(renamedExports.get(name) ?? name), rest]));
  const parts = [wasm.subarray(0, 8)];
  for (const s of all) {
    if (s.id === IMPORT_SECTION) parts.push(section(IMPORT_SECTION, importEntries));
    else if (s.id === EXPORT_SECTION) parts.push(section(EXPORT_SECTION, exportEntries));
    else parts.push(wasm.subarray(s.start, s.end));
  }
  const newWasm = Buffer.concat(parts);

  // Checks of the result: the wasm compiles, and the new glue answers each
  // of its imports by the new name.
  try {
    new WebAssembly.Module(newWasm);
  } catch (e) {
    fail(`wasm: the rewritten module does not compile (${e.message})`);
  }
  const check = parseGlue(out).ast;
  for (const [module, names] of renamedImports) {
    const keys = new Set(importObject(check, module).properties.map(keyName));
    for (const short of names.values()) {
      if (!keys.has(short)) fail(`glue: after renaming, "${module}"'s import object has no key ${short}`);
    }
  }

  const imported = [...renamedImports.values()].reduce((n, m) => n + m.size, 0);
  return { wasm: newWasm, glue: out, imports: imported, exports: renamedExports.size, dropped };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [wasmPath, gluePath] = process.argv.slice(2);
  if (!wasmPath || !gluePath) {
    console.error("usage: node scripts/build-tools/short-names.mjs MODULE_bg.wasm GLUE.js");
    process.exit(2);
  }
  try {
    const r = shorten(readFileSync(wasmPath), readFileSync(gluePath, "utf8"));
    writeFileSync(wasmPath, r.wasm);
    writeFileSync(gluePath, r.glue);
    console.log(
      `short-names: ${wasmPath.split("/").pop()}: ${r.imports} imports and ${r.exports} exports renamed, ` +
        `${r.dropped} unused import keys dropped from ${gluePath.split("/").pop()}`,
    );
  } catch (e) {
    if (!(e instanceof ShortNamesError || e instanceof WasmFormatError)) throw e;
    console.error(`short-names: ${wasmPath}: ${e.message}; both files left as they were`);
    process.exit(1);
  }
}
