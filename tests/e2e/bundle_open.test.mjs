// Tile bundles opened in the page (web/worker/db.js loadBundle): a trace packed by
// build/native/strata-pack opens by ?bundle=<url> (one file, read by Range requests, and a split
// bundle's manifest with its tiles/<i>.zst beside it) and picked from disk, and shows the trace it
// was packed from: the same events, tracks, time range and search results as the source opened
// itself. A bundle of another version is refused with a message and the trace shown stays; a
// split bundle with a tile missing opens with that tile named in its errors.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, bundleTiles, dataPath, hasData, newStrataPage, poll, serverAndBrowser, tempDir } from './lib.mjs';

const PACK = path.join(REPO_ROOT, 'build/native/strata-pack');
const REAL = 'chrome_trace/catapult/multiple_input_latency.json';

// Nested slices on three threads and a counter, so the bundle has rows, levels and counters.
function generated(events) {
  const parts = [];
  for (let i = 0; i < events; ++i) {
    const tid = 1 + (i % 3),
      ts = 1000 + i * 5;
    parts.push(`{"ph":"X","pid":1,"tid":${tid},"ts":${ts},"dur":8,"name":"op${i % 17}","cat":"c${i % 3}"}`);
    if (i % 4 === 0) parts.push(`{"ph":"X","pid":1,"tid":${tid},"ts":${ts + 1},"dur":2,"name":"inner${i % 5}"}`);
    if (i % 9 === 0) parts.push(`{"ph":"C","pid":2,"ts":${ts},"name":"mem","args":{"value":${i % 13}}}`);
  }
  return `{"traceEvents":[${parts.join(',')}]}`;
}

describe('tile bundles open in the page', () => {
  const tmp = tempDir();
  const env = serverAndBrowser({ '/gen/': tmp.dir });
  let session;
  const requests = []; // {url, range} of every request the page and its workers made
  const file = (name) => path.join(tmp.dir, name);
  const pack = (args) => execFileSync(PACK, args, { stdio: 'pipe' });

  before(async () => {
    fs.writeFileSync(file('gen.json'), generated(30000));
    // Small tiles, so a bundle of this size has many of them.
    pack([file('gen.json'), '-o', file('gen.strata'), '--tile-items', '512']);
    fs.mkdirSync(file('split'));
    pack([file('gen.json'), '-o', file('split'), '--split', '--tile-items', '512']);
    const bytes = fs.readFileSync(file('gen.strata'));
    bytes[8] = 1; // a bundle of format version 1 (before flows and analyses were packed)
    fs.writeFileSync(file('other-version.strata'), bytes);
    session = await newStrataPage(env.browser);
    session.page.on('request', (r) => requests.push({ url: r.url(), range: r.headers().range || null }));
    await session.goto(env.server.origin + '/');
  });
  after(async () => {
    if (session) await session.close();
    tmp.cleanup();
  });

  const digest = () => session.call(() => window.strata.storeDigest(), undefined, 60_000, 'storeDigest');
  const finds = (text) => session.find(text).then((r) => r.count);
  async function shown() {
    const s = await session.summary();
    return {
      events: s.events,
      counters: s.counters,
      tracks: s.tracks,
      processes: s.processes,
      startNs: s.startNs,
      endNs: s.endNs,
      errors: s.errors,
      op3: await finds('op3'),
      inner: await finds('inner'),
    };
  }

  test('?bundle= of a one-file and a split bundle, and a picked .strata, show the packed trace', async () => {
    await session.open('/gen/gen.json');
    const source = await shown();
    assert.ok(source.events > 30000, `${source.events} events`);
    assert.ok(source.counters > 0 && source.op3 > 0);

    await session.goto(`${env.server.origin}/?bundle=${encodeURIComponent('/gen/gen.strata')}`);
    const s = await poll(async () => ((await session.summary()).events ? session.summary() : null), {
      message: 'the bundle loaded',
    });
    // The bundle names the file it was packed from.
    assert.match(s.files[0].name, /gen\.json$/);
    assert.deepEqual(await shown(), source, 'one-file bundle by URL');
    // The three ways in build one store (the source's file names and messages are the bundle's,
    // so its digest is not the source load's).
    const bundleDigest = await digest();
    // Read by ranges: the header, the index, then the tiles, never the whole file in one request
    // after the first one (the open's stream, stopped once the head is in).
    const reads = requests.filter((r) => r.url.endsWith('/gen/gen.strata'));
    const ranged = reads.filter((r) => r.range);
    assert.ok(ranged.length > 10, `${ranged.length} range requests of ${reads.length}`);
    assert.ok(
      ranged.some((r) => r.range === 'bytes=0-63'),
      'the header by its range',
    );

    await session.open('/gen/split/manifest.strata');
    assert.deepEqual(await shown(), source, 'split bundle by URL');
    assert.equal(await digest(), bundleDigest, 'split: the same store');
    const tiles = requests.filter((r) => /\/gen\/split\/tiles\/\d+\.zst$/.test(r.url));
    assert.ok(tiles.length > 10, `${tiles.length} split tiles fetched`);

    await session.open('/demo/demo-trace.json');
    await session.page.setInputFiles('#file-input', file('gen.strata'));
    await poll(async () => ((await session.summary()).events === source.events ? true : null), {
      message: 'the picked bundle loaded',
    });
    assert.deepEqual(await shown(), source, 'picked bundle');
    assert.equal(await digest(), bundleDigest, 'picked: the same store');
    session.assertNoErrors({ allowHttp: true, what: 'opening bundles' });
  });

  test('another version is refused and the trace stays; a missing split tile is named', async () => {
    await session.open('/gen/gen.strata');
    const before_ = await session.summary();
    const r = await session.call(
      (u) => window.strata.open(u).catch((e) => ({ rejected: String(e) })),
      '/gen/other-version.strata',
    );
    const after_ = await session.summary();
    const said = JSON.stringify(r) + JSON.stringify(after_.errors);
    assert.match(said, /format version 1; this Strata reads version 2/, said);
    assert.equal(after_.events, before_.events, 'the trace shown stays');

    // An events tile (a bundle read whole rebuilds its levels and does not read theirs).
    const gone = bundleTiles(file('split')).find((t) => t.kind === 'events').tile;
    fs.rmSync(file(`split/tiles/${gone}.zst`));
    await session.open('/gen/split/manifest.strata');
    const s = await session.summary();
    assert.ok(s.events > 0, 'the other tiles loaded');
    assert.ok(
      s.errors.some((e) => new RegExp(`tile ${gone}\\b`).test(e)),
      `the missing tile named: ${JSON.stringify(s.errors)}`,
    );
  });

  test(
    'a real trace packed and opened by URL shows what the trace itself shows',
    { skip: !hasData(REAL) },
    async () => {
      fs.copyFileSync(dataPath(REAL), file('real.json'));
      pack([file('real.json'), '-o', file('real.strata')]);
      await session.open('/gen/real.json');
      const source = await shown();
      await session.open('/gen/real.strata');
      const bundle = await shown();
      for (const k of ['events', 'counters', 'tracks', 'processes', 'startNs', 'endNs', 'op3', 'inner'])
        assert.deepEqual(bundle[k], source[k], k);
    },
  );
});
