// The Pod tab's page side (README "Pods"): a pod manifest's host table from the worker
// (podLoaded, and the `pod` of a podHosts load's answer) goes to the UI's Pod tab and to
// strata.pod(); the tab's "Open" and strata.openHosts(names) ask the worker to open hosts as
// one trace (podHosts), answered as any load is.
'use strict';
/* exported strataPodInit */

// ui(): the UI module (null before it is up); request(msg): a worker request's promise;
// withString: StrataWasm.withString on the UI module.
function strataPodInit({ ui, request, withString }) {
  const { MSG } = StrataProtocol;
  let table = null; // the last host table (REPLY_KEYS.pod), null before a pod opens
  let name = '';

  function show(json, forward) {
    try {
      table = JSON.parse(json);
    } catch (e) {
      return;
    }
    const m = ui();
    if (m) withString(name, (pn) => withString(json, (pj) => m._ui_pod_table(pn, pj, forward ? 1 : 0)));
  }

  // A worker message (before the page's own handling): a pod opened, or a load of hosts ended.
  function deliver(m) {
    if (m.type === MSG.podLoaded) {
      name = m.name || 'pod.json';
      show(m.pod, true);
    } else if ((m.type === MSG.loaded || m.type === MSG.loadFailed) && m.pod) {
      show(m.pod, false);
    }
  }

  // Opens hosts `names` of the pod shown as one trace; resolves to the summary (its errors
  // name the hosts that did not open; strata.pod() then marks each host).
  function openHosts(names) {
    const list = Array.from(names || [], String);
    const m = ui();
    if (m) withString(JSON.stringify(list), (p) => m._ui_pod_pick(p));
    return request({ type: MSG.podHosts, names: list }).then((summary) => {
      if (ui()) ui()._ui_pod_open_ended();
      return summary;
    });
  }

  return { deliver, openHosts, table: () => table };
}
