// The loss view's side of the engine worker: a plain-text log opened like a trace is kept here
// as a File/Blob, never whole in wasm memory, and streamed through the engine's loss scanner
// (src/engine/wasm/loss_exports.cc) on import and again each time its tags change. The loaded
// trace is not touched.
'use strict';
/* exported createLoss */

// M: the engine module; sources: createSources(); post(message, transfer) for progress.
function createLoss(M, sources, post) {
  const { withStrings, withBytes, feedChunks } = StrataWasm;
  const { MSG } = StrataProtocol;
  const GUESS_BYTES = 1 << 20; // default tags are guessed from the first 1 MB
  const GUNZIP_PIECE_BYTES = 8 << 20; // inflated bytes handed on at a time
  const PROGRESS_EVERY_MS = 250;
  const files = new Map(); // id -> {id, name, blob, gzip, lossTag, iterationTag}
  let nextId = 1;

  const guessTags = (head) =>
    withBytes(M, head.subarray(0, GUESS_BYTES), (p, n) => JSON.parse(M.UTF8ToString(M._loss_guess_tags(p, n))));

  function uniqueName(name) {
    const taken = new Set([...files.values()].map((f) => f.name));
    if (!taken.has(name)) return name;
    for (let k = 2; ; ++k) if (!taken.has(`${name} (${k})`)) return `${name} (${k})`;
  }

  // ---- gzip-compressed logs (`train.log.gz`) ------------------------------------------------
  // Kept compressed as the File/Blob it came as, and inflated as it streams, by the browser's
  // DecompressionStream in this worker: the text never sits whole in memory either.

  // Inflated chunks of a gzip Blob, gathered into pieces of GUNZIP_PIECE_BYTES (the stream
  // hands out 64 KB). `read.compressed` counts the compressed bytes consumed, for progress.
  function gunzipChunks(blob, read) {
    return (async function* () {
      const counted = blob.stream().pipeThrough(
        new TransformStream({
          transform(chunk, ctl) {
            read.compressed += chunk.length;
            ctl.enqueue(chunk);
          },
        }),
      );
      const reader = counted.pipeThrough(new DecompressionStream('gzip')).getReader();
      let parts = [],
        size = 0;
      const gather = () => {
        const out = concat(parts, size);
        parts = [];
        size = 0;
        return out;
      };
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parts.push(value);
          size += value.length;
          if (size >= GUNZIP_PIECE_BYTES) yield gather();
        }
        if (size) yield gather();
      } finally {
        reader.cancel().catch(() => {});
      }
    })();
  }

  // The first inflated bytes (at most `max`) of gzip bytes `head`, or null when they do not inflate.
  async function gunzipHead(head, max) {
    const reader = new Blob([head]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
    const parts = [];
    let size = 0;
    try {
      while (size < max) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        size += value.length;
      }
    } catch (e) {
      if (!size) return null; // not gzip; a head cut mid-stream still gave its first bytes
    } finally {
      reader.cancel().catch(() => {});
    }
    return concat(parts, size);
  }

  // The byte arrays `parts` (`size` bytes in all) as one.
  function concat(parts, size) {
    const out = new Uint8Array(size);
    let at = 0;
    for (const b of parts) {
      out.set(b, at);
      at += b.length;
    }
    return out;
  }

  // Streams the file through the scanner: {points: Float64Array [it, loss, ...], ms, mbps}.
  async function scan(file, onProgress) {
    const t0 = performance.now();
    withStrings(M, [file.lossTag, file.iterationTag], (l, i) => M._loss_scan_begin(l, i));
    const read = { compressed: 0 };
    const chunks = file.gzip ? gunzipChunks(file.blob, read) : sources.blobChunks(file.blob); // both read ahead
    let lastPost = 0,
      text = 0;
    // Counts each chunk and reports progress once the scanner has taken it.
    const counted = (async function* () {
      for await (const bytes of chunks) {
        yield bytes;
        text += bytes.length;
        const now = performance.now();
        if (onProgress && now - lastPost > PROGRESS_EVERY_MS) {
          lastPost = now;
          onProgress(file.gzip ? read.compressed : text, now - t0);
        }
      }
    })();
    let count = 0;
    try {
      // In 256 KB pieces: the scan buffer is wasm memory, which never shrinks (slices are 32 MB).
      await feedChunks(
        M,
        counted,
        (n) => M._loss_scan_buffer(n),
        (n) => {
          M._loss_scan_commit(n);
          return 0;
        },
      );
    } finally {
      count = M._loss_scan_end(); // also on a read error: the points so far
    }
    const a = M._loss_scan_points() >>> 3;
    const points = M.HEAPF64.slice(a, a + 2 * count);
    M._loss_scan_release();
    const ms = performance.now() - t0;
    file.textBytes = text; // inflated, for a gzip log
    return { points, ms, mbps: text / 1e6 / Math.max(ms / 1000, 1e-6) };
  }

  // A lossLoaded / lossPoints message (its points transferred).
  function message(type, { file, scan }, extra) {
    return Object.assign(
      {
        type,
        lossId: file.id,
        name: file.name,
        lossTag: file.lossTag,
        iterationTag: file.iterationTag,
        bytes: file.blob.size,
        points: scan.points.buffer,
        scanMs: scan.ms,
        mbps: scan.mbps,
      },
      extra || {},
    );
  }

  // A log opened like a trace: `opened` is sources.open()'s, `head` its first chunk (already
  // taken from opened.chunks). A URL's bytes are kept as a Blob (the browser may page it to disk).
  // A gzip log is kept compressed; its inflated start guesses the tags.
  async function importFile(name, opened, head, gzip) {
    let blob = opened.source.blob;
    if (!blob) {
      const parts = [head];
      for await (const c of opened.chunks) parts.push(c);
      blob = new Blob(parts);
    }
    const text = gzip ? (await gunzipHead(head, GUESS_BYTES)) || head : head;
    const tags = guessTags(text);
    const file = {
      id: nextId++,
      name: uniqueName(name),
      blob,
      gzip,
      lossTag: tags.lossTag,
      iterationTag: tags.iterationTag,
    };
    const scanned = await scan(file, (loaded, ms) =>
      post({
        type: MSG.progress,
        name,
        loaded,
        total: blob.size,
        mbps: loaded / 1e3 / Math.max(ms, 1e-3),
        records: 0,
      }),
    );
    files.set(file.id, file);
    return { file, scan: scanned };
  }

  // New tags for log `id`: its points again, or null for an unknown log.
  async function setTags(id, lossTag, iterationTag) {
    const file = files.get(id);
    if (!file) return null;
    file.lossTag = String(lossTag);
    file.iterationTag = String(iterationTag);
    return { file, scan: await scan(file) };
  }

  return {
    importFile,
    setTags,
    message,
    remove: (id) => files.delete(id),
  };
}
