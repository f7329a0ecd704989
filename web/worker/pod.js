// A pod manifest (pod.json, docs/BUNDLE.md "Pods") in the engine worker: its host table comes
// from the engine's PodSession (engine/wasm/pod_exports.cc); picked hosts' bundles then open as
// one trace (Engine::load_host), each read through self.strataDbRead as a database is (db.js).
// Hosts whose bundles together reach the lazy threshold (the single bundle's, ?bundleLazyMb)
// open lazily: the engine reads each one's header, index and search blob, and bundle.js fetches
// the tiles each view needs from the host they are in (Engine::lazy_tiles numbers them host
// after host). A host's bundle is a one-file bundle or a split folder (<path>/manifest.strata and
// <path>/tiles/<i>.zst, as strata-pack --split writes it). A bundle is fetched relative to
// pod.json and never from another origin; a pod.json picked from disk takes its bundles from
// the files picked or dropped with it, by name.
'use strict';
/* exported createPod */

// M: the engine module; sources: createSources(); db: createDb() (its synchronous reads and
// header readers); bundle: createBundle() (a lazy trace's tile fetches).
function createPod(M, sources, db, bundle) {
  const { withString, withStrings } = StrataWasm;
  const { REPLY } = StrataProtocol;
  const HEAD_BYTES = 64; // a bundle's header (docs/BUNDLE.md)
  let podUrl = null; // pod.json's URL, or null when it was picked from disk
  let podName = 'pod.json';
  let picked = new Map(); // file name → File picked with pod.json
  let lazyBytes; // the open's threshold (undefined: the engine's)

  const table = () => M.UTF8ToString(M._pod_table());

  // opened: sources.open()'s answer for pod.json, head: its first chunk already read; src: the
  // URL or File it came from; siblings: the other files of the same pick or drop; threshold: the
  // bytes from which hosts open lazily (absent: the engine's). Returns {ok, table: the host table
  // (JSON text), error: why it is not a pod manifest this Strata reads}.
  async function open(opened, head, src, siblings, threshold) {
    const parts = [head];
    for await (const chunk of opened.chunks) parts.push(chunk);
    const text = new TextDecoder().decode(await new Blob(parts).arrayBuffer());
    podUrl = typeof src === 'string' ? new URL(src, self.location.href).href : null;
    podName = opened.name || 'pod.json';
    lazyBytes = threshold;
    picked = new Map();
    for (const f of siblings || []) if (f instanceof Blob && f.name) picked.set(f.name, f);
    const ok = withString(M, text, (p) => M._pod_load(p)) === 1;
    const t = table();
    return { ok, table: t, error: ok ? '' : JSON.parse(t)[REPLY.pod.errors].join('; ') };
  }

  // A URL on pod.json's origin for `path` (relative to pod.json); throws a message otherwise.
  function sameOrigin(path) {
    const url = new URL(path, podUrl);
    if (url.origin !== new URL(podUrl).origin) throw new Error(`${path} is not on ${podName}'s origin`);
    return url.href;
  }

  async function get(url, path, init) {
    let r;
    try {
      r = await fetch(url, init);
    } catch (e) {
      throw new Error(`could not fetch ${path}: ${e.message || e}`);
    }
    if (!r.ok) throw new Error(`could not fetch ${path}: HTTP ${r.status} ${r.statusText}`);
    return r;
  }

  // Where host bundle `path` is, read by its header alone: {path, blob} for a picked file, or
  // {path, url, split, size, fileBytes, ranges, body} on pod.json's origin (url: the bundle or the
  // split folder's manifest.strata; fileBytes: that file's size; size: the bundle's bytes, a
  // split one's tiles included; ranges: the server answers byte ranges, else body: the whole
  // file it sent). Throws a message.
  async function locate(path) {
    if (podUrl === null) {
      // A split host is a folder of files (manifest.strata, tiles/<i>.zst) whose names repeat
      // across hosts: picked files cannot be told apart by name, so it opens from a URL only.
      if (!/\.strata$/i.test(path))
        throw new Error(`${path} is a split bundle (a folder): open ${podName} by its URL (?pod=) to read it`);
      const f = picked.get(path.split('/').pop());
      if (!f) throw new Error(`${path} was not picked with ${podName} (pick or drop the pod's folder)`);
      return { path, blob: f, size: f.size, split: false };
    }
    // strata-pack --merge-pod lists a split host by its folder.
    const folder = !/\.strata$/i.test(path);
    const shown = folder ? `${path}/manifest.strata` : path;
    const url = sameOrigin(folder ? `${path.replace(/\/+$/, '')}/manifest.strata` : path);
    const r = await get(url, shown, { headers: { Range: `bytes=0-${HEAD_BYTES - 1}` } });
    const range = /\/(\d+)\s*$/.exec(r.headers.get('Content-Range') || '');
    const ranges = r.status === 206 && range !== null;
    // A server without ranges sent the whole file: kept, not fetched again.
    const body = ranges ? null : await r.blob();
    const head = new Uint8Array(await (body ? body.slice(0, HEAD_BYTES) : r).arrayBuffer()).subarray(0, HEAD_BYTES);
    const bytes = ranges ? Number(range[1]) : body.size;
    const split = db.isSplit(head);
    return {
      path: shown,
      url,
      split,
      ranges,
      body,
      head,
      fileBytes: bytes,
      size: bytes + (split ? db.tilesBytes(head) : 0),
    };
  }

  // How a host's tiles are fetched once it opened lazily: fetch(local index, offset, length).
  function tileFetcher(at) {
    if (at.blob) return bundle.fetchers.fromBlob(at.blob);
    return at.split ? bundle.fetchers.fromSplit(at.url) : bundle.fetchers.fromRanges(at.url);
  }

  // A split host's tile i, read whole by the engine: its tiles/<i>.zst beside the manifest.
  function splitTileReader(at) {
    const base = new URL(at.url);
    return (i, n) => {
      const tile = new URL(`tiles/${i}.zst`, base);
      if (tile.origin !== base.origin) throw new Error('a tile off the pod origin');
      return db.wholeRead(tile.href).subarray(0, n);
    };
  }

  // Opens host `name` (located at `at`) into the load begun: '' or why it did not open.
  async function openHost(name, at, lazy) {
    let readSync;
    let size = at.blob ? at.blob.size : at.fileBytes;
    if (at.blob) {
      const reader = new FileReaderSync();
      readSync = (offset, n) => new Uint8Array(reader.readAsArrayBuffer(at.blob.slice(offset, offset + n)));
    } else if (lazy) {
      // The header, index and search blob only: the header as located, the others by one read.
      readSync = db.tablesReader((offset, n) => db.rangeRead(at.url, offset, n), at.head);
      size = at.fileBytes; // the engine adds a split bundle's tiles from its header
    } else {
      let blob;
      try {
        blob = at.body || (await (await get(at.url, at.path)).blob());
      } catch (e) {
        return String(e.message || e);
      }
      const reader = new FileReaderSync();
      readSync = (offset, n) => new Uint8Array(reader.readAsArrayBuffer(blob.slice(offset, offset + n)));
      size = blob.size;
      if (at.split) self.strataTileRead = splitTileReader(at);
    }
    self.strataDbRead = readSync;
    try {
      if (withString(M, name, (p) => M._engine_load_host(p, size, at.split ? 1 : 0)) === 1) return '';
    } catch (e) {
      return String(e.message || e);
    } finally {
      self.strataDbRead = null;
      self.strataTileRead = null;
    }
    const error = M.UTF8ToString(M._engine_last_error());
    return error.startsWith(`${name}: `) ? error.slice(name.length + 2) : error;
  }

  // Hosts `names` of the pod shown as one trace (`whole`: read whole, whatever their size; the
  // Analysis tab's Load whole on a lazy pod). Returns {ok, error, lazy, pod: the table, marking
  // each host open or why it did not open}.
  async function openHosts(names, whole) {
    M._pod_reset_open();
    const hosts = []; // {name, i, at} of the hosts found, in the order asked
    const failed = []; // [name, why, i] of the others
    const asked = names.map(String).map((name) => ({ name, i: withString(M, name, (p) => M._pod_host_index(p)) }));
    // Their headers fetched at once (the browser runs a few requests per origin in parallel).
    const located = await Promise.all(
      asked.map(({ i }) =>
        i < 0 ? null : locate(M.UTF8ToString(M._pod_host_bundle(i))).catch((e) => ({ why: String(e.message || e) })),
      ),
    );
    asked.forEach(({ name, i }, k) => {
      if (i < 0) failed.push([name, 'not a host of this pod', -1]);
      else if (located[k].why !== undefined) failed.push([name, located[k].why, i]);
      else hosts.push({ name, i, at: located[k] });
    });
    const threshold = Number.isFinite(lazyBytes) && lazyBytes >= 0 ? lazyBytes : bundle.lazyBytes();
    const total = hosts.reduce((n, h) => n + h.at.size, 0);
    // Lazily only when every host's bytes can be read where they are (a picked file, ranges).
    const lazy = !whole && hosts.length > 0 && total >= threshold && hosts.every((h) => h.at.blob || h.at.ranges);
    withString(M, podName, (p) => M._engine_load_hosts_begin(p, lazy ? 1 : 0));
    for (const [name, why, i] of failed) {
      withStrings(M, [name, why], (pn, pw) => M._engine_load_host_fail(pn, pw));
      if (i >= 0) withString(M, why, (p) => M._pod_mark(i, p));
    }
    const opened = []; // the fetchers of the hosts that opened, in the engine's order
    const openedNames = [];
    for (const h of hosts) {
      const why = await openHost(h.name, h.at, lazy);
      if (!why) (opened.push(tileFetcher(h.at)), openedNames.push(h.name));
      withString(M, why, (p) => M._pod_mark(h.i, p));
    }
    const ok = M._engine_load_hosts_end() === 1;
    // Each tile from the host it is in, by its index there; Load whole opens the same hosts.
    if (ok && lazy)
      bundle.adopt(
        (i, offset, length, part, local) => opened[part](local, offset, length),
        (part) => !!(opened[part] && opened[part].perTile),
        openedNames,
      );
    // A bundle holds the events' source ranges, not the records: details go without them.
    if (ok) sources.setCurrent(null, []);
    return { ok, lazy: ok && lazy, error: ok ? '' : M.UTF8ToString(M._engine_last_error()), pod: table() };
  }

  return { open, openHosts, table };
}
