// The loss view's side of the engine worker: a text log opened like a trace (plain, gzip or zstd)
// is kept here as the File/Blob it came as, never whole in wasm memory, and its raw bytes are
// streamed through the engine's loss scanner (src/engine/wasm/loss_exports.cc), which inflates
// them and tells their format (text, JSON lines, CSV, TensorBoard events), on import and again
// each time its tags change. The loaded trace is not touched.
'use strict';
/* exported createLoss */

// M: the engine module; sources: createSources(); post(message, transfer) for progress.
function createLoss(M, sources, post) {
  const { withStrings, withBytes, feedChunks } = StrataWasm;
  const { MSG, REPLY } = StrataProtocol;
  const GUESS_BYTES = 1 << 20; // default tags are guessed from the file's first 1 MB
  const PROGRESS_EVERY_MS = 250;
  const files = new Map(); // id -> {id, name, blob, lossTag, iterationTag}
  let nextId = 1;

  const guessTags = (head) =>
    withBytes(M, head.subarray(0, GUESS_BYTES), (p, n) => JSON.parse(M.UTF8ToString(M._loss_guess_tags(p, n))));

  // A reader may choose the series (an event file's tags): the next scan asks for that one.
  function keepTagsRead(file, scanned) {
    const d = JSON.parse(scanned.detail);
    file.lossTag = d[REPLY.lossInfo.lossTag];
    file.iterationTag = d[REPLY.lossInfo.iterationTag];
  }

  function uniqueName(name) {
    const taken = new Set([...files.values()].map((f) => f.name));
    if (!taken.has(name)) return name;
    for (let k = 2; ; ++k) if (!taken.has(`${name} (${k})`)) return `${name} (${k})`;
  }

  // Streams the file through the scanner: {points: Float64Array [it, loss, ...], ms, mbps,
  // detail: the engine's JSON (tags as read, format, keys found, note)}.
  async function scan(file, onProgress) {
    const t0 = performance.now();
    withStrings(M, [file.lossTag, file.iterationTag], (l, i) => M._loss_scan_begin(l, i));
    const chunks = sources.blobChunks(file.blob); // reads ahead
    let lastPost = 0,
      read = 0;
    // Counts each chunk and reports progress once the scanner has taken it.
    const counted = (async function* () {
      for await (const bytes of chunks) {
        yield bytes;
        read += bytes.length;
        const now = performance.now();
        if (onProgress && now - lastPost > PROGRESS_EVERY_MS) {
          lastPost = now;
          onProgress(read, now - t0);
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
    const detail = M.UTF8ToString(M._loss_scan_detail());
    M._loss_scan_release();
    const ms = performance.now() - t0;
    return { points, ms, mbps: read / 1e6 / Math.max(ms / 1000, 1e-6), detail };
  }

  // A lossLoaded / lossPoints message (its points transferred): the engine's detail as its
  // fields (the tags as read among them) and as the text the UI reads.
  function message(type, { file, scan }, extra) {
    return Object.assign(
      {
        type,
        lossId: file.id,
        name: file.name,
        bytes: file.blob.size,
        points: scan.points.buffer,
        scanMs: scan.ms,
        mbps: scan.mbps,
        lossDetail: scan.detail,
      },
      JSON.parse(scan.detail),
      extra || {},
    );
  }

  // A log opened like a trace: `opened` is sources.open()'s, `head` its first chunk (already
  // taken from opened.chunks). A URL's bytes are kept as a Blob (the browser may page it to disk).
  // A gzip or zstd log is kept compressed: the engine inflates it on every scan, and its start
  // to guess the tags.
  async function importFile(name, opened, head) {
    let blob = opened.source.blob;
    if (!blob) {
      const parts = [head];
      for await (const c of opened.chunks) parts.push(c);
      blob = new Blob(parts);
    }
    const tags = guessTags(head);
    const file = {
      id: nextId++,
      // A folder's event file goes by its run (core/formats/loss_log/log_name.h).
      name: uniqueName(withStrings(M, [name], (p) => M.UTF8ToString(M._loss_log_name(p)))),
      blob,
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
    keepTagsRead(file, scanned);
    return { file, scan: scanned };
  }

  // New tags for log `id`: its points again, or null for an unknown log.
  async function setTags(id, lossTag, iterationTag) {
    const file = files.get(id);
    if (!file) return null;
    file.lossTag = String(lossTag);
    file.iterationTag = String(iterationTag);
    const scanned = await scan(file);
    keepTagsRead(file, scanned);
    return { file, scan: scanned };
  }

  return {
    importFile,
    setTags,
    message,
    remove: (id) => files.delete(id),
  };
}
