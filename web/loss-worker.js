// The loss view's side of the engine worker (imported by engine-worker.js): a plain-text log
// opened like a trace is kept here as a File/Blob, never whole in wasm memory, and streamed
// through the engine's loss scanner (src/engine/wasm/loss_exports.cc) on import and again each
// time its tags change. The loaded trace is not touched.
'use strict';

const LOSS_GUESS_BYTES = 1 << 20; // default tags are guessed from the first 1 MB
const GUNZIP_PIECE_BYTES = 8 << 20; // inflated bytes handed on at a time
const lossFiles = new Map(); // id -> {id, name, blob, lossTag, iterationTag}
let nextLossId = 1;

function lossIsTextLog(M, head) {
  const n = Math.min(head.length, 64 << 10);
  const p = M._malloc(Math.max(n, 1));
  M.HEAPU8.set(head.subarray(0, n), p >>> 0);
  try {
    return M._loss_sniff(p, n) === 1;
  } finally {
    M._free(p);
  }
}

function lossGuessTags(M, head) {
  const n = Math.min(head.length, LOSS_GUESS_BYTES);
  const p = M._malloc(Math.max(n, 1));
  M.HEAPU8.set(head.subarray(0, n), p >>> 0);
  try {
    return JSON.parse(M.UTF8ToString(M._loss_guess_tags(p, n)));
  } finally {
    M._free(p);
  }
}

function lossUniqueName(name) {
  const taken = new Set([...lossFiles.values()].map((f) => f.name));
  if (!taken.has(name)) return name;
  for (let k = 2; ; ++k) if (!taken.has(`${name} (${k})`)) return `${name} (${k})`;
}

// ---- gzip-compressed logs (`train.log.gz`) --------------------------------------------------
// Kept compressed as the File/Blob it came as, and inflated as it streams, by the browser's
// DecompressionStream in this worker: the text never sits whole in memory either.
function lossIsGzip(head) {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

// Inflated chunks of a gzip Blob, gathered into pieces of GUNZIP_PIECE_BYTES (the stream
// hands out 64 KB). `read.compressed` counts the compressed bytes consumed, for progress.
function lossGunzipChunks(blob, read) {
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
      const out = lossConcat(parts, size);
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

// The first inflated bytes of a gzip stream's first chunk `head` (at most `max`; fewer when the
// head ends sooner), or null when `head` is not gzip that inflates.
async function lossGunzipHead(head, max) {
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
  return lossConcat(parts, size);
}

// The byte arrays `parts` (`size` bytes in all) as one.
function lossConcat(parts, size) {
  const out = new Uint8Array(size);
  let at = 0;
  for (const b of parts) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

// Streams the file through the scanner: {points: Float64Array [it, loss, ...], ms, mbps}.
async function lossScan(M, file, onProgress) {
  const t0 = performance.now();
  withString(file.lossTag, (l) => withString(file.iterationTag, (i) => M._loss_scan_begin(l, i)));
  const blob = file.blob;
  const read = { compressed: 0 };
  const chunks = file.gzip ? lossGunzipChunks(blob, read) : blobChunks(blob); // both read ahead
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
  try {
    // In CHUNK pieces: the scan buffer is wasm memory, which never shrinks (slices are 32 MB).
    await feedChunks(
      counted,
      (n) => M._loss_scan_buffer(n),
      (n) => {
        M._loss_scan_commit(n);
        return 0;
      },
    );
  } finally {
    var count = M._loss_scan_end(); // also on a read error: the points so far
  }
  const a = M._loss_scan_points() >>> 3;
  const points = M.HEAPF64.slice(a, a + 2 * count);
  M._loss_scan_release();
  const ms = performance.now() - t0;
  file.textBytes = text; // inflated, for a gzip log
  return { points, ms, mbps: text / 1e6 / Math.max(ms / 1000, 1e-6) };
}

function lossMessage(type, file, scan, extra) {
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

// A log opened by open(): `head` is its first chunk, `rest` the remaining chunks, `source` the
// worker's {blob} or {url}. A URL's bytes are kept as a Blob (the browser may page it to disk).
// For a gzip log, `text` is the inflated start of it (head stays the compressed bytes).
async function lossImport(M, name, head, rest, source, text) {
  let blob = source.blob;
  if (!blob) {
    const parts = [head];
    for await (const c of rest) parts.push(c);
    blob = new Blob(parts);
  }
  const tags = lossGuessTags(M, text || head);
  const file = {
    id: nextLossId++,
    name: lossUniqueName(name),
    blob,
    gzip: !!text,
    lossTag: tags.lossTag,
    iterationTag: tags.iterationTag,
  };
  const scan = await lossScan(M, file, (loaded, ms) =>
    postMessage({
      type: 'progress',
      name,
      loaded,
      total: blob.size,
      mbps: loaded / 1e3 / Math.max(ms, 1e-3),
      records: 0,
    }),
  );
  lossFiles.set(file.id, file);
  return { file, scan };
}

async function lossSetTags(M, id, lossTag, iterationTag) {
  const file = lossFiles.get(id);
  if (!file) return null;
  file.lossTag = String(lossTag);
  file.iterationTag = String(iterationTag);
  return { file, scan: await lossScan(M, file) };
}
