// A tile bundle opened lazily (docs/BUNDLE.md, src/engine/bundle_session.h): the engine reads its
// header, index and search blob (through self.strataDbRead, as db.js reads a bundle opened
// whole) and then says, for each view request, which tiles it needs; this fetches them
// (several at once, never blocking the worker's other messages) and answers the request once
// they are fed. Tiles come from where the bundle is: a picked file's slices, Range requests on
// the bundle's URL, or a split bundle's tiles/<i>.zst beside its manifest (same origin only).
'use strict';
/* exported createBundle */

// M: the engine module.
function createBundle(M) {
  const { withString, withBytes, withArray } = StrataWasm;
  const IN_FLIGHT = 6; // tile requests at once (a browser runs about six per origin)
  const VIEW_TRIES = 3; // a view's tiles evicted by other views' before it was answered: fetch again

  let cur = null; // {fetchTile(i, offset, length) → Promise<Uint8Array>, pending: Map}
  let running = 0;
  const waiting = []; // resolve functions of tile fetches waiting for a slot

  // The bytes from which a bundle of `size` opens lazily by default (the engine's constant).
  const lazyBytes = () => M._engine_bundle_lazy_bytes();

  // Opens the bundle `name` of `size` bytes lazily: readSync(offset, n) → Uint8Array reads the
  // header, index and search blob (synchronously, as the engine asks for them); fetchTile fetches
  // one tile's bytes later; source (its URL or Blob) is where loadWhole reads it again. True when
  // it opened (else the engine's last error says why).
  function open(name, size, readSync, fetchTile, source) {
    self.strataDbRead = readSync;
    let ok = false;
    try {
      ok = withString(M, name, (p) => M._engine_bundle_open_lazy(p, size)) === 1;
    } finally {
      self.strataDbRead = null;
    }
    cur = ok ? { fetchTile, perTile: () => !!fetchTile.perTile, pending: new Map(), name, source } : null;
    return ok;
  }

  // A trace the engine opened lazily itself (a pod's hosts, pod.js): fetchTile(i, offset, length,
  // part, local) fetches tile i from bundle `part` (engine_bundle_tile_part), where it is tile
  // `local`; perTile(part): true when bundle `part`'s tiles are files of their own (a split host);
  // hosts: the pod's hosts opened, which Load whole reads again whole.
  function adopt(fetchTile, perTile, hosts) {
    cur = { fetchTile, perTile, pending: new Map(), hosts };
  }

  // What to read whole in place of the lazy trace shown: a bundle as an open message's {name,
  // source}, or a pod's {hosts} (names); null when nothing is open lazily.
  function whole() {
    if (!lazy()) return null;
    if (cur.hosts) return { hosts: cur.hosts.slice() };
    return cur.source ? { name: cur.name, source: cur.source } : null;
  }

  // True while the trace shown is the lazy bundle opened last (a later load replaced it: false).
  function lazy() {
    if (cur && M._engine_bundle_lazy() !== 1) cur = null;
    return cur !== null;
  }

  // The engine's list of tiles (engine_bundle_wanted_list) after a call that made n of them.
  function listed(n) {
    const at = M._engine_bundle_wanted_list() >>> 2;
    return Array.from(M.HEAPU32.subarray(at, at + n));
  }
  const wanted = (request) => listed(withBytes(M, request, (p, len) => M._engine_bundle_wanted(p, len)));

  async function slot() {
    if (running < IN_FLIGHT) {
      ++running;
      return;
    }
    await new Promise((resolve) => waiting.push(resolve));
  }
  function release() {
    const next = waiting.shift();
    if (next) next();
    else --running;
  }

  // Tiles `ids` (adjacent in the bundle, in offset order) fetched by one request and fed, or their
  // failure recorded; each is pending until then, so however many views wait it is fetched once.
  function run(session, ids) {
    const offsets = ids.map((i) => M._engine_bundle_tile_offset(i));
    const lengths = ids.map((i) => M._engine_bundle_tile_length(i) >>> 0);
    const part = M._engine_bundle_tile_part(ids[0]);
    const local = M._engine_bundle_tile_local() >>> 0;
    const start = offsets[0];
    const end = offsets[ids.length - 1] + lengths[ids.length - 1];
    const done = (async () => {
      await slot();
      try {
        const bytes = await session.fetchTile(ids[0], start, end - start, part, local);
        if (cur !== session) return; // another trace replaced the bundle
        ids.forEach((i, k) => {
          const at = offsets[k] - start;
          withBytes(M, bytes.subarray(at, at + lengths[k]), (p, n) => M._engine_bundle_feed(i, p, n));
        });
      } catch (e) {
        const why = String((e && e.message) || e);
        if (cur === session) ids.forEach((i) => withString(M, why, (p) => M._engine_bundle_fail(i, p)));
      } finally {
        release();
        ids.forEach((i) => session.pending.delete(i));
      }
    })();
    ids.forEach((i) => session.pending.set(i, done));
    return done;
  }

  // The tiles of `list` fetched and fed: those on their way already awaited, the others by as
  // few requests as the engine groups them into (engine_bundle_runs: adjacent tiles by one byte
  // range), or one by one from a split bundle, whose tiles are files of their own.
  function tiles(session, list) {
    const waits = list.filter((i) => session.pending.has(i)).map((i) => session.pending.get(i));
    const fresh = [];
    for (const i of list) {
      if (session.pending.has(i)) continue;
      if (session.perTile(M._engine_bundle_tile_part(i))) waits.push(run(session, [i]));
      else fresh.push(i);
    }
    if (fresh.length < 2) {
      fresh.forEach((i) => waits.push(run(session, [i])));
      return Promise.all(waits);
    }
    const runs = withArray(M, Uint32Array.from(fresh), (p, n) => M._engine_bundle_runs(p, n));
    const at = M._engine_bundle_run_counts() >>> 2;
    const counts = Array.from(M.HEAPU32.subarray(at, at + runs));
    const sorted = listed(counts.reduce((a, b) => a + b, 0));
    let first = 0;
    for (const n of counts) {
      waits.push(run(session, sorted.slice(first, first + n)));
      first += n;
    }
    return Promise.all(waits);
  }

  // The view requests that come together (the timeline asks for a view's tiles at once, one
  // request per tile of its own) fetch their bundle tiles together, so a row's or a series' tiles
  // wanted by several of them come by one range request, not one each.
  const BATCH_MS = 4;
  let batch = null; // {session, ids: Set, done: Promise} gathering until its timer fires
  function batched(session, list) {
    if (!batch || batch.session !== session) {
      const b = { session, ids: new Set() };
      b.done = new Promise((resolve) => setTimeout(resolve, BATCH_MS)).then(() => {
        if (batch === b) batch = null;
        return tiles(b.session, [...b.ids]);
      });
      batch = b;
    }
    list.forEach((i) => batch.ids.add(i));
    return batch.done;
  }

  // A view request's reply once its tiles are in: answer(reply) with the engine's view, or
  // nothing when the bundle was replaced meanwhile. viewNow(request) is trace.view.
  async function view(request, viewNow, answer) {
    const session = cur;
    const bytes = new Uint8Array(request);
    if (await fetchWanted(session, () => wanted(bytes), batched)) answer(viewNow(request));
  }

  // A search: `args` as the find query takes them ({text, regex, limit}); the tiles the search
  // blob lists for the matched names are fetched and counted, then answerNow() gives the reply
  // (the find query's or strata.find's). Null when the bundle was replaced meanwhile.
  async function find(args, answerNow) {
    const session = cur;
    const n = withString(M, JSON.stringify(args), (p) => M._engine_bundle_find_begin(p));
    if (n > 0) {
      await tiles(session, listed(n));
      if (cur !== session) return null;
    }
    return answerNow();
  }

  // Fetches the tiles `list()` names (the engine's wanted list) by fetch(session, ids) (tiles,
  // or batched with other views'), again while evictions by other requests' tiles leave some
  // out; false when the bundle was replaced meanwhile.
  async function fetchWanted(session, list, fetch = tiles) {
    for (let k = 0; k < VIEW_TRIES; ++k) {
      const want = list();
      if (!want.length) break;
      await fetch(session, want);
      if (cur !== session) return false;
    }
    return true;
  }

  // A query (a select: a region, a name, events) once the tiles it reads are in: answerNow()
  // gives the engine's reply, or null when the bundle was replaced meanwhile.
  async function query(kind, args, answerNow) {
    const session = cur;
    const list = () =>
      listed(withString(M, kind, (pk) => withString(M, args || '{}', (pa) => M._engine_bundle_query_wanted(pk, pa))));
    if (!(await fetchWanted(session, list))) return null;
    return answerNow();
  }

  // The details pane's JSON of `event`: its tile and those of the rows above and below it
  // fetched when not held, its record read by range from the source when it is served beside
  // the bundle (else the reply says it is not here).
  async function details(event) {
    const session = cur;
    if (!(await fetchWanted(session, () => listed(M._engine_bundle_details_wanted(event))))) return null;
    let record = new Uint8Array(0);
    if (session.fetchSource && M._engine_bundle_event_source(event) === 1) {
      const offset = M._engine_bundle_source_offset();
      const length = M._engine_bundle_source_length() >>> 0;
      try {
        record = await session.fetchSource(offset, length);
      } catch (e) {
        record = new Uint8Array(0); // not served: the reply says so
      }
      if (cur !== session) return null;
    }
    const call = (bytes) => withBytes(M, bytes, (p, n) => M.UTF8ToString(M._engine_details(event, p, n)));
    let json = call(record);
    try {
      JSON.parse(json);
    } catch (e) {
      json = call(new Uint8Array(0)); // the source changed since it was packed
    }
    return json;
  }

  // Where a lazy bundle's event records are read from: fetchSource(offset, length) → bytes.
  function setSource(fetchSource) {
    if (cur) cur.fetchSource = fetchSource;
  }

  // How tiles are fetched from where the bundle is. bundleUrl: the bundle's (or split manifest's)
  // URL; tile requests never leave its origin.
  function tileFetchers() {
    // A picked file (or any Blob): its slice.
    const fromBlob = (blob) => async (i, offset, length) =>
      new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer());
    // One file served with Range support.
    const fromRanges = (url) => async (i, offset, length) => {
      const r = await fetch(url, { headers: { Range: `bytes=${offset}-${offset + length - 1}` } });
      if (r.status !== 206) throw new Error(`the server answered ${r.status} to a byte range request`);
      const bytes = new Uint8Array(await r.arrayBuffer());
      if (bytes.length !== length) throw new Error('missing or cut short');
      return bytes;
    };
    // A split bundle: tiles/<i>.zst beside manifest.strata.
    const fromSplit = (manifestUrl) => {
      const base = new URL('tiles/', new URL(manifestUrl, self.location.href));
      const fetchTile = async (i) => {
        const url = new URL(`${i}.zst`, base);
        if (url.origin !== base.origin) throw new Error('a tile outside the bundle');
        const r = await fetch(url);
        if (!r.ok) throw new Error(`missing or cut short (HTTP ${r.status})`);
        return new Uint8Array(await r.arrayBuffer());
      };
      fetchTile.perTile = true; // a file per tile: no ranges to join
      return fetchTile;
    };
    // The source trace served beside the bundle (its file name in the bundle's directory): an
    // event's record by a Range request, for its args.
    const sourceBeside = (bundleUrl, sourceName) => {
      const at = new URL(bundleUrl, self.location.href);
      const url = new URL(encodeURIComponent(sourceName.split('/').pop()), at);
      if (url.origin !== at.origin) return null;
      return fromRanges(url.href).bind(null, 0);
    };
    return { fromBlob, fromRanges, fromSplit, sourceBeside };
  }

  return { lazyBytes, open, adopt, lazy, whole, view, find, query, details, setSource, fetchers: tileFetchers() };
}
