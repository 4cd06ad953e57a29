// Tests of offline-stamp.mjs on a small copy. Run by scripts/test.sh:
//   node --test scripts/build-tools/offline-stamp.test.mjs
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { stamp } from "./offline-stamp.mjs";

const WORKER = "// the worker\nconst VERSION = 'unstamped';\nconst FILES = [];\nself.x = 1;\n";

/** A copy with a page, a scenario in a folder and an unstamped worker. */
function copy(scenario = "{}") {
  const dir = mkdtempSync(join(tmpdir(), "offline-stamp-"));
  mkdirSync(join(dir, "scenarios"));
  writeFileSync(join(dir, "index.html"), "<!doctype html>");
  writeFileSync(join(dir, "scenarios", "a.json"), scenario);
  writeFileSync(join(dir, "service-worker.js"), WORKER);
  return dir;
}

test("the worker lists every file of the copy but itself, sorted, with forward slashes", () => {
  const dir = copy();
  const { files } = stamp(dir);
  assert.deepEqual(files, ["index.html", "scenarios/a.json"]);
  const source = readFileSync(join(dir, "service-worker.js"), "utf8");
  assert.match(source, /^const FILES = \["index.html","scenarios\/a.json"\];$/m);
  assert.match(source, /^self\.x = 1;$/m, "the rest of the worker is kept");
});

test("what docs pages on other sites load, embed.js and the pictures, is not stored", () => {
  const dir = copy();
  mkdirSync(join(dir, "previews"));
  writeFileSync(join(dir, "previews", "a.svg"), "<svg/>");
  writeFileSync(join(dir, "embed.js"), "// element");
  assert.deepEqual(stamp(dir).files, ["index.html", "scenarios/a.json"]);
});

test("a changed file makes a new version, and the same files the same one", () => {
  const first = stamp(copy('{"a":1}')).version;
  assert.match(first, /^[0-9a-f]{16}$/);
  assert.equal(stamp(copy('{"a":1}')).version, first);
  assert.notEqual(stamp(copy('{"a":2}')).version, first);
});

test("stamping a copy again gives the same version", () => {
  const dir = copy();
  const once = stamp(dir).version;
  assert.equal(stamp(dir).version, once);
  assert.match(readFileSync(join(dir, "service-worker.js"), "utf8"), new RegExp(`^const VERSION = '${once}';$`, "m"));
});

test("a worker without the lines to stamp is an error naming them", () => {
  const dir = copy();
  writeFileSync(join(dir, "service-worker.js"), "self.x = 1;\n");
  assert.throws(() => stamp(dir), /no "const VERSION = …;" and "const FILES = …;" lines to stamp/);
});
