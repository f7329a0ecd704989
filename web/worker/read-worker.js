// Reads File/Blob slices for the engine worker, on a thread of its own, and transfers each
// slice's ArrayBuffer to it (no copy). Receiving a slice's bytes from the browser process costs
// the receiving thread about 0.5 s of CPU per GB; here that runs beside the engine's parse
// instead of inside it. Several streams may be open at once (a load and a memory scan, say):
// each has an id. Flow control: at most `window` slices of a stream are read or unconsumed at
// a time; the engine worker sends {ack} as it takes one, {cancel} when it stops early.
'use strict';

const streams = new Map(); // id → {blob, next (offset), size, window, outstanding, cancelled}

function pump(id) {
  const s = streams.get(id);
  if (!s || s.cancelled) return;
  while (s.outstanding < s.window && s.next < s.blob.size) {
    const off = s.next;
    s.next = Math.min(s.blob.size, off + s.size);
    ++s.outstanding;
    const seq = s.seq++;
    s.blob
      .slice(off, s.next)
      .arrayBuffer()
      .then(
        (buf) => {
          if (s.cancelled) return;
          // Reads may complete out of order: post in file order.
          s.ready.set(seq, buf);
          while (s.ready.has(s.posted)) {
            const b = s.ready.get(s.posted);
            s.ready.delete(s.posted++);
            postMessage({ id, buf: b, last: s.posted === s.count }, [b]);
          }
          if (s.posted === s.count) streams.delete(id);
        },
        (err) => {
          if (s.cancelled) return;
          s.cancelled = true;
          streams.delete(id);
          postMessage({ id, error: String((err && err.message) || err) });
        },
      );
  }
}

onmessage = (e) => {
  const m = e.data;
  if (m.open) {
    const count = Math.ceil(m.blob.size / m.size);
    if (count === 0) {
      postMessage({ id: m.id, last: true });
      return;
    }
    streams.set(m.id, {
      blob: m.blob,
      size: m.size,
      window: m.window,
      next: 0,
      seq: 0,
      posted: 0,
      count,
      outstanding: 0,
      ready: new Map(),
      cancelled: false,
    });
    pump(m.id);
  } else if (m.ack) {
    const s = streams.get(m.id);
    if (s) {
      --s.outstanding;
      pump(m.id);
    }
  } else if (m.cancel) {
    const s = streams.get(m.id);
    if (s) {
      s.cancelled = true;
      streams.delete(m.id);
    }
  }
};
