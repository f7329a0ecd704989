// Files the engine opens where they are rather than streams: a SQLite profile (Nsight Systems,
// Ascend) and a Strata tile bundle. The engine reads them through engine_load_sqlite's /
// engine_load_bundle's reader, which calls self.strataDbRead(offset, n) synchronously
// (src/engine/wasm/browser_byte_reader.cc). A File or Blob is sliced with FileReaderSync, so a
// big file is never copied whole; a bundle by URL is read by synchronous Range requests where
// the server takes them (a split bundle's tiles as tiles/<i>.zst beside its manifest, on the
// manifest's origin only), other URLs are fetched into a Blob first.
'use strict';
/* exported createDb */

// M: the engine module; sources: createSources(); trace: createTrace(); bundle: createBundle().
function createDb(M, sources, trace, bundle) {
  const { withString } = StrataWasm;
  const { REPLY } = StrataProtocol;

  // `n` bytes of `url` at `offset` by a synchronous Range request (allowed in a worker).
  function rangeRead(url, offset, n) {
    const x = new XMLHttpRequest();
    x.open('GET', url, false);
    x.responseType = 'arraybuffer';
    x.setRequestHeader('Range', `bytes=${offset}-${offset + n - 1}`);
    x.send();
    if (x.status !== 206 && !(x.status === 200 && offset === 0)) throw new Error(`HTTP ${x.status}`);
    return new Uint8Array(x.response);
  }
  // A whole small file (a split bundle's tile) by a synchronous request.
  function wholeRead(url) {
    const x = new XMLHttpRequest();
    x.open('GET', url, false);
    x.responseType = 'arraybuffer';
    x.send();
    if (x.status !== 200) throw new Error(`HTTP ${x.status}`);
    return new Uint8Array(x.response);
  }

  // byRange: the URL's download itself stops too (its bytes are read by ranges instead).
  async function stopStream(opened, byRange) {
    if (byRange && opened.stop) opened.stop();
    try {
      await opened.chunks.return(); // the stream's read-ahead is not needed: bytes are read by offset
    } catch (e) {
      /* already ended */
    }
  }

  // Opens a file with `open(name, size)` (an engine export answering 1 when it loaded) while
  // self.strataDbRead reads its bytes. opened: sources.open()'s answer, its first chunk already
  // read; byRange: read a URL by Range requests (when its server takes them) instead of
  // fetching it whole. Returns {ok, blob} or {ok: false, error} for a file that could not be read.
  async function openWith(opened, open, byRange = false) {
    let blob = opened.source.blob;
    const url = opened.source.url;
    const ranged = !blob && url && byRange && opened.ranges && opened.total > 0;
    await stopStream(opened, ranged);
    if (ranged) {
      self.strataDbRead = (offset, n) => rangeRead(url, offset, n);
      try {
        return { ok: withString(M, opened.name, (p) => open(p, opened.total)) === 1 };
      } finally {
        self.strataDbRead = null;
      }
    }
    if (!blob) {
      try {
        blob = new Blob([await sources.readAll(opened.source)]);
      } catch (e) {
        return { ok: false, error: `reading ${url ? 'the file' : 'the database'} failed: ${e.message || e}` };
      }
    }
    const reader = new FileReaderSync();
    self.strataDbRead = (offset, n) => new Uint8Array(reader.readAsArrayBuffer(blob.slice(offset, offset + n)));
    try {
      return { ok: withString(M, opened.name, (p) => open(p, blob.size)) === 1, blob };
    } finally {
      self.strataDbRead = null;
    }
  }

  // The database as the current trace. Returns {ok, error}.
  async function load(opened) {
    const r = await openWith(opened, (p, size) => M._engine_load_sqlite(p, size));
    if (r.error) return trace.fail(opened.name, r.error);
    if (!r.ok) return { ok: false, error: M.UTF8ToString(M._engine_last_error()) };
    sources.setCurrent({ blob: r.blob }, [{ blob: r.blob }]);
    return { ok: true };
  }

  // Header bytes 12-15 (flags), bit 0: a split bundle's manifest (docs/BUNDLE.md).
  const isSplit = (head) => head.length >= 16 && (head[12] & 1) === 1;

  // Header bytes 56-63: the tiles' total bytes (a split bundle's size is its tiles').
  const tilesBytes = (head) =>
    head.length >= 64 ? Number(new DataView(head.buffer, head.byteOffset).getBigUint64(56, true)) : 0;

  // Header bytes 16-27: the index's offset (u64) and length (u32); 36-39 and 48-55: the search
  // blob's length and offset (src/core/bundle/bundle_format.h, Header). The engine reads both at
  // a lazy open; they lie back to back at the bundle's end (a split bundle's manifest holds
  // them after its header), so one request reads them.
  function tablesRange(head) {
    if (head.length < 64) return null;
    const v = new DataView(head.buffer, head.byteOffset, head.length);
    const index = Number(v.getBigUint64(16, true));
    const search = Number(v.getBigUint64(48, true));
    const start = Math.min(index, search);
    const end = Math.max(index + v.getUint32(24, true), search + v.getUint32(36, true));
    return end > start && end - start <= TABLES_READ_MAX ? { start, end } : null;
  }
  const TABLES_READ_MAX = 64 << 20; // larger tables are read as the engine asks, piece by piece

  // read(offset, n) with the reads of a lazy open answered from what is here already: the
  // header from the file's first bytes, the index and search blob from one read of both.
  function tablesReader(read, head) {
    const range = tablesRange(head);
    let tables = null;
    return (offset, n) => {
      if (offset + n <= head.length) return head.slice(offset, offset + n);
      if (!range || offset < range.start || offset + n > range.end) return read(offset, n);
      if (!tables) tables = read(range.start, range.end - range.start);
      return tables.subarray(offset - range.start, offset - range.start + n);
    };
  }

  // A big bundle opened lazily (bundle.js): header, index and search blob read now, tiles as
  // views need them. Null when it cannot be here (a picked split manifest has no tiles beside
  // it, a server without ranges): the whole path then opens or refuses it.
  async function openLazy(opened, split, url, head) {
    const fetchers = bundle.fetchers;
    const blob = opened.source.blob;
    let readSync, fetchTile, size;
    if (blob && !split) {
      const reader = new FileReaderSync();
      readSync = (offset, n) => new Uint8Array(reader.readAsArrayBuffer(blob.slice(offset, offset + n)));
      fetchTile = fetchers.fromBlob(blob);
      size = blob.size;
    } else if (!blob && url && opened.ranges && opened.total > 0) {
      readSync = (offset, n) => rangeRead(url, offset, n);
      fetchTile = split ? fetchers.fromSplit(url) : fetchers.fromRanges(url);
      size = opened.total;
    } else {
      return null;
    }
    await stopStream(opened);
    if (!bundle.open(opened.name, size, tablesReader(readSync, head), fetchTile, blob || url))
      return { ok: false, error: M.UTF8ToString(M._engine_last_error()) };
    // Args are re-read from the source when it is served beside the bundle, uncompressed.
    const [src, another] = trace.summary()[REPLY.summary.files] || [];
    if (url && src && !another && src.compression === 'none')
      bundle.setSource(fetchers.sourceBeside(url, src[REPLY.summaryFile.name]));
    sources.setCurrent(null, []);
    return { ok: true };
  }

  // A tile bundle as the current trace (head: its first bytes); one of at least lazyBytes
  // (absent: the engine's threshold) opens lazily. Returns {ok, error}.
  async function loadBundle(opened, head, lazyBytes) {
    const split = isSplit(head);
    const url = opened.source.url;
    const size = (opened.source.blob ? opened.source.blob.size : opened.total) + (split ? tilesBytes(head) : 0);
    const threshold = Number.isFinite(lazyBytes) && lazyBytes >= 0 ? lazyBytes : bundle.lazyBytes();
    if (size >= threshold) {
      const r = await openLazy(opened, split, url, head);
      if (r) return r;
    }
    if (split && url) {
      const base = new URL(url, self.location.href);
      self.strataTileRead = (i, n) => {
        const tile = new URL(`tiles/${i}.zst`, base);
        if (tile.origin !== base.origin) throw new Error('a tile off the bundle origin');
        return wholeRead(tile.href).subarray(0, n);
      };
    }
    let r;
    try {
      r = await openWith(opened, (p, size) => M._engine_load_bundle(p, size, split && url ? 1 : 0), true);
    } finally {
      self.strataTileRead = null;
    }
    if (r.error) return trace.fail(opened.name, r.error);
    if (!r.ok) return { ok: false, error: M.UTF8ToString(M._engine_last_error()) };
    // The bundle's events point into its sources, which are not here: details show what the
    // bundle holds.
    sources.setCurrent(null, []);
    return { ok: true };
  }

  return { load, loadBundle, openWith, rangeRead, wholeRead, tablesReader, isSplit, tilesBytes };
}
