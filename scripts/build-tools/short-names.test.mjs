// Tests of short-names.mjs on a module wasm-bindgen built (fixture/: its
// Rust source, and build.sh, which rebuilds it as the page is built). Run by
// scripts/test.sh:
//   node --test scripts/build-tools/short-names.test.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import { shorten, ShortNamesError } from "./short-names.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const fixtureWasm = readFileSync(join(here, "fixture/fixture_bg.wasm"));
const fixtureGlue = readFileSync(join(here, "fixture/fixture.js"), "utf8");

const SAY = "__wbg_fixtureSay_341b0826baf7d00c";
const CALL_WITH = "__wbg_fixtureCallWith_7941de2b2deeb859";

/** Loads `glue` as a module and instantiates `wasm` through it. */
async function instantiate(wasm, glue) {
  const dir = mkdtempSync(join(tmpdir(), "short-names-"));
  writeFileSync(join(dir, "fixture.mjs"), glue);
  const module = await import(pathToFileURL(join(dir, "fixture.mjs")).href);
  module.initSync({ module: wasm });
  return module;
}

/** Runs the fixture's `greet`: what it returns, and what it said. */
async function greet(wasm, glue) {
  const said = [];
  globalThis.fixtureSay = (text) => said.push(text);
  globalThis.fixtureCallWith = (f, n) => f(n);
  const module = await instantiate(wasm, glue);
  return { answer: module.greet("ada", 21), said };
}

const importNames = (wasm) => WebAssembly.Module.imports(new WebAssembly.Module(wasm)).map((i) => i.name);
const exportNames = (wasm) => WebAssembly.Module.exports(new WebAssembly.Module(wasm)).map((e) => e.name);

test("the fixture is wasm-bindgen's of the version the page is built with", () => {
  const trunk = readFileSync(join(here, "../../Trunk.toml"), "utf8");
  const version = /^wasm_bindgen = "(.*)"$/m.exec(trunk)[1];
  assert.equal(readFileSync(join(here, "fixture/wasm-bindgen-version"), "utf8").trim(), version,
    "rebuild the fixture with scripts/build-tools/fixture/build.sh");
});

test("the renamed module runs as the original does: imports, strings and a closure", async () => {
  const before = await greet(fixtureWasm, fixtureGlue);
  assert.deepEqual(before, { answer: "ada 42", said: ["hello ada"] });
  const r = shorten(fixtureWasm, fixtureGlue);
  assert.deepEqual(await greet(r.wasm, r.glue), before);
});

test("every import and the wasm-bindgen exports get short names, in the wasm and the glue", () => {
  const r = shorten(fixtureWasm, fixtureGlue);
  assert.equal(r.imports, importNames(fixtureWasm).length);
  assert.ok(importNames(r.wasm).every((name) => name.length <= 2), importNames(r.wasm).join(" "));
  assert.doesNotMatch(r.glue, /__wbg_\w+_[0-9a-f]{16}\b|__wbindgen_generic_/);
  const exports = exportNames(r.wasm);
  assert.ok(!exports.some((name) => /^(__wbindgen_|wasm_bindgen__convert__closures)/.test(name)), exports.join(" "));
  assert.match(r.glue, /export function greet\(/, "the glue's own exports keep their names");
  assert.ok(r.wasm.length < fixtureWasm.length && r.glue.length < fixtureGlue.length);
});

test("an import that is not a key of the glue's import object is an error", () => {
  const glue = fixtureGlue.replace(`${SAY}:`, "__wbg_fixtureSay_0000000000000000:");
  assert.throws(() => shorten(fixtureWasm, glue), (e) => e instanceof ShortNamesError && e.message.includes(SAY));
});

test("an import named anywhere else in the glue is an error", () => {
  const glue = fixtureGlue.replace("function __wbg_get_imports() {", `const seen = "${CALL_WITH}";\n$&`);
  assert.throws(() => shorten(fixtureWasm, glue), (e) => e instanceof ShortNamesError && e.message.includes(CALL_WITH));
});

test("a glue without the import object of the wasm's module is an error", () => {
  const glue = fixtureGlue.replace('"./fixture_bg.js": import0', '"./other_bg.js": import0');
  assert.throws(() => shorten(fixtureWasm, glue), (e) => e instanceof ShortNamesError && e.message.includes("./fixture_bg.js"));
});

test("an import object that is not an object literal is an error", () => {
  const glue = fixtureGlue.replace('"./fixture_bg.js": import0', '"./fixture_bg.js": Object.assign({}, import0)');
  assert.throws(() => shorten(fixtureWasm, glue), (e) => e instanceof ShortNamesError && e.message.includes("not an object literal"));
});

test("a glue that does not call the exports as wasm.NAME is an error", () => {
  const glue = fixtureGlue.replace(/\bwasm\b/g, "exports0");
  assert.throws(() => shorten(fixtureWasm, glue), (e) => e instanceof ShortNamesError && e.message.includes("wasm.NAME"));
});

test("an export the glue also names in a string keeps its name, and the module still runs", async () => {
  const glue = fixtureGlue.replace("function __wbg_get_imports() {", 'globalThis.peek = "__wbindgen_free";\n$&');
  const r = shorten(fixtureWasm, glue);
  assert.ok(exportNames(r.wasm).includes("__wbindgen_free"));
  assert.ok(!exportNames(r.wasm).includes("__wbindgen_malloc"));
  assert.deepEqual(await greet(r.wasm, r.glue), { answer: "ada 42", said: ["hello ada"] });
});

test("a key of the import object the wasm does not import is dropped", () => {
  const glue = fixtureGlue.replace(`${SAY}:`, "__wbg_unused_0123456789abcdef: function() {},\n        $&");
  const r = shorten(fixtureWasm, glue);
  assert.equal(r.dropped, 1);
  assert.doesNotMatch(r.glue, /__wbg_unused_/);
});

test("the command leaves both files as they were when it fails", () => {
  const dir = mkdtempSync(join(tmpdir(), "short-names-"));
  const glue = fixtureGlue.replace(`${SAY}:`, "__wbg_fixtureSay_0000000000000000:");
  writeFileSync(join(dir, "fixture_bg.wasm"), fixtureWasm);
  writeFileSync(join(dir, "fixture.js"), glue);
  const run = spawnSync(process.execPath, [join(here, "short-names.mjs"), join(dir, "fixture_bg.wasm"), join(dir, "fixture.js")], { encoding: "utf8" });
  assert.equal(run.status, 1);
  assert.match(run.stderr, new RegExp(SAY));
  assert.ok(readFileSync(join(dir, "fixture_bg.wasm")).equals(fixtureWasm));
  assert.equal(readFileSync(join(dir, "fixture.js"), "utf8"), glue);
});
