// The Runs tab's side of the engine worker (imported by engine-worker.js): reads the files of
// a profiler folder that a view needs ({url} or {blob} each; CSV / JSON, small) and runs the
// core's run statistics on them (src/engine/wasm/runs_exports.cc). A Kineto profile's trace is
// the engine's loaded trace (the page opens it first), so its statistics wait for the load queue.
'use strict';

async function runsReadText(src) {
  if (src.blob) return new Uint8Array(await src.blob.arrayBuffer());
  const r = await fetch(src.url);
  if (!r.ok) throw new Error(`${src.url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

// files: {key: {url} | {blob}}; the keys are runs_exports.cc's ("a/operator_details.csv", ...).
async function runsPut(M, files) {
  M._runs_clear();
  const errors = [];
  for (const [key, src] of Object.entries(files || {})) {
    let bytes;
    try {
      bytes = await runsReadText(src);
    } catch (e) {
      errors.push(`${key}: ${e.message || e}`);
      continue;
    }
    const p = M._runs_buffer(bytes.length) >>> 0; // may grow memory: HEAPU8 after
    M.HEAPU8.set(bytes, p);
    withString(key, (k) => M._runs_put(k, bytes.length));
  }
  return errors;
}

// The records the operator table reads (shapes, call stacks) picked from the loaded trace's
// source in one pass, once per loaded trace (engine generation).
let runsRecordsGeneration = -1;
async function runsRecords(M) {
  const generation = M._engine_generation();
  if (generation === runsRecordsGeneration) return;
  runsRecordsGeneration = generation;
  if (M._runs_records_begin() === 0 || !currentSource) {
    M._runs_records_clear();
    return;
  }
  try {
    await feedChunks(
      sourceChunks(),
      (n) => M._runs_buffer(n),
      (n) => M._runs_records_commit(n),
    );
  } catch (e) {
    M._runs_records_clear();
  } // the source went away: tables without records
}

// msg: {kind: 'ascend' | 'trace' | 'keep' | 'diff', files, groupByShape, step, cards, card, slot}.
async function runsStats(M, msg) {
  const errors = await runsPut(M, msg.files);
  const step = String(msg.step || '');
  let json;
  if (msg.kind === 'keep' || msg.kind === 'trace') await runsRecords(M);
  if (msg.kind === 'keep') {
    // the loaded trace as one side of a Diff
    withString(String(msg.slot), (s) => M._runs_trace_keep(s, msg.groupByShape ? 1 : 0));
    json = '{"errors":[]}';
  } else if (msg.kind === 'diff') {
    json = withString(step, (s) => M.UTF8ToString(M._runs_diff(msg.groupByShape ? 1 : 0, s)));
  } else if (msg.kind === 'trace') {
    json = M.UTF8ToString(M._runs_trace_stats(msg.groupByShape ? 1 : 0, msg.card | 0));
  } else {
    json = withString(step, (s) => M.UTF8ToString(M._runs_ascend_stats(msg.groupByShape ? 1 : 0, s, msg.cards | 0)));
  }
  M._runs_clear();
  const value = JSON.parse(json);
  value.errors = errors.concat(value.errors || []);
  return value;
}
