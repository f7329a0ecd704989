// Parallel ingest: a big plain Chrome JSON (a picked File, or a URL whose server says it takes
// ranges: Accept-Ranges: bytes, no Content-Encoding) is cut at traceEvents elements into N slices (core: formats/chrome_json/
// sliced_import.h). This worker parses the first slice into the load (trace.js) while slice
// workers (slice-worker.js, each its own engine module, started on the first such load and kept)
// parse the others; their encoded results are transferred here and absorbed in file order
// (Engine::load_absorb_slice), so the store is the one-worker load's. A cut that the first
// slices do not end at exactly (it was inside a string) is refused: its bytes are read and fed
// here, still exact. No SharedArrayBuffer: static hosting and embedding need no special headers.
// Compressed files take the one-worker path: a gzip or zstd stream cannot be entered mid-way.
// A plain XSpace is cut the same way between its top-level fields (formats/xplane/
// xplane_sliced.h): its field headers are read one small window at a time from the start, the
// engine plans the slices, and each slice worker also reads the earlier planes whose metadata
// its planes use (the metadata plane's HLO symbols).
'use strict';
/* exported createSliced */

// M: the engine module; sources: createSources().
function createSliced(M, sources) {
  const { withBytes, withArray } = StrataWasm;
  const { REPLY } = StrataProtocol;
  // Below this a slice worker's start (compiling the engine module, tens of ms, and its own
  // copy of the strings) costs about what it saves.
  const MIN_SLICED_BYTES = 64 << 20;
  const MAX_WORKERS = 8; // more slices than cores only add merging
  // The first slice's size against a later slice's. The engine worker parses the first slice
  // and, on top of it, the first-part preview (the engine parses the file's first 64 MB twice
  // and shows them) and the load's progress; a slice worker only parses. Measured per-byte
  // parse times in the two decide it (docs/BENCHMARKS.md "In the browser").
  const FIRST_SLICE_SHARE = 0.9;
  // Bytes read around an approximate offset to find a cut, and before it (the scan looks back at
  // the `},` that ends the event before).
  const CUT_WINDOW = 1 << 20,
    CUT_LOOK_BACK = 64;
  // An XSpace field's header and a plane's name are in its first bytes.
  const FIELD_WINDOW = 4096;
  const defaultWorkers = Math.max(1, Math.min((self.navigator && navigator.hardwareConcurrency) || 1, MAX_WORKERS));
  const pool = []; // slice workers, kept across loads: {worker, waiting: Map slice → {resolve, reject}}
  let loads = 0;
  let active = null; // the sliced load in progress: its stop()
  const STOPPED = 'stopped: another file was opened';

  // The page's ?workers=N / strata.setWorkers(n) (1: today's one-worker path), else the cores.
  function count(requested) {
    const n = Math.floor(Number(requested));
    return n >= 1 ? Math.min(n, MAX_WORKERS) : defaultWorkers;
  }

  // Where the k-th of n cuts is looked for: the first slice gets FIRST_SLICE_SHARE of a later
  // slice's bytes, so that it ends when the others' results arrive (see FIRST_SLICE_SHARE).
  function approxCut(size, n, k) {
    return Math.max(1, Math.floor((size * (FIRST_SLICE_SHARE + k - 1)) / (FIRST_SLICE_SHARE + n - 1)));
  }

  function startWorker() {
    const w = { worker: new Worker('slice-worker.js'), waiting: new Map() };
    w.worker.onmessage = (e) => {
      const m = e.data;
      const key = `${m.load}/${m.slice}`;
      const p = w.waiting.get(key);
      if (!p) return; // a load that is over
      w.waiting.delete(key);
      if (m.error) p.reject(new Error(m.error));
      else p.resolve(m);
    };
    w.worker.onerror = (e) => {
      e.preventDefault();
      for (const p of w.waiting.values()) p.reject(new Error('a slice worker failed'));
      w.waiting.clear();
      pool.splice(pool.indexOf(w), 1);
    };
    pool.push(w);
    return w;
  }

  const readAt = (src, off, len) =>
    src.blob ? sources.readBlob(src.blob, off, len) : sources.readUrlRange(src.url, off, len);
  // The bytes [start, end) of the source, in chunks.
  const chunksOf = (src, start, end) =>
    src.blob ? sources.blobChunks(src.blob.slice(start, end)) : sources.urlRangeChunks(src.url, start, end);

  // opened: sources.open()'s {name, total, chunks, source}; head: its first chunk, read already.
  // Returns what trace.load takes for a sliced load ({name, total, chunks of the first slice,
  // source, sliced}), or null for the one-worker path (one worker asked for, a small file, a
  // server without ranges, no cut found, no worker could start).
  // minBytes: the smallest file sliced (strata.setWorkers' second argument, for tests on small
  // files; else MIN_SLICED_BYTES).
  // An XSpace's slices: [{start, end, planesBefore, context: [[offset, length], ...]}], or null
  // when there is no cut (the engine decides the cuts: slice_xspace_plan).
  async function planXSpace(src, size, n) {
    const fields = [];
    for (let at = 0; at < size; ) {
      const win = await readAt(src, at, Math.min(FIELD_WINDOW, size - at));
      const ok = withBytes(M, win, (p, len) => M._slice_xspace_field(p, len, at, size));
      if (ok !== 1) break; // a corrupt or cut-off header: no cut after it
      const v = (k) => M._slice_xspace_field_value(k);
      fields.push(at, v(0), v(1), v(2), v(3) | (v(4) << 1));
      at = v(0);
    }
    const count = withArray(M, new Float64Array(fields), (p, len) => M._slice_xspace_plan(p, len, size, n));
    if (count < 2) return null;
    const slices = [];
    for (let k = 0; k < count; ++k) {
      const v = (what) => M._slice_xspace_plan_value(k, what);
      const context = [];
      for (let i = 0; i < v(3); ++i) context.push([v(4 + 2 * i), v(5 + 2 * i)]);
      slices.push({ start: v(0), end: v(1), planesBefore: v(2), context });
    }
    return slices;
  }

  async function plan(opened, head, requested, minBytes, xspace) {
    const n = count(requested);
    const src = opened.source;
    if (n < 2 || !(src.blob || (src.url && opened.ranges))) return null;
    const min = minBytes >= 1 ? minBytes : MIN_SLICED_BYTES;
    const size = src.blob ? src.blob.size : opened.total;
    if (size < min || size === 0) return null;
    if (xspace) return planned(opened, head, src, size, await planXSpace(src, size, n), false, true);
    const objectForm = withBytes(M, head.subarray(0, 64), (p, k) => M._slice_object_form(p, k)) === 1;
    // The windows are read at once (for a URL: one round trip for all, not one per cut).
    const froms = [];
    for (let k = 1; k < n; ++k) froms.push(approxCut(size, n, k));
    const wins = await Promise.all(froms.map((from) => readAt(src, Math.max(0, from - CUT_LOOK_BACK), CUT_WINDOW)));
    const cuts = [];
    froms.forEach((approx, k) => {
      const from = Math.max(approx, cuts.length ? cuts[cuts.length - 1] + 1 : 1);
      const start = Math.max(0, approx - CUT_LOOK_BACK);
      if (from - start >= wins[k].length) return; // the cut before took this window
      const at = withBytes(M, wins[k], (p, len) => M._slice_cut_in(p, len, from - start));
      if (at >= 0) cuts.push(start + at);
    });
    if (!cuts.length) return null;
    const bounds = [0, ...cuts, size];
    const slices = [];
    for (let k = 0; k + 1 < bounds.length; ++k) slices.push({ start: bounds[k], end: bounds[k + 1] });
    return planned(opened, head, src, size, slices, objectForm, false);
  }

  // The sliced load of `slices` ([{start, end, ...}], the first at 0), or null.
  function planned(opened, head, src, size, slices, objectForm, xspace) {
    if (!slices) return null;
    const cuts = slices.slice(1).map((s) => s.start);
    try {
      while (pool.length < cuts.length) startWorker();
    } catch (e) {
      return null; // a host without workers: one worker it is
    }
    const load = ++loads;
    const owner = slices.map((s, k) => (k ? pool[k - 1] : null)); // a failed worker leaves the pool
    const results = slices.map((s, k) => {
      if (k === 0) return null;
      const w = owner[k];
      const r = new Promise((resolve, reject) => w.waiting.set(`${load}/${k}`, { resolve, reject }));
      r.catch(() => {}); // awaited later, or not at all when its cut is refused
      const url = src.blob ? '' : new URL(src.url, self.location.href).href;
      const part = src.blob ? { blob: src.blob.slice(s.start, s.end) } : { url, start: s.start, end: s.end };
      // An XSpace slice's context planes: Blob slices or ranges of the same source.
      const context = xspace
        ? s.context.map(([off, len]) =>
            src.blob
              ? { offset: off, blob: src.blob.slice(off, off + len) }
              : { offset: off, url, start: off, end: off + len },
          )
        : null;
      const xs = xspace ? { xspace: true, planesBefore: s.planesBefore, context } : {};
      w.worker.postMessage({ parse: true, load, slice: k, base: s.start, objectForm, ...xs, ...part });
      return r;
    });
    // The one-worker read stops; the first slice is the head and then its own bytes.
    opened.chunks.return().catch(() => {});
    if (opened.stop) opened.stop(); // a URL: the download of the whole file ends here
    const first = Math.min(head.length, cuts[0]);
    const firstChunks = (async function* () {
      yield head.subarray(0, first);
      if (cuts[0] > first) yield* chunksOf(src, first, cuts[0]);
    })();
    const t0 = performance.now();
    const stats = slices.map((s) => ({
      [REPLY.summarySlice.offset]: s.start,
      [REPLY.summarySlice.bytes]: s.end - s.start,
      [REPLY.summarySlice.readMs]: 0,
      [REPLY.summarySlice.parseMs]: 0,
      [REPLY.summarySlice.waitMs]: 0,
      [REPLY.summarySlice.mergeMs]: 0,
      [REPLY.summarySlice.absorbed]: true,
    }));

    function cancel() {
      if (active === stop) active = null;
      for (let k = 1; k < slices.length; ++k) {
        owner[k].waiting.delete(`${load}/${k}`);
        owner[k].worker.postMessage({ cancel: true, load });
      }
    }
    // A newer open: the slice workers drop their slices and the load ends (trace.js checks
    // stopped() between chunks; a wait for a slice's result ends here).
    let stopped = false;
    function stop() {
      stopped = true;
      for (let k = 1; k < slices.length; ++k) {
        const p = owner[k].waiting.get(`${load}/${k}`);
        if (p) p.reject(new Error(STOPPED));
      }
      cancel();
    }
    const check = () => {
      if (stopped) throw new Error(STOPPED);
    };
    active = stop;

    // After the first slice is in the engine (trace.js flushed it): each later slice's result
    // absorbed, or its bytes fed through `feed` (then `flush`) when it cannot be. `progress(n)`
    // counts the bytes taken.
    async function absorbRest({ feed, flush, progress }) {
      stats[0][REPLY.summarySlice.parseMs] = performance.now() - t0;
      try {
        for (let k = 1; k < slices.length; ++k) {
          const s = slices[k],
            st = stats[k],
            bytes = s.end - s.start;
          if (M._engine_load_at_slice_boundary() === 1) {
            const tWait = performance.now();
            const r = await results[k].catch(() => null);
            results[k] = null; // its buffer goes once it is in the engine
            check();
            st[REPLY.summarySlice.waitMs] = performance.now() - tWait;
            if (r) {
              st[REPLY.summarySlice.readMs] = r.read;
              st[REPLY.summarySlice.parseMs] = r.parse;
            }
            if (r && r.buf.byteLength) {
              const tMerge = performance.now();
              const ok = withBytes(M, new Uint8Array(r.buf), (p, len) => M._engine_load_absorb_slice(p, len, bytes));
              st[REPLY.summarySlice.mergeMs] = performance.now() - tMerge;
              if (ok === 1) {
                progress(bytes);
                continue;
              }
            }
          }
          // The cut was inside a string, or the slice's result is missing: its bytes here.
          st[REPLY.summarySlice.absorbed] = false;
          owner[k].worker.postMessage({ cancel: true, load });
          const tRead = performance.now();
          for await (const chunk of chunksOf(src, s.start, s.end)) {
            check();
            feed(chunk);
            progress(chunk.length);
          }
          flush();
          st[REPLY.summarySlice.parseMs] = performance.now() - tRead;
        }
      } catch (e) {
        cancel();
        throw e;
      }
      if (active === stop) active = null;
    }

    return {
      name: opened.name,
      total: size,
      chunks: firstChunks,
      source: src,
      sliced: { absorbRest, cancel, stopped: () => stopped, workers: slices.length, stats, xspace },
    };
  }

  // A gzip file's bytes inflated into a Blob, opened as a picked file (sources.open), or null
  // when the file is too small to slice (its compressed size under a quarter of the threshold)
  // or the browser has no DecompressionStream. opened: a sources.open() result whose chunks
  // start at the file's first byte.
  async function inflate(opened, name, minBytes) {
    const min = minBytes >= 1 ? minBytes : MIN_SLICED_BYTES;
    const size = opened.source.blob ? opened.source.blob.size : opened.total;
    if (typeof DecompressionStream !== 'function' || size * 4 < min) return null;
    const it = opened.chunks;
    const stream = new ReadableStream({
      async pull(c) {
        const r = await it.next();
        if (r.done) c.close();
        else c.enqueue(r.value);
      },
      cancel: () => it.return(),
    });
    const blob = await new Response(stream.pipeThrough(new DecompressionStream('gzip'))).blob();
    return sources.open(blob, name);
  }

  // The slice workers a load on this machine's cores uses, started with the engine worker:
  // each compiles its engine module and starts its read worker before the first big file comes,
  // which a load would otherwise wait for. A larger ?workers=N starts the rest at its load.
  function warm() {
    try {
      while (pool.length < defaultWorkers - 1) startWorker();
    } catch (e) {
      /* no workers on this host: loads take the one-worker path */
    }
  }

  // A new open while a sliced load runs: that load stops (its slice workers drop their slices)
  // and fails with STOPPED, so the new file's load, queued behind it, starts at once.
  function stopActive() {
    if (active) active();
  }

  return { plan, inflate, count, warm, stopActive };
}
