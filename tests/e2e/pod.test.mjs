// A pod opened in the page: a generated 4-rank pod packed as tests/pod/pack_pod_test.sh packs it
// (strata_make_demo ranks, scripts/pack-pod with build/native/strata-pack) and served beside the
// app. ?pod= lists its hosts with the summaries pod.json gives them; two hosts open as one trace
// on one time axis (a section group each, every host's events at its own times, as when it is
// opened alone); a host whose bundle is missing gets its error in its row while the others open.
// With ?bundleLazyMb=0 the hosts open lazily (web/worker/pod.js, engine/pod/pod_lazy.h): a second
// pod of rank1's one-file bundle and rank3 packed split (manifest.strata and tiles/) opens with
// the same sections, events and search as when read whole, fetching only the tiles its views
// need, from each host's own files on the page's origin; a region over both hosts, a name and
// details (parent, children, self time) answer as read whole; Load whole reads the hosts whole
// so the analyses run; a split host picked from disk is refused with why.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { REPO_ROOT, serverAndBrowser, newStrataPage, poll, tempDir, tilesSettled } from './lib.mjs';

const PACK = path.join(REPO_ROOT, 'build/native/strata-pack');
const DEMO = path.join(REPO_ROOT, 'build/native/strata_make_demo');
const HAVE_TOOLS = fs.existsSync(PACK) && fs.existsSync(DEMO);
const HOSTS = ['rank0', 'rank1', 'rank2', 'rank3'];
const SHIFT_US = 1500;
// summary().startNs is a Number: at epoch scale it is good to 256 ns.
const NUMBER_NS = 512;

// The pod, packed before the server starts (its folder is mounted at /pod/).
const tmp = HAVE_TOOLS ? tempDir('strata-pod-') : null;
const OUT = tmp ? path.join(tmp.dir, 'out') : '';
const SPLIT = tmp ? path.join(tmp.dir, 'split') : '';
if (tmp) {
  const input = path.join(tmp.dir, 'in');
  fs.mkdirSync(input);
  HOSTS.forEach((h, r) => {
    const file = path.join(input, `${h}.json`);
    execFileSync(DEMO, [file, '1', `${r}/4`], { stdio: 'ignore' });
    // Rank r starts r * SHIFT_US later, so each host has an offset of its own in the pod.
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(
      file,
      text.replace(/"ts": (\d+)\./g, (_, us) => `"ts": ${BigInt(us) + BigInt(r * SHIFT_US)}.`),
    );
  });
  execFileSync('bash', [path.join(REPO_ROOT, 'scripts/pack-pod'), input, OUT, '-j', '2'], {
    env: { ...process.env, STRATA_PACK: PACK },
    stdio: 'ignore',
  });
  // The second pod: rank1 as packed, rank3 packed split.
  fs.mkdirSync(SPLIT);
  fs.copyFileSync(path.join(OUT, 'rank1.strata'), path.join(SPLIT, 'rank1.strata'));
  execFileSync(
    PACK,
    [path.join(input, 'rank3.json'), '-o', path.join(SPLIT, 'rank3'), '--split', '--tile-items', '512'],
    {
      stdio: 'ignore',
    },
  );
  execFileSync(PACK, ['--merge-pod', SPLIT], { stdio: 'ignore' });
  process.on('exit', tmp.cleanup);
}
const manifest = () => JSON.parse(fs.readFileSync(path.join(OUT, 'pod.json'), 'utf8'));

describe('a pod manifest in the page', { skip: HAVE_TOOLS ? false : 'build/native/strata-pack not built' }, () => {
  const env = serverAndBrowser(tmp ? { '/pod/': OUT } : {});
  let s;
  before(async () => {
    s = await newStrataPage(env.browser);
    await s.goto(`${env.server.origin}/?pod=/pod/pod.json`);
  });
  const pod = () => s.call(() => window.strata.pod());
  const openHosts = (names) => s.call((n) => window.strata.openHosts(n), names, 120_000, `strata.openHosts(${names})`);
  // The processes' section names, in order (the Global process of each host included).
  const sections = async () => {
    await s.frame();
    return (await s.call(() => window.strata.trackHeaders())).processes.map((p) => p.name);
  };
  // Every event whose name holds `text`: how many, and the start of each (of the first 100).
  const found = async (text) => {
    const r = await s.call((t) => window.strata.find(t), text);
    return { count: r.count, ts: r.matches.map((m) => m.tsNs).sort((a, b) => a - b) };
  };

  test('?pod= lists every host with the summary pod.json gives it', async () => {
    const m = manifest();
    const table = await poll(pod, { message: 'strata.pod()' });
    assert.deepEqual(table.errors, []);
    assert.equal(table.base, m.base);
    assert.deepEqual(
      table.hosts.map((h) => h.name),
      HOSTS,
    );
    for (const [i, h] of table.hosts.entries()) {
      const want = m.hosts[i];
      assert.deepEqual(
        [h.bundle, h.offsetNs, h.spanNs, h.events, h.tracks, h.busyNs, h.steps, h.stepMedianNs],
        [want.bundle, want.offset, want.span, want.events, want.tracks, want.busy, want.steps, want.step],
        h.name,
      );
      assert.ok(h.steps > 0 && h.busyNs > 0, JSON.stringify(h));
      assert.equal(h.open, false);
    }
    // The Pod tab shows them, in name order until a column is sorted.
    await s.call(() => window.strata.setTab('pod'));
    await s.frame();
    assert.deepEqual((await s.call(() => window.strata.podView())).hosts, HOSTS);
    s.assertNoErrors();
  });

  test('two hosts open as one trace on one time axis, each a section group at its offset', async () => {
    const m = manifest();
    const one = await openHosts(['rank1']);
    const oneSections = await sections();
    const oneSteps = await found('ProfilerStep#');
    const three = await openHosts(['rank3']);
    const threeSections = await sections();
    const threeSteps = await found('ProfilerStep#');
    assert.deepEqual([one.errors, three.errors], [[], []]);
    assert.equal(one.events, m.hosts[1].events);
    assert.equal(three.events, m.hosts[3].events);
    assert.ok(oneSteps.count > 0, 'rank1 has steps');

    const both = await openHosts(['rank1', 'rank3']);
    assert.deepEqual(both.errors, []);
    assert.equal(both.events, one.events + three.events);
    assert.equal(both.tracks, one.tracks + three.tracks);
    // One axis: each host where its own clock put it, rank3 (offset - rank1's offset) later.
    assert.equal(both.startNs, Math.min(one.startNs, three.startNs));
    assert.equal(both.endNs, Math.max(one.endNs, three.endNs));
    const base = BigInt(m.base);
    assert.deepEqual(
      m.hosts.map((h) => h.offset),
      HOSTS.map((h, r) => r * SHIFT_US * 1000),
    );
    assert.ok(Math.abs(Number(BigInt(one.startNs) - base) - m.hosts[1].offset) < NUMBER_NS, `${one.startNs}`);
    assert.ok(Math.abs(Number(BigInt(three.startNs) - base) - m.hosts[3].offset) < NUMBER_NS, `${three.startNs}`);
    // rank1's sections, then rank3's, each named after its host (as each is when opened alone).
    assert.ok(oneSections.length > 0 && oneSections.every((n) => n.startsWith('rank1 ')), `${oneSections}`);
    assert.ok(
      threeSections.every((n) => n.startsWith('rank3 ')),
      `${threeSections}`,
    );
    assert.deepEqual(await sections(), [...oneSections, ...threeSections]);
    // A query sees both hosts' events at their own times.
    const stepsBoth = await found('ProfilerStep#');
    assert.equal(stepsBoth.count, oneSteps.count + threeSteps.count);
    if (stepsBoth.count <= 100)
      assert.deepEqual(
        stepsBoth.ts,
        [...oneSteps.ts, ...threeSteps.ts].sort((a, b) => a - b),
      );
    const table = await pod();
    assert.deepEqual(
      table.hosts.map((h) => [h.name, h.open, h.error]),
      HOSTS.map((h) => [h, h === 'rank1' || h === 'rank3', '']),
    );
    s.assertNoErrors();
  });

  test('a host whose bundle is missing gets its error in its row while the others open', async () => {
    const m = manifest();
    const bundle = path.join(OUT, 'rank2.strata');
    fs.renameSync(bundle, `${bundle}.gone`);
    try {
      const r = await openHosts(['rank0', 'rank2']);
      assert.equal(r.events, m.hosts[0].events);
      assert.ok(
        r.errors.some((e) => e.startsWith('rank2: ') && e.includes('404')),
        JSON.stringify(r.errors),
      );
      const table = await pod();
      const row = (n) => table.hosts.find((h) => h.name === n);
      assert.equal(row('rank0').open, true);
      assert.equal(row('rank2').open, false);
      assert.match(row('rank2').error, /404/);
      assert.deepEqual(
        (await sections()).filter((n) => !n.startsWith('rank0 ')),
        [],
      );
    } finally {
      fs.renameSync(`${bundle}.gone`, bundle);
    }
    s.assertNoErrors({ allowHttp: true });
  });
});

describe("a pod's hosts opened lazily", { skip: HAVE_TOOLS ? false : 'build/native/strata-pack not built' }, () => {
  const env = serverAndBrowser(tmp ? { '/pod2/': SPLIT } : {});
  let whole, lazy;
  const requests = [];
  before(async () => {
    whole = await newStrataPage(env.browser);
    await whole.goto(`${env.server.origin}/?pod=/pod2/pod.json`);
    lazy = await newStrataPage(env.browser);
    lazy.context.on('request', (r) => requests.push({ url: r.url(), range: r.headers().range || '' }));
    await lazy.goto(`${env.server.origin}/?pod=/pod2/pod.json&bundleLazyMb=0`);
    for (const s of [whole, lazy]) await poll(() => s.call(() => window.strata.pod()), { message: 'strata.pod()' });
  });
  after(async () => {
    for (const s of [whole, lazy]) if (s) await s.close();
  });
  const openHosts = (s, names) =>
    s.call((n) => window.strata.openHosts(n), names, 120_000, `strata.openHosts(${names})`);
  const live = (s) => s.call(() => window.strata.workerSummary(), undefined, 30_000, 'workerSummary');
  const sections = async (s) => {
    await s.frame();
    return (await s.call(() => window.strata.trackHeaders())).processes.map((p) => p.name);
  };
  // A search's matches and where each of the first `n` is drawn.
  async function drawn(s, text, n) {
    const found = await s.find(text);
    const at = [];
    for (const m of found.matches.slice(0, n)) at.push(await s.locate(m));
    return { count: found.count, matches: found.matches, at };
  }

  test('the hosts open by their indices, tiles fetched for the view from each host', async () => {
    const m = JSON.parse(fs.readFileSync(path.join(SPLIT, 'pod.json'), 'utf8'));
    assert.deepEqual(
      m.hosts.map((h) => h.bundle),
      ['rank1.strata', 'rank3'],
    );
    const a = await openHosts(whole, ['rank1', 'rank3']);
    const b = await openHosts(lazy, ['rank1', 'rank3']);
    assert.deepEqual([a.errors, b.errors], [[], []]);
    assert.equal(a.events, m.hosts[0].events + m.hosts[1].events);
    assert.deepEqual([b.events, b.tracks, b.startNs, b.endNs], [a.events, a.tracks, a.startNs, a.endNs]);
    assert.equal((await live(whole)).bundle, undefined, 'read whole');
    await tilesSettled(lazy);
    const opened = (await live(lazy)).bundle;
    assert.ok(opened && opened.tiles > 10, JSON.stringify(opened));
    // The whole-pod view at the open reads the coarse tiles, not every one.
    assert.ok(opened.tilesFetched > 0 && opened.tilesFetched < opened.tiles, JSON.stringify(opened));
    const bytes =
      fs.statSync(path.join(SPLIT, 'rank1.strata')).size +
      fs.statSync(path.join(SPLIT, 'rank3/manifest.strata')).size +
      fs
        .readdirSync(path.join(SPLIT, 'rank3/tiles'))
        .reduce((n, f) => n + fs.statSync(path.join(SPLIT, 'rank3/tiles', f)).size, 0);
    assert.equal(opened.bytes, bytes, "the hosts' bundles, the split one's tiles included");
    // The host rows: one section group per host, as read whole.
    const names = await sections(lazy);
    assert.deepEqual(names, await sections(whole));
    assert.ok(names.some((n) => n.startsWith('rank1 ')) && names.some((n) => n.startsWith('rank3 ')), `${names}`);
    const table = await lazy.call(() => window.strata.pod());
    assert.deepEqual(
      table.hosts.map((h) => [h.name, h.open, h.error]),
      [
        ['rank1', true, ''],
        ['rank3', true, ''],
      ],
    );
    // A zoomed view where both hosts run (on a pod this small the open's view already read most
    // of its tiles): still not every tile, and the same events drawn at the same places (search
    // counts every host's matches).
    const at = b.startNs + Number(BigInt(m.hosts[1].offset) - BigInt(m.hosts[0].offset));
    for (const s of [whole, lazy]) {
      await s.setView(at, at + 100_000); // finer than the finest level: events tiles
      await tilesSettled(s);
    }
    const zoomed = (await live(lazy)).bundle;
    assert.ok(zoomed.tilesFetched < zoomed.tiles && zoomed.bytesFetched < bytes, JSON.stringify(zoomed));
    const want = await drawn(whole, 'ProfilerStep#', 8);
    const got = await drawn(lazy, 'ProfilerStep#', 8);
    assert.ok(want.count > 0);
    assert.equal(got.count, want.count);
    assert.deepEqual(got.matches, want.matches);
    assert.deepEqual(got.at, want.at);
    // Tiles came from each host's own files, never from anywhere else.
    const origin = new URL(env.server.origin).origin;
    const away = requests.filter(
      ({ url }) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin,
    );
    assert.deepEqual(away, []);
    assert.ok(
      requests.some(({ url }) => /\/pod2\/rank3\/tiles\/\d+\.zst$/.test(url)),
      'rank3 tiles by file',
    );
    // rank1 by ranges: its header once (as located), its search blob and index by one request
    // (they end the file), then its tiles.
    const rank1 = requests.filter(
      ({ url, range }) => url.endsWith('/pod2/rank1.strata') && range && range !== 'bytes=0-63',
    );
    const rank1Bytes = fs.statSync(path.join(SPLIT, 'rank1.strata')).size;
    const ends = rank1.filter(({ range }) => Number(range.split('-')[1]) === rank1Bytes - 1);
    assert.equal(ends.length, 1, `rank1's tables by one request: ${JSON.stringify(rank1)}`);
    assert.ok(rank1.length >= 2, `rank1 tiles by range: ${JSON.stringify(rank1)}`);
    assert.equal(
      requests.filter(({ url, range }) => url.endsWith('/pod2/rank1.strata') && range === 'bytes=0-63').length,
      1,
      "rank1's header read once",
    );
    assert.ok(
      !requests.some(({ url, range }) => url.endsWith('/pod2/rank1.strata') && !range),
      'rank1 never fetched whole',
    );
    for (const s of [whole, lazy]) s.assertNoErrors();
  });

  // A select query's reply ({count, events, summary}) on page `s`: `args` as the engine takes them.
  const select = (s, args) => s.call((a) => window.strata.eventsOfLink(a), args, 60_000, 'select');
  // The details pane's JSON of `event` once it is selected.
  async function detailsOf(s, event) {
    await s.call((ev) => window.strata.select({ event: ev }), event);
    return poll(
      async () => {
        const d = await s.details();
        return d && d.event === event ? d : null;
      },
      { message: `the details of ${event}` },
    );
  }

  test("a region over both hosts, a name and details' parents are the whole-read pod's", async () => {
    const m = JSON.parse(fs.readFileSync(path.join(SPLIT, 'pod.json'), 'utf8'));
    const a = await openHosts(whole, ['rank1', 'rank3']);
    await openHosts(lazy, ['rank1', 'rank3']);
    // From rank3's start (its offset past rank1's, on the pod's axis), every row of every track.
    const at = Number(BigInt(m.hosts[1].offset) - BigInt(m.hosts[0].offset));
    const rows = [...Array(a.tracks).keys()].map((t) => [t, 0, 16]);
    const region = { t0: at, t1: at + 400_000, rows };
    const want = await select(whole, region);
    assert.ok(want.count > 10 && want.summary.length > 1, JSON.stringify(want).slice(0, 300));
    assert.deepEqual(await select(lazy, region), want, 'the region: events and summary');
    // Nested events at both ends of the region's tracks (rank1's first, rank3's last): their
    // details (parent, children, self time) as read whole, and whose host each is in.
    const nested = want.events.filter((e) => e.depth > 0).sort((x, y) => x.track - y.track);
    const hosts = new Set();
    for (const e of [...nested.slice(0, 3), ...nested.slice(-3)]) {
      const w = await detailsOf(whole, e.event);
      assert.notEqual(w.parent, null, JSON.stringify(w));
      assert.deepEqual(await detailsOf(lazy, e.event), w, `details of ${e.event}`);
      hosts.add(w.process.split(' ')[0]);
    }
    assert.deepEqual([...hosts].sort(), ['rank1', 'rank3'], 'the region spans both hosts');
    // A name on every host (each host's search blob lists its tiles): the whole read's.
    const name = want.summary[0].name;
    const named = await whole.call((n) => window.strata.eventsNamed(n), name);
    assert.ok(named.count >= want.summary[0].count, JSON.stringify(named).slice(0, 200));
    assert.deepEqual(await lazy.call((n) => window.strata.eventsNamed(n), name), named, `eventsNamed(${name})`);
    for (const s of [whole, lazy]) s.assertNoErrors();
  });

  test('Load whole on the lazy hosts reads them whole, and the analyses run', async () => {
    const opened = await openHosts(lazy, ['rank1', 'rank3']);
    const bytes = (await live(lazy)).bundle.bytes;
    const why = await lazy.call(() => window.strata.analysis());
    assert.match(why.error, /hosts are open lazily; load them whole to run analyses/);
    assert.equal(why.loadWholeBytes, bytes);
    await lazy.call(() => window.strata.setTab('analysis'));
    const v = await poll(
      async () => {
        const x = await lazy.call(() => window.strata.analysisView());
        return x.loadWhole.bytes > 0 && x.layout.loadWholeButton[2] > 0 && x;
      },
      { message: 'the Analysis tab offers Load whole' },
    );
    assert.equal(v.loadWhole.bytes, bytes);
    const loaded = await lazy.call(() => window.strata.loadWhole(), undefined, 120_000, 'strata.loadWhole()');
    assert.deepEqual([loaded.events, loaded.tracks], [opened.events, opened.tracks]);
    assert.equal((await live(lazy)).bundle, undefined, 'read whole');
    const list = await lazy.call(() => window.strata.analysis());
    assert.equal(list.error, undefined, JSON.stringify(list).slice(0, 300));
    assert.ok(list.analyses.some((x) => x.available));
    const table = await lazy.call(() => window.strata.pod());
    assert.deepEqual(
      table.hosts.map((h) => [h.name, h.open]),
      [
        ['rank1', true],
        ['rank3', true],
      ],
    );
    await lazy.call(() => window.strata.setTab('timeline'));
    lazy.assertNoErrors();
  });

  test('a split host picked from disk is refused with why; the one-file host opens', async () => {
    const s = await newStrataPage(env.browser);
    try {
      await s.goto(`${env.server.origin}/?bundleLazyMb=0`);
      const files = ['pod.json', 'rank1.strata', 'rank3/manifest.strata'].map((f) => path.join(SPLIT, f));
      await s.page.setInputFiles('#file-input', files);
      await poll(() => s.call(() => window.strata.pod()), { message: 'the picked pod.json' });
      const r = await s.call((n) => window.strata.openHosts(n), ['rank1', 'rank3'], 120_000, 'openHosts');
      const m = JSON.parse(fs.readFileSync(path.join(SPLIT, 'pod.json'), 'utf8'));
      assert.equal(r.events, m.hosts[0].events);
      const table = await s.call(() => window.strata.pod());
      const row = (n) => table.hosts.find((h) => h.name === n);
      assert.equal(row('rank1').open, true);
      assert.equal(row('rank3').open, false);
      assert.match(row('rank3').error, /split bundle \(a folder\): open pod\.json by its URL/);
      s.assertNoErrors();
    } finally {
      await s.close();
    }
  });
});
