// The engine worker's trace: loads sources into the engine in chunks, re-reads their bytes for
// memory instants and event details, and answers the timeline's views and queries. Posts
// progress and previews itself (`post`); its callers post the answers.
'use strict';
/* exported createTrace */

// M: the engine module; sources: createSources(); post(message, transfer).
function createTrace(M, sources, post) {
  const { withString, withBytes, feedChunks } = StrataWasm;
  const { MSG, REPLY } = StrataProtocol;
  const PROGRESS_EVERY_MS = 250; // the UI draws at most one frame per 500 ms of a load (src/ui/main.cc)
  let loadMs = 0;
  // The current trace's load: the workers that parsed it (1: this one alone) and, for a sliced
  // load (sliced.js), each slice's figures (REPLY_KEYS.summarySlice).
  let loadWorkers = 1,
    loadSlices = [];
  let workersSetting = 0; // what the last open asked for (the open message's workers; 0: the cores)

  function outBytes(p) {
    const n = M._engine_out_size();
    const a = p >>> 0;
    return M.HEAPU8.slice(a, a + n).buffer; // a copy: wasm memory cannot be transferred
  }
  const trackList = () => outBytes(M._engine_track_list());
  const lastError = () => M.UTF8ToString(M._engine_last_error());
  // withDigest: add the store's digest (a pass over the whole store, so only when asked).
  function summary(withDigest) {
    const s = JSON.parse(M.UTF8ToString(M._engine_summary()));
    s[REPLY.summary.loadMs] = loadMs;
    s[REPLY.summary.heapBytes] = M.HEAPU8.buffer.byteLength;
    s[REPLY.summary.workers] = loadWorkers;
    s[REPLY.summary.workersSetting] = workersSetting;
    s[REPLY.summary.slices] = loadSlices;
    s[REPLY.summary.digest] = withDigest ? M.UTF8ToString(M._engine_store_digest()) : '';
    return s;
  }
  // A load of `name` that failed before it began: the message names this file; the trace stays.
  function fail(name, message) {
    withString(M, name, (p) => M._engine_load_begin(p, 0));
    withString(M, message, (p) => M._engine_load_fail(p));
    return { ok: false, error: lastError() };
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

  // Loads opened file `first` ({name, total, chunks, source}) and then every other source of
  // `rest` (the xplanes of a multi-host run, the Kineto traces of a run's ranks) into one trace. A later file that cannot be read or
  // joined is reported in the trace's errors and skipped. Returns {ok, error}.
  // A sliced load (sliced.js plan(): first.sliced) reads the first slice here and then absorbs
  // the others.
  async function load(first, rest, t0) {
    const plan = first.sliced || null;
    withString(M, first.name, (p) =>
      plan ? M._engine_load_begin_sliced(p, first.total, plan.xspace ? 1 : 0) : M._engine_load_begin(p, first.total),
    );
    let loaded = 0,
      lastPost = 0,
      total = first.total;
    const opened = [first.source]; // in the engine's file order
    const files = [first, ...rest];
    const generation = M._engine_generation();
    const prior = sources.state();
    let previewed = false;
    try {
      for (let k = 0; k < files.length; ++k) {
        let file = first;
        if (k > 0) {
          try {
            file = await sources.open(files[k], `file ${k + 1}`);
          } catch (e) {
            withString(M, `${e.message}`, (p) => M._engine_load_note(p));
            continue;
          }
          flushLoad();
          if (withString(M, file.name, (p) => M._engine_load_next_file(p, file.total)) !== 1) continue;
          opened.push(file.source);
          total += file.total;
        }
        const report = () => {
          const now = performance.now();
          if (now - lastPost <= PROGRESS_EVERY_MS) return;
          lastPost = now;
          const secs = Math.max(1e-3, (now - t0) / 1000);
          post({
            type: MSG.progress,
            name: file.name,
            loaded,
            total: Math.max(total, loaded),
            mbps: loaded / 1e6 / secs,
            records: M._engine_load_records(),
          });
        };
        for await (const bytes of file.chunks) {
          if (plan && plan.stopped()) throw new Error('the load was stopped');
          feed(bytes);
          loaded += bytes.length;
          if (M._engine_generation() !== generation && !previewed) {
            // The engine indexed the file's first part on its own (a big file): show it now.
            previewed = true;
            sources.setCurrent(first.source, [first.source]);
            const tl = trackList();
            post({ type: MSG.preview, name: first.name, trackList: tl }, [tl]);
          }
          report();
        }
        if (k === 0 && plan) {
          flushLoad();
          const progress = (n) => {
            loaded += n;
            report();
          };
          await plan.absorbRest({ feed, flush: flushLoad, progress });
        }
      }
      flushLoad();
    } catch (e) {
      pending = 0;
      if (plan) plan.cancel();
      const why = plan && plan.stopped() ? 'the load stopped: another file was opened' : null;
      withString(M, why || `reading the file failed after ${loaded} bytes: ${e.message || e}`, (p) =>
        M._engine_load_fail(p),
      );
    }
    const ok = M._engine_load_end() === 1;
    if (!ok) {
      if (previewed) {
        // The preview was shown; the engine went back to the previous trace: so does the UI.
        sources.setCurrent(prior.current, prior.all);
        const tl = trackList();
        post({ type: MSG.preview, name: null, trackList: tl }, [tl]);
      }
      return { ok: false, error: lastError() };
    }
    // An Ascend memory CSV merged into the trace shown: that trace's files stay the sources.
    if (!merged()) sources.setCurrent(first.source, opened);
    loadMs = performance.now() - t0;
    loadWorkers = plan ? plan.workers : 1;
    loadSlices = plan ? plan.stats : [];
    return { ok: true };
  }
  const merged = () => M._engine_last_load_merged() === 1;

  // Kineto [memory] instants keep only their byte spans at load: read their args back in one
  // pass over the source, after the timeline is shown. Memory queries wait for it.
  async function memoryScan() {
    if (M._engine_memory_scan_begin() === 0 || !sources.current()) return;
    const generation = M._engine_generation();
    const files = Math.max(1, M._engine_memory_scan_file_count());
    try {
      for (let f = 0; f < files; ++f) {
        // several xplanes: each host's file in turn
        if (f > 0) M._engine_memory_scan_file(f);
        const fed = await feedChunks(
          M,
          sources.chunksOf(f),
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

  // The event's record (its JSON object text) as bytes, re-read from the source.
  async function readRecord(event) {
    const access = M._engine_record_access(event);
    if (access === 0 || !sources.current()) return null;
    const file = M._engine_source_file();
    if (access === 1) return sources.readRange(M._engine_source_offset(), M._engine_source_length(), file);
    if (access === 3) {
      // Compressed: decompress from the start until the record has passed (the engine keeps a
      // window around it, so nearby selections come from memory next time).
      M._engine_extract_begin(event);
      await feedChunks(
        M,
        sources.chunksOf(file),
        (n) => {
          flushLoad(); // a load in progress keeps bytes in the buffer this overwrites
          return M._engine_load_buffer(n);
        },
        (n) => M._engine_extract_commit(n),
      );
    }
    return 'cached';
  }

  // The details pane's JSON of an event, or null when a new trace replaced this one meanwhile.
  async function details(event) {
    const generation = M._engine_generation();
    let record = null;
    try {
      record = await readRecord(event);
    } catch (e) {
      /* args unavailable: details without them */
    }
    if (M._engine_generation() !== generation) return null;
    const call = (bytes) => {
      if (bytes === 'cached') return M.UTF8ToString(M._engine_details_cached(event));
      return withBytes(M, bytes, (p, n) => M.UTF8ToString(M._engine_details(event, p, n)));
    };
    let json = call(record || new Uint8Array(0));
    try {
      JSON.parse(json);
    } catch (e) {
      json = call(new Uint8Array(0));
    } // file changed on disk?
    return json;
  }

  // A kViewRequest's reply (an ArrayBuffer; empty when there is nothing to send).
  const view = (bytes) => withBytes(M, new Uint8Array(bytes), (p, n) => outBytes(M._engine_view(p, n)));
  const find = (text, limit) =>
    JSON.parse(withString(M, String(text), (p) => M.UTF8ToString(M._engine_find(p, limit))));
  const locate = (q) =>
    StrataWasm.withStrings(M, [q.name, q.pid ?? '', q.tid ?? ''], (n, pp, tp) => M._engine_locate(n, q.tsNs, pp, tp));
  const query = (kind, args) =>
    StrataWasm.withStrings(M, [kind, args], (k, a) => M.UTF8ToString(M._engine_query(k, a)));

  const setWorkersSetting = (n) => {
    workersSetting = Math.max(0, Math.floor(Number(n)) || 0);
  };

  return {
    load,
    fail,
    merged,
    summary,
    setWorkersSetting,
    trackList,
    memoryScan,
    details,
    view,
    find,
    locate,
    query,
    flushLoad,
  };
}
