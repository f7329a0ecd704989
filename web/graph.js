// The Graph tab's page glue (README "Script and embedding API"): moves layout requests and
// answers between the UI (src/ui/graph) and the engine worker (web/graph-worker.js), links the
// timeline and the graph, and adds strata.graph*() to window.strata. strata.js calls
// strataGraphInit with what it shares once window.strata exists.
(function () {
  'use strict';
  let c = null; // {worker, request, api, ui(), withString, nextFrames}
  let modules = []; // as the worker lists them

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
  function download(name, text) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: name.endsWith('.svg') ? 'image/svg+xml' : 'text/plain' }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }
  // The trace's occurrences of an op: count and total time (of the first 100 found).
  async function traceStats(name) {
    if (!c.api.summary().events) return null;
    const r = await c.api.find(name);
    if (!r) return null;
    const exact = r.matches.filter((m) => m.name === name);
    return {
      count: exact.length < r.matches.length ? exact.length : r.count,
      totalNs: exact.reduce((s, m) => s + m.durNs, 0),
      events: exact.map((m) => m.event),
    };
  }
  // Opens the module of an XLA op seen in the trace: by program id, else by module name.
  async function openFromTrace(q) {
    let k = modules.findIndex((m) => m.fromTrace && Number(m.programId) === Number(q.programId));
    if (k < 0 && q.module) k = modules.findIndex((m) => m.name === q.module || q.module.startsWith(m.name));
    if (k < 0) return false;
    const f = await c.request({ type: 'graphFind', module: k, name: String(q.op) });
    ui()._ui_graph_open(k, f && f.instr >= 0 ? f.computation : -1, f ? f.instr : -1);
    await settledGraph();
    return !!f && f.instr >= 0;
  }

  const fromUi = {
    layout(a) {
      c.worker.postMessage({
        type: 'graphLayout',
        request: a.seq,
        module: a.module,
        computation: a.computation,
        expanded: a.expanded,
        focus: a.focus,
        hops: a.hops,
      });
    },
    details(a) {
      c.worker.postMessage({ type: 'graphDetails', module: a.module, instr: a.instr });
    },
    async timeline(a) {
      const s = await traceStats(a.name);
      const ev = new Uint32Array(s ? s.events : []);
      const u = ui();
      const p = u._malloc(Math.max(ev.byteLength, 4));
      u.HEAPU32.set(ev, (p >>> 0) / 4);
      c.withString(a.name, (n) => u._ui_graph_show_events(p, ev.length, n));
      u._free(p);
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
        download(JSON.parse(args.slice(0, nl)).name, args.slice(nl + 1));
        return;
      }
      if (fromUi[kind]) fromUi[kind](JSON.parse(args));
    },
    // Worker messages of the graph viewer; true when handled.
    deliver(m) {
      const u = ui();
      switch (m.type) {
        case 'graph': {
          const bytes = new Uint8Array(m.bytes);
          const p = u._malloc(Math.max(bytes.length, 1));
          u.HEAPU8.set(bytes, p >>> 0);
          u._ui_graph_receive(p, bytes.length, m.request);
          u._free(p);
          return true;
        }
        case 'graphDetails':
          c.withString(m.json, (p) => u._ui_graph_details(m.module, m.instr, p));
          try {
            const name = JSON.parse(m.json).name;
            traceStats(name).then(async (s) => {
              if (!s) return;
              u._ui_graph_timeline_stats(s.count, s.totalNs);
              // FLOPs and bytes from the occurrences' records (the worker reads and sums them).
              const costs = await c.request({ type: 'graphCosts', name, occurrences: s.count, events: s.events });
              if (costs) c.withString(JSON.stringify(costs), (p) => u._ui_graph_trace_costs(p));
            });
          } catch (e) {
            /* no details */
          }
          return true;
        case 'graphModules':
          modules = m.modules;
          toUiModules();
          return true;
        case 'graphLoaded':
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
      const k = typeof module === 'number' ? module : modules.findIndex((m) => m.name === module);
      if (k < 0 || k >= modules.length) return false;
      const f = op ? await c.request({ type: 'graphFind', module: k, name: String(op) }) : null;
      ui()._ui_graph_open(k, f && f.instr >= 0 ? f.computation : -1, f ? f.instr : -1);
      await settledGraph();
      return true;
    };
    // The timeline's "Open in graph viewer" for an XLA op: {programId, op, module}.
    api.graphOpenFromTrace = openFromTrace;
    api.graphModules = () => c.request({ type: 'graphModules' });
    api.graphSettled = settledGraph;
    // scripts/bench-graph: layout time in the worker of a generated graph ({nodes}) or of a
    // loaded module's entry ({module, expandAll}).
    api.graphBench = (q) => c.request(Object.assign({ type: 'graphBench' }, q));
  };
})();
