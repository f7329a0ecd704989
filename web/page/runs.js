// Profiler folders (issue 9): a dropped or picked directory, or strata.open([{path, url|file}]),
// becomes the Runs tab. The UI module finds the runs in the paths, owns the selection and
// decides what each view needs (src/ui/runs/runs_fetch.h): it hands out one step at a time
// (open input N, post this runsStats message, let a frame draw, done with this answer) and this
// file performs it: it opens the folder's files, posts the messages to the engine worker
// (web/worker/runs.js) and gives each reply back. It reads nothing of the UI's answers.
'use strict';
/* exported strataRunsInit, strataDroppedFolder */

// ctx (from strata.js): {ui(), request(msg), withString(s, fn), open(source), frames(),
// summary()}.
function strataRunsInit(ctx) {
  const { REPLY, RUNS_STEP } = StrataProtocol;
  const STEP = REPLY.runsStep;
  let entries = null; // the folder's inputs, in the order their paths went to the UI: {path, src, open}
  let busy = Promise.resolve();

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
    if (e instanceof File) return { path: e.webkitRelativePath, src: { blob: e }, open: e };
    if (e.file) return { path: e.path, src: { blob: e.file }, open: e.file };
    const url = new URL(e.url, document.baseURI).href;
    return { path: e.path, src: { url }, open: url };
  }

  const uiText = (fn) => {
    const ui = ctx.ui();
    return ui ? ui.UTF8ToString(fn(ui)) : 'null';
  };
  // Performs the steps of what begin(ui) asked the UI for, after whatever is in flight; resolves
  // to the last step's answer. A failure ends the UI's goal (it says why in its status line).
  function drive(begin) {
    const run = async () => {
      const ui = ctx.ui();
      if (!ui) return null;
      begin(ui);
      let reply = '';
      for (;;) {
        const step = JSON.parse(uiText((u) => ctx.withString(reply, (p) => u._ui_runs_next(p))));
        reply = '';
        const kind = step[STEP.step];
        if (kind === RUNS_STEP.done) return step[STEP.answer];
        if (kind === RUNS_STEP.open)
          await ctx.open(entries[step[STEP.entry]].open, step[STEP.note] ? { notes: [step[STEP.note]] } : {});
        else if (kind === RUNS_STEP.frames) await ctx.frames();
        else if (kind === RUNS_STEP.request) {
          const files = {};
          for (const [key, input] of Object.entries(step[STEP.files])) files[key] = entries[input].src;
          reply = JSON.stringify(await ctx.request(Object.assign({}, step[STEP.message], { files }))) || 'null';
        }
      }
    };
    const failed = (e) =>
      JSON.parse(uiText((u) => ctx.withString(String((e && e.message) || e), (p) => u._ui_runs_failed(p))));
    const r = busy.then(run).catch(failed);
    busy = r.catch(() => null);
    return r;
  }
  const withJson = (q, fn) => (ui) => ctx.withString(JSON.stringify(q || {}), (p) => fn(ui, p));

  // Opens the folder: discovery in the UI module, the Runs tab, the first run's first profile.
  async function openFolder(list) {
    const inputs = Array.from(list).map(toEntry);
    const paths = inputs.map((e) => e.path).join('\n');
    // The new inputs replace the old once what is in flight (over the old ones) is done.
    // A folder the UI finds no runs in keeps the old one's inputs (the Runs tab is unchanged).
    const answer = await drive((ui) => {
      if (ctx.withString(paths, (p) => ui._ui_runs_folder(p)) === 1) entries = inputs;
    });
    return Object.assign({}, ctx.summary(), answer);
  }

  return {
    isFolderList,
    openFolder,
    // A folder's files as open() takes a list of sources (Files, URLs).
    // A File goes as a File named by its path in the folder (the same bytes, not a copy), so
    // the worker names each by where it lies (a TensorBoard run by its folder).
    folderSources: (list) =>
      Array.from(list).map((e) => {
        const { path, open } = toEntry(e);
        return open instanceof File
          ? new File([open], path, { type: open.type, lastModified: open.lastModified })
          : open;
      }),
    // strata.selectRun(q): the selection, or null when q names no profile.
    select: (q) => drive(withJson(q, (ui, p) => ui._ui_runs_select_query(p))),
    // strata.stats(): the selected profile's tables (each file read when first asked for).
    stats: () => drive((ui) => ui._ui_runs_stats()),
    // From the UI (host calls): a selector or the operator grouping changed (the UI has the new
    // selection already), or the Diff view picked a pair.
    fromUi: () => drive((ui) => ui._ui_runs_show()),
    setGroupByShape: () => drive((ui) => ui._ui_runs_show()),
    diff: (q) => drive(withJson(q, (ui, p) => ui._ui_runs_diff_query(p))),
    diffFromUi: (aRun, aProfile, bRun, bProfile, step) =>
      drive((ui) => ctx.withString(step, (p) => ui._ui_runs_diff_pair(aRun, aProfile, bRun, bProfile, p))),
    active: () => !!entries,
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
