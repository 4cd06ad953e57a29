// Reading and writing the parts of the wasm binary format that the
// post-build steps rewrite (short-imports.mjs, order-functions.mjs). Each
// reader takes a buffer and an offset and returns [value, next offset];
// `fail` is the caller's, so that a malformed file is reported in its terms.

// Unsigned LEB128, as the format writes lengths, counts and indices.
export function readU32(buf, at, fail) {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (at >= buf.length) fail("a number runs past the end of the file");
    const byte = buf[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
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

export function readName(buf, at, fail) {
  const [len, start] = readU32(buf, at, fail);
  return [buf.subarray(start, start + len).toString("utf8"), start + len];
}

// The bytes that describe an import after its kind byte: function (type
// index), table (type, limits), memory (limits), global (type, mutability),
// tag (attribute, type index).
export function skipDescriptor(buf, kind, at, fail) {
  const limits = (p) => {
    const flags = buf[p++];
    [, p] = readU32(buf, p, fail);
    if (flags & 1) [, p] = readU32(buf, p, fail);
    return p;
  };
  switch (kind) {
    case 0: return readU32(buf, at, fail)[1];
    case 1: return limits(at + 1);
    case 2: return limits(at);
    case 3: return at + 2;
    case 4: return readU32(buf, at + 1, fail)[1];
    default: fail(`an import of unknown kind ${kind}`);
  }
}

// The module's sections in order: { id, start (of the section's header),
// body (offset of its contents), end }.
export function sections(wasm, fail) {
  if (wasm.length < 8 || wasm.readUInt32LE(0) !== 0x6d736100) fail("not a wasm module");
  const out = [];
  let at = 8;
  while (at < wasm.length) {
    const [size, body] = readU32(wasm, at + 1, fail);
    const end = body + size;
    if (end > wasm.length) fail("a section runs past the end of the file");
    out.push({ id: wasm[at], start: at, body, end });
    at = end;
  }
  return out;
}
