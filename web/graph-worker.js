// The graph viewer's side of the engine worker (imported by engine-worker.js): HLO files
// (text, HloProto) and an xplane's HloProtos (plain or compressed) are parsed into modules kept
// in wasm (src/engine/wasm/graph_exports.cc), apart from the trace; a layout request builds the
// visible graph, lays it out and answers with one binary message (transferred); a node's
// FLOPs and bytes are summed from its occurrences' records in the trace.
'use strict';

const GRAPH_MAX_BYTES = 1 << 30;

// 1: HLO text, 2: an HloProto by name, 0: not a graph file.
function graphKind(M, name, head) {
  if (/\.xplane\.pb(\.gz|\.zst)?$/i.test(name)) return 0;
  if (/(\.hlo_proto\.pb|\.hlo\.pb|hlo_?proto[^/]*\.pb)$/i.test(name)) return 2;
  const n = Math.min(head.length, 64 << 10);
  const p = M._malloc(Math.max(n, 1));
  M.HEAPU8.set(head.subarray(0, n), p >>> 0);
  try {
    return M._graph_sniff_text(p, n) === 1 ? 1 : 0;
  } finally {
    M._free(p);
  }
}

function graphModules(M) {
  return JSON.parse(M.UTF8ToString(M._graph_modules_json()));
}

// Parses whole bytes as modules of `name`; returns {added, error}.
function graphAddBytes(M, kind, name, bytes, fromTrace, programId) {
  const p = M._graph_buffer(bytes.length) >>> 0;
  M.HEAPU8.set(bytes, p);
  const added = withString(name, (n) => M._graph_add(kind, n, fromTrace ? 1 : 0, programId || 0));
  const error = M.UTF8ToString(M._graph_error());
  return { added: Math.max(added, 0), error: added < 0 ? error : error || null };
}

// An HLO file opened like a trace: read whole (HLO dumps are MBs, not GBs), then parsed.
async function graphImport(M, name, head, chunks, kind) {
  const parts = [head];
  let total = head.length;
  for await (const bytes of chunks) {
    total += bytes.length;
    if (total > GRAPH_MAX_BYTES) throw new Error(`${name}: larger than 1 GiB, too big for the graph viewer`);
    parts.push(bytes);
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const b of parts) {
    all.set(b, at);
    at += b.length;
  }
  const r = graphAddBytes(M, kind, name, all, false, 0);
  if (!r.added) throw new Error(`${name}: not a readable HLO module: ${r.error}`);
  const modules = graphModules(M);
  return { name, added: r.added, first: modules.length - r.added, modules, error: r.error };
}

// After a trace loaded: its xplane's HloProtos become the trace's modules. A plain file's are
// read by their spans; a compressed file (gzip / zstd) cannot be entered in the middle, so it
// is streamed once from its start (graph_hlo_stream_*: each module parsed as soon as its bytes
// have passed, the pass ends after the last one). Files in the engine's order, so modules come
// in the same order either way. A newer trace stops the work; runs never overlap (the stream
// state lives in wasm).
let graphModulesQueue = Promise.resolve();
function graphLoadTraceModules(M) {
  const run = graphModulesQueue.then(() => graphLoadTraceModulesNow(M));
  graphModulesQueue = run.catch(() => null);
  return run;
}
async function graphLoadTraceModulesNow(M) {
  M._graph_drop_trace_modules();
  const generation = M._engine_generation();
  const spans = JSON.parse(M.UTF8ToString(M._engine_hlo_protos_json()));
  const errors = [];
  const files = [...new Set(spans.map((s) => s.file))];
  for (const file of files) {
    if (M._engine_generation() !== generation) break;
    const mine = spans.filter((s) => s.file === file);
    if (mine[0].compressed) {
      errors.push(...(await graphStreamModules(M, file, generation)));
      continue;
    }
    for (const s of mine) {
      try {
        const bytes = await readRange(s.offset, s.length, s.file);
        if (M._engine_generation() !== generation) break;
        const r = graphAddBytes(M, 2, s.module, bytes, true, s.programId);
        if (!r.added) errors.push(`${s.module}: ${r.error}`);
      } catch (e) {
        errors.push(`${s.module}: ${e.message || e}`);
      }
    }
  }
  return { modules: graphModules(M), errors };
}

const GRAPH_FEED = 1 << 20; // compressed bytes per commit: the pass stops soon after the last module

// One pass over compressed file `file` for its HloProtos; returns error messages.
async function graphStreamModules(M, file, generation) {
  if (M._graph_hlo_stream_begin(file) === 0) return [];
  const errors = [];
  let current = true;
  try {
    const fed = await feedChunks(
      sourceChunks(file),
      (n) => M._graph_buffer(n),
      (n) => M._graph_hlo_stream_commit(n),
      { piece: GRAPH_FEED, stop: () => M._engine_generation() !== generation },
    );
    current = fed !== 'stopped';
  } catch (e) {
    errors.push(`reading the file again for its HLO modules failed: ${e.message || e}`);
  }
  const r = JSON.parse(M.UTF8ToString(M._graph_hlo_stream_end(current ? 1 : 0)));
  return current ? errors.concat(r.errors) : [];
}

// FLOPs and bytes accessed of a node's occurrences in the trace (msg.events, from the page's
// search; msg.occurrences: how many the trace has). Each occurrence's record is read as the
// details pane reads it (a plain file by its span, a compressed one in one pass per file for
// all of them), decoded by the engine and summed in wasm (core/graph/op_costs.h).
// Returns the costs, or null when a newer trace replaced this one or a newer request (another
// node clicked) came in: a compressed file's pass is not worth finishing for a node left.
// Answers are kept per trace, so going back to a node costs nothing.
const GRAPH_COST_EVENTS = 100;
let graphCostsQueue = Promise.resolve(); // one request at a time: the sums live in wasm
let graphCostsLatest = 0;
let graphCostsCache = { generation: -1, byName: new Map() };
function graphTraceCosts(M, msg) {
  const seq = ++graphCostsLatest;
  const run = graphCostsQueue.then(() => graphTraceCostsNow(M, msg, seq));
  graphCostsQueue = run.catch(() => null);
  return run;
}
async function graphTraceCostsNow(M, msg, seq) {
  const generation = M._engine_generation();
  if (graphCostsCache.generation !== generation) graphCostsCache = { generation, byName: new Map() };
  const key = `${msg.name}\n${msg.occurrences}`;
  if (graphCostsCache.byName.has(key)) return graphCostsCache.byName.get(key);
  const stale = () => M._engine_generation() !== generation || seq !== graphCostsLatest;
  const events = (msg.events || []).slice(0, GRAPH_COST_EVENTS);
  withString(String(msg.name), (n) => M._graph_costs_begin(n, Number(msg.occurrences) || 0));
  const compressed = new Map(); // file → events
  for (const ev of events) {
    if (stale()) return null;
    const access = M._engine_record_access(ev);
    if (access === 2) M._graph_costs_add_cached(ev);
    if (access === 3) {
      const f = M._engine_source_file();
      if (!compressed.has(f)) compressed.set(f, []);
      compressed.get(f).push(ev);
    }
    if (access !== 1) continue;
    let bytes;
    try {
      bytes = await readRange(M._engine_source_offset(), M._engine_source_length(), M._engine_source_file());
    } catch (e) {
      continue;
    } // the source went away: this one is not read
    if (stale()) return null;
    const p = M._graph_buffer(bytes.length) >>> 0; // may grow memory: HEAPU8 after
    M.HEAPU8.set(bytes, p);
    M._graph_costs_add(ev, bytes.length);
  }
  if (compressed.size) {
    const all = new Uint32Array([...compressed.values()].flat());
    const p = M._malloc(Math.max(all.byteLength, 4));
    M.HEAPU32.set(all, (p >>> 0) / 4);
    M._graph_costs_scan_begin(p, all.length);
    M._free(p);
    try {
      for (const f of [...compressed.keys()].sort((a, b) => a - b)) {
        M._graph_costs_scan_file(f);
        const fed = await feedChunks(
          sourceChunks(f),
          (n) => M._graph_buffer(n),
          (n) => M._graph_costs_scan_commit(n),
          { piece: GRAPH_FEED, stop: stale },
        );
        if (fed === 'stopped') return null;
      }
    } catch (e) {
      /* the source went away: what was read */
    }
    if (stale()) return null;
    M._graph_costs_scan_end();
  }
  const costs = JSON.parse(M.UTF8ToString(M._graph_costs_json()));
  graphCostsCache.byName.set(key, costs);
  return costs;
}

// Messages from the page whose type starts with 'graph'.
function graphMessage(M, msg) {
  switch (msg.type) {
    case 'graphLayout': {
      const ex = new Uint32Array(msg.expanded || []);
      const p = M._malloc(Math.max(ex.byteLength, 4));
      M.HEAPU32.set(ex, (p >>> 0) / 4);
      const n = M._graph_layout(msg.module, msg.computation, p, ex.length, msg.focus ?? -1, msg.hops || 0);
      M._free(p);
      const a = M._graph_message() >>> 0;
      const bytes = M.HEAPU8.slice(a, a + n).buffer;
      postMessage({ type: 'graph', id: msg.id, request: msg.request, bytes }, [bytes]);
      break;
    }
    case 'graphDetails':
      postMessage({
        type: 'graphDetails',
        id: msg.id,
        module: msg.module,
        instr: msg.instr,
        json: M.UTF8ToString(M._graph_details(msg.module, msg.instr)),
      });
      break;
    case 'graphModules':
      postMessage({ type: 'reply', id: msg.id, value: graphModules(M) });
      break;
    case 'graphCosts':
      graphTraceCosts(M, msg).then(
        (value) => postMessage({ type: 'reply', id: msg.id, value }),
        () => postMessage({ type: 'reply', id: msg.id, value: null }),
      );
      break;
    case 'graphSearch': {
      const json = withString(String(msg.text), (t) =>
        M.UTF8ToString(M._graph_search(msg.module, t, msg.limit || 100)),
      );
      postMessage({ type: 'reply', id: msg.id, value: JSON.parse(json) });
      break;
    }
    case 'graphFind': {
      const instr = withString(String(msg.name), (t) => M._graph_find_instr(msg.module, t));
      const computation = instr >= 0 ? M._graph_instr_computation(msg.module, instr) : -1;
      postMessage({ type: 'reply', id: msg.id, value: { instr, computation } });
      break;
    }
    case 'graphBench': // scripts/bench-graph
      postMessage({
        type: 'reply',
        id: msg.id,
        value:
          msg.module === undefined
            ? M._graph_bench_generated(msg.nodes)
            : JSON.parse(M.UTF8ToString(M._graph_bench_module(msg.module, msg.expandAll ? 1 : 0))),
      });
      break;
  }
}
