// The parts of the wasm binary format the post-build tools read and write
// (short-names.mjs: the import and export sections; order-functions.mjs:
// the code and name sections). Each reader takes a buffer and an offset and
// returns [value, next offset], and throws WasmFormatError on a file it
// cannot read.

/** A file that is not a wasm module this reader understands. */
export class WasmFormatError extends Error {}

function fail(why) {
  throw new WasmFormatError(`wasm: ${why}`);
}

export function readU32(buf, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (at >= buf.length) fail("a number runs past the end of the file");
    const byte = buf[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
    if (shift > 28) fail("a number longer than 32 bits");
  }
}

export function writeU32(n) {
  const out = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Buffer.from(out);
}

export function readName(buf, at) {
  const [len, start] = readU32(buf, at);
  if (start + len > buf.length) fail("a name runs past the end of the file");
  return [buf.subarray(start, start + len).toString("utf8"), start + len];
}

export function writeName(name) {
  const bytes = Buffer.from(name, "utf8");
  return Buffer.concat([writeU32(bytes.length), bytes]);
}

// The bytes after an import's kind byte: function (type index), table
// (reference type, limits), memory (limits), global (type, mutability), tag
// (attribute, type index).
export function skipDescriptor(buf, kind, at) {
  const limits = (p) => {
    const flags = buf[p++];
    [, p] = readU32(buf, p);
    if (flags & 1) [, p] = readU32(buf, p);
    return p;
  };
  switch (kind) {
    case 0:
      return readU32(buf, at)[1];
    case 1:
      return limits(at + 1);
    case 2:
      return limits(at);
    case 3:
      return at + 2;
    case 4:
      return readU32(buf, at + 1)[1];
    default:
      return fail(`an import of unknown kind ${kind}`);
  }
}

/** The module's sections in order: { id, start (its header), body, end }. */
export function sections(wasm) {
  if (wasm.length < 8 || wasm.readUInt32LE(0) !== 0x6d736100) fail("not a wasm module");
  const out = [];
  let at = 8;
  while (at < wasm.length) {
    const [size, body] = readU32(wasm, at + 1);
    const end = body + size;
    if (end > wasm.length) fail("a section runs past the end of the file");
    out.push({ id: wasm[at], start: at, body, end });
    at = end;
  }
  return out;
}
