// A pod manifest (pod.json, docs/BUNDLE.md "Pods") in the engine worker: its host table comes
// from the engine's PodSession (engine/wasm/pod_exports.cc); picked hosts' bundles then open as
// one trace (Engine::load_host), each read through self.strataDbRead as a database is (db.js).
// A bundle is fetched relative to pod.json and never from another origin; a pod.json picked
// from disk takes its bundles from the files picked or dropped with it, by name.
'use strict';
/* exported createPod */

// M: the engine module; sources: createSources().
function createPod(M, sources) {
  const { withString, withStrings } = StrataWasm;
  const { REPLY } = StrataProtocol;
  let podUrl = null; // pod.json's URL, or null when it was picked from disk
  let podName = 'pod.json';
  let picked = new Map(); // file name → File picked with pod.json

  const table = () => M.UTF8ToString(M._pod_table());

  // opened: sources.open()'s answer for pod.json, head: its first chunk already read; src: the
  // URL or File it came from; siblings: the other files of the same pick or drop. Returns {ok,
  // table: the host table (JSON text), error: why it is not a pod manifest this Strata reads}.
  async function open(opened, head, src, siblings) {
    const parts = [head];
    for await (const chunk of opened.chunks) parts.push(chunk);
    const text = new TextDecoder().decode(await new Blob(parts).arrayBuffer());
    podUrl = typeof src === 'string' ? new URL(src, self.location.href).href : null;
    podName = opened.name || 'pod.json';
    picked = new Map();
    for (const f of siblings || []) if (f instanceof Blob && f.name) picked.set(f.name, f);
    const ok = withString(M, text, (p) => M._pod_load(p)) === 1;
    const t = table();
    return { ok, table: t, error: ok ? '' : JSON.parse(t)[REPLY.pod.errors].join('; ') };
  }

  // The bundle at `path` (relative to pod.json) as a Blob; throws a message.
  async function bundleBlob(path) {
    if (podUrl === null) {
      const f = picked.get(path.split('/').pop());
      if (!f) throw new Error(`${path} was not picked with ${podName} (pick or drop the pod's folder)`);
      return f;
    }
    const url = new URL(path, podUrl);
    if (url.origin !== new URL(podUrl).origin) throw new Error(`${path} is not on ${podName}'s origin`);
    let r;
    try {
      r = await fetch(url.href);
    } catch (e) {
      throw new Error(`could not fetch ${path}: ${e.message || e}`);
    }
    if (!r.ok) throw new Error(`could not fetch ${path}: HTTP ${r.status} ${r.statusText}`);
    return r.blob();
  }

  // Opens host `name` (its pod index i) into the load begun: '' or why it did not open.
  async function openHost(name, i) {
    let blob;
    try {
      blob = await bundleBlob(M.UTF8ToString(M._pod_host_bundle(i)));
    } catch (e) {
      const why = String(e.message || e);
      withStrings(M, [name, why], (pn, pw) => M._engine_load_host_fail(pn, pw));
      return { why };
    }
    const reader = new FileReaderSync();
    self.strataDbRead = (offset, n) => new Uint8Array(reader.readAsArrayBuffer(blob.slice(offset, offset + n)));
    try {
      if (withString(M, name, (p) => M._engine_load_host(p, blob.size)) === 1) return { why: '' };
    } finally {
      self.strataDbRead = null;
    }
    const error = M.UTF8ToString(M._engine_last_error());
    return { why: error.startsWith(`${name}: `) ? error.slice(name.length + 2) : error };
  }

  // Hosts `names` of the pod shown as one trace. Returns {ok, error, pod: the table, marking each
  // host open or why it did not open}.
  async function openHosts(names) {
    M._pod_reset_open();
    withString(M, podName, (p) => M._engine_load_hosts_begin(p));
    for (const name of names.map(String)) {
      const i = withString(M, name, (p) => M._pod_host_index(p));
      if (i < 0) {
        withStrings(M, [name, 'not a host of this pod'], (pn, pw) => M._engine_load_host_fail(pn, pw));
        continue;
      }
      const r = await openHost(name, i);
      withString(M, r.why, (p) => M._pod_mark(i, p));
    }
    const ok = M._engine_load_hosts_end() === 1;
    // A bundle holds the events' source ranges, not the records: details go without them.
    if (ok) sources.setCurrent(null, []);
    return { ok, error: ok ? '' : M.UTF8ToString(M._engine_last_error()), pod: table() };
  }

  return { open, openHosts, table };
}
