// The graph viewer's side of the engine worker: HLO files (text, HloProto) and an xplane's
// HloProtos (plain or compressed) are parsed into modules kept in wasm
// (src/engine/wasm/graph_exports.cc), apart from the trace; a layout request builds the visible
// graph, lays it out and answers with one binary message (transferred); a clicked node's
// details, its occurrences in the trace and their FLOPs and bytes are one job with one answer.
'use strict';
/* exported createGraph */

// M: the engine module; sources: createSources(); trace: createTrace().
function createGraph(M, sources, trace) {
  const { withString, withArray, feedChunks } = StrataWasm;
  const { MSG, REPLY_KEYS, REPLY, pick } = StrataProtocol;
  const { hloProto: HLO, find: FIND, event: EVENT, graphNode: NODE, graphAdded: ADDED } = REPLY;
  const FEED = 1 << 20; // compressed bytes per commit: a pass stops soon after the last module

  const modules = () => JSON.parse(M.UTF8ToString(M._graph_modules_json()));

  // Parses whole bytes (an xplane's HloProto, read by its span) as modules of `name` (kind 1: HLO
  // text, 2: HloProto); returns {added, error}.
  function addBytes(kind, name, bytes, fromTrace, programId) {
    const p = M._graph_buffer(bytes.length) >>> 0;
    M.HEAPU8.set(bytes, p);
    // The program id as text: exact above 2^53, where a Number would round it.
    const added = withString(M, name, (n) =>
      withString(M, String(programId ?? 0), (id) => M._graph_add(kind, n, fromTrace ? 1 : 0, id)),
    );
    const error = M.UTF8ToString(M._graph_error());
    return { added: Math.max(added, 0), error: added < 0 ? error : error || null };
  }

  // An HLO file opened like a trace (plain, gzip or zstd): fed to the engine in chunks, which
  // inflates them as they come and parses the modules once the last one is in (at most 1 GiB
  // inflated). `head` is its first chunk, `chunks` the rest.
  async function importFile(name, head, chunks, kind) {
    withString(M, name, (n) => M._graph_import_begin(kind, n));
    try {
      const all = (async function* () {
        if (head.length) yield head;
        yield* chunks;
      })();
      await feedChunks(
        M,
        all,
        (n) => M._graph_buffer(n),
        (n) => {
          M._graph_import_commit(n);
          return 0;
        },
        { piece: FEED },
      );
    } catch (e) {
      // A read error: what came is not parsed (an empty import in its place frees it).
      withString(M, name, (n) => M._graph_import_begin(kind, n));
      M._graph_import_end();
      throw e;
    }
    const added = M._graph_import_end();
    const error = M.UTF8ToString(M._graph_error());
    if (added <= 0) throw new Error(`${name}: not a readable HLO module: ${error}`);
    const list = modules();
    return { name, added, first: list.length - added, modules: list, error: error || null };
  }

  // After a trace loaded: its xplane's HloProtos become the trace's modules. A plain file's are
  // read by their spans; a compressed file (gzip / zstd) cannot be entered in the middle, so it
  // is streamed once from its start (graph_hlo_stream_*: each module parsed as soon as its bytes
  // have passed, the pass ends after the last one). Files in the engine's order, so modules come
  // in the same order either way. Runs as a job of the worker's queue (the stream state lives in
  // wasm). `dropped(list)` hears the list without the previous trace's modules before any new
  // one is read, so no module index the page holds outlives its module. Returns {modules, errors}.
  async function loadTraceModules(dropped) {
    M._graph_drop_trace_modules();
    if (dropped) dropped(modules());
    const generation = M._engine_generation();
    const spans = JSON.parse(M.UTF8ToString(M._engine_hlo_protos_json()));
    const errors = [];
    const files = [...new Set(spans.map((s) => s[HLO.file]))];
    for (const file of files) {
      if (M._engine_generation() !== generation) break;
      const mine = spans.filter((s) => s[HLO.file] === file);
      if (mine[0][HLO.compressed]) {
        errors.push(...(await streamModules(file, generation)));
        continue;
      }
      for (const s of mine) {
        try {
          const bytes = await sources.readRange(s[HLO.offset], s[HLO.length], s[HLO.file]);
          if (M._engine_generation() !== generation) break;
          const r = addBytes(2, s[HLO.module], bytes, true, s[HLO.programId]);
          if (!r.added) errors.push(`${s[HLO.module]}: ${r.error}`);
        } catch (e) {
          errors.push(`${s[HLO.module]}: ${e.message || e}`);
        }
      }
    }
    return { modules: modules(), errors };
  }

  // One pass over compressed file `file` for its HloProtos; returns error messages.
  async function streamModules(file, generation) {
    if (M._graph_hlo_stream_begin(file) === 0) return [];
    const errors = [];
    let current = true;
    try {
      const fed = await feedChunks(
        M,
        sources.chunksOf(file),
        (n) => M._graph_buffer(n),
        (n) => M._graph_hlo_stream_commit(n),
        { piece: FEED, stop: () => M._engine_generation() !== generation },
      );
      current = fed !== 'stopped';
    } catch (e) {
      errors.push(`reading the file again for its HLO modules failed: ${e.message || e}`);
    }
    const r = JSON.parse(M.UTF8ToString(M._graph_hlo_stream_end(current ? 1 : 0)));
    return current ? errors.concat(r[ADDED.errors]) : [];
  }

  // The trace's occurrences of an op named `name`: {count, totalNs, events} (of the first 100
  // found; exact name matches), or null when no trace is loaded.
  function occurrences(name) {
    if (!trace.summary()[REPLY.summary.events]) return null;
    const r = trace.find(name, 100);
    const matches = r[FIND.matches];
    const exact = matches.filter((m) => m[EVENT.name] === name);
    return {
      count: exact.length < matches.length ? exact.length : r[FIND.count],
      totalNs: exact.reduce((s, m) => s + m[EVENT.durNs], 0),
      events: exact.map((m) => m[EVENT.event]),
    };
  }

  // FLOPs and bytes accessed of a node's occurrences `events` in the trace (`count`: how many
  // the trace has). Each occurrence's record is read as the details pane reads it (a plain file
  // by its span, a compressed one in one pass per file for all of them), decoded by the engine
  // and summed in wasm (core/graph/op_costs.h). Null when a newer trace replaced this one or a
  // newer node was clicked (`stale()`): a compressed file's pass is not worth finishing for a
  // node left. Answers are kept per trace, so going back to a node costs nothing.
  const COST_EVENTS = 100;
  let costsCache = { generation: -1, byName: new Map() };
  async function costs(name, count, allEvents, stale) {
    const generation = M._engine_generation();
    if (costsCache.generation !== generation) costsCache = { generation, byName: new Map() };
    const key = `${name}\n${count}`;
    if (costsCache.byName.has(key)) return costsCache.byName.get(key);
    const gone = () => M._engine_generation() !== generation || stale();
    const events = allEvents.slice(0, COST_EVENTS);
    withString(M, String(name), (n) => M._graph_costs_begin(n, Number(count) || 0));
    const compressed = new Map(); // file → events
    for (const ev of events) {
      if (gone()) return null;
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
        bytes = await sources.readRange(M._engine_source_offset(), M._engine_source_length(), M._engine_source_file());
      } catch (e) {
        continue;
      } // the source went away: this one is not read
      if (gone()) return null;
      const p = M._graph_buffer(bytes.length) >>> 0; // may grow memory: HEAPU8 after
      M.HEAPU8.set(bytes, p);
      M._graph_costs_add(ev, bytes.length);
    }
    if (compressed.size) {
      withArray(M, new Uint32Array([...compressed.values()].flat()), (p, n) => M._graph_costs_scan_begin(p, n));
      try {
        for (const f of [...compressed.keys()].sort((a, b) => a - b)) {
          M._graph_costs_scan_file(f);
          const fed = await feedChunks(
            M,
            sources.chunksOf(f),
            (n) => M._graph_buffer(n),
            (n) => M._graph_costs_scan_commit(n),
            { piece: FEED, stop: gone },
          );
          if (fed === 'stopped') return null;
        }
      } catch (e) {
        /* the source went away: what was read */
      }
      if (gone()) return null;
      M._graph_costs_scan_end();
    }
    const value = JSON.parse(M.UTF8ToString(M._graph_costs_json()));
    costsCache.byName.set(key, value);
    return value;
  }

  // A clicked node (a graphNode message): its details, its occurrences in the trace and their
  // costs, as one graphNode answer. `stale()`: a newer node was clicked.
  async function node(msg, stale) {
    const json = M.UTF8ToString(M._graph_details(msg.module, msg.instr));
    const answer = { type: MSG.graphNode, module: msg.module, instr: msg.instr, json, trace: null, costs: null };
    let name;
    try {
      name = JSON.parse(json)[NODE.name];
    } catch (e) {
      return answer; // no details
    }
    const seen = occurrences(name);
    if (!seen) return answer;
    answer.trace = { count: seen.count, totalNs: seen.totalNs };
    if (!stale()) answer.costs = await costs(name, seen.count, seen.events, stale);
    return answer;
  }

  // A graphLayout message → its graph message (bytes transferred).
  function layout(msg) {
    const n = withArray(M, new Uint32Array(msg.expanded || []), (p, count) =>
      M._graph_layout(msg.module, msg.computation, p, count, msg.focus ?? -1, msg.hops || 0),
    );
    const a = M._graph_message() >>> 0;
    return { type: MSG.graph, request: msg.request, bytes: M.HEAPU8.slice(a, a + n).buffer };
  }

  const search = (msg) =>
    JSON.parse(
      withString(M, String(msg.text), (t) => M.UTF8ToString(M._graph_search(msg.module, t, msg.limit || 100))),
    );
  function findInstr(msg) {
    const instr = withString(M, String(msg.name), (t) => M._graph_find_instr(msg.module, t));
    const computation = instr >= 0 ? M._graph_instr_computation(msg.module, instr) : -1;
    return pick({ instr, computation }, REPLY_KEYS.graphFind);
  }
  const bench = (msg) =>
    msg.module === undefined
      ? M._graph_bench_generated(msg.nodes)
      : JSON.parse(M.UTF8ToString(M._graph_bench_module(msg.module, msg.expandAll ? 1 : 0)));

  return { importFile, loadTraceModules, node, occurrences, layout, modules, search, findInstr, bench };
}
