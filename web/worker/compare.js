// The engine worker's compare session: loads a variant trace B into the engine's second store
// (engine/compare/compare_session.h) beside the current trace A, which stays as it is, and
// answers the diff of A against B. B goes through the same format detector as any open and
// streams through the same importers (any trace format the engine streams); a B that fails
// leaves A and the previous B, and the answer says why. A SQLite profile (Nsight Systems,
// Ascend) is opened where it is, as db.js opens the current trace's.
'use strict';
/* exported createCompare */

// M: the engine module; sources: createSources(); db: createDb(); post(message, transfer).
function createCompare(M, sources, db, post) {
  const { withString, withBytes, feedChunks } = StrataWasm;
  const { FILE_KIND, MSG, REPLY } = StrataProtocol;
  const DETECT_BYTES = 1 << 20;
  const STREAMED = new Set([FILE_KIND.chromeJson, FILE_KIND.xspace, FILE_KIND.perfetto]);
  const K = REPLY.compareOpen;

  const result = () => JSON.parse(M.UTF8ToString(M._compare_result()));
  function outBytes(p) {
    const a = p >>> 0;
    return M.HEAPU8.slice(a, a + M._compare_out_size()).buffer; // a copy: wasm memory cannot be transferred
  }
  // B's timeline: its track list goes to the page after each B that loads; view requests and
  // queries are B's engine's answers.
  function postTrackList() {
    const tl = outBytes(M._compare_track_list());
    post({ type: MSG.compareView, bytes: tl }, [tl]);
  }
  const view = (bytes) => withBytes(M, new Uint8Array(bytes), (p, n) => outBytes(M._compare_view(p, n)));
  const query = (kind, args) =>
    StrataWasm.withStrings(M, [kind, args], (k, a) => M.UTF8ToString(M._compare_query(k, a)));
  // msg: {mode, step, event}. Answers REPLY_KEYS.compare.
  function align(msg) {
    const step = Number.isFinite(Number(msg.step)) ? Number(msg.step) : -1;
    StrataWasm.withStrings(M, [String(msg.mode || ''), String(msg.event || '')], (pm, pe) =>
      M._compare_set_alignment(pm, step, pe),
    );
    return result();
  }
  // The linked selection: from 'a' | 'b', args {"events": [indices]} (JSON text);
  // REPLY_KEYS.compareMatch's JSON text.
  const match = (from, args) =>
    withString(M, String(args || '{}'), (p) => M.UTF8ToString(M._compare_match(from === 'b' ? 1 : 0, p)));
  // B's event details (REPLY_KEYS.details), its record read from B's file when that is plain.
  let bSource = null; // the loaded B's {url} | {blob}
  async function details(event) {
    let record = new Uint8Array(0);
    if (bSource && M._compare_record_range(event) === 1) {
      const off = M._compare_record_offset(),
        len = M._compare_record_length();
      try {
        record = bSource.blob
          ? await sources.readBlob(bSource.blob, off, len)
          : await sources.readUrlRange(bSource.url, off, len);
      } catch (e) {
        /* args unavailable: details without them */
      }
    }
    const call = (bytes) => withBytes(M, bytes, (p, n) => M.UTF8ToString(M._compare_details(event, p, n)));
    let json = call(record);
    try {
      JSON.parse(json);
    } catch (e) {
      json = call(new Uint8Array(0)); // the file changed?
    }
    return json;
  }
  const lastError = () => M.UTF8ToString(M._compare_last_error());
  function answer(ok, name) {
    return { [K.ok]: ok, [K.error]: ok ? '' : lastError(), [K.name]: name, [K.result]: result() };
  }
  // A B that failed before its bytes reached the engine: recorded as the engine's failure.
  function fail(name, message) {
    withString(M, name, (p) => M._compare_load_begin(p, 0));
    withString(M, message, (p) => M._compare_load_fail(p));
    return answer(false, name);
  }
  // {kind, what}: the format detector's kind, and what the file is when it is not one to compare.
  function detect(name, head) {
    const h = head.subarray(0, DETECT_BYTES);
    const kind = withString(M, name, (pn) => withBytes(M, h, (p, n) => M._engine_detect_format(pn, p, n))) & 0xff;
    if (STREAMED.has(kind) || kind === FILE_KIND.sqlite) return { kind, what: '' };
    if (kind === FILE_KIND.unknown) {
      const what = withString(M, name, (pn) =>
        withBytes(M, h, (p, n) => M.UTF8ToString(M._engine_unknown_file_what(pn, p, n))),
      );
      return { kind, what };
    }
    return { kind, what: `a ${M.UTF8ToString(M._engine_file_kind_name(kind))}` };
  }

  // msg: {name, source: a URL string | Blob | ArrayBuffer}. Answers REPLY_KEYS.compareOpen.
  async function open(msg) {
    let name = msg.name || 'B';
    let file;
    try {
      file = await sources.open(msg.source, name);
    } catch (e) {
      return fail(name, `${e.message || e}`);
    }
    name = msg.name || file.name || name;
    let head;
    try {
      const r = await file.chunks.next();
      head = r.done ? new Uint8Array(0) : r.value;
    } catch (e) {
      return fail(name, `reading the file failed: ${e.message || e}`);
    }
    const { kind, what } = detect(name, head);
    if (what) return fail(name, `${what} is not a trace to compare (Chrome / Kineto JSON, XSpace, Perfetto or SQLite)`);
    if (kind === FILE_KIND.sqlite) {
      const r = await db.openWith({ ...file, name }, (p, size) => M._compare_load_sqlite(p, size));
      if (r.error) return fail(name, r.error);
      if (r.ok) bSource = null; // a database's events have no records to read back
      return answer(r.ok, name);
    }
    withString(M, name, (p) => M._compare_load_begin(p, file.total));
    const chunks = (async function* () {
      if (head.length) yield head;
      yield* file.chunks;
    })();
    try {
      await feedChunks(
        M,
        chunks,
        (n) => M._compare_load_buffer(n),
        (n) => {
          M._compare_load_commit(n);
          return 0;
        },
      );
    } catch (e) {
      withString(M, `reading the file failed: ${e.message || e}`, (p) => M._compare_load_fail(p));
    }
    const ok = M._compare_load_end() === 1;
    if (ok) {
      bSource = file.source;
      postTrackList();
    }
    return answer(ok, name);
  }

  return { open, result, align, view, query, match, details };
}
