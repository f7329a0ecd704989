// A slice worker: parses one later slice of a big plain Chrome JSON or XSpace for the engine worker
// (sliced.js) with its own copy of the engine module, and transfers the slice's encoded partial
// result back (slice_exports.cc; the engine worker absorbs it). Started by the engine worker
// when it starts (so its module is compiled before a load needs it), reused across loads; one
// slice at a time.
// Messages (engine worker ⇄ slice worker, both ends in web/worker/; not the page's protocol):
//   in:  {parse: true, load, slice, base, objectForm, blob} (a Blob of the slice's bytes) or
//        {..., url, start, end} (the bytes [start, end) of a URL, read with a Range request);
//        an XSpace slice adds {xspace: true, planesBefore, context: [{offset, blob} or
//        {offset, url, start, end}]}: the earlier planes whose metadata its planes use, read first;
//        {cancel: true, load}: stop that load's slice (its result is not wanted any more).
//   out: {load, slice, buf: ArrayBuffer (transferred; empty when the slice could not be kept),
//        bytes, records, read, parse (ms spent reading and parsing)} or {load, slice, error}.
'use strict';
importScripts('strata_engine.js', 'sources.js');

const COMMIT = 256 << 10; // bytes per call into the engine (trace.js)
// Started with the worker, which the engine worker starts with itself: the module compiles and
// the read worker starts before the first slice is posted.
const ready = createStrataEngine();
// A Blob slice is read by a read worker of this worker's own (read-worker.js, as the engine
// worker's reads are), so receiving the bytes runs beside this worker's parse, not inside it.
const sources = createSources();
sources.startReadWorker();
let cancelled = -1; // the load whose slice is to stop
let queue = Promise.resolve(); // one slice at a time

// The slice's bytes, in chunks, from a Blob or a URL range.
const chunksOf = (m) => (m.blob ? sources.blobChunks(m.blob) : sources.urlRangeChunks(m.url, m.start, m.end));

async function parse(M, m) {
  const t0 = performance.now();
  let readMs = 0,
    bytes = 0;
  if (m.xspace) {
    M._slice_begin_xspace(m.base, m.planesBefore);
    for (const c of m.context) {
      let bytes = new Uint8Array(0);
      for await (const chunk of chunksOf(c)) {
        const all = new Uint8Array(bytes.length + chunk.length);
        all.set(bytes);
        all.set(chunk, bytes.length);
        bytes = all;
      }
      const p = M._slice_buffer(bytes.length) >>> 0;
      M.HEAPU8.set(bytes, p);
      M._slice_context(bytes.length, c.offset);
    }
  } else {
    M._slice_begin(m.base, m.objectForm ? 1 : 0);
  }
  let pending = 0;
  const flush = () => {
    if (pending) M._slice_commit(pending);
    pending = 0;
  };
  let tRead = performance.now();
  for await (const chunk of chunksOf(m)) {
    readMs += performance.now() - tRead;
    if (cancelled === m.load) {
      M._slice_end();
      M._slice_release();
      return null;
    }
    for (let off = 0; off < chunk.length; ) {
      const n = Math.min(chunk.length - off, COMMIT - pending);
      const p = M._slice_buffer(pending + n) >>> 0;
      M.HEAPU8.set(chunk.subarray(off, off + n), p + pending);
      pending += n;
      off += n;
      if (pending >= COMMIT) flush();
    }
    bytes += chunk.length;
    tRead = performance.now();
  }
  flush();
  const records = M._slice_records();
  const p = M._slice_end() >>> 0;
  const buf = M.HEAPU8.slice(p, p + M._slice_out_size()).buffer; // a copy: wasm memory stays
  M._slice_release();
  return { buf, bytes, records, read: readMs, parse: performance.now() - t0 - readMs };
}

onmessage = (e) => {
  const m = e.data;
  if (m.cancel) {
    cancelled = m.load;
    return;
  }
  if (!m.parse) return;
  queue = queue
    .then(() => ready)
    .then((M) => (cancelled === m.load ? null : parse(M, m)))
    .then(
      (r) => {
        if (r) postMessage({ load: m.load, slice: m.slice, ...r }, [r.buf]);
      },
      (err) => postMessage({ load: m.load, slice: m.slice, error: String((err && err.message) || err) }),
    );
};
