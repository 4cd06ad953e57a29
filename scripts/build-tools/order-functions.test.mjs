// Tests of order-functions.mjs on the module wasm-bindgen built (fixture/),
// with binaryen's --reorder-functions-by-name as scripts/wasm-opt.sh runs
// it. Run by scripts/test.sh:
//   node --test scripts/build-tools/order-functions.test.mjs
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import { crateOf, functionNames, order, OrderError } from "./order-functions.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const fixtureWasm = readFileSync(join(here, "fixture/fixture_bg.wasm"));
const fixtureGlue = readFileSync(join(here, "fixture/fixture.js"), "utf8");
const wasmOpt = join(here, "node_modules/binaryen/bin/wasm-opt");
const FEATURES = ["--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext",
  "--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue"];

/** binaryen's `wasm-opt ARGS` on `wasm`; the module it writes. */
function binaryen(wasm, ...args) {
  const dir = mkdtempSync(join(tmpdir(), "order-functions-"));
  writeFileSync(join(dir, "in.wasm"), wasm);
  execFileSync(process.execPath, [wasmOpt, ...args, ...FEATURES, join(dir, "in.wasm"), "-o", join(dir, "out.wasm")]);
  return readFileSync(join(dir, "out.wasm"));
}

/** The fixture's `greet` run through its glue on `wasm`. */
async function greet(wasm) {
  const dir = mkdtempSync(join(tmpdir(), "order-functions-"));
  writeFileSync(join(dir, "fixture.mjs"), fixtureGlue);
  const module = await import(pathToFileURL(join(dir, "fixture.mjs")).href);
  const said = [];
  globalThis.fixtureSay = (text) => said.push(text);
  globalThis.fixtureCallWith = (f, n) => f(n);
  module.initSync({ module: wasm });
  return { answer: module.greet("ada", 21), said };
}

test("a function's crate is the first name of its path, or of its Self type's", () => {
  assert.equal(crateOf("core::fmt::write::h0123456789abcdef"), "core");
  assert.equal(crateOf("<yew::html::Html as core::clone::Clone>::clone"), "yew");
  assert.equal(crateOf("<&mut serde_json::de::Deserializer<R> as serde::de::Deserializer>::deserialize_any"), "serde_json");
  assert.equal(crateOf("<dyn core::any::Any>::type_id"), "core");
  assert.equal(crateOf("main"), "main");
});

test("each defined function is named by its place, and the places are a permutation", () => {
  const before = functionNames(fixtureWasm);
  const r = order(fixtureWasm);
  const after = [...functionNames(r.wasm).values()];
  assert.equal(r.functions, after.length);
  assert.ok(after.length > 10 && after.length <= before.size, `${after.length} functions`);
  assert.deepEqual([...after].sort(), after.map((_, i) => `f${String(i).padStart(String(after.length).length, "0")}`).sort());
});

test("after binaryen moves the code, each crate's functions sit side by side", () => {
  const crates = new Map([...functionNames(fixtureWasm)].map(([i, name]) => [i, crateOf(name)]));
  const keyed = order(fixtureWasm).wasm;
  const places = functionNames(keyed); // index -> fNN
  const runs = [...places].sort((a, b) => (a[1] < b[1] ? -1 : 1)).map(([i]) => crates.get(i));
  const seen = new Set();
  for (let i = 0; i < runs.length; i++) {
    if (i > 0 && runs[i] === runs[i - 1]) continue;
    assert.ok(!seen.has(runs[i]), `${runs[i]}'s functions are split: ${runs.join(" ")}`);
    seen.add(runs[i]);
  }
  assert.ok(seen.size > 3, `${seen.size} crates`);
  // binaryen takes the order: its output's names are in ascending order.
  const moved = [...functionNames(binaryen(keyed, "--reorder-functions-by-name")).values()];
  assert.deepEqual(moved, [...moved].sort());
});

test("the ordered module runs as the original does", async () => {
  const before = await greet(fixtureWasm);
  assert.deepEqual(before, { answer: "ada 42", said: ["hello ada"] });
  const ordered = binaryen(order(fixtureWasm).wasm, "--reorder-functions-by-name", "--strip-debug");
  assert.notDeepEqual(ordered, binaryen(fixtureWasm, "--strip-debug"), "the code moved");
  assert.deepEqual(await greet(ordered), before);
});

test("a module without function names is an error, not an order given up", () => {
  const stripped = binaryen(fixtureWasm, "--strip-debug");
  assert.throws(() => order(stripped), (e) => e instanceof OrderError && /no function names/.test(e.message));
});
