// Profiler folders (issue 9): a dropped or picked directory, or strata.open([{path, url|file}]),
// becomes the Runs tab. The UI module finds the runs, workers and spans in the paths
// (src/core/runs/run_discovery, the plugin's naming rules) and owns the selection; this file
// follows it, reads only the files the shown view needs, asks the engine worker for their statistics
// (web/worker/runs.js) and hands the JSON to the UI. Trace and Memory open the profile's trace
// (and memory CSVs) like any file; the UI then shows the Timeline / Memory tab.
'use strict';
/* exported strataRunsInit, strataDroppedFolder */

// ctx (from strata.js): {ui(), request(msg), withString(s, fn), open(source), frames(),
// summary()}.
function strataRunsInit(ctx) {
  const { MSG, RUNS_KIND, REPLY } = StrataProtocol;
  const STATS = REPLY.runsStats;
  const VIEWS = ['Operator', 'Kernel', 'Trace', 'Memory', 'Distributed', 'Diff'];
  let folder = null; // {entries:[{path, src}], discovery, stats, diff}
  let loadedKey = ''; // the profile whose trace the engine holds
  let busy = Promise.resolve();

  const normPath = (p) =>
    String(p)
      .replace(/\\/g, '/')
      .replace(/^\.?\/+/, '');
  // Folder entries: objects with a `path`, or Files that know their place in a picked folder.
  function isFolderList(list) {
    return (
      list.length > 0 &&
      list.every(
        (e) => e && ((typeof e.path === 'string' && (e.url || e.file)) || (e instanceof File && e.webkitRelativePath)),
      )
    );
  }
  function toEntry(e) {
    if (e instanceof File) return { path: normPath(e.webkitRelativePath), src: { blob: e }, open: e };
    if (e.file) return { path: normPath(e.path), src: { blob: e.file }, open: e.file };
    const url = new URL(e.url, document.baseURI).href;
    return { path: normPath(e.path), src: { url }, open: url };
  }

  function uiCall(fn) {
    const ui = ctx.ui();
    return ui ? fn(ui) : null;
  }
  // The selection (run, profile, view, operator grouping) lives in the UI; this reads it.
  function uiSelection() {
    const json = uiCall((ui) => ui.UTF8ToString(ui._ui_runs_selection_json()));
    const s = json ? JSON.parse(json) : null;
    return s || { run: 0, profile: 0, view: 0, groupByShape: false };
  }
  function sel() {
    const s = uiSelection();
    return { run: s.run, profile: s.profile, view: s.view };
  }
  const grouped = () => !!uiSelection().groupByShape;
  function status(text) {
    uiCall((ui) => ctx.withString(text, (p) => ui._ui_runs_status(p)));
  }

  // Opens the folder: discovery in the UI module, the Runs tab, the first run's first profile.
  async function openFolder(list) {
    const entries = Array.from(list).map(toEntry);
    const json = uiCall((ui) =>
      ctx.withString(entries.map((e) => e.path).join('\n'), (p) => ui.UTF8ToString(ui._ui_runs_folder(p))),
    );
    const discovery = json ? JSON.parse(json) : { root: '', runs: [] };
    folder = { entries, discovery, stats: {}, diff: null };
    loadedKey = '';
    if (!discovery.runs.length) {
      status('No profiler runs in this folder (no *_ascend_pt/ASCEND_PROFILER_OUTPUT or *.pt.trace.json files)');
      return Object.assign({}, ctx.summary(), { runs: [] });
    }
    await ctx.frames(); // ui_runs_folder brought the Runs tab forward
    await select({});
    return Object.assign({}, ctx.summary(), { runs: runsBrief() });
  }

  function runsBrief() {
    return folder ? folder.discovery.runs.map((r) => ({ name: r.name, workers: r.workers })) : [];
  }
  const entry = (i) => folder.entries[i];
  const profileOf = (s) => folder.discovery.runs[s.run].profiles[s.profile];
  const fileSrc = (p, name) => (p.files[name] === undefined ? null : entry(p.files[name]).src);
  // A card's number: the worker's trailing digits (rank0 → 0), else its place in the run.
  function cardOf(run, p) {
    const m = /(\d+)$/.exec(p.worker);
    return m ? Number(m[1]) : run.workers.indexOf(p.worker);
  }

  // Resolves {run, worker, span, view} (names; view case-insensitive; each defaults to the
  // current one, or the first) into indices. Null when something is unknown.
  function resolve(q) {
    const runs = folder.discovery.runs;
    const now = sel();
    let run = now.run;
    if (q.run !== undefined) run = typeof q.run === 'number' ? q.run : runs.findIndex((r) => r.name === q.run);
    if (!(run >= 0 && run < runs.length)) return null;
    const r = runs[run];
    const cur = run === now.run ? r.profiles[now.profile] : null;
    const worker = q.worker !== undefined ? String(q.worker) : cur ? cur.worker : r.profiles[0].worker;
    const spans = r.profiles.filter((p) => p.worker === worker).map((p) => p.span);
    if (!spans.length) return null;
    let span = q.span !== undefined ? String(q.span) : cur && cur.worker === worker ? cur.span : spans[0];
    if (q.span === undefined && !spans.includes(span)) span = spans[0];
    const profile = r.profiles.findIndex((p) => p.worker === worker && p.span === span);
    if (profile < 0) return null;
    let view = now.view;
    if (q.view !== undefined) view = VIEWS.findIndex((v) => v.toLowerCase() === String(q.view).toLowerCase());
    if (view < 0) return null;
    return { run, profile, view };
  }

  // Selects a run / worker / span / view and shows it. Resolves to the selection, or null.
  // The script API's selection: set in the UI, then shown.
  function select(q) {
    if (!folder) return Promise.resolve(null);
    if (q && q.groupByShape !== undefined) uiCall((ui) => ui._ui_runs_group_by_shape(q.groupByShape ? 1 : 0));
    const s = resolve(q || {});
    if (!s) return Promise.resolve(null);
    uiCall((ui) => ui._ui_runs_select(s.run, s.profile, s.view));
    return queueShow(s);
  }
  function queueShow(s) {
    busy = busy.then(() => show(s)).catch((e) => status(String((e && e.message) || e)));
    return busy.then(() => selection());
  }
  function selection() {
    if (!folder || !folder.discovery.runs.length) return null;
    const s = sel(),
      r = folder.discovery.runs[s.run],
      p = profileOf(s);
    return { run: r.name, worker: p.worker, span: p.span, view: VIEWS[s.view] };
  }

  async function show(s) {
    const p = profileOf(s);
    const view = VIEWS[s.view];
    const v = p.views[view];
    if (!v.enabled) {
      status('');
      return;
    } // the UI shows the view's "needs <file>" note
    status('');
    if (view === 'Trace' || view === 'Memory') {
      await loadTrace(s, view === 'Memory');
      uiCall((ui) => ui._ui_runs_profile_loaded()); // the UI shows the Timeline or Memory tab
      await ctx.frames();
      return;
    }
    if (view === 'Diff') {
      if (!folder.diff) await diff(null);
      else sendDiff();
      return;
    }
    const part = view === 'Operator' ? 'operators' : view === 'Kernel' ? 'kernels' : 'distributed';
    await compute(s, part);
    sendPart(s, part);
  }

  const key = (s) => `${s.run}/${s.profile}`;
  // The engine holds this profile's trace (Kineto: the trace; Ascend: trace_view.json and the
  // memory CSVs, for the Timeline and Memory tabs).
  async function loadTrace(s, memory) {
    const p = profileOf(s);
    if (loadedKey === key(s)) return;
    const list = [];
    const t = p.files['trace_view.json'];
    if (t !== undefined) list.push(entry(t).open);
    if (p.kind === 'ascend') {
      for (const f of ['memory_record.csv', 'operator_memory.csv'])
        if (p.files[f] !== undefined && (memory || t !== undefined)) list.push(entry(p.files[f]).open);
    }
    status(`Loading ${p.worker}${p.span ? ` (${p.span})` : ''}...`);
    for (const src of list) await ctx.open(src);
    loadedKey = key(s);
    status('');
  }

  // One part (operators | kernels | distributed) of a profile's statistics, cached.
  async function compute(s, part) {
    const k = `${key(s)}/${part}/${grouped() ? 1 : 0}`;
    if (folder.stats[k]) return folder.stats[k];
    const run = folder.discovery.runs[s.run],
      p = profileOf(s);
    let value;
    if (p.kind === 'kineto') {
      if (part === 'distributed') {
        // One row per worker of this span: each trace is loaded in turn.
        const rows = [],
          errors = [];
        for (const i of p.distributed || []) {
          const q = run.profiles[i]; // the discovery's set: this span's workers, else one per worker
          await loadTrace({ run: s.run, profile: i });
          const r = await ctx.request({
            type: MSG.runsStats,
            kind: RUNS_KIND.trace,
            card: cardOf(run, q),
            groupByShape: grouped(),
          });
          rows.push(...(r[STATS.distributed] || []));
          errors.push(...(r[STATS.errors] || []));
        }
        value = { distributed: rows, errors };
      } else {
        await loadTrace(s);
        value = await ctx.request({
          type: MSG.runsStats,
          kind: RUNS_KIND.trace,
          card: cardOf(run, p),
          groupByShape: grouped(),
        });
        // One pass gives both tables: keep the other one too.
        const other = part === 'operators' ? 'kernels' : 'operators';
        folder.stats[`${key(s)}/${other}/${grouped() ? 1 : 0}`] = value;
      }
    } else {
      const files = {};
      let cards = 0;
      if (part === 'operators') files['a/operator_details.csv'] = fileSrc(p, 'operator_details.csv');
      if (part === 'kernels') {
        files['a/kernel_details.csv'] = fileSrc(p, 'kernel_details.csv');
        files['a/op_statistic.csv'] = fileSrc(p, 'op_statistic.csv');
      }
      if (part === 'distributed') {
        for (const q of run.profiles) {
          if (q.span !== p.span) continue;
          const c = cardOf(run, q);
          cards = Math.max(cards, c + 1);
          files[`card${c}/step_trace_time.csv`] = fileSrc(q, 'step_trace_time.csv');
          files[`card${c}/communication.json`] = fileSrc(q, 'communication.json');
        }
      }
      for (const f of Object.keys(files)) if (!files[f]) delete files[f];
      value = await ctx.request({ type: MSG.runsStats, kind: RUNS_KIND.ascend, files, groupByShape: grouped(), cards });
    }
    folder.stats[k] = value;
    return value;
  }

  function sendPart(s, part) {
    const v = folder.stats[`${key(s)}/${part}/${grouped() ? 1 : 0}`];
    if (!v) return;
    if (v[STATS.errors] && v[STATS.errors].length) status(v[STATS.errors][0]);
    uiCall((ui) => ctx.withString(part, (a) => ctx.withString(JSON.stringify(v), (b) => ui._ui_runs_stats(a, b))));
  }

  // Diff of profile a against profile b (each {run, profile}; default: the selected profile and
  // the next one in the folder), at one step ('' = all).
  async function diff(q) {
    const all = [];
    folder.discovery.runs.forEach((r, ri) => r.profiles.forEach((p, pi) => all.push({ run: ri, profile: pi })));
    const now = sel();
    const at = all.findIndex((x) => x.run === now.run && x.profile === now.profile);
    const a = q && q.a ? q.a : all[at];
    const b = q && q.b ? q.b : all[(at + 1) % all.length];
    const known = (x) => x && folder.discovery.runs[x.run] && folder.discovery.runs[x.run].profiles[x.profile];
    if (!known(a) || !known(b))
      return { operatorDiff: [], stepDiff: { step: '', rows: [] }, steps: [], errors: ['runsDiff: no such profile'] };
    // Kineto sides: each trace is loaded in turn and its tables kept in the worker; Ascend
    // sides: their operator_details.csv and kernel_details.csv.
    const files = {};
    for (const [slot, side] of [
      ['a', a],
      ['b', b],
    ]) {
      const p = profileOf(side);
      if (p.kind === 'kineto') {
        await loadTrace(side);
        await ctx.request({ type: MSG.runsStats, kind: RUNS_KIND.keep, slot, groupByShape: grouped() });
      } else {
        for (const f of ['operator_details.csv', 'kernel_details.csv'])
          if (fileSrc(p, f)) files[`${slot}/${f}`] = fileSrc(p, f);
      }
    }
    const value = await ctx.request({
      type: MSG.runsStats,
      kind: RUNS_KIND.diff,
      files,
      groupByShape: grouped(),
      step: (q && q.step) || '',
    });
    value.a = a;
    value.b = b;
    folder.diff = value;
    sendDiff();
    return value;
  }
  function sendDiff() {
    const v = folder.diff;
    if (v[STATS.errors] && v[STATS.errors].length) status(v[STATS.errors][0]);
    uiCall((ui) => ctx.withString('diff', (a) => ctx.withString(JSON.stringify(v), (b) => ui._ui_runs_stats(a, b))));
  }

  // strata.stats(): the selected profile's operator, kernel and distributed tables (each file
  // read when first asked for).
  async function stats() {
    if (!folder || !folder.discovery.runs.length)
      return { runs: [], selection: null, operators: [], kernels: [], distributed: [] };
    await busy;
    const s = sel(),
      p = profileOf(s);
    const out = {
      runs: runsBrief(),
      selection: selection(),
      views: p.views,
      operators: [],
      kernels: [],
      kernelCoreTypes: [],
      distributed: [],
      errors: [],
    };
    const parts = [
      ['operators', 'Operator'],
      ['kernels', 'Kernel'],
      ['distributed', 'Distributed'],
    ];
    for (const [part, view] of parts) {
      if (!p.views[view].enabled) continue;
      const v = await compute(s, part);
      if (part === 'operators') out.operators = v[STATS.operators] || [];
      if (part === 'kernels') {
        out.kernels = v[STATS.kernels] || [];
        out.kernelCoreTypes = v[STATS.kernelCoreTypes] || [];
      }
      if (part === 'distributed') out.distributed = v[STATS.distributed] || [];
      out.errors.push(...(v[STATS.errors] || []));
    }
    const d = folder.diff;
    if (d) out.diff = { operatorDiff: d[STATS.operatorDiff], stepDiff: d[STATS.stepDiff] };
    return out;
  }

  // From the UI (host calls): a selector changed, the operator grouping, a diff pair or step.
  // The UI has already changed its selection or grouping: fetch what it now shows.
  function fromUi() {
    if (folder && folder.discovery.runs.length) queueShow(sel());
  }
  function setGroupByShape() {
    if (folder && folder.discovery.runs.length) queueShow(sel());
  }
  // A diff after whatever is in flight; a failure is reported, and later requests still run.
  function queueDiff(q) {
    if (!folder) return Promise.resolve(null);
    const r = busy
      .then(() => diff(q))
      .catch((e) => {
        status(String((e && e.message) || e));
        return {
          operatorDiff: [],
          stepDiff: { step: '', rows: [] },
          steps: [],
          errors: [String((e && e.message) || e)],
        };
      });
    busy = r;
    return r;
  }
  function diffFromUi(aRun, aProfile, bRun, bProfile, step) {
    queueDiff({ a: { run: aRun, profile: aProfile }, b: { run: bRun, profile: bProfile }, step });
  }

  return {
    isFolderList,
    openFolder,
    select,
    selection,
    stats,
    fromUi,
    setGroupByShape,
    diff: queueDiff,
    diffFromUi,
    active: () => !!folder,
  };
}

// Files of a dropped directory, with their paths from the drop's root (DataTransferItem
// entries, read recursively; readEntries returns at most 100 at a time).
async function strataDroppedFolder(items) {
  const roots = [];
  for (const it of Array.from(items)) {
    const e = it.webkitGetAsEntry && it.webkitGetAsEntry();
    if (e) roots.push(e);
  }
  if (!roots.some((e) => e.isDirectory)) return null;
  const out = [];
  async function walk(e) {
    if (e.isFile) {
      const file = await new Promise((res, rej) => e.file(res, rej));
      out.push({ path: e.fullPath.replace(/^\//, ''), file });
      return;
    }
    const reader = e.createReader();
    for (;;) {
      const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
      if (!batch.length) break;
      for (const c of batch) await walk(c);
    }
  }
  for (const e of roots) await walk(e);
  return out;
}
