// A small XSpace (XProf *.xplane.pb) writer for end-to-end tests that need stats no real
// sample carries: protobuf wire encoding by hand from the field numbers in
// ../shared/FORMATS.md, independent of the importer's reader (src/core/formats/protobuf/wire.h).
// planes: [{name, lines: [{id, name, timestampNs, events: [{name, offsetPs, durationPs,
// stats}]}], metadata: {eventName: stats}}], where stats = {name: value}: a number (an integer
// becomes uint64, a fraction a double), a string, a Uint8Array (bytes), {int: n} (int64) or
// {uint: n} (uint64; n a BigInt for values a Number cannot hold).
const enc = new TextEncoder();

function varint(n) {
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  const out = [];
  while (v > 0x7fn) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}
const cat = (parts) => {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const tag = (field, type) => varint((field << 3) | type);
const fVarint = (field, n) => Uint8Array.from([...tag(field, 0), ...varint(n)]);
const fBytes = (field, bytes) => {
  const b = typeof bytes === 'string' ? enc.encode(bytes) : bytes;
  return cat([Uint8Array.from([...tag(field, 2), ...varint(b.length)]), b]);
};
const fDouble = (field, x) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, x, true);
  return cat([Uint8Array.from(tag(field, 1)), b]);
};

export function writeXSpace(planes) {
  const out = [];
  planes.forEach((plane, k) => {
    const statIds = new Map(),
      metaIds = new Map();
    const statId = (name) => {
      if (!statIds.has(name)) statIds.set(name, statIds.size + 1);
      return statIds.get(name);
    };
    const metaId = (name) => {
      if (!metaIds.has(name)) metaIds.set(name, metaIds.size + 1);
      return metaIds.get(name);
    };
    const stat = (name, v) => {
      const id = fVarint(1, statId(name));
      if (v instanceof Uint8Array) return cat([id, fBytes(6, v)]);
      if (typeof v === 'string') return cat([id, fBytes(5, v)]);
      if (v && typeof v === 'object' && 'int' in v) return cat([id, fVarint(4, v.int)]);
      if (v && typeof v === 'object' && 'uint' in v) return cat([id, fVarint(3, v.uint)]);
      return cat([id, Number.isInteger(v) ? fVarint(3, v) : fDouble(2, v)]);
    };
    const stats = (field, s) => Object.entries(s || {}).map(([n, v]) => fBytes(field, stat(n, v)));
    const lines = (plane.lines || []).map((l) =>
      fBytes(
        3,
        cat([
          fVarint(1, l.id),
          fBytes(2, l.name),
          fVarint(3, l.timestampNs || 0),
          ...l.events.map((e) =>
            fBytes(
              4,
              cat([fVarint(1, metaId(e.name)), fVarint(2, e.offsetPs), fVarint(3, e.durationPs), ...stats(4, e.stats)]),
            ),
          ),
        ]),
      ),
    );
    for (const name of Object.keys(plane.metadata || {})) metaId(name);
    const metas = [...metaIds].map(([name, id]) =>
      fBytes(
        4,
        cat([
          fVarint(1, id),
          fBytes(2, cat([fVarint(1, id), fBytes(2, name), ...stats(5, (plane.metadata || {})[name])])),
        ]),
      ),
    );
    // Stat names last: every stat above has its id by now.
    const statMetas = [...statIds].map(([name, id]) =>
      fBytes(5, cat([fVarint(1, id), fBytes(2, cat([fVarint(1, id), fBytes(2, name)]))])),
    );
    out.push(fBytes(1, cat([fVarint(1, k + 1), fBytes(2, plane.name), ...lines, ...metas, ...statMetas])));
  });
  return cat(out);
}
