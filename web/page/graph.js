// The Graph tab's page glue (README "Script and embedding API"): moves layout requests and
// answers between the UI (src/ui/graph) and the engine worker (web/worker/graph.js), links the
// timeline and the graph, and adds strata.graph*() to window.strata. strata.js calls
// strataGraphInit with what it shares once window.strata exists.
(function () {
  'use strict';
  const { MSG, REPLY } = StrataProtocol;
  const { graphModule: MODULE, graphLink: LINK, graphFind: FOUND } = REPLY;
  let c = null; // {worker, request, api, ui(), withString, nextFrames}
  let modules = []; // as the worker lists them
  let lastNode = null; // the node clicked last: an older node's answer is not shown

  function ui() {
    return c && c.ui();
  }
  function toUiModules() {
    const u = ui();
    if (u) c.withString(JSON.stringify(modules), (p) => u._ui_graph_modules(p));
  }
  function state() {
    return ui() ? JSON.parse(ui().UTF8ToString(ui()._ui_graph_json())) : null;
  }
  // Resolves once the layout asked for has arrived and been drawn.
  async function settledGraph(timeoutMs) {
    const until = performance.now() + (timeoutMs || 20000);
    await c.nextFrames(2);
    while (performance.now() < until) {
      const s = state();
      if (s && !s.pending) break;
      await c.nextFrames(1);
    }
    await c.nextFrames(2);
  }
  const download = (name, text) =>
    StrataPage.download(name, text, name.endsWith('.svg') ? 'image/svg+xml' : 'text/plain');
  // The trace's occurrences of an op (exact name, of the first 100 found): {count, totalNs, events}.
  const traceStats = (name) => c.request({ type: MSG.graphOccurrences, name: String(name) });
  // Opens module k at instruction f (a graphFind answer; null or instr -1: at its entry).
  function openAt(k, f) {
    const found = f && f[FOUND.instr] >= 0;
    ui()._ui_graph_open(k, found ? f[FOUND.computation] : -1, found ? f[FOUND.instr] : -1);
  }
  // The worker's list as of now: modules streamed from a compressed trace are listed by a
  // request before the list is pushed at the stream's end.
  async function refreshModules() {
    modules = await c.request({ type: MSG.graphModules });
    toUiModules();
  }
  // Opens the module of an XLA op seen in the trace: by program id, else by module name.
  async function openFromTrace(q) {
    await refreshModules();
    // Program ids compare as text: above 2^53 they come as strings, and a Number would round them.
    const program = String(q[LINK.programId]);
    const name = q[LINK.module];
    let k = modules.findIndex((m) => m[MODULE.fromTrace] && String(m[MODULE.programId]) === program);
    if (k < 0 && name) k = modules.findIndex((m) => m[MODULE.name] === name || name.startsWith(m[MODULE.name]));
    if (k < 0) return false;
    const f = await c.request({ type: MSG.graphFind, module: k, name: String(q[LINK.op]) });
    openAt(k, f);
    await settledGraph();
    return !!f && f[FOUND.instr] >= 0;
  }

  const fromUi = {
    layout(a) {
      c.worker.postMessage({
        type: MSG.graphLayout,
        request: a.seq,
        module: a.module,
        computation: a.computation,
        expanded: a.expanded,
        focus: a.focus,
        hops: a.hops,
      });
    },
    // A clicked node: one request; the worker answers once with its details, its occurrences
    // in the trace and their FLOPs and bytes (a graphNode message).
    details(a) {
      lastNode = { module: a.module, instr: a.instr };
      c.worker.postMessage({ type: MSG.graphNode, module: a.module, instr: a.instr });
    },
    async timeline(a) {
      const s = await traceStats(a.name);
      const u = ui();
      StrataWasm.withArray(u, new Uint32Array(s ? s.events : []), (p, n) =>
        c.withString(a.name, (pn) => u._ui_graph_show_events(p, n, pn)),
      );
    },
    openFromTrace(a) {
      openFromTrace(a);
    },
  };

  window.strataGraph = {
    // From the UI (host_graph): kind + JSON; "download" is a JSON line then the text.
    fromUi(kind, args) {
      if (kind === 'download') {
        const nl = args.indexOf('\n');
        download(JSON.parse(args.slice(0, nl))[REPLY.graphDownload.name], args.slice(nl + 1));
        return;
      }
      if (fromUi[kind]) fromUi[kind](JSON.parse(args));
    },
    // Worker messages of the graph viewer; true when handled.
    deliver(m) {
      const u = ui();
      switch (m.type) {
        case MSG.graph: {
          StrataWasm.withBytes(u, new Uint8Array(m.bytes), (p, n) => u._ui_graph_receive(p, n, m.request));
          return true;
        }
        case MSG.graphNode:
          if (!lastNode || lastNode.module !== m.module || lastNode.instr !== m.instr) return true;
          c.withString(m.json, (p) => u._ui_graph_details(m.module, m.instr, p));
          if (m.trace) u._ui_graph_timeline_stats(m.trace.count, m.trace.totalNs);
          if (m.costs) c.withString(JSON.stringify(m.costs), (p) => u._ui_graph_trace_costs(p));
          return true;
        case MSG.graphModules:
          modules = m.modules;
          toUiModules();
          return true;
        case MSG.graphLoaded:
          modules = m.graph.modules;
          toUiModules();
          u._ui_graph_open(m.graph.first, -1, -1);
          return true;
      }
      return false;
    },
  };

  window.strataGraphInit = (shared) => {
    c = shared;
    const api = c.api;
    // {modules:[{name, source, programId, computations, instructions}], module, computation,
    //  nodeCount, nodes:[{name, opcode, shape, x, y, w, h, group}] (first 5000), edges, groups,
    //  layoutMs, crossings, width, height, selected, centre:{x, y}, zoom, canvas:[x, y, w, h]
    //  (CSS px; world (x, y) is at the canvas centre + (x - centre.x, y - centre.y) * zoom), hops, details,
    //  trace: the selected node in the trace, null until known: {name, occurrences, read,
    //  timeNs, flops, modelFlops, bytesAccessed, rawBytesAccessed: {count, total,
    //  perOccurrence, min, max, timeNs, perSecond} or null when not in the trace}}
    api.graph = () => state();
    api.graphSelect = async (name) => {
      const ok = c.withString(String(name), (p) => ui()._ui_graph_select(p)) === 1;
      await c.nextFrames(2);
      return ok;
    };
    api.graphExpand = async (name, expand) => {
      const ok = c.withString(String(name), (p) => ui()._ui_graph_expand(p, expand === false ? 0 : 1)) === 1;
      if (ok) await settledGraph();
      return ok;
    };
    api.graphHops = async (n) => {
      ui()._ui_graph_hops(Math.max(0, n | 0));
      await settledGraph();
      return state();
    };
    api.graphExport = (kind) => ui().UTF8ToString(ui()._ui_graph_export(kind === 'svg' ? 1 : 0));
    // Opens a module by index or name (and optionally an op in it), like picking it in the tab.
    api.graphOpen = async (module, op) => {
      await refreshModules();
      const k = typeof module === 'number' ? module : modules.findIndex((m) => m[MODULE.name] === module);
      if (k < 0 || k >= modules.length) return false;
      const f = op ? await c.request({ type: MSG.graphFind, module: k, name: String(op) }) : null;
      openAt(k, f);
      await settledGraph();
      return true;
    };
    // The timeline's "Open in graph viewer" for an XLA op: {programId, op, module}.
    api.graphOpenFromTrace = openFromTrace;
    api.graphModules = () => c.request({ type: MSG.graphModules });
    api.graphSettled = settledGraph;
    // scripts/bench-graph: layout time in the worker of a generated graph ({nodes}) or of a
    // loaded module's entry ({module, expandAll}).
    api.graphBench = (q) => c.request(Object.assign({ type: MSG.graphBench }, q));
  };
})();
