// What starts before the rest of the page (a script in <head>): the engine worker, the start-up
// open (?url=, ?bundle=, ?pod=, or the demo) and the UI module's compile, so that the engine's
// wasm, the trace's first requests and the UI's wasm all travel while the page's other scripts
// load. strata.js takes the worker over (StrataBoot.take) and starts the UI once every page
// script has run: the UI's first frames, drawn in software without a GPU, would otherwise hold
// the parsing of those scripts back.
'use strict';
/* exported StrataBoot */

const StrataBoot = (() => {
  StrataMarks.mark('boot');
  const { MSG } = StrataProtocol;
  const params = new URLSearchParams(location.search);
  const embedded = params.get('embed') === '1';

  // The top bar's worker setting as web/page/workers.js keeps it: 0 (auto) or one of CHOICES.
  const WORKERS_KEY = 'strata.workers';
  const WORKER_CHOICES = [0, 1, 2, 4, 8];
  function storedWorkers() {
    try {
      const n = Number(localStorage.getItem(WORKERS_KEY));
      return WORKER_CHOICES.includes(n) ? n : 0;
    } catch (e) {
      return 0; // storage denied (sandboxed frame): auto, not remembered
    }
  }
  // What every open asks the worker for, as the page starts (strata.js keeps them up to date):
  // workers from ?workers=N or the stored setting; ?bundleLazyMb=N: tile bundles of at least N
  // MB open lazily, tiles on demand (0: every one; absent: the worker's threshold, 256 MB).
  const lazyMb = params.get('bundleLazyMb');
  const settings = {
    workers: params.has('workers') ? Math.max(0, Math.floor(Number(params.get('workers')) || 0)) : storedWorkers(),
    sliceMinBytes: 0, // 0: the worker's threshold (64 MB)
    bundleLazyBytes: lazyMb !== null && Number(lazyMb) >= 0 ? Number(lazyMb) * 1048576 : undefined,
  };

  const worker = new Worker(new URL('worker/engine-worker.js', document.baseURI));
  StrataMarks.mark('worker-created');
  // The worker's messages and errors until strata.js listens: kept, then handed over in order.
  let early = [];
  let onMessage = null;
  let onError = null;
  worker.onmessage = (e) => (onMessage ? onMessage(e) : early.push(['message', e]));
  worker.onerror = (e) => (onError ? onError(e) : early.push(['error', e]));
  function take(message, error) {
    onMessage = message;
    onError = error;
    for (const [kind, e] of early) (kind === 'message' ? message : error)(e);
    early = null;
  }

  // The UI's wasm compiles as it downloads (<link rel=preload> fetched it from the <head> on);
  // strata.js instantiates it (StrataWasm.instantiateWith).
  const uiModule = StrataWasm.compile(new URL('page/strata_ui.wasm', document.baseURI).href);
  uiModule.catch(() => {}); // a failure is strata.js's to show, when it instantiates

  // A URL's file name, as the worker's open names it.
  const urlName = (u) => {
    const url = new URL(u, document.baseURI);
    return decodeURIComponent(url.pathname.split('/').pop() || url.hostname);
  };
  // Several ?url= open together (the xplanes of one run); embed=1 starts empty unless given one.
  // ?bundle= is a tile bundle's URL, ?pod= a pod manifest's (what a file is, the engine tells
  // from its bytes).
  const startUrls = [...params.getAll('url'), ...params.getAll('bundle'), ...params.getAll('pod')].filter(Boolean);
  const startSource = startUrls.length > 1 ? startUrls : startUrls[0] || (embedded ? null : 'demo/demo-trace.json');
  // The start-up open, sent now under START_ID (strata.js's own requests count from after it):
  // the worker runs it as soon as its engine is up, whether or not the UI is.
  const START_ID = 1;
  let startOpen = null;
  if (startSource) {
    const list = Array.isArray(startSource) ? startSource : [startSource];
    const source = list.map((u) => new URL(u, document.baseURI).href);
    startOpen = {
      type: MSG.open,
      id: START_ID,
      name: urlName(list[0]),
      source: source.length > 1 ? source : source[0],
      notes: [],
      ...settings,
    };
    worker.postMessage(startOpen);
    StrataMarks.mark('open-sent');
  }

  return Object.freeze({
    worker,
    take,
    uiModule,
    settings,
    storedWorkers,
    WORKERS_KEY,
    WORKER_CHOICES,
    urlName,
    embedded,
    startSource,
    startOpenId: startOpen ? START_ID : null,
  });
})();
