// The Runs tab's side of the engine worker: reads the files of a profiler folder that a view
// needs ({url} or {blob} each; CSV / JSON, small) and runs the core's run statistics on them
// (src/engine/wasm/runs_exports.cc). A Kineto profile's trace is the engine's loaded trace (the
// page opens it first), so its statistics run as a job after the load.
'use strict';
/* exported createRuns */

// M: the engine module; sources: createSources().
function createRuns(M, sources) {
  const { withString, feedChunks } = StrataWasm;
  const { RUNS_KIND, REPLY } = StrataProtocol;
  const STATS = REPLY.runsStats;

  // files: {key: {url} | {blob}}; the keys are runs_exports.cc's ("a/operator_details.csv", ...).
  async function put(files) {
    M._runs_clear();
    const errors = [];
    for (const [key, src] of Object.entries(files || {})) {
      let bytes;
      try {
        bytes = await sources.readAll(src);
      } catch (e) {
        errors.push(`${key}: ${e.message || e}`);
        continue;
      }
      const p = M._runs_buffer(bytes.length) >>> 0; // may grow memory: HEAPU8 after
      M.HEAPU8.set(bytes, p);
      withString(M, key, (k) => M._runs_put(k, bytes.length));
    }
    return errors;
  }

  // The records the operator table reads (shapes, call stacks) picked from the loaded trace's
  // source in one pass, once per loaded trace (engine generation).
  let recordsGeneration = -1;
  async function records() {
    const generation = M._engine_generation();
    if (generation === recordsGeneration) return;
    recordsGeneration = generation;
    if (M._runs_records_begin() === 0 || !sources.current()) {
      M._runs_records_clear();
      return;
    }
    try {
      await feedChunks(
        M,
        sources.chunksOf(0),
        (n) => M._runs_buffer(n),
        (n) => M._runs_records_commit(n),
      );
    } catch (e) {
      M._runs_records_clear();
    } // the source went away: tables without records
  }

  // A head request: the first bytes of files.head as stored; the engine inflates and reads them.
  const HEAD_BYTES = 1 << 16;
  async function head(files) {
    const src = (files || {}).head;
    let bytes;
    try {
      bytes = src.blob
        ? new Uint8Array(await src.blob.slice(0, HEAD_BYTES).arrayBuffer())
        : await sources.peekUrl(src.url, HEAD_BYTES);
    } catch (e) {
      return { [STATS.errors]: [`${e.message || e}`] };
    }
    const p = M._runs_buffer(bytes.length) >>> 0; // may grow memory: HEAPU8 after
    M.HEAPU8.set(bytes, p);
    return JSON.parse(M.UTF8ToString(M._runs_head(bytes.length)));
  }

  // msg: a runsStats message {kind: RUNS_KIND, files, groupByShape, step, cards, card, slot}.
  async function stats(msg) {
    if (msg.kind === RUNS_KIND.head) return head(msg.files);
    const errors = await put(msg.files);
    const step = String(msg.step || '');
    const byShape = msg.groupByShape ? 1 : 0;
    let json;
    if (msg.kind === RUNS_KIND.keep || msg.kind === RUNS_KIND.trace) await records();
    if (msg.kind === RUNS_KIND.keep) {
      // the loaded trace as one side of a Diff
      withString(M, String(msg.slot), (s) => M._runs_trace_keep(s, byShape));
      json = JSON.stringify({ [STATS.errors]: [] });
    } else if (msg.kind === RUNS_KIND.diff) {
      json = withString(M, step, (s) => M.UTF8ToString(M._runs_diff(byShape, s)));
    } else if (msg.kind === RUNS_KIND.trace) {
      json = M.UTF8ToString(M._runs_trace_stats(byShape, msg.card | 0));
    } else {
      json = withString(M, step, (s) => M.UTF8ToString(M._runs_ascend_stats(byShape, s, msg.cards | 0)));
    }
    M._runs_clear();
    const value = JSON.parse(json);
    value[STATS.errors] = errors.concat(value[STATS.errors] || []);
    return value;
  }

  return { stats };
}
