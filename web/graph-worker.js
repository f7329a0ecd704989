// The graph viewer's side of the engine worker (imported by engine-worker.js): HLO files
// (text, HloProto) and an xplane's HloProtos are parsed into modules kept in wasm
// (src/engine/wasm/graph_exports.cc), apart from the trace; a layout request builds the
// visible graph, lays it out and answers with one binary message (transferred).
'use strict';

const GRAPH_MAX_BYTES = 1 << 30;

// 1: HLO text, 2: an HloProto by name, 0: not a graph file.
function graphKind(M, name, head) {
  if (/\.xplane\.pb(\.gz|\.zst)?$/i.test(name)) return 0;
  if (/(\.hlo_proto\.pb|\.hlo\.pb|hlo_?proto[^/]*\.pb)$/i.test(name)) return 2;
  const n = Math.min(head.length, 64 << 10);
  const p = M._malloc(Math.max(n, 1));
  M.HEAPU8.set(head.subarray(0, n), p >>> 0);
  try { return M._graph_sniff_text(p, n) === 1 ? 1 : 0; } finally { M._free(p); }
}

function graphModules(M) { return JSON.parse(M.UTF8ToString(M._graph_modules_json())); }

// Parses whole bytes as modules of `name`; returns {added, error}.
function graphAddBytes(M, kind, name, bytes, fromTrace, programId) {
  const p = M._graph_buffer(bytes.length) >>> 0;
  M.HEAPU8.set(bytes, p);
  const added = withString(name, (n) => M._graph_add(kind, n, fromTrace ? 1 : 0, programId || 0));
  const error = M.UTF8ToString(M._graph_error());
  return { added: Math.max(added, 0), error: added < 0 ? error : (error || null) };
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
  for (const b of parts) { all.set(b, at); at += b.length; }
  const r = graphAddBytes(M, kind, name, all, false, 0);
  if (!r.added) throw new Error(`${name}: not a readable HLO module: ${r.error}`);
  const modules = graphModules(M);
  return { name, added: r.added, first: modules.length - r.added, modules, error: r.error };
}

// After a trace loaded: its xplane's HloProtos become the trace's modules (read from the file
// by their spans; a compressed xplane's are not read: say so).
async function graphLoadTraceModules(M) {
  M._graph_drop_trace_modules();
  const spans = JSON.parse(M.UTF8ToString(M._engine_hlo_protos_json()));
  const errors = [];
  for (const s of spans) {
    if (s.compressed) { errors.push(`${s.module}: the graph viewer reads HLO only from uncompressed xplanes`); continue; }
    try {
      const bytes = await readRange(s.offset, s.length, s.file);
      const r = graphAddBytes(M, 2, s.module, bytes, true, s.programId);
      if (!r.added) errors.push(`${s.module}: ${r.error}`);
    } catch (e) {
      errors.push(`${s.module}: ${e.message || e}`);
    }
  }
  return { modules: graphModules(M), errors };
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
      postMessage({ type: 'graphDetails', id: msg.id, module: msg.module, instr: msg.instr,
        json: M.UTF8ToString(M._graph_details(msg.module, msg.instr)) });
      break;
    case 'graphModules':
      postMessage({ type: 'reply', id: msg.id, value: graphModules(M) });
      break;
    case 'graphSearch': {
      const json = withString(String(msg.text), (t) => M.UTF8ToString(M._graph_search(msg.module, t, msg.limit || 100)));
      postMessage({ type: 'reply', id: msg.id, value: JSON.parse(json) });
      break;
    }
    case 'graphFind': {
      const instr = withString(String(msg.name), (t) => M._graph_find_instr(msg.module, t));
      const computation = instr >= 0 ? M._graph_instr_computation(msg.module, instr) : -1;
      postMessage({ type: 'reply', id: msg.id, value: { instr, computation } });
      break;
    }
    case 'graphBench':  // scripts/bench-graph
      postMessage({ type: 'reply', id: msg.id, value: msg.module === undefined ? M._graph_bench_generated(msg.nodes)
        : JSON.parse(M.UTF8ToString(M._graph_bench_module(msg.module, msg.expandAll ? 1 : 0))) });
      break;
  }
}
