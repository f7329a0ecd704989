// The engine's Web Worker: streams files into the C++ engine (strata_engine.wasm) in chunks
// and answers the UI's queries. It never holds a whole file: a File/Blob is read slice by
// slice, a URL is streamed. Args are re-read from the source on selection: a File/Blob by
// slicing its handle, a URL by a Range request.
'use strict';
importScripts('strata_engine.js', 'loss-worker.js', 'runs-worker.js', 'graph-worker.js');

const CHUNK = 256 << 10; // bytes copied into the engine at a time: its load buffer is wasm memory
const PROGRESS_EVERY_MS = 250; // the UI draws at most one frame per 500 ms of a load (src/ui/main.cc)
let M = null; // the engine module
let currentSource = null; // {blob} or {url} of the current trace, for lazy args
let currentSources = []; // every file of the current trace (several xplanes: one per host)
let currentLoadMs = 0;
let queue = Promise.resolve(); // loads run one at a time; queries run between their chunks
let memoryDone = Promise.resolve(); // the memory chart's extra read of the current source

const ready = createStrataEngine().then((m) => {
  M = m;
});
// The reader worker starts with the engine, not with the first picked file: starting a worker
// takes tens of ms, which a small file's whole load would otherwise wait for.
ready.then(() => startReadWorker());

function withString(s, fn) {
  const n = M.lengthBytesUTF8(s) + 1;
  const p = M._malloc(n);
  M.stringToUTF8(s, p, n);
  try {
    return fn(p);
  } finally {
    M._free(p);
  }
}
function outBytes(p) {
  const n = M._engine_out_size();
  const a = p >>> 0;
  return M.HEAPU8.slice(a, a + n).buffer; // a copy: wasm memory cannot be transferred
}
function summary() {
  const s = JSON.parse(M.UTF8ToString(M._engine_summary()));
  s.loadMs = currentLoadMs;
  s.heapBytes = M.HEAPU8.buffer.byteLength;
  return s;
}
// Bytes wait in the engine's load buffer until COMMIT of them are there: a fetch stream hands
// out ~64 KB chunks, and each commit has a fixed cost (a call into the engine, and the record
// cut at the chunk's end parsed twice: a few microseconds). A read's slice is cut into pieces
// that fill the buffer to COMMIT exactly, so the buffer is 256 KB of the worker's wasm memory,
// which never shrinks (1-4 MB commits took no less CPU). Whatever else uses the load buffer
// (record extraction) calls flushLoad() first.
const COMMIT = 256 << 10;
let pending = 0; // bytes in the load buffer, not committed yet
function feed(bytes) {
  let off = 0;
  while (off < bytes.length) {
    const n = Math.min(bytes.length - off, COMMIT - pending);
    const p = M._engine_load_buffer(pending + n) >>> 0; // keeps the pending bytes if it grows
    M.HEAPU8.set(bytes.subarray(off, off + n), p + pending); // HEAPU8 re-read: memory may grow
    pending += n;
    off += n;
    if (pending >= COMMIT) flushLoad();
  }
}
function flushLoad() {
  if (pending === 0) return;
  const n = pending;
  pending = 0;
  M._engine_load_commit(n);
}

// Both readers keep one read in flight while the engine parses the chunk they yielded: the
// browser fetches or reads the next bytes on its own threads meanwhile.
async function* streamChunks(resp) {
  const reader = resp.body.getReader();
  let next = reader.read();
  for (;;) {
    const { done, value } = await next;
    if (done) return;
    next = reader.read();
    next.catch(() => {}); // if the consumer stops early, a failed read is nobody's error
    yield value;
  }
}

// Bytes [off, off + len) of the current source. A server that ignores Range gets read through
// to the range and cancelled there: slower, but memory stays bounded.
async function readRange(off, len, file) {
  const src = currentSources[file] || currentSource;
  if (src.blob) return new Uint8Array(await src.blob.slice(off, off + len).arrayBuffer());
  const resp = await fetch(src.url, { headers: { Range: `bytes=${off}-${off + len - 1}` } });
  if (resp.status === 206) return new Uint8Array(await resp.arrayBuffer());
  if (!resp.ok) throw new Error(`HTTP ${resp.status}`);
  const out = new Uint8Array(len);
  let pos = 0,
    got = 0;
  const reader = resp.body.getReader();
  while (got < len) {
    const { done, value } = await reader.read();
    if (done) break;
    const a = Math.max(off - pos, 0),
      b = Math.min(off + len - pos, value.length);
    if (b > a) {
      out.set(value.subarray(a, b), pos + a - off);
      got += b - a;
    }
    pos += value.length;
  }
  reader.cancel();
  return out.subarray(0, got);
}

// A File/Blob is read as several slices at once: each read is a round trip to the browser's
// file thread, and waiting for one 4 MB slice at a time read a 1 GB file at 120-240 MB/s on
// the 2-core bench machine, while three 8 MB slices in flight read it at 500-600 MB/s. Bigger
// slices cost less: 32 MB slices took the browser and renderer processes 1.4 s of CPU per GB,
// 8 MB ones 1.8-2.3 s. Receiving the bytes costs the receiving thread CPU, so the reads run in
// a worker of their own (read-worker.js) that transfers each slice here. The slices read or
// waiting are all the memory this costs beyond the engine's (3 x 32 MB at most).
const SLICE_BYTES = 32 << 20,
  SLICES_AHEAD = 3;
let readWorker; // undefined: not started yet; null: unavailable (read here instead)
const readStreams = new Map(); // stream id → that stream's message sink
let nextReadId = 0;

function startReadWorker() {
  if (readWorker !== undefined) return readWorker;
  try {
    readWorker = new Worker('read-worker.js');
  } catch (e) {
    return (readWorker = null);
  }
  readWorker.onmessage = (e) => {
    const sink = readStreams.get(e.data.id);
    if (sink) sink(e.data);
  };
  // A reader that fails to start (a host that lacks the file, say): its streams go on here.
  readWorker.onerror = () => {
    readWorker = null;
    for (const sink of readStreams.values()) sink({ readerFailed: true });
  };
  return readWorker;
}

async function* blobChunks(blob) {
  const w = startReadWorker();
  if (!w) {
    yield* blobChunksHere(blob, 0);
    return;
  }
  const id = ++nextReadId;
  const queue = [];
  let wake = null,
    taken = false,
    finished = false,
    at = 0;
  readStreams.set(id, (m) => {
    queue.push(m);
    if (wake) {
      const f = wake;
      wake = null;
      f();
    }
  });
  w.postMessage({ open: true, id, blob, size: SLICE_BYTES, window: SLICES_AHEAD });
  try {
    for (;;) {
      if (taken) {
        w.postMessage({ ack: true, id });
        taken = false;
      } // the last one is consumed
      while (!queue.length)
        await new Promise((r) => {
          wake = r;
        });
      const m = queue.shift();
      if (m.readerFailed) {
        finished = true;
        yield* blobChunksHere(blob, at);
        return;
      }
      if (m.error) throw new Error(m.error);
      if (m.buf) {
        taken = true;
        at += m.buf.byteLength;
        yield new Uint8Array(m.buf);
      }
      if (m.last) {
        finished = true;
        return;
      }
    }
  } finally {
    readStreams.delete(id);
    if (!finished && readWorker) w.postMessage({ cancel: true, id });
  }
}

// The same reads on this thread, from byte `from`: where a worker cannot start a worker.
async function* blobChunksHere(blob, from) {
  const read = (off) => {
    if (off >= blob.size) return null;
    const p = blob.slice(off, Math.min(blob.size, off + SLICE_BYTES)).arrayBuffer();
    p.catch(() => {}); // see streamChunks
    return p;
  };
  const ahead = [];
  for (let k = 0; k < SLICES_AHEAD - 1; ++k) ahead.push(read(from + k * SLICE_BYTES));
  for (let off = from; off < blob.size; off += SLICE_BYTES) {
    ahead.push(read(off + (SLICES_AHEAD - 1) * SLICE_BYTES));
    yield new Uint8Array(await ahead.shift());
  }
}

function describeFetchError(url, err) {
  return (
    `could not fetch ${url}: ${err && err.message ? err.message : err}. ` +
    'If the file is on another server, that server must allow cross-origin requests (CORS).'
  );
}

// One source (a URL or a Blob/File/bytes) → {name, total, chunks, source}; throws a message.
async function openSource(src, fallbackName) {
  if (typeof src === 'string') {
    let resp;
    try {
      resp = await fetch(src);
    } catch (e) {
      throw new Error(describeFetchError(src, e));
    }
    if (!resp.ok) throw new Error(`could not fetch ${src}: HTTP ${resp.status} ${resp.statusText}`);
    const name = decodeURIComponent(new URL(src, self.location.href).pathname.split('/').pop() || fallbackName);
    return {
      name,
      total: Number(resp.headers.get('content-length')) || 0,
      chunks: streamChunks(resp),
      source: { url: src },
    };
  }
  const blob = src instanceof Blob ? src : new Blob([src]);
  return { name: blob.name || fallbackName, total: blob.size, chunks: blobChunks(blob), source: { blob } };
}

// Loads msg.source, or every source of an array of them (the xplanes of a multi-host run)
// into one trace. The first file's failure to open fails the load; a later file that cannot
// be read or joined is reported in the trace's errors and skipped.
async function load(msg) {
  const t0 = performance.now();
  const sources = Array.isArray(msg.source) ? msg.source : [msg.source];
  let name = msg.name || 'trace';
  let first;
  try {
    first = await openSource(sources[0], name);
  } catch (e) {
    withString(name, (p) => M._engine_load_begin(p, 0)); // so the message names this file
    withString(`${e.message}`, (p) => M._engine_load_fail(p));
    return { ok: false, error: M.UTF8ToString(M._engine_last_error()) };
  }
  if (sources.length === 1) first.name = name; // the page's name for it (e.g. from the URL)

  // A plain-text log (opened on its own) goes to the loss view (loss-worker.js) and leaves the
  // trace as it is.
  if (sources.length === 1) {
    const failWith = (message) => {
      withString(name, (p) => M._engine_load_begin(p, 0)); // the message names this file; the trace stays
      withString(message, (p) => M._engine_load_fail(p));
      return { ok: false, error: M.UTF8ToString(M._engine_last_error()) };
    };
    let head;
    try {
      const r = await first.chunks.next();
      head = r.done ? new Uint8Array(0) : r.value;
    } catch (e) {
      return failWith(`reading the file failed: ${e.message || e}`);
    }
    const hloKind = graphKind(M, name, head); // HLO text or HloProto: the graph viewer's
    if (hloKind) {
      try {
        return { ok: true, graph: await graphImport(M, name, head, first.chunks, hloKind) };
      } catch (e) {
        return failWith(`${e.message || e}`);
      }
    }
    // A gzip-compressed log is told from a compressed trace by its inflated start.
    const text = lossIsGzip(head) ? await lossGunzipHead(head, LOSS_GUESS_BYTES) : null;
    if (lossIsTextLog(M, text || head)) {
      try {
        return { ok: true, loss: await lossImport(M, name, head, first.chunks, first.source, text) };
      } catch (e) {
        return failWith(`reading the log failed: ${e.message || e}`);
      }
    }
    const rest = first.chunks;
    first.chunks = (async function* () {
      if (head.length) yield head;
      yield* rest;
    })();
  }

  withString(first.name, (p) => M._engine_load_begin(p, first.total));
  let loaded = 0,
    lastPost = 0,
    total = first.total;
  const opened = [first.source]; // in the engine's file order
  const generation = M._engine_generation();
  const priorSource = currentSource,
    priorSources = currentSources;
  try {
    for (let k = 0; k < sources.length; ++k) {
      let file = first;
      if (k > 0) {
        try {
          file = await openSource(sources[k], `file ${k + 1}`);
        } catch (e) {
          withString(`${e.message}`, (p) => M._engine_load_note(p));
          continue;
        }
        flushLoad();
        if (withString(file.name, (p) => M._engine_load_next_file(p, file.total)) !== 1) continue;
        opened.push(file.source);
        total += file.total;
      }
      for await (const bytes of file.chunks) {
        feed(bytes);
        loaded += bytes.length;
        if (M._engine_generation() !== generation && currentSource === priorSource) {
          // The engine indexed the file's first part on its own (a big file): show it now.
          currentSource = first.source;
          currentSources = [first.source];
          const tl = outBytes(M._engine_track_list());
          postMessage({ type: 'preview', name: first.name, trackList: tl }, [tl]);
        }
        const now = performance.now();
        if (now - lastPost > PROGRESS_EVERY_MS) {
          lastPost = now;
          const secs = Math.max(1e-3, (now - t0) / 1000);
          postMessage({
            type: 'progress',
            name: file.name,
            loaded,
            total: Math.max(total, loaded),
            mbps: loaded / 1e6 / secs,
            records: M._engine_load_records(),
          });
        }
      }
    }
    flushLoad();
  } catch (e) {
    pending = 0;
    withString(`reading the file failed after ${loaded} bytes: ${e.message || e}`, (p) => M._engine_load_fail(p));
  }
  const ok = M._engine_load_end() === 1;
  if (!ok) {
    if (currentSource !== priorSource) {
      // The preview was shown; the engine went back to the previous trace: so does the UI.
      currentSource = priorSource;
      currentSources = priorSources;
      const tl = outBytes(M._engine_track_list());
      postMessage({ type: 'preview', name: null, trackList: tl }, [tl]);
    }
    return { ok: false, error: M.UTF8ToString(M._engine_last_error()) };
  }
  // An Ascend memory CSV merged into the trace shown: that trace's files stay the sources.
  if (M._engine_last_load_merged() !== 1) {
    currentSource = first.source;
    currentSources = opened;
  }
  currentLoadMs = performance.now() - t0;
  return { ok: true };
}

// Kineto [memory] instants keep only their byte spans at load: read their args back in one
// pass over the source, after the timeline is shown. Memory queries wait for it.
async function memoryScan() {
  if (M._engine_memory_scan_begin() === 0 || !currentSource) return;
  const generation = M._engine_generation();
  const files = Math.max(1, M._engine_memory_scan_file_count());
  try {
    for (let f = 0; f < files; ++f) {
      // several xplanes: each host's file in turn
      if (f > 0) M._engine_memory_scan_file(f);
      const fed = await feedChunks(
        sourceChunks(f),
        (n) => M._engine_load_buffer(n),
        (n) => M._engine_memory_scan_commit(n),
        { stop: () => M._engine_generation() !== generation },
      );
      if (fed === 'stopped') return;
    }
  } catch (e) {
    /* the source went away: memory from what was read */
  }
  if (M._engine_generation() === generation) M._engine_memory_scan_end();
}

// Streams `chunks` into one of the engine's consumers: each piece of at most `piece` bytes is
// copied into the buffer `buffer(n)` returns (that call may grow wasm memory, so HEAPU8 is read
// after it) and handed to `commit(n)`, which returns 1 once it has what it needs. `stop()` is
// asked before each chunk (a newer trace replaced this one, say). Returns 'done', 'stopped' or
// 'end' (the source ended first).
async function feedChunks(chunks, buffer, commit, { piece = CHUNK, stop = null } = {}) {
  for await (const bytes of chunks) {
    if (stop && stop()) return 'stopped';
    for (let off = 0; off < bytes.length; off += piece) {
      const n = Math.min(piece, bytes.length - off);
      const p = buffer(n) >>> 0;
      M.HEAPU8.set(bytes.subarray(off, off + n), p);
      if (commit(n) === 1) return 'done';
    }
  }
  return 'end';
}

// Chunks of the current source from its start (to re-read a compressed file).
function sourceChunks(file) {
  const src = currentSources[file] || currentSource;
  if (src.blob) return blobChunks(src.blob);
  return (async function* () {
    const resp = await fetch(src.url);
    if (!resp.ok) throw new Error(`HTTP ${resp.status}`);
    yield* streamChunks(resp);
  })();
}

// The event's record (its JSON object text) as bytes, re-read from the source.
async function readRecord(event) {
  const access = M._engine_record_access(event);
  if (access === 0 || !currentSource) return null;
  const file = M._engine_source_file();
  if (access === 1) return readRange(M._engine_source_offset(), M._engine_source_length(), file);
  if (access === 3) {
    // Compressed: decompress from the start until the record has passed (the engine keeps a
    // window around it, so nearby selections come from memory next time).
    M._engine_extract_begin(event);
    await feedChunks(
      sourceChunks(file),
      (n) => {
        flushLoad(); // a load in progress keeps bytes in the buffer this overwrites
        return M._engine_load_buffer(n);
      },
      (n) => M._engine_extract_commit(n),
    );
  }
  return 'cached';
}

async function details(event) {
  const generation = M._engine_generation();
  let record = null;
  try {
    record = await readRecord(event);
  } catch (e) {
    /* args unavailable: details without them */
  }
  if (M._engine_generation() !== generation) return null; // a new trace replaced this one
  const call = (bytes) => {
    if (bytes === 'cached') return M.UTF8ToString(M._engine_details_cached(event));
    const p = M._malloc(bytes.length + 1);
    M.HEAPU8.set(bytes, p >>> 0);
    try {
      return M.UTF8ToString(M._engine_details(event, p, bytes.length));
    } finally {
      M._free(p);
    }
  };
  let json = call(record || new Uint8Array(0));
  try {
    JSON.parse(json);
  } catch (e) {
    json = call(new Uint8Array(0));
  } // file changed on disk?
  return json;
}

onmessage = (e) => {
  const msg = e.data;
  ready
    .then(async () => {
      switch (msg.type) {
        case 'open': {
          queue = queue
            .then(() => load(msg))
            .then((r) => {
              const s = summary();
              if (r.graph) {
                postMessage({ type: 'graphLoaded', id: msg.id, summary: s, graph: r.graph });
              } else if (r.loss) {
                const m = lossMessage('lossLoaded', r.loss.file, r.loss.scan, { id: msg.id, summary: s });
                postMessage(m, [m.points]);
              } else if (r.ok && M._engine_last_load_merged() === 1) {
                // A memory CSV added to the trace shown: the timeline is unchanged.
                postMessage({ type: 'loaded', id: msg.id, summary: s, trackList: null, memoryAdded: true });
              } else if (r.ok) {
                const tl = outBytes(M._engine_track_list());
                postMessage({ type: 'loaded', id: msg.id, summary: s, trackList: tl }, [tl]);
                graphLoadTraceModules(M).then((g) =>
                  postMessage({ type: 'graphModules', modules: g.modules, errors: g.errors }),
                );
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
          const ev = withString(msg.name, (n) =>
            withString(String(msg.pid ?? ''), (pp) =>
              withString(String(msg.tid ?? ''), (tp) => M._engine_locate(n, msg.tsNs, pp, tp)),
            ),
          );
          postMessage({ type: 'reply', id: msg.id, value: ev });
          break;
        }
        case 'query': {
          if (msg.kind.startsWith('memory')) await memoryDone;
          const json = withString(msg.kind, (k) => withString(msg.args, (a) => M.UTF8ToString(M._engine_query(k, a))));
          postMessage({
            type: msg.forUi ? 'queryResult' : 'reply',
            id: msg.id,
            json,
            value: msg.forUi ? undefined : JSON.parse(json),
          });
          break;
        }
        case 'lossTags': {
          queue = queue
            .then(() => lossSetTags(M, msg.lossId, msg.lossTag, msg.iterationTag))
            .catch(() => null)
            .then((r) => {
              if (!r) {
                postMessage({ type: 'reply', id: msg.id, value: null });
                return;
              }
              const m = lossMessage('lossPoints', r.file, r.scan, { id: msg.id });
              postMessage(m, [m.points]);
            });
          break;
        }
        case 'runsStats': // after any load in flight: a Kineto profile's trace is the loaded one
          queue = queue
            .then(() => runsStats(M, msg))
            .then(
              (value) => postMessage({ type: 'reply', id: msg.id, value }),
              (err) =>
                postMessage({ type: 'reply', id: msg.id, value: { errors: [String((err && err.message) || err)] } }),
            );
          break;
        case 'lossRemove':
          lossFiles.delete(msg.lossId);
          break;
        case 'summary':
          postMessage({ type: 'reply', id: msg.id, value: summary() });
          break;
        default:
          if (msg.type.startsWith('graph')) graphMessage(M, msg);
          break;
      }
    })
    .catch((err) => {
      postMessage({ type: 'workerError', id: msg.id, error: String((err && err.stack) || err) });
    });
};
ready.then(
  () => postMessage({ type: 'ready' }),
  (err) => postMessage({ type: 'workerError', error: `the engine failed to start: ${err}` }),
);
