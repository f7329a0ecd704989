// Tile bundles opened lazily (web/worker/bundle.js, src/engine/bundle_session.h): with
// ?bundleLazyMb=0 a bundle of any size opens by its header, index and search blob, and the
// timeline's views fetch only their tiles. A generated trace packed into several hundred tiles
// shows, one file by Range requests and split, the same events at the same places as the trace
// loaded whole (strata.locate of search matches), the same search results, fetches far fewer
// bytes than the bundle holds, more when zoomed elsewhere, keeps its tile cache under its cap,
// draws a missing or corrupt tile as an error with the rest usable, and never asks another origin.
// A rectangle dragged on its tracks and a name's selection sum the same as on the trace loaded
// whole; packed without its analyses, they say why not (with the bundle's size) beside a "Load
// whole" button, which reads it whole so that they run. The demo's Kineto-like trace packed with
// them: its analyses answer at once without loading whole, as on the trace loaded whole, and a
// kernel's and an operator's details give the loaded trace's flows and launches.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  DIST_DIR,
  REPO_ROOT,
  boxCentre,
  bundleTiles,
  clickMouse,
  dragMouse,
  newStrataPage,
  poll,
  serverAndBrowser,
  tempDir,
  tilesSettled,
} from './lib.mjs';

const PACK = path.join(REPO_ROOT, 'build/native/strata-pack');
const DEMO_FILE = path.join(DIST_DIR, 'demo', 'demo-trace.json');

// Nested slices on four threads and a counter: rows, levels and counter tiles.
function generated(events) {
  const parts = [];
  for (let i = 0; i < events; ++i) {
    // Dense (a slice every 4 us per thread) over a long span, so the whole-trace view reads a
    // level far smaller than the events.
    const tid = 1 + (i % 4),
      ts = 1000 + i;
    parts.push(
      `{"ph":"X","pid":1,"tid":${tid},"ts":${ts},"dur":${2 + (i % 2)},"name":"op${i % 17}","cat":"c${i % 3}"}`,
    );
    if (i % 4 === 0) parts.push(`{"ph":"X","pid":1,"tid":${tid},"ts":${ts + 1},"dur":2,"name":"inner${i % 5}"}`);
    if (i % 9 === 0) parts.push(`{"ph":"C","pid":2,"ts":${ts},"name":"mem","args":{"value":${i % 13}}}`);
  }
  return `{"traceEvents":[${parts.join(',')}]}`;
}

describe('tile bundles opened lazily', () => {
  const tmp = tempDir();
  const env = serverAndBrowser({ '/gen/': tmp.dir });
  let session;
  const requests = [];
  const file = (name) => path.join(tmp.dir, name);
  const pack = (args) => execFileSync(PACK, args, { stdio: 'pipe' });
  let whole; // what the trace loaded whole shows

  const live = () => session.call(() => window.strata.workerSummary(), undefined, 30_000, 'workerSummary');
  // The first matches of a search, each with where it is drawn (null: not drawn).
  async function drawn(text, n) {
    const found = await session.find(text);
    const at = [];
    for (const m of found.matches.slice(0, n)) at.push(await session.locate(m));
    return { count: found.count, matches: found.matches, at };
  }
  async function openLazy(url) {
    await session.goto(`${env.server.origin}/?bundleLazyMb=0&bundle=${encodeURIComponent(url)}`);
    return poll(async () => ((await live()).bundle ? live() : null), { message: 'the lazy bundle opened' });
  }

  // The selection summary of a rectangle dragged over the tracks at the trace's start.
  async function dragged() {
    await session.setView(whole.summary.startNs, whole.summary.startNs + 1_200_000);
    await tilesSettled(session);
    const box = await session.page.locator('#canvas').boundingBox();
    await dragMouse(
      session,
      { x: box.x + box.width * 0.3, y: box.y + box.height * 0.15 },
      { x: box.x + box.width * 0.9, y: box.y + box.height * 0.6 },
    );
    const p = await poll(
      async () => {
        const x = await session.call(() => window.strata.panels());
        return x.summary.shown && x.summary.rows.length > 1 && x;
      },
      { message: 'the selection summary' },
    );
    const sm = p.summary;
    return { count: sm.count, rows: sm.rows.map((r) => [r.name, r.count, r.totalNs, r.selfNs]) };
  }
  const named = (name) => session.call((n) => window.strata.eventsNamed(n), name);

  before(async () => {
    fs.writeFileSync(file('gen.json'), generated(200000));
    // Small tiles: several hundred of them.
    pack([file('gen.json'), '-o', file('gen.strata'), '--tile-items', '256', '--no-analyses']);
    fs.copyFileSync(DEMO_FILE, file('demo.json'));
    pack([file('demo.json'), '-o', file('demo.strata'), '--tile-items', '1024']);
    fs.mkdirSync(file('split'));
    pack([file('gen.json'), '-o', file('split'), '--split', '--tile-items', '256']);
    session = await newStrataPage(env.browser);
    session.context.on('request', (r) => requests.push(r.url()));
    await session.goto(env.server.origin + '/');
    await session.open('/gen/gen.json');
    const s = await session.summary();
    // A zoomed-in view at the trace's start, where the first matches are.
    await session.setView(s.startNs, s.startNs + 1_200_000);
    await tilesSettled(session);
    whole = { summary: s, op3: await drawn('op3', 12), inner: await drawn('inner2', 6) };
    whole.dragged = await dragged();
    whole.named = await named('inner3');
    assert.ok(whole.dragged.count > 10 && whole.named.count > 1000, JSON.stringify(whole.dragged));
    assert.ok(
      whole.op3.at.every(Boolean),
      `the whole load draws its matches: ${JSON.stringify({ at: whole.op3.at, m: whole.op3.matches.slice(0, 3), v: await session.view() })}`,
    );
  });
  after(async () => {
    if (session) await session.close();
    tmp.cleanup();
  });

  for (const [label, url] of [
    ['one file by Range requests', '/gen/gen.strata'],
    ['split', '/gen/split/manifest.strata'],
  ]) {
    test(`${label}: the same events drawn at the same places, a fraction of the bytes`, async () => {
      const first = await openLazy(url);
      const b = first.bundle;
      assert.ok(b.tiles > 300, `${b.tiles} tiles`);
      assert.equal(first.events, whole.summary.events, 'the index counts every event');
      assert.equal(first.tracks, whole.summary.tracks);
      const size = url.endsWith('manifest.strata')
        ? fs.readdirSync(file('split/tiles')).reduce((n, f) => n + fs.statSync(file(`split/tiles/${f}`)).size, 0)
        : fs.statSync(file('gen.strata')).size;
      // A zoomed view fetches its own tiles only (before any search, which reads every tile
      // holding a name it matches). The whole-trace view at the open reads the coarsest level,
      // which on a trace this small is about as big as its events.
      await tilesSettled(session);
      const atOpen = (await live()).bundle.bytesFetched;
      await session.setView(whole.summary.startNs, whole.summary.startNs + 1_200_000);
      await tilesSettled(session);
      const s = (await live()).bundle;
      const zoomed = s.bytesFetched - atOpen;
      assert.ok(zoomed > 0 && zoomed * 20 < size, `the zoomed view fetched ${zoomed} of ${size} bytes`);
      // Zoomed in elsewhere: more tiles.
      await session.setView(whole.summary.endNs - 300_000, whole.summary.endNs);
      await session.frame();
      const later = await poll(
        async () => {
          const x = (await live()).bundle;
          return x.tilesFetched > s.tilesFetched ? x : null;
        },
        { message: 'zooming elsewhere fetched tiles' },
      );
      assert.ok(later.cacheBytes <= later.cacheCap, `cache ${later.cacheBytes} <= ${later.cacheCap}`);
      assert.ok(later.cacheBytes > 0);

      await session.setView(whole.summary.startNs, whole.summary.startNs + 1_200_000);
      await tilesSettled(session);
      const op3 = await drawn('op3', 12);
      assert.equal(op3.count, whole.op3.count, 'search counts every match');
      assert.deepEqual(op3.matches, whole.op3.matches, 'search: the same matches');
      assert.deepEqual(op3.at, whole.op3.at, 'drawn at the same places');
      assert.deepEqual(await drawn('inner2', 6), whole.inner);
      // Details from the events tile; the source is beside the bundle only for the one file.
      const sel = await session.call((ev) => window.strata.select({ event: ev }), op3.matches[0].event);
      assert.equal(sel.events[0].name, 'op3');
      const d = await poll(() => session.details(), { message: 'details' });
      assert.equal(d.name, 'op3');
      // The split bundle's source is not beside its manifest: the details' record request is a
      // 404 (which the browser also logs), and the pane says the args are not here.
      const split = url.endsWith('manifest.strata');
      if (split) assert.match(d.recordNote || '', /source is not here/);
      // A rectangle's and a name's selection: the whole load's sums (self time included).
      assert.deepEqual(await dragged(), whole.dragged, 'the dragged rectangle sums the same');
      assert.deepEqual(await named('inner3'), whole.named, 'the name selection is the same');
      session.assertNoErrors({ allowHttp: split, allowConsole: split, what: label });
    });
  }

  test('analyses say why and how big; Load whole reads the bundle so that they run', async () => {
    const first = await openLazy('/gen/gen.strata');
    const size = fs.statSync(file('gen.strata')).size;
    const why = await session.call(() => window.strata.analysis());
    assert.match(why.error, /open lazily; load it whole to run analyses/);
    assert.equal(why.loadWholeBytes, size);
    await session.call(() => window.strata.setTab('analysis'));
    const v = await poll(
      async () => {
        const x = await session.call(() => window.strata.analysisView());
        return x.loadWhole.bytes > 0 && x.layout.loadWholeButton[2] > 0 && x;
      },
      { message: 'the Analysis tab offers Load whole' },
    );
    assert.equal(v.loadWhole.bytes, size);
    assert.match(v.loadWhole.reason, new RegExp(`all ${Math.ceil(size / 1048576)} MB`));
    const at = boxCentre(v.layout.loadWholeButton);
    await clickMouse(session, at.x, at.y);
    const loaded = await poll(
      async () => {
        const x = await live();
        return !x.bundle && x.events === first.events ? x : null;
      },
      { message: 'the bundle loaded whole' },
    );
    assert.equal(loaded.tracks, whole.summary.tracks);
    const list = await session.call(() => window.strata.analysis());
    assert.equal(list.error, undefined, JSON.stringify(list).slice(0, 300));
    assert.ok(
      list.analyses.some((a) => a.available),
      'some analysis runs',
    );
    const after = await poll(
      async () => {
        const x = await session.call(() => window.strata.analysisView());
        return x.loadWhole.bytes === 0 && x.analyses.length > 0 && x;
      },
      { message: 'the Analysis tab lists the analyses' },
    );
    assert.ok(after.analyses.some((a) => a.available));
    await session.call(() => window.strata.setTab('timeline'));
    // Loading whole reads the bundle by ranges, so its download is stopped (an aborted request).
    session.assertNoErrors({ allowHttp: true, what: 'load whole' });
  });

  test('a Kineto trace: analyses without loading whole, flows and launches in details', async () => {
    // What the trace loaded whole answers: the analyses, and an operator's and a kernel's details.
    await session.goto(env.server.origin + '/');
    await session.open('/gen/demo.json');
    const names = ['overview', 'kernel_stats', 'advisor'];
    // strata-pack names the source by the path it was given, the page by the file's name (the
    // ranks analysis' reason quotes it): compared by its name.
    const analysis = async (n) =>
      JSON.parse(
        JSON.stringify(await session.call((x) => window.strata.analysis(x), n)).replaceAll(tmp.dir + path.sep, ''),
      );
    const want = { list: await analysis(undefined) };
    for (const n of names) want[n] = await analysis(n);
    assert.ok(want.kernel_stats.rows.length > 3, 'the demo has kernel stats');
    // m: a find match ({event, name, tsNs}); its details once they are the ones shown.
    const selectDetails = async (m, what) => {
      const sel = await session.call((e) => window.strata.select({ event: e }), m.event);
      assert.ok(sel && sel.count === 1, `${what}: selected ${JSON.stringify(sel)}`);
      return poll(
        async () => {
          const d = await session.details();
          const shown = d && d.name === m.name && Math.abs(d.startNs - m.tsNs) < 1000;
          return shown && d.flows && d.launchedCount !== undefined ? d : null;
        },
        { message: `details of ${what}` },
      );
    };
    const kernel = (await session.find('ampere_sgemm')).matches[0] || (await session.find('kernel')).matches[0];
    assert.ok(kernel, 'a kernel to click');
    const op = (await session.find('aten::linear')).matches[0] || (await session.find('aten::')).matches[0];
    const fields = (d) => ({ flows: d.flows, launchedCount: d.launchedCount, launched: d.launched });
    want.kernel = fields(await selectDetails(kernel, 'a kernel'));
    want.op = fields(await selectDetails(op, 'an operator'));
    assert.ok(want.kernel.flows.length > 0, `the kernel has its launch: ${JSON.stringify(want.kernel)}`);
    assert.ok(want.op.launchedCount > 0, `the operator launched kernels: ${JSON.stringify(want.op)}`);

    const first = await openLazy('/gen/demo.strata');
    assert.ok(first.bundle, 'open lazily');
    assert.deepEqual(await analysis(undefined), want.list, 'the list, each available or why not');
    for (const n of names) assert.deepEqual(await analysis(n), want[n], n);
    // The Analysis tab shows a table, not a Load whole button.
    await session.call(() => window.strata.setTab('analysis'));
    const v = await poll(
      async () => {
        const x = await session.call(() => window.strata.analysisView());
        return x.analyses.length > 0 && x.columns && x.columns.length > 0 && !x.loading && x;
      },
      { message: 'the Analysis tab shows a packed table' },
    );
    assert.equal(v.loadWhole.bytes, 0, 'no Load whole');
    await session.call(() => window.strata.setTab('timeline'));
    assert.deepEqual(fields(await selectDetails(kernel, 'the lazy kernel')), want.kernel);
    assert.deepEqual(fields(await selectDetails(op, 'the lazy operator')), want.op);
    const still = await live();
    assert.ok(still.bundle, 'still lazy: nothing was loaded whole');
    assert.ok(still.flows > 0, `the bundle's flows counted: ${still.flows}`);
    assert.ok(still.bundle.bytesFetched < fs.statSync(file('demo.strata')).size);
    session.assertNoErrors({ allowHttp: true, what: 'a lazy Kineto bundle' });
  });

  test('a missing and a corrupt tile are errors in their place; the rest draws', async () => {
    // The first events tiles of the view at the trace's start: delete one, flip a byte of another.
    const [first, second] = bundleTiles(file('split'))
      .filter((t) => t.kind === 'events')
      .sort((a, b) => (a.t0 < b.t0 ? -1 : a.t0 > b.t0 ? 1 : a.tile - b.tile))
      .map((t) => t.tile);
    fs.rmSync(file(`split/tiles/${first}.zst`));
    const flipped = file(`split/tiles/${second}.zst`);
    const bytes = fs.readFileSync(flipped);
    bytes[bytes.length >> 1] ^= 0x40;
    fs.writeFileSync(flipped, bytes);
    await openLazy('/gen/split/manifest.strata');
    await session.setView(whole.summary.startNs, whole.summary.startNs + 1_200_000);
    const s = await poll(
      async () => {
        const x = await live();
        return x.bundle.tilesFailed >= 2 ? x : null;
      },
      { message: 'the two tiles failed' },
    );
    const said = JSON.stringify(s.errors);
    assert.match(said, new RegExp(`bundle tile ${first}: missing`), said);
    assert.match(said, /checksum/, said);
    // Search still works (without the two tiles' matches), and so do the other rows.
    const found = await session.find('op3');
    assert.ok(found.count > 0 && found.count < whole.op3.count, `${found.count} of ${whole.op3.count}`);
    const later = (await drawn('op3', 40)).at.filter(Boolean);
    assert.ok(later.length > 0, 'matches outside the two tiles are drawn');
  });

  test('no request leaves the site', async () => {
    const origin = new URL(env.server.origin).origin;
    const away = requests.filter(
      (u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin,
    );
    assert.deepEqual(away, []);
    assert.ok(requests.some((u) => /\/gen\/split\/tiles\/\d+\.zst$/.test(u)));
  });
});
