// The engine's Web Worker: streams files into the C++ engine (strata_engine.wasm) in chunks
// and answers the UI's queries. Every message is StrataProtocol's (src/protocol/). Work that
// reads sources or holds engine state across awaits (a load, a log's scan, run statistics, a
// graph node's costs) runs as one job at a time in the one job queue; views, details and
// queries are answered at once, between a load's chunks.
'use strict';
importScripts('../shared/marks.js', '../shared/wasm.js');
// The engine's wasm downloads and compiles while the scripts below load (one at a time).
const engineModule = StrataWasm.compile('strata_engine.wasm');
importScripts(
  '../shared/protocol.js',
  'strata_engine.js',
  'sources.js',
  'trace.js',
  'loss.js',
  'runs.js',
  'graph.js',
  'compare.js',
  'db.js',
  'bundle.js',
  'sliced.js',
  'pod.js',
  'open.js',
);

StrataMarks.mark('w-scripts');
const { MSG, QUERY } = StrataProtocol;
const post = (message, transfer) => postMessage(message, transfer || []);

// The one job queue: each job starts when the one before it has ended (failed or not).
let tail = Promise.resolve();
function job(run) {
  const done = tail.then(run);
  tail = done.catch(() => null);
  return done;
}

let parts = null; // {M, sources, trace, loss, runs, graph, compare, opener, sliced, pod, bundle}
let warmed = false; // the slice workers started (sliced.warm)
let startOpen = false; // an open came before the engine was up (the page's start-up open)
const ready = new Promise((resolve, reject) =>
  createStrataEngine({ instantiateWasm: StrataWasm.instantiateWith(engineModule, reject) }).then(resolve, reject),
).then((M) => {
  StrataMarks.mark('w-engine');
  const sources = createSources();
  const trace = createTrace(M, sources, post);
  const loss = createLoss(M, sources, post);
  const runs = createRuns(M, sources);
  const graph = createGraph(M, sources, trace);
  const bundle = createBundle(M);
  const db = createDb(M, sources, trace, bundle);
  const compare = createCompare(M, sources, db, post);
  const sliced = createSliced(M, sources);
  const pod = createPod(M, sources, db, bundle);
  const opener = createOpener(M, { sources, trace, loss, graph, db, sliced, pod });
  parts = { M, sources, trace, loss, runs, graph, compare, opener, sliced, pod, bundle };
  // The reader worker starts with the engine, not with the first picked file: starting a worker
  // takes tens of ms, which a small file's whole load would otherwise wait for.
  sources.startReadWorker();
  // The slice workers too, for the same reason (sliced.js), but after the start-up open, when
  // there is one: each compiles its own engine, on the cores that open needs (a sliced load
  // starts the ones it lacks itself).
  if (!startOpen) warm();
});
function warm() {
  if (warmed) return;
  warmed = true;
  parts.sliced.warm();
}

let memoryDone = Promise.resolve(); // the memory chart's extra read of the current trace
let nodeClicks = 0; // graphNode messages so far: an older node's costs stop for a newer one

// An opened trace's follow-up reads, in the same job (a later load waits for them): the memory
// instants' args, then the trace's HLO modules.
async function afterTraceLoad() {
  const { trace, graph } = parts;
  memoryDone = trace.memoryScan();
  await memoryDone;
  const listed = (modules) => post({ type: MSG.graphModules, modules, errors: [] });
  const g = await graph.loadTraceModules(listed).catch((e) => ({ modules: graph.modules(), errors: [String(e)] }));
  post({ type: MSG.graphModules, modules: g.modules, errors: g.errors });
}

const reply = (msg, value) => post({ type: MSG.reply, id: msg.id, value });

// Hosts `names` of the pod shown opened as one trace (`whole`: read whole at any size), answered
// to `msg` as a load is, with the pod's table.
async function openPodHosts(msg, names, whole) {
  const { trace, pod } = parts;
  const r = await pod.openHosts(names, whole);
  const summary = trace.summary();
  if (!r.ok) return post({ type: MSG.loadFailed, id: msg.id, error: r.error, summary, pod: r.pod });
  const trackList = trace.trackList();
  post({ type: MSG.loaded, id: msg.id, kind: 'strata-pod', summary, trackList, pod: r.pod }, [trackList]);
}

const handlers = {
  [MSG.open]: (msg) => {
    const done = job(() =>
      parts.opener.open(msg, async (answer) => {
        if (answer.message.type === MSG.loaded) StrataMarks.mark('w-loaded');
        post(answer.message, answer.transfer);
        if (answer.traceLoaded) await afterTraceLoad();
      }),
    );
    done.finally(warm).catch(() => null);
    return done;
  },
  // The lazy bundle shown, read again whole (db.js loadBundle above any lazy threshold), so the
  // analyses and selections work as on a loaded trace; answered as an open is. A lazy pod's
  // hosts are opened again, read whole, answered as podHosts is.
  [MSG.loadWhole]: (msg) =>
    job(() => {
      const from = parts.bundle.whole();
      if (!from) {
        const error = 'no bundle is open lazily: it is loaded whole already';
        return post({ type: MSG.loadFailed, id: msg.id, error, summary: parts.trace.summary() });
      }
      if (from.hosts) return openPodHosts(msg, from.hosts, true);
      const open = { id: msg.id, name: from.name, source: from.source, bundleLazyBytes: Number.MAX_SAFE_INTEGER };
      return parts.opener.open(open, async (answer) => {
        post(answer.message, answer.transfer);
        if (answer.traceLoaded) await afterTraceLoad();
      });
    }),
  [MSG.view]: (msg) => {
    StrataMarks.each('w-view');
    const send = (out) => {
      if (!out.byteLength) return;
      StrataMarks.each('w-view-answered');
      post({ type: MSG.view, bytes: out }, [out]);
    };
    // A lazy bundle answers once the view's tiles are fetched (bundle.js); other messages go on.
    if (parts.bundle.lazy()) return parts.bundle.view(msg.bytes, parts.trace.view, send);
    send(parts.trace.view(msg.bytes));
  },
  [MSG.details]: async (msg) => {
    const lazy = parts.bundle.lazy();
    const json = await (lazy ? parts.bundle.details(msg.event) : parts.trace.details(msg.event));
    if (json) post({ type: MSG.details, event: msg.event, json, hover: !!msg.hover });
  },
  [MSG.find]: async (msg) => {
    const answer = () => parts.trace.find(msg.text, msg.limit);
    if (!parts.bundle.lazy()) return reply(msg, answer());
    const value = await parts.bundle.find({ text: String(msg.text), limit: msg.limit }, answer);
    if (value) reply(msg, value);
  },
  [MSG.locate]: (msg) => reply(msg, parts.trace.locate(msg)),
  [MSG.query]: async (msg) => {
    if (msg.kind.startsWith(QUERY.memory)) await memoryDone;
    let json;
    if (msg.kind === QUERY.find && parts.bundle.lazy()) {
      // A lazy bundle's search fetches the tiles holding the matched names first.
      let args = {};
      try {
        args = JSON.parse(msg.args || '{}');
      } catch (e) {
        /* the engine's answer says the arguments are bad */
      }
      json = await parts.bundle.find(args, () => parts.trace.query(msg.kind, msg.args));
      if (json === null) return;
    } else if ((msg.kind === QUERY.select || msg.kind === QUERY.analysis) && parts.bundle.lazy()) {
      // A region, name or events selection, or an analysis' packed table: the tiles it reads
      // first (bundle.js).
      json = await parts.bundle.query(msg.kind, msg.args, () => parts.trace.query(msg.kind, msg.args));
      if (json === null) return;
    } else {
      json = parts.trace.query(msg.kind, msg.args);
    }
    if (msg.forUi) post({ type: MSG.queryResult, id: msg.id, json });
    else reply(msg, JSON.parse(json));
  },
  [MSG.summary]: (msg) => reply(msg, parts.trace.summary(!!msg.digest)),
  [MSG.lossTags]: (msg) =>
    job(() => parts.loss.setTags(msg.lossId, msg.lossTag, msg.iterationTag))
      .catch(() => null)
      .then((r) => {
        if (!r) return reply(msg, null);
        const m = parts.loss.message(MSG.lossPoints, r, { id: msg.id });
        post(m, [m.points]);
      }),
  [MSG.lossRemove]: (msg) => parts.loss.remove(msg.lossId),
  // After any load in flight: a Kineto profile's trace is the loaded one.
  [MSG.runsStats]: (msg) =>
    job(() => parts.runs.stats(msg)).then(
      (value) => reply(msg, value),
      (err) => reply(msg, { errors: [String((err && err.message) || err)] }),
    ),
  [MSG.graphLayout]: (msg) => {
    const m = parts.graph.layout(msg);
    post(m, [m.bytes]);
  },
  [MSG.graphNode]: (msg) => {
    const click = ++nodeClicks;
    return job(() => parts.graph.node(msg, () => click !== nodeClicks)).then(post);
  },
  [MSG.graphOccurrences]: (msg) => reply(msg, parts.graph.occurrences(msg.name)),
  [MSG.graphModules]: (msg) => reply(msg, parts.graph.modules()),
  [MSG.graphSearch]: (msg) => reply(msg, parts.graph.search(msg)),
  [MSG.graphFind]: (msg) => reply(msg, parts.graph.findInstr(msg)),
  [MSG.graphBench]: (msg) => reply(msg, parts.graph.bench(msg)), // scripts/bench-graph
  // After any load in flight: A is the trace that load leaves.
  [MSG.compareOpen]: (msg) => job(() => parts.compare.open(msg)).then((value) => reply(msg, value)),
  [MSG.compareResult]: (msg) => job(() => parts.compare.result()).then((value) => reply(msg, value)),
  [MSG.compareAlign]: (msg) => job(() => parts.compare.align(msg)).then((value) => reply(msg, value)),
  // B's timeline and its selection: answered at once, as A's views and queries are.
  [MSG.compareView]: (msg) => {
    const out = parts.compare.view(msg.bytes);
    if (out.byteLength) post({ type: MSG.compareView, bytes: out }, [out]);
  },
  // Hosts of the pod shown, as one trace: answered as a load is, with the pod's table.
  [MSG.podHosts]: (msg) => job(() => openPodHosts(msg, Array.isArray(msg.names) ? msg.names : [], false)),
  [MSG.compareQuery]: (msg) =>
    post({ type: MSG.queryResult, id: msg.id, json: parts.compare.query(msg.kind, msg.args) }),
  [MSG.compareMatch]: (msg) =>
    post({ type: MSG.queryResult, id: msg.id, json: parts.compare.match(msg.from, msg.args) }),
  [MSG.compareDetails]: async (msg) =>
    post({ type: MSG.compareDetails, event: msg.event, json: await parts.compare.details(msg.event) }),
};

onmessage = (e) => {
  const msg = e.data;
  if (msg.type === MSG.open) {
    StrataMarks.mark('w-open');
    if (!parts) startOpen = true;
  }
  // A new open stops a sliced load in progress rather than waiting behind it (sliced.js).
  if (msg.type === MSG.open && parts) parts.sliced.stopActive();
  ready
    .then(() => {
      const handle = handlers[msg.type];
      if (handle) return handle(msg);
    })
    .catch((err) => post({ type: MSG.workerError, id: msg.id, error: String((err && err.stack) || err) }));
};
ready.then(
  () => post({ type: MSG.ready }),
  (err) => post({ type: MSG.workerError, error: `the engine failed to start: ${err}` }),
);
