// Strata's page glue: takes over the engine worker boot.js started, starts the UI module, moves
// protocol messages between them, opens files (picker, drop, script API; the start-up source is
// boot.js's) and exposes window.strata.
// The API is documented in README.md; later versions extend it, never break it.
(function () {
  'use strict';
  StrataMarks.mark('page-script');
  const { MSG, QUERY, REPLY_KEYS, REPLY, pick } = StrataProtocol;
  const { summary: SUMMARY, summaryFile: FILE, event: EVENT, lossInfo: LOSS } = REPLY;
  const canvas = document.getElementById('canvas');
  const fileInput = document.getElementById('file-input');
  // The Compare tab's picker: made here, as the page has one input per purpose.
  const compareInput = Object.assign(document.createElement('input'), {
    type: 'file',
    hidden: true,
    id: 'compare-input',
  });
  document.body.appendChild(compareInput);
  const folderInput = document.getElementById('folder-input');
  const worker = StrataBoot.worker;
  // embed=1 (README "Embedding and hosting"): the host page opens files; no picker, no drop.
  const embedded = StrataBoot.embedded;

  let ui = null; // the UI wasm module
  let lastSummary = StrataProtocol.emptySummary();
  let lastDetails = null;
  let selected = -1;
  // The load in progress, for strata.progress(): bytes so far, and whether the view already
  // shows the file's first part (a big file is indexed in two steps).
  let progress = { active: false, name: '', loaded: 0, total: 0, mbps: 0, showingFirstPart: false };
  let nextId = (StrataBoot.startOpenId || 0) + 1; // boot.js's start-up open took the first
  const pending = new Map(); // id -> {resolve}
  const uiQueue = []; // engine messages that arrived before the UI was up
  let uiUp = false; // the UI is up and uiQueue delivered: messages go straight to it
  let tracksShown = false; // a trace's track list reached the UI (for the start-up marks)
  // An engine message for the UI, in the order it came: queued until the UI is up.
  const forUi = (m) => (uiUp ? deliver(m) : uiQueue.push(m));

  function fatal(message) {
    const el = document.getElementById('fatal');
    el.textContent = message;
    el.style.display = 'flex';
  }

  // ---- UI module ------------------------------------------------------------------------------
  let resolveUi;
  const uiReady = new Promise((r) => {
    resolveUi = r;
  });
  const host = {
    postToEngine(buffer) {
      if (tracksShown) StrataMarks.each('view-requested');
      worker.postMessage({ type: MSG.view, bytes: buffer }, [buffer]);
    },
    requestDetails(event) {
      worker.postMessage({ type: MSG.details, event });
    },
    // A hover tooltip's details: answered like details, with hover set, to the tooltip alone.
    requestHoverDetails(event) {
      worker.postMessage({ type: MSG.details, event, hover: true });
    },
    openFilePicker() {
      if (!embedded) fileInput.click();
    },
    // The Compare tab's "Compare with...": the picked file loads as B.
    compareFilePicker() {
      if (!embedded) compareInput.click();
    },
    // Runs tab (web/runs.js): the folder picker, a selector, the operator grouping, a diff pair.
    openFolderPicker() {
      if (!embedded && folderInput) folderInput.click();
    },
    runsSelect(run, profile, view) {
      runs.fromUi(run, profile, view);
    },
    runsGroupByShape(on) {
      runs.setGroupByShape(on);
    },
    runsDiff(aRun, aProfile, bRun, bProfile, step) {
      runs.diffFromUi(aRun, aProfile, bRun, bProfile, step);
    },
    query(id, kind, args) {
      worker.postMessage({ type: MSG.query, forUi: true, id, kind, args });
    },
    // The Compare tab's B timeline: its view requests, its selection's query, the alignment.
    compareView(buffer) {
      worker.postMessage({ type: MSG.compareView, bytes: buffer }, [buffer]);
    },
    compareQuery(id, kind, args) {
      worker.postMessage({ type: MSG.compareQuery, id, kind, args });
    },
    compareAlign(mode, step, event) {
      comparePart.align(mode, step, event);
    },
    // The linked selection: the counterparts of one side's events (answered as a query result),
    // and B's selected event's details.
    compareMatch(id, from, args) {
      worker.postMessage({ type: MSG.compareMatch, id, from, args });
    },
    compareDetails(event) {
      worker.postMessage({ type: MSG.compareDetails, event });
    },
    selectionChanged(event) {
      selected = event;
      lastDetails = null;
      window.dispatchEvent(new CustomEvent('strata:selection', { detail: { event } }));
    },
    uiReady() {
      StrataMarks.mark('ui-ready');
      requestAnimationFrame(() => requestAnimationFrame(() => StrataMarks.mark('ui-first-frame')));
      resolveUi();
    },
    fatal,
    // Loss view (src/ui/loss): new tags for a log, a removed log, a CSV download.
    lossSetTags(lossId, lossTag, iterationTag) {
      worker.postMessage({ type: MSG.lossTags, lossId, lossTag, iterationTag });
    },
    lossRemove(lossId) {
      worker.postMessage({ type: MSG.lossRemove, lossId });
    },
    graph(kind, args) {
      if (window.strataGraph) window.strataGraph.fromUi(kind, args);
    }, // web/graph.js
    podOpen: (names) => pods.openHosts(names), // the Pod tab's "Open" (web/page/pod.js)
    loadWhole: () => api.loadWhole(), // the Analysis tab's "Load whole" (a lazy bundle)
    download(fileName, text) {
      StrataPage.download(fileName, text, fileName.endsWith('.html') ? 'text/html' : 'text/csv');
    },
  };
  // The UI starts once every page script has run (see boot.js), from the module boot.js compiled.
  const couldNotStart = (e) => fatal(`Strata could not start: ${(e && e.message) || e}`);
  // Every page script has run (the start-up source's messages wait for it: see emit()).
  const scriptsRun = new Promise((r) =>
    document.readyState === 'loading' ? document.addEventListener('DOMContentLoaded', r, { once: true }) : r(),
  );
  let scriptsDone = false;
  scriptsRun.then(() => {
    scriptsDone = true;
  });
  // Resolves once `ui` is set and its main() has run (WebGL context, shaders).
  const uiStarted = scriptsRun
    .then(() =>
      createStrataUI({
        strataHost: host,
        onAbort: (what) => fatal(`Strata's UI stopped: ${what}`),
        instantiateWasm: StrataWasm.instantiateWith(StrataBoot.uiModule, couldNotStart),
      }),
    )
    .then((m) => {
      StrataMarks.mark('ui-module');
      ui = m;
      return uiReady;
    });
  uiStarted
    .then(() => {
      if (embedded) ui._ui_set_embedded(1);
      else if (firstVisit()) ui._ui_set_welcome(1);
      watchTopBarButtons();
      for (const m of uiQueue.splice(0)) deliver(m);
      uiUp = true;
      StrataMarks.mark('ui-up');
    })
    .catch(couldNotStart);

  // True once per browser (remembered in localStorage; never when storage is denied, so a
  // sandboxed frame is not greeted on every load). The UI shows its note on dropping files.
  function firstVisit() {
    try {
      if (localStorage.getItem('strata.visited')) return false;
      localStorage.setItem('strata.visited', '1');
      return true;
    } catch (e) {
      return false;
    }
  }
  // The page's own buttons (web/page/embed.js: theme, Recent, Copy link) sit over the top bar's
  // right end: the UI is told how much they cover so that its title and errors stop before them.
  function watchTopBarButtons() {
    const report = () => {
      const bar = document.getElementById('copy-link');
      const r = bar && bar.getBoundingClientRect();
      ui._ui_set_top_bar_reserved(r && r.width > 0 ? Math.max(0, canvas.clientWidth - r.left) : 0);
    };
    // embed.js may add the buttons after the UI is ready: watch for them until they are there.
    const attach = () => {
      const bar = document.getElementById('copy-link');
      if (!bar) return false;
      if (window.ResizeObserver) new ResizeObserver(report).observe(bar);
      report();
      return true;
    };
    window.addEventListener('resize', report);
    report();
    if (!attach()) {
      const watch = new MutationObserver(() => attach() && watch.disconnect());
      watch.observe(document.body, { childList: true, subtree: true });
    }
  }
  const withString = (s, fn) => StrataWasm.withString(ui, s, fn);
  const toUi = (buffer) => StrataWasm.withBytes(ui, new Uint8Array(buffer), (p, n) => ui._ui_receive(p, n));
  function fileLabel(s) {
    if (!s[SUMMARY.files].length) return '';
    const f = s[SUMMARY.files][0];
    const size = StrataPage.sizeLabel(f[FILE.bytes]);
    const events = s[SUMMARY.events].toLocaleString('en-US');
    const notes = (s[SUMMARY.notes] || []).map((n) => `  |  ${n}`).join('');
    return `${f[FILE.name]}  |  ${size}  |  ${events} events  |  ${s[SUMMARY.tracks]} tracks${notes}`;
  }
  const GRAPH_MESSAGES = new Set([MSG.graph, MSG.graphNode, MSG.graphModules, MSG.graphLoaded]);
  const LOSS_MESSAGES = new Set([MSG.lossLoaded, MSG.lossPoints]);
  const LOAD_ENDS = new Set([MSG.loaded, MSG.loadFailed, MSG.graphLoaded, MSG.podLoaded]);

  // ---- worker messages ------------------------------------------------------------------------
  function deliver(m) {
    if (GRAPH_MESSAGES.has(m.type) && window.strataGraph && window.strataGraph.deliver(m)) return;
    switch (m.type) {
      case MSG.progress:
        progress = Object.assign({}, progress, {
          active: true,
          name: m.name,
          loaded: m.loaded,
          total: m.total,
          mbps: m.mbps,
        });
        withString(m.name, (p) => ui._ui_set_progress(p, m.loaded, m.total, m.mbps, m.records, 1));
        break;
      case MSG.loaded:
        progress = { active: false, name: '', loaded: 0, total: 0, mbps: 0, showingFirstPart: false };
        ui._ui_set_progress(0, 0, 0, 0, 0, 0);
        // The UI decides which tab shows what was opened (an Ascend memory CSV added to the
        // trace shown leaves the timeline as it is).
        if (m.memoryAdded) {
          withString(m.kind || '', (p) => ui._ui_file_opened(p, 1));
          break;
        }
        toUi(m.trackList);
        tracksShown = true;
        StrataMarks.mark('tracks-to-ui');
        withString(fileLabel(m.summary), (p) => ui._ui_set_file_label(p));
        withString(m.kind || '', (p) => ui._ui_file_opened(p, 0));
        // Every error of the load, one a line (the UI wraps and scrolls them).
        withString(m.summary[SUMMARY.errors].join('\n'), (p) => ui._ui_show_error(p));
        break;
      case MSG.preview:
        // A big file's first part, indexed early (or, name null, the previous trace back).
        progress = Object.assign({}, progress, { showingFirstPart: !!m.name });
        toUi(m.trackList);
        if (m.name) withString(`${m.name}  |  loading: showing its first part`, (p) => ui._ui_set_file_label(p));
        else withString(fileLabel(lastSummary), (p) => ui._ui_set_file_label(p));
        break;
      case MSG.loadFailed:
        progress = { active: false, name: '', loaded: 0, total: 0, mbps: 0, showingFirstPart: false };
        ui._ui_set_progress(0, 0, 0, 0, 0, 0);
        withString(m.error, (p) => ui._ui_show_error(p));
        break;
      case MSG.view:
        if (tracksShown) StrataMarks.each('view-to-ui');
        toUi(m.bytes);
        break;
      case MSG.compareView: // B's track list or a view reply, for the Compare tab's B timeline
        StrataWasm.withBytes(ui, new Uint8Array(m.bytes), (p, n) => ui._ui_compare_receive(p, n));
        break;
      case MSG.compareDetails: // B's selected event, for the Compare tab's B details
        withString(m.json, (p) => ui._ui_compare_details(m.event, p));
        break;
      case MSG.lossLoaded:
      case MSG.lossPoints: {
        const added = m.type === MSG.lossLoaded;
        if (added) ui._ui_set_progress(0, 0, 0, 0, 0, 0);
        StrataWasm.withArray(ui, new Float64Array(m.points), (p, n) =>
          StrataWasm.withStrings(ui, [m[LOSS.name], m[LOSS.lossTag], m[LOSS.iterationTag]], (pn, pl, pi) =>
            ui._ui_loss_points(m.lossId, pn, pl, pi, m[LOSS.bytes], m[LOSS.mbps], p, n / 2, added ? 1 : 0),
          ),
        );
        withString(m.lossDetail || '', (p) => ui._ui_loss_detail(m.lossId, p));
        break;
      }
      case MSG.queryResult:
        withString(m.json, (p) => ui._ui_query_result(m.id, p));
        break;
      case MSG.details:
        if (m.hover) withString(m.json, (p) => ui._ui_set_hover_details(m.event, p));
        else if (m.event === selected) {
          try {
            const d = JSON.parse(m.json);
            // The details pane's fields, the record's args, an XLA op's graph link (xla) and
            // what it launched elsewhere (Kineto: kernels), when there are any.
            lastDetails =
              d &&
              Object.assign(
                pick(d, REPLY_KEYS.details),
                { args: {} },
                pick(d[REPLY.detailsObject.record], REPLY_KEYS.detailsRecord),
              );
            if (d) Object.assign(lastDetails, pick(d, REPLY_KEYS.detailsFlow), pick(d, REPLY_KEYS.detailsStack));
            // A lazy bundle's event without its record: why (its source is not served beside it).
            if (d && d[REPLY.detailsNote.recordNote] !== undefined)
              Object.assign(lastDetails, pick(d, REPLY_KEYS.detailsNote));
            if (d && d[REPLY.detailsLaunched.launchedCount] !== undefined)
              Object.assign(lastDetails, pick(d, REPLY_KEYS.detailsLaunched));
          } catch (e) {
            lastDetails = null;
          }
          withString(m.json, (p) => ui._ui_set_details(m.event, p));
        }
        break;
    }
  }
  // A window event; before every page script has run (the start-up open can end that early), it
  // waits for them, so that embed.js and the others hear it.
  function emit(name, detail) {
    const fire = () => window.dispatchEvent(new CustomEvent(name, { detail }));
    if (scriptsDone) fire();
    else scriptsRun.then(fire);
  }
  function onWorkerMessage(e) {
    const m = e.data;
    if (m.summary) lastSummary = m.summary;
    pods.deliver(m);
    // Every load ends in one 'strata:loaded' event on window, whoever started it (picker, drop,
    // ?url=, the API): detail is the summary (errors included when it failed; `loss` for a log).
    if (m.type === MSG.loadFailed) emit('strata:loadfailed', { error: m.error, summary: m.summary });
    if (LOAD_ENDS.has(m.type)) emit('strata:loaded', m.summary);
    if (LOSS_MESSAGES.has(m.type)) {
      // Before resolving: the UI has the points when the caller's await resumes.
      forUi(m);
      const info = pick(Object.assign({}, m, { points: m.points.byteLength / 16 }), REPLY_KEYS.lossInfo);
      if (!m.more && pending.has(m.id)) {
        const { resolve } = pending.get(m.id);
        pending.delete(m.id);
        resolve(m.type === MSG.lossLoaded ? Object.assign({}, lastSummary, { loss: info }) : info);
      }
      if (m.type === MSG.lossLoaded) emit('strata:loaded', Object.assign({}, lastSummary, { loss: info }));
      return;
    }
    if (m.type === MSG.graphLoaded) {
      // an HLO file: the Graph tab's (web/graph.js); the trace stays
      forUi(m);
      if (!m.more && pending.has(m.id)) {
        const { resolve } = pending.get(m.id);
        pending.delete(m.id);
        resolve(Object.assign({}, m.summary, { graph: { name: m.graph.name, modules: m.graph.added } }));
      }
      return;
    }
    // A list opened file by file answers once per file: the last one (not `more`) resolves.
    const answers =
      m.type === MSG.loaded || m.type === MSG.loadFailed || m.type === MSG.reply || m.type === MSG.podLoaded;
    if (answers && !m.more && pending.has(m.id)) {
      const { resolve } = pending.get(m.id);
      pending.delete(m.id);
      resolve(m.type === MSG.reply ? m.value : m.summary);
    }
    if (m.type === MSG.workerError) {
      console.error('strata engine:', m.error);
      if (pending.has(m.id)) {
        pending.get(m.id).resolve(null);
        pending.delete(m.id);
      }
      return;
    }
    if (m.type === MSG.reply || m.type === MSG.ready || m.type === MSG.podLoaded) return;
    forUi(m);
  }

  function request(msg, transfer) {
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, { resolve });
      worker.postMessage(Object.assign({ id }, msg), transfer || []);
    });
  }

  // ---- opening files --------------------------------------------------------------------------
  // How many workers parse a big plain Chrome JSON (web/worker/sliced.js): ?workers=N, the
  // top bar's setting (web/page/workers.js) or strata.setWorkers(n); 1 is the engine worker
  // alone; 0 lets the worker use the cores. ?bundleLazyMb=N: see boot.js.
  let { workers, sliceMinBytes } = StrataBoot.settings;
  const { bundleLazyBytes } = StrataBoot.settings;

  // Picked or dropped files go to the worker as one list: it decides what each is (several
  // xplanes open as one trace, one per host; anything else file by file).
  function openFiles(files) {
    if (files.length) open(Array.from(files));
  }

  // Several sources as one open: the worker sorts them out (one trace, file by file, or one
  // message when none is a file Strata reads).
  function openList(list) {
    const urls = list.map((s) => (typeof s === 'string' ? new URL(s, document.baseURI).href : s));
    const first = list[0];
    const name = typeof first === 'string' ? StrataBoot.urlName(first) : first.name || 'trace';
    return request({ type: MSG.open, name, source: urls, workers, sliceMinBytes, bundleLazyBytes });
  }

  // opts.name names a single buffer/blob source (the embedding protocol passes the host's name).
  function open(source, opts) {
    // Several files (an array, a FileList, a multi-file drop or pick): the worker's to sort out;
    // the promise is the summary after the last of them.
    if (source && typeof source !== 'string' && typeof source.length === 'number' && !ArrayBuffer.isView(source)) {
      const list = Array.from(source);
      // A profiler folder ([{path, url|file}], or a picked directory's files): the Runs tab,
      // which opens the profile's files through open() one at a time. A folder with no runs
      // opens as its files (the worker says so when none is a file Strata reads).
      if (runs.isFolderList(list))
        return runs
          .openFolder(list)
          .then((r) => (Array.isArray(r.runs) && r.runs.length === 0 ? openList(runs.folderSources(list)) : r));
      if (list.length > 1) return openList(list);
      source = list[0];
    }
    const picked = sourceToSend(source);
    if (!picked) {
      lastSummary = Object.assign({}, lastSummary, {
        [SUMMARY.errors]: lastSummary[SUMMARY.errors].concat([
          `open(): unsupported source ${Object.prototype.toString.call(source)}`,
        ]),
      });
      return Promise.resolve(lastSummary);
    }
    let { name } = picked;
    if (opts && typeof opts.name === 'string' && opts.name) name = opts.name.slice(0, 256);
    // opts.notes: what the trace's summary().notes should say (a folder's choice of files).
    const notes = opts && Array.isArray(opts.notes) ? opts.notes.map(String) : [];
    return request(
      { type: MSG.open, name, source: picked.source, notes, workers, sliceMinBytes, bundleLazyBytes },
      picked.transfer,
    );
  }

  // What open() and compareWith() send the worker for a source: a URL (named by its last path
  // part), a File or Blob, or bytes (copied out of a view, transferred); null for anything else.
  function sourceToSend(source) {
    if (typeof source === 'string')
      return { name: StrataBoot.urlName(source), source: new URL(source, document.baseURI).href, transfer: [] };
    if (source instanceof Blob) return { name: source.name || 'blob', source, transfer: [] };
    if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
      const bytes = ArrayBuffer.isView(source)
        ? source.buffer.slice(source.byteOffset, source.byteOffset + source.byteLength)
        : source;
      return { name: 'buffer', source: bytes, transfer: [bytes] };
    }
    return null;
  }

  // Several files at once: see openFiles().
  fileInput.addEventListener('change', () => {
    openFiles(fileInput.files);
    fileInput.value = '';
  });
  // Files and folders drop anywhere on the page (the canvas, the buttons over it).
  document.addEventListener('dragover', (e) => {
    e.preventDefault();
    e.dataTransfer.dropEffect = embedded ? 'none' : 'copy';
  });
  folderInput &&
    folderInput.addEventListener('change', () => {
      if (folderInput.files.length) open(Array.from(folderInput.files));
      folderInput.value = '';
    });
  compareInput.addEventListener('change', () => {
    if (compareInput.files.length) comparePart.compareWith(compareInput.files[0]);
    compareInput.value = '';
  });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    if (embedded) return;
    // On the Compare tab, a dropped file is the B to compare with.
    if (ui && ui.UTF8ToString(ui._ui_tab()) === 'compare' && e.dataTransfer.files.length) {
      comparePart.compareWith(e.dataTransfer.files[0]);
      return;
    }
    // A dropped directory opens as a profiler folder; its entries must be taken during the event.
    const files = Array.from(e.dataTransfer.files);
    strataDroppedFolder(e.dataTransfer.items).then((entries) => (entries ? open(entries) : openFiles(files)));
  });
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener('mousedown', () => canvas.focus());

  function nextFrames(n) {
    return new Promise((resolve) => {
      const step = () => (n-- <= 0 ? resolve() : requestAnimationFrame(step));
      requestAnimationFrame(step);
    });
  }
  async function settled(timeoutMs) {
    const until = performance.now() + timeoutMs;
    await nextFrames(1);
    while (!ui._ui_settled() && performance.now() < until) await nextFrames(1);
    await nextFrames(1);
  }

  // ---- window.strata ---------------------------------------------------------------------------
  const comparePart = strataCompareInit({ ui: () => ui, request, withString, sourceToSend, open });
  const api = {
    version: 1,
    open,
    summary: () => lastSummary,
    // The worker's summary now: as summary(), with heapBytes read at this moment (the engine's
    // wasm memory holds every store: a compared B's too).
    workerSummary: () => request({ type: MSG.summary }),
    // The current store's digest (decimal text): equal digests are equal stores, so a load with
    // N workers can be checked against one with 1. A pass over the whole store.
    storeDigest: () => request({ type: MSG.summary, digest: true }).then((s) => s[REPLY.summary.digest]),
    // Workers for the next big plain Chrome JSON loads (1: one; 0: as many as the cores, at most
    // 8); minBytes: the smallest file sliced (0: 64 MB; tests slice small files; absent: kept).
    // Not remembered (the top bar's setting is: web/page/workers.js); 'strata:workers' tells it.
    setWorkers(n, minBytes) {
      workers = Math.max(0, Math.floor(Number(n)) || 0);
      if (minBytes !== undefined) sliceMinBytes = Math.max(0, Math.floor(Number(minBytes)) || 0);
      window.dispatchEvent(new CustomEvent('strata:workers', { detail: { workers } }));
      return workers;
    },
    // The worker count the next loads ask for (0: the cores).
    workers: () => workers,
    // startNs / endNs: absolute ns as Numbers (good to 256 ns at epoch scale); startRelNs /
    // endRelNs: ns since the trace start, exact at any zoom; originNs: the trace start, exact,
    // as decimal text (BigInt(originNs) + ... for exact absolute times); startText / endText:
    // the absolute ns as exact decimal text, which setView takes back to this very view.
    view: () =>
      ui
        ? {
            startNs: ui._ui_view_start_ns(),
            endNs: ui._ui_view_end_ns(),
            startRelNs: ui._ui_view_start_rel(),
            endRelNs: ui._ui_view_end_rel(),
            originNs: ui.UTF8ToString(ui._ui_origin_ns_text()),
            startText: ui.UTF8ToString(ui._ui_view_start_text()),
            endText: ui.UTF8ToString(ui._ui_view_end_text()),
          }
        : { startNs: 0, endNs: 0, startRelNs: 0, endRelNs: 0, originNs: '0', startText: '0', endText: '0' },
    // Absolute ns as Numbers, or exactly as BigInts or decimal strings ('1695835542513910123').
    setView(startNs, endNs) {
      if (!ui) return api.view();
      if (
        typeof startNs === 'bigint' ||
        typeof startNs === 'string' ||
        typeof endNs === 'bigint' ||
        typeof endNs === 'string'
      )
        StrataWasm.withStrings(ui, [String(startNs), String(endNs)], (a, b) => ui._ui_set_view_text(a, b));
      else if (Number.isFinite(startNs) && Number.isFinite(endNs) && endNs > startNs)
        ui._ui_set_view_ns(startNs, endNs);
      return api.view();
    },
    // The same in ns since the trace start (view().startRelNs), exact at any zoom.
    setViewRel(startRelNs, endRelNs) {
      if (ui && Number.isFinite(startRelNs) && Number.isFinite(endRelNs) && endRelNs > startRelNs)
        ui._ui_set_view_rel(startRelNs, endRelNs);
      return api.view();
    },
    // The timeline as drawn last frame: the name column ({labelWidth, columnX, headers,
    // processes}), the tooltip ({kind, lines} or null), the ruler ({base, labels, ...}) and the
    // folded runs on screen ([{x0, x1, y, startRelNs, endRelNs, count, label}]).
    trackHeaders: () => (ui ? JSON.parse(ui.UTF8ToString(ui._ui_timeline_headers_json())) : null),
    tooltip: () => (ui ? JSON.parse(ui.UTF8ToString(ui._ui_tooltip_json())) : null),
    ruler: () => (ui ? JSON.parse(ui.UTF8ToString(ui._ui_ruler_json())) : null),
    foldedRuns: () => (ui ? JSON.parse(ui.UTF8ToString(ui._ui_folded_runs_json())) : []),
    setLabelWidth(px) {
      if (ui && Number.isFinite(px)) ui._ui_set_label_width(px);
    },
    find: (text) => request({ type: MSG.find, text: String(text), limit: 100 }),
    async locate(q) {
      const ev = await request({
        type: MSG.locate,
        name: String(q.name),
        tsNs: Number(q.tsNs),
        pid: q.pid,
        tid: q.tid,
      });
      if (ev == null || ev < 0) return null;
      await settled(5000);
      if (ui._ui_reveal(ev)) await nextFrames(2); // scroll its track into view if needed
      if (!ui._ui_locate(ev)) return null;
      const r = canvas.getBoundingClientRect();
      return { x: r.left + ui._ui_locate_x(), y: r.top + ui._ui_locate_y() };
    },
    details: () => lastDetails,
    // The load in progress: {active, name, loaded, total, mbps, showingFirstPart}.
    progress: () => Object.assign({}, progress),
    frame: () => nextFrames(2),
    // Selects one event: {event} (an index from find/selection) or {name, tsNs, pid, tid}.
    // Resolves to the selection, or null when no such event exists.
    async select(q) {
      let ev = q && Number.isInteger(q.event) ? q.event : null;
      if (ev === null && q)
        ev = await request({ type: MSG.locate, name: String(q.name), tsNs: Number(q.tsNs), pid: q.pid, tid: q.tid });
      if (ev === null || ev < 0) {
        ui._ui_clear_selection();
        return null;
      }
      const r = await request({ type: MSG.query, kind: QUERY.select, args: JSON.stringify({ events: [ev] }) });
      const found = r && r[REPLY.select.events];
      if (!found || !found.length) return null;
      ui._ui_select_event(ev, found[0][EVENT.start], found[0][EVENT.end], 1);
      await settled(5000);
      if (ui._ui_reveal(ev)) await nextFrames(2); // scroll its track into view
      return api.selection();
    },
    // The current selection: {count, events:[{event, name, tsNs, durNs, pid, tid}]} (first 1000).
    async selection() {
      const n = ui._ui_selection_count();
      const events = [];
      for (let i = 0; i < Math.min(n, 1000); ++i) events.push(ui._ui_selection_event(i));
      if (!events.length) return { count: 0, events: [] };
      const r = await request({ type: MSG.query, kind: QUERY.select, args: JSON.stringify({ events }) });
      return {
        count: n,
        events: r[REPLY.select.events].map((e) => pick(e, REPLY_KEYS.selectedEvent)),
      };
    },
    // UI state: {tool, grid, help, flows, marks:[[startNs,endNs]], timing, collapsedSections, hiddenTracks, ...}
    state: () => (ui ? JSON.parse(ui.UTF8ToString(ui._ui_state_json())) : null),
    // The details pane, selection summary and search panel as drawn: {details, summary, search, timeline}.
    panels: () => (ui ? JSON.parse(ui.UTF8ToString(ui._ui_panels_json())) : null),
    // The details pane's time rows as drawn: [{label, text, absNs, x, y}] ("Times from" (the base),
    // "Start", "End" as offsets from it, "Duration"; absNs: the exact absolute time, decimal ns).
    detailsTimes: () => (ui ? JSON.parse(ui.UTF8ToString(ui._ui_details_times_json())) : []),
    // The search box's text as the UI holds it.
    searchBox: () => (ui ? { text: ui.UTF8ToString(ui._ui_search_box_text()) } : null),
    // CPU time of building frames (not GPU time): {frames, medianMs, p99Ms}; reset starts anew.
    frameStats(reset) {
      const p = ui._malloc(24);
      ui._ui_frame_stats(p, reset ? 1 : 0);
      const v = new Float64Array(ui.HEAPU8.buffer, p, 3);
      const out = { frames: v[0], medianMs: v[1], p99Ms: v[2] };
      ui._free(p);
      return out;
    },
    // ---- view tabs and the loss view (README: "Loss comparison") ----
    // 'timeline' | 'memory' | 'loss' | 'runs' | 'graph' | 'analysis'; resolves after the next frames to false for a tab this
    // build lacks, else true.
    setTab(name) {
      const ok = !!ui && withString(String(name), (p) => ui._ui_set_tab(p)) === 1;
      return nextFrames(2).then(() => ok);
    },
    tab: () => (ui ? ui.UTF8ToString(ui._ui_tab()) : 'timeline'),
    // Re-extracts a log with new tags; resolves (once the points are in) to
    // {name, lossTag, iterationTag, points: count, bytes, scanMs, mbps}, or null for an unknown name.
    setLossTags(name, lossTag, iterationTag) {
      const lossId = withString(String(name), (p) => ui._ui_loss_id(p));
      if (!lossId) return Promise.resolve(null);
      return request({ type: MSG.lossTags, lossId, lossTag: String(lossTag), iterationTag: String(iterationTag) });
    },
    // {files:[{name, lossTag, iterationTag, checked, bytes, scanMbps, count, points:[[iteration, loss], ...]}],
    //  comparison: {a, b, mode, mean, max, count, points:[[iteration, value], ...]} or null}.
    // loss({points: false}) leaves the point lists empty (counts only), for big logs.
    loss: (opts) => JSON.parse(ui.UTF8ToString(ui._ui_loss_json(opts && opts.points === false ? 0 : 1))),
    // Chooses the compared files (a first, b second; both get checked) and the mode
    // ('normal' | 'absolute' | 'relative', or omitted to keep it). Returns false when a name is unknown.
    setLossComparison(a, b, mode) {
      return (
        withString(String(a), (pa) =>
          withString(String(b), (pb) =>
            withString(mode ? String(mode) : '', (pm) => ui._ui_loss_set_comparison(pa, pb, pm)),
          ),
        ) === 1
      );
    },
    setLossChecked(name, checked) {
      return withString(String(name), (p) => ui._ui_loss_set_checked(p, checked ? 1 : 0)) === 1;
    },
    // An analysis of the loaded trace (src/engine/analysis): with no name, the list
    // {analyses: [{name, title, available, why}]}; else its table {name, title, notes, errors,
    // columns, rows, extra}. `args` are the analysis' own (e.g. {includeIdle: true}).
    analysis: (name, args) =>
      request({
        type: MSG.query,
        kind: QUERY.analysis,
        args: JSON.stringify({ ...(args || {}), ...(name ? { name } : {}) }),
      }),
    ...comparePart.api,
    // The advisor's report (src/engine/advisor): the `advisor` analysis' extra value {status,
    // summary, findings: [{id, title, priority, stakeNs, text, fix, row, figures, evidence:
    // [{label, row, link}]}], notChecked: [{id, title, needs, why}], passed, notApplicable,
    // ruleErrors, format, html}.
    report: () => api.analysis('advisor').then((t) => t[REPLY.advisor.extra]),
    // Every event of one exact name (on these display tracks, or all; of one XLA program when
    // `programId` is given, as an analysis row's link), as the select query answers
    // {count, events, summary}; the timeline's selection does not change.
    eventsNamed: (name, tracks, programId) =>
      request({
        type: MSG.query,
        kind: QUERY.select,
        args: JSON.stringify({ name: String(name), tracks: tracks || [], programId: String(programId || '') }),
      }),
    // The events behind an analysis row's link (the link object as the analysis reply gives
    // it: name mode, or an xplane framework op row's own events), as eventsNamed answers.
    eventsOfLink: (link) => request({ type: MSG.query, kind: QUERY.select, args: JSON.stringify(link) }),
    // What the Analysis tab showed last frame: {analysis, title, loading, analyses, columns,
    // rows:[{row, depth, cells (as shown), values, hasChildren, expanded, linkName}], rowCount,
    // sort:{column, key, descending}, filter, selected, notes, errors, layout (CSS px), csv}.
    analysisView: () => (ui ? JSON.parse(ui.UTF8ToString(ui._ui_analysis_view_json())) : null),
    // Memory chart: {devices:[{name, peakBytes, peakNs, samples, ...}], sources, ...}
    memory: () => request({ type: MSG.query, kind: QUERY.memory, args: '{}' }),
    // What the Memory tab showed last frame: {device, yTicks:[{bytes, label}], peakLabel,
    // capacityLabel (the peak's share of the stated device memory, "" when none), hoverText,
    // liveT, liveLabel, liveGroups:[{key, bytes, count, beforeTrace}], allocations, allocationsNote,
    // capacityNote / capacityShown (what the header says when no size is stated), xlaRun (the XLA
    // run of the live instant), viewerButton, focus (the Memory Viewer's module shown), view}.
    memoryView: () => JSON.parse(ui.UTF8ToString(ui._ui_memory_view_json())),
    // Table cells the last frame cut to fit their columns: {frame, now, cells:[{text, shown}]}.
    tableCells: () => JSON.parse(ui.UTF8ToString(ui._ui_table_cells_json())),
    // The timeline's tile cache: {tiles, bytes, hits, misses, requests, pending, evictions, level, budget}.
    tileStats() {
      if (!ui) return null;
      const p = ui._malloc(72);
      ui._ui_tile_stats(p);
      const v = new Float64Array(ui.HEAPU8.buffer, p, 9);
      const out = {
        tiles: v[0],
        bytes: v[1],
        hits: v[2],
        misses: v[3],
        requests: v[4],
        pending: v[5],
        evictions: v[6],
        level: v[7],
        budget: v[8],
      };
      ui._free(p);
      return out;
    },
    // ---- profiler folders, the Runs tab (README: "Profiler runs") ----
    // The selected profile's tables: {runs:[{name, workers:[{name, spans}]}], selection, views,
    // operators:[...], kernels:[...], distributed:[...], errors}; a Promise.
    stats: () => runs.stats(),
    // {run, worker, span, view}: names (each defaults to the current one); Promise of the selection.
    selectRun: (q) => runs.select(q || {}),
    // Diff of two profiles {a: {run, profile}, b: {...}, step} (indices; default: the selected
    // one and the next); Promise of {operatorDiff, stepDiff, a, b, errors}.
    runsDiff: (q) => runs.diff(q),
    // What the Runs tab's charts showed last frame: {diff: {logScale, barTicks, lineTicks}}.
    runsCharts: () => JSON.parse(ui.UTF8ToString(ui._ui_runs_chart_json())),
    // ---- pods (README: "Pods") ----
    // The pod manifest's host table: {base, medianStepNs, medianBusyPct, stragglers, hosts:
    // [{name, bundle, offsetNs, spanNs, events, tracks, busyNs, busyPct, steps, stepMedianNs,
    // stepRatio, straggler, why, error, open}], errors}; null before a pod is opened.
    pod: () => pods.table(),
    // Opens those hosts (names) as one trace on one time axis; a Promise of the summary.
    openHosts: (names) => pods.openHosts(names),
    // What the Pod tab shows: {hosts (in the order shown), picked, sort, descending, opening}.
    podView: () => (ui ? JSON.parse(ui.UTF8ToString(ui._ui_pod_view_json())) : null),
    // ---- tile bundles (README: "Tile bundles") ----
    // Reads the bundle shown lazily again whole (its analyses need every event: summary().bundle
    // .bytes says what that holds in memory); a Promise of the summary, as open() answers.
    loadWhole: () => request({ type: MSG.loadWhole }),
    ready: null,
  };
  // ---- deep links: the view and the selection live in the URL hash --------------------------
  // #view=<startNs>,<endNs>&sel=<event>, the ns as exact decimal text (view().startText: a
  // fraction when the view has one). With the same ?url=, a link reopens the same place.
  // #tab=analysis&analysis=<name>&op=<name>&step=<N>&peakTflops=<n>&peakGBps=<n> opens the
  // Analysis tab on that analysis, row, step and typed peaks; while it is shown the hash carries
  // them (read and written in C++: ui/analysis/analysis_link.h).
  function readHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    return {
      view: StrataPage.viewParam(h.get('view')),
      sel: h.has('sel') ? Number(h.get('sel')) : null,
      tab: h.get('tab'),
    };
  }
  async function applyHash() {
    const { view, sel, tab } = readHash();
    if (sel !== null && Number.isInteger(sel) && sel >= 0) await api.select({ event: sel });
    if (view) api.setView(view[0], view[1]);
    if (tab === 'analysis' && ui) withString(location.hash.slice(1), (p) => ui._ui_analysis_open_link(p));
    else if (tab) await api.setTab(tab);
  }
  let lastHash = '';
  function writeHash() {
    if (!ui || !lastSummary[SUMMARY.files].length) return;
    const v = api.view();
    const sel = ui._ui_selected_event();
    let h = `view=${v.startText},${v.endText}`;
    if (sel >= 0) h += `&sel=${sel}`;
    const analysisLink = ui.UTF8ToString(ui._ui_analysis_link());
    if (analysisLink) h += `&${analysisLink}`;
    if (h !== lastHash) {
      lastHash = h;
      history.replaceState(null, '', `#${h}`);
    }
  }
  window.addEventListener('hashchange', () => {
    if (location.hash.slice(1) !== lastHash) applyHash();
  });

  // The start-up open boot.js sent, answered as any request is: its messages wait in uiQueue
  // until the UI is up.
  const startOpen = StrataBoot.startOpenId
    ? new Promise((resolve) => pending.set(StrataBoot.startOpenId, { resolve }))
    : Promise.resolve(null);
  api.ready = Promise.all([uiStarted, startOpen])
    .then(() => settled(5000))
    .then(applyHash)
    .then(() => {
      setInterval(writeHash, 300);
    })
    .then(() => undefined);
  // The canvas UI's palette (web/theme.js decides light or dark and calls this).
  api._setUiTheme = (light) => {
    uiStarted.then(() => ui._ui_set_theme(light ? 1 : 0));
  };
  const runs = strataRunsInit({
    ui: () => ui,
    request,
    withString,
    open,
    frames: api.frame,
    summary: () => lastSummary,
  });
  const pods = strataPodInit({ ui: () => ui, request, withString });
  window.strata = api;
  if (window.strataGraphInit) window.strataGraphInit({ worker, request, api, ui: () => ui, withString, nextFrames });
  // From here the worker's messages come here (those that came first are handed over in order).
  StrataBoot.take(onWorkerMessage, (e) => fatal(`Strata's engine stopped: ${e.message || e}`));
})();
