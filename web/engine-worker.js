// The engine's Web Worker: streams files into the C++ engine (strata_engine.wasm) in chunks
// and answers the UI's queries. It never holds a whole file: a File/Blob is read slice by
// slice, a URL is streamed. Args are re-read from the source on selection: a File/Blob by
// slicing its handle, a URL by a Range request.
'use strict';
importScripts('strata_engine.js');

const CHUNK = 4 << 20;           // bytes per read: big enough for throughput, small for memory
const PROGRESS_EVERY_MS = 100;
let M = null;                    // the engine module
let currentSource = null;        // {blob} or {url} of the current trace, for lazy args
let currentLoadMs = 0;
let queue = Promise.resolve();   // loads run one at a time; queries run between their chunks
let memoryDone = Promise.resolve();  // the memory chart's extra read of the current source

const ready = createStrataEngine().then((m) => { M = m; });

function withString(s, fn) {
  const n = M.lengthBytesUTF8(s) + 1;
  const p = M._malloc(n);
  M.stringToUTF8(s, p, n);
  try { return fn(p); } finally { M._free(p); }
}
function outBytes(p) {
  const n = M._engine_out_size();
  const a = p >>> 0;
  return M.HEAPU8.slice(a, a + n).buffer;  // a copy: wasm memory cannot be transferred
}
function summary() {
  const s = JSON.parse(M.UTF8ToString(M._engine_summary()));
  s.loadMs = currentLoadMs;
  s.heapBytes = M.HEAPU8.buffer.byteLength;
  return s;
}
function feed(bytes) {
  let off = 0;
  while (off < bytes.length) {
    const n = Math.min(bytes.length - off, CHUNK);
    const p = M._engine_load_buffer(n) >>> 0;  // re-read HEAPU8 after: memory may have grown
    M.HEAPU8.set(bytes.subarray(off, off + n), p);
    M._engine_load_commit(n);
    off += n;
  }
}

async function* streamChunks(resp) {
  const reader = resp.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

// Bytes [off, off + len) of the current source. A server that ignores Range gets read through
// to the range and cancelled there: slower, but memory stays bounded.
async function readRange(off, len) {
  if (currentSource.blob) return new Uint8Array(await currentSource.blob.slice(off, off + len).arrayBuffer());
  const resp = await fetch(currentSource.url, { headers: { Range: `bytes=${off}-${off + len - 1}` } });
  if (resp.status === 206) return new Uint8Array(await resp.arrayBuffer());
  if (!resp.ok) throw new Error(`HTTP ${resp.status}`);
  const out = new Uint8Array(len);
  let pos = 0, got = 0;
  const reader = resp.body.getReader();
  while (got < len) {
    const { done, value } = await reader.read();
    if (done) break;
    const a = Math.max(off - pos, 0), b = Math.min(off + len - pos, value.length);
    if (b > a) { out.set(value.subarray(a, b), pos + a - off); got += b - a; }
    pos += value.length;
  }
  reader.cancel();
  return out.subarray(0, got);
}

async function* blobChunks(blob) {
  for (let off = 0; off < blob.size; off += CHUNK) {
    yield new Uint8Array(await blob.slice(off, Math.min(blob.size, off + CHUNK)).arrayBuffer());
  }
}

function describeFetchError(url, err) {
  return `could not fetch ${url}: ${err && err.message ? err.message : err}. ` +
    'If the file is on another server, that server must allow cross-origin requests (CORS).';
}

async function load(msg) {
  const t0 = performance.now();
  let name = msg.name || 'trace';
  let total = 0;
  let chunks;
  let source;
  const src = msg.source;
  try {
    if (typeof src === 'string') {
      let resp;
      try { resp = await fetch(src); } catch (e) { throw new Error(describeFetchError(src, e)); }
      if (!resp.ok) throw new Error(`could not fetch ${src}: HTTP ${resp.status} ${resp.statusText}`);
      total = Number(resp.headers.get('content-length')) || 0;
      source = { url: src };
      chunks = streamChunks(resp);
    } else {
      const blob = src instanceof Blob ? src : new Blob([src]);
      total = blob.size;
      chunks = blobChunks(blob);
      source = { blob };
    }
  } catch (e) {
    withString(name, (p) => M._engine_load_begin(p, 0));  // so the message names this file
    withString(`${e.message}`, (p) => M._engine_load_fail(p));
    return { ok: false, error: M.UTF8ToString(M._engine_last_error()) };
  }

  withString(name, (p) => M._engine_load_begin(p, total));
  let loaded = 0, lastPost = 0;
  const generation = M._engine_generation();
  const priorSource = currentSource;
  try {
    for await (const bytes of chunks) {
      feed(bytes);
      loaded += bytes.length;
      if (M._engine_generation() !== generation && currentSource === priorSource) {
        // The engine indexed the file's first part on its own (a big file): show it now.
        currentSource = source;
        const tl = outBytes(M._engine_track_list());
        postMessage({ type: 'preview', name, trackList: tl }, [tl]);
      }
      const now = performance.now();
      if (now - lastPost > PROGRESS_EVERY_MS) {
        lastPost = now;
        const secs = Math.max(1e-3, (now - t0) / 1000);
        postMessage({ type: 'progress', name, loaded, total: Math.max(total, loaded),
                      mbps: loaded / 1e6 / secs, records: M._engine_load_records() });
      }
    }
  } catch (e) {
    withString(`reading the file failed after ${loaded} bytes: ${e.message || e}`, (p) => M._engine_load_fail(p));
  }
  const ok = M._engine_load_end() === 1;
  if (!ok) {
    if (currentSource !== priorSource) {
      // The preview was shown; the engine went back to the previous trace: so does the UI.
      currentSource = priorSource;
      const tl = outBytes(M._engine_track_list());
      postMessage({ type: 'preview', name: null, trackList: tl }, [tl]);
    }
    return { ok: false, error: M.UTF8ToString(M._engine_last_error()) };
  }
  // An Ascend memory CSV merged into the trace shown: that trace's file stays the source.
  if (M._engine_last_load_merged() !== 1) currentSource = source;
  currentLoadMs = performance.now() - t0;
  return { ok: true };
}

// Kineto [memory] instants keep only their byte spans at load: read their args back in one
// pass over the source, after the timeline is shown. Memory queries wait for it.
async function memoryScan() {
  if (M._engine_memory_scan_begin() === 0 || !currentSource) return;
  const generation = M._engine_generation();
  try {
    for await (const bytes of sourceChunks()) {
      if (M._engine_generation() !== generation) return;
      let done = false;
      for (let off = 0; off < bytes.length && !done; off += CHUNK) {
        const n = Math.min(CHUNK, bytes.length - off);
        M.HEAPU8.set(bytes.subarray(off, off + n), M._engine_load_buffer(n) >>> 0);
        done = M._engine_memory_scan_commit(n) === 1;
      }
      if (done) break;
    }
  } catch (e) { /* the source went away: memory from what was read */ }
  if (M._engine_generation() === generation) M._engine_memory_scan_end();
}

// Chunks of the current source from its start (to re-read a compressed file).
function sourceChunks() {
  if (currentSource.blob) return blobChunks(currentSource.blob);
  return (async function* () {
    const resp = await fetch(currentSource.url);
    if (!resp.ok) throw new Error(`HTTP ${resp.status}`);
    yield* streamChunks(resp);
  })();
}

// The event's record (its JSON object text) as bytes, re-read from the source.
async function readRecord(event) {
  const access = M._engine_record_access(event);
  if (access === 0 || !currentSource) return null;
  if (access === 1) return readRange(M._engine_source_offset(), M._engine_source_length());
  if (access === 3) {
    // Compressed: decompress from the start until the record has passed (the engine keeps a
    // window around it, so nearby selections come from memory next time).
    M._engine_extract_begin(event);
    for await (const bytes of sourceChunks()) {
      let done = false;
      for (let off = 0; off < bytes.length && !done; off += CHUNK) {
        const n = Math.min(CHUNK, bytes.length - off);
        M.HEAPU8.set(bytes.subarray(off, off + n), M._engine_load_buffer(n) >>> 0);
        done = M._engine_extract_commit(n) === 1;
      }
      if (done) break;
    }
  }
  return 'cached';
}

async function details(event) {
  const generation = M._engine_generation();
  let record = null;
  try { record = await readRecord(event); } catch (e) { /* args unavailable: details without them */ }
  if (M._engine_generation() !== generation) return null;  // a new trace replaced this one
  const call = (bytes) => {
    if (bytes === 'cached') return M.UTF8ToString(M._engine_details_cached(event));
    const p = M._malloc(bytes.length + 1);
    M.HEAPU8.set(bytes, p >>> 0);
    try { return M.UTF8ToString(M._engine_details(event, p, bytes.length)); } finally { M._free(p); }
  };
  let json = call(record || new Uint8Array(0));
  try { JSON.parse(json); } catch (e) { json = call(new Uint8Array(0)); }  // file changed on disk?
  return json;
}

onmessage = (e) => {
  const msg = e.data;
  ready.then(async () => {
    switch (msg.type) {
      case 'open': {
        queue = queue.then(() => load(msg)).then((r) => {
          const s = summary();
          if (r.ok && M._engine_last_load_merged() === 1) {
            // A memory CSV added to the trace shown: the timeline is unchanged.
            postMessage({ type: 'loaded', id: msg.id, summary: s, trackList: null, memoryAdded: true });
          } else if (r.ok) {
            const tl = outBytes(M._engine_track_list());
            postMessage({ type: 'loaded', id: msg.id, summary: s, trackList: tl }, [tl]);
            memoryDone = memoryScan();
            return memoryDone;
          } else {
            postMessage({ type: 'loadFailed', id: msg.id, error: r.error, summary: s });
          }
        });
        break;
      }
      case 'view': {
        const req = new Uint8Array(msg.bytes);
        const p = M._malloc(req.length);
        M.HEAPU8.set(req, p >>> 0);
        const out = outBytes(M._engine_view(p, req.length));
        M._free(p);
        if (out.byteLength) postMessage({ type: 'view', bytes: out }, [out]);
        break;
      }
      case 'details': {
        const json = await details(msg.event);
        if (json) postMessage({ type: 'details', event: msg.event, json });
        break;
      }
      case 'find': {
        const json = withString(msg.text, (p) => M.UTF8ToString(M._engine_find(p, msg.limit)));
        postMessage({ type: 'reply', id: msg.id, value: JSON.parse(json) });
        break;
      }
      case 'locate': {
        const ev = withString(msg.name, (n) => withString(String(msg.pid ?? ''), (pp) =>
          withString(String(msg.tid ?? ''), (tp) => M._engine_locate(n, msg.tsNs, pp, tp))));
        postMessage({ type: 'reply', id: msg.id, value: ev });
        break;
      }
      case 'query': {
        if (msg.kind.startsWith('memory')) await memoryDone;
        const json = withString(msg.kind, (k) => withString(msg.args, (a) => M.UTF8ToString(M._engine_query(k, a))));
        postMessage({ type: msg.forUi ? 'queryResult' : 'reply', id: msg.id, json, value: msg.forUi ? undefined : JSON.parse(json) });
        break;
      }
      case 'summary':
        postMessage({ type: 'reply', id: msg.id, value: summary() });
        break;
    }
  }).catch((err) => {
    postMessage({ type: 'workerError', id: msg.id, error: String(err && err.stack || err) });
  });
};
ready.then(() => postMessage({ type: 'ready' }), (err) =>
  postMessage({ type: 'workerError', error: `the engine failed to start: ${err}` }));
