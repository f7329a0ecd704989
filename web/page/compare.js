// The Compare tab's page side (README "Comparing two traces"): B of a comparison goes to the
// worker (compareOpen), the diff and the alignment come back to the UI's Compare tab
// (ui_compare_set_result), and strata.compare*() read and drive the tab.
'use strict';
/* exported strataCompareInit */

// ui(): the UI module (null before it is up); request(msg, transfer): a worker request's
// promise; withString: StrataWasm.withString on the UI module; sourceToSend(source): what the
// worker is sent for a source (strata.js); open(source): strata.open.
function strataCompareInit({ ui, request, withString, sourceToSend, open }) {
  const { MSG, REPLY } = StrataProtocol;

  // Hands a compare result to the UI's Compare tab (with the error of the last B, if it failed).
  function show(result, error) {
    const m = ui();
    if (m && m._ui_compare_set_result)
      withString(JSON.stringify(result), (p) => withString(error || '', (pe) => m._ui_compare_set_result(p, pe)));
    return result;
  }

  // B of a comparison (strata.compare, the Compare tab's picker and drop): one source.
  function compareWith(source) {
    const picked = sourceToSend(source);
    if (!picked) {
      return Promise.reject(new Error(`compare(): unsupported source ${Object.prototype.toString.call(source)}`));
    }
    return request({ type: MSG.compareOpen, name: picked.name, source: picked.source }, picked.transfer).then((r) => {
      show(r[REPLY.compareOpen.result], r[REPLY.compareOpen.ok] ? '' : r[REPLY.compareOpen.error]);
      return r;
    });
  }

  // What A's and B's timelines line up on (mode 'start' | 'step' | 'order' | 'event'; step: a
  // step number, or an index for 'order'; event: a name). Resolves to the new compare result.
  function align(mode, step, event) {
    return request({ type: MSG.compareAlign, mode, step: step ?? -1, event: event ?? '' }).then((r) => {
      show(r, '');
      return r;
    });
  }

  // The view's JSON of a UI export, null before the UI is up.
  const viewJson = (fn) => {
    const m = ui();
    return m ? JSON.parse(m.UTF8ToString(fn(m))) : null;
  };

  const api = {
    // Compare two runs: `b` (a URL, File/Blob or ArrayBuffer) loads into the worker's second
    // store as the variant; `a` the same, or null for the trace loaded now (the baseline). The
    // answer is {ok, error, name, result: compareResult()'s}; a B that fails leaves A and the
    // previous B. The Compare tab shows the result.
    async compare(a, b) {
      if (a != null) await open(a);
      return compareWith(b);
    },
    // The diff of the current trace against B: {a, b, tables: {operator, kernel, xla_op,
    // category: {key, changed, added, removed, unchanged}}, steps, tree: {rows, unchanged, aNodes,
    // bNodes, note}, errors} (src/protocol/reply_keys_compare.h).
    compareResult: () => request({ type: MSG.compareResult }).then((r) => show(r, '')),
    // What the Compare tab's two timelines line up on: compareAlign('start'), ('step', N) (N: a
    // step number, -1 the first common one), ('order', k) (the k-th step of each, from 0),
    // ('event', name) (the first event of that name in each). Resolves to compareResult()'s
    // answer, whose alignment says what was applied (REPLY.compare.alignment).
    compareAlign: (mode, arg) =>
      mode === 'event' ? align(mode, -1, String(arg ?? '')) : align(mode, Number(arg ?? -1), ''),
    // What the Compare tab shows: {hasB, a, b, key, error, note, align, changed, added, removed
    // (row names as shown), steps (matched), selected, selectedB (its count in B), csv,
    // treeShown (the call tree's rows shown, by path)}.
    compareView: () => viewJson((m) => m._ui_compare_view_json()),
    // A click on B's event `event` in the Compare tab's B timeline (start, end: ns from B's start,
    // as compareView().timelines.bSelStart / bSelEnd): A's selection follows.
    compareSelectB(event, start, end) {
      const m = ui();
      if (m) m._ui_compare_select_b(Number(event), Number(start), Number(end));
    },
    // A row click on the Compare tab: selects its events in A's timeline (false: no such row);
    // key 'tree' takes a call-tree row's path.
    compareSelect: (key, name) => {
      const m = ui();
      return (
        !!m && withString(String(key), (pk) => withString(String(name), (pn) => m._ui_compare_select(pk, pn))) === 1
      );
    },
    // The CSV of one Compare table (key, 'steps' or 'tree'), as its button exports it (download: save it too).
    compareCsv: (key, download) => {
      const m = ui();
      return m ? withString(String(key), (p) => m.UTF8ToString(m._ui_compare_csv(p, download ? 1 : 0))) : '';
    },
  };

  return { compareWith, align, api };
}
