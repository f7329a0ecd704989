// Where the engine worker's bytes come from: a File/Blob read slice by slice (in the reader
// worker, read-worker.js, when it can start), a URL streamed, and the current trace's sources
// kept to read again (an event's args by range, a compressed file from its start). The worker
// never holds a whole file.
'use strict';
/* exported createSources */

function createSources() {
  let current = null; // {blob} or {url} of the current trace, for lazy args
  let all = []; // every file of the current trace (several xplanes: one per host)

  // Both readers keep one read in flight while the engine parses the chunk they yielded: the
  // browser fetches or reads the next bytes on its own threads meanwhile.
  // ctl.cancel() (set here) ends the download: a sliced load (sliced.js) takes only the head of
  // the stream its load opened with, and reads the rest by ranges.
  async function* streamChunks(resp, ctl = {}) {
    const reader = resp.body.getReader();
    ctl.cancel = () => reader.cancel().catch(() => {});
    let next = reader.read();
    for (;;) {
      const { done, value } = await next;
      if (done) return;
      next = reader.read();
      next.catch(() => {}); // if the consumer stops early, a failed read is nobody's error
      yield value;
    }
  }
  // Bytes [start, end) of a URL as a stream, from a Range request (sliced.js checked that the
  // server answers them).
  async function* urlRangeChunks(url, start, end) {
    if (end <= start) return;
    const resp = await fetch(url, { headers: { Range: `bytes=${start}-${end - 1}` } });
    if (resp.status !== 206) throw new Error(`the server did not answer the range request (HTTP ${resp.status})`);
    yield* streamChunks(resp);
  }
  const readBlob = async (blob, off, len) => new Uint8Array(await blob.slice(off, off + len).arrayBuffer());

  // Bytes [off, off + len) of file `file` of the current trace.
  async function readRange(off, len, file) {
    const src = all[file] || current;
    if (!src) throw new Error("the trace's source file is not here (a bundle holds its events, not their records)");
    if (src.blob) return readBlob(src.blob, off, len);
    return readUrlRange(src.url, off, len);
  }
  // Bytes [off, off + len) of a URL (fewer when it ends sooner). A server that ignores Range gets
  // read through to the range and cancelled there: slower, but memory stays bounded.
  async function readUrlRange(url, off, len) {
    const resp = await fetch(url, { headers: { Range: `bytes=${off}-${off + len - 1}` } });
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

  // One source (a URL or a Blob/File/bytes) → {name, total, chunks, source}, for a URL also
  // {ranges, stop}; throws a message.
  async function open(src, fallbackName) {
    if (typeof src === 'string') {
      let resp;
      try {
        resp = await fetch(src);
      } catch (e) {
        throw new Error(describeFetchError(src, e));
      }
      if (!resp.ok) throw new Error(`could not fetch ${src}: HTTP ${resp.status} ${resp.statusText}`);
      const name = decodeURIComponent(new URL(src, self.location.href).pathname.split('/').pop() || fallbackName);
      const ctl = {};
      return {
        name,
        total: Number(resp.headers.get('content-length')) || 0,
        chunks: streamChunks(resp, ctl),
        source: { url: src },
        // What a sliced load needs: the server takes ranges of the file as it is sent.
        ranges: resp.headers.get('accept-ranges') === 'bytes' && !resp.headers.get('content-encoding'),
        stop: () => ctl.cancel && ctl.cancel(),
      };
    }
    const blob = src instanceof Blob ? src : new Blob([src]);
    return { name: blob.name || fallbackName, total: blob.size, chunks: blobChunks(blob), source: { blob } };
  }

  // Chunks of file `file` of the current trace from its start (to re-read a compressed file).
  function chunksOf(file) {
    const src = all[file] || current;
    if (!src) throw new Error("the trace's source file is not here (a bundle holds its events, not their records)");
    if (src.blob) return blobChunks(src.blob);
    return (async function* () {
      const resp = await fetch(src.url);
      if (!resp.ok) throw new Error(`HTTP ${resp.status}`);
      yield* streamChunks(resp);
    })();
  }

  // A source's whole bytes (the small CSV / JSON files of a profiler folder).
  async function readAll(src) {
    if (src.blob) return new Uint8Array(await src.blob.arrayBuffer());
    const r = await fetch(src.url);
    if (!r.ok) throw new Error(`${src.url}: HTTP ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  }

  return {
    open,
    blobChunks,
    readRange,
    peekUrl: (url, len) => readUrlRange(url, 0, len),
    readBlob,
    readUrlRange,
    urlRangeChunks,
    chunksOf,
    readAll,
    startReadWorker,
    // The current trace's sources: {current, all}; setCurrent(first, list) replaces them.
    current: () => current,
    state: () => ({ current, all }),
    setCurrent(first, list) {
      current = first;
      all = list;
    },
  };
}
