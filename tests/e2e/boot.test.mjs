// The page's start-up order (web/page/boot.js): a ?bundle= navigation sends its open from the
// <head>, before the UI module is instantiated, and never fetches the demo trace; the bundle is
// then shown and drawn. A ?bundle= of another format version fails with its message, and a bare
// navigation still opens the demo.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, newStrataPage, poll, serverAndBrowser, tempDir } from './lib.mjs';

const PACK = path.join(REPO_ROOT, 'build/native/strata-pack');

// Slices on two threads: enough for a bundle with a few rows and levels.
function generated(events) {
  const parts = [];
  for (let i = 0; i < events; ++i)
    parts.push(`{"ph":"X","pid":1,"tid":${1 + (i % 2)},"ts":${1000 + i * 5},"dur":4,"name":"op${i % 7}"}`);
  return `{"traceEvents":[${parts.join(',')}]}`;
}

// The page's start-up marks (web/shared/marks.js) by step, in ms since the navigation.
const marks = (s) =>
  s.call(() =>
    Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name.replace(/^strata:/, ''), m.startTime])),
  );

describe('start-up order', { skip: !fs.existsSync(PACK) && 'build/native/strata-pack not built' }, () => {
  const tmp = tempDir();
  const env = serverAndBrowser({ '/gen/': tmp.dir });
  before(() => {
    fs.writeFileSync(path.join(tmp.dir, 'gen.json'), generated(20000));
    execFileSync(PACK, [path.join(tmp.dir, 'gen.json'), '-o', path.join(tmp.dir, 'gen.strata'), '--tile-items', '512']);
    // A bundle of another format version, which the page must refuse.
    const bytes = fs.readFileSync(path.join(tmp.dir, 'gen.strata'));
    bytes[8] = 1;
    fs.writeFileSync(path.join(tmp.dir, 'bad.strata'), bytes);
  });
  after(() => tmp.cleanup());

  test('a ?bundle= navigation opens the bundle before the UI is up and never fetches the demo', async () => {
    const s = await newStrataPage(env.browser);
    const urls = [];
    s.page.on('request', (r) => urls.push(new URL(r.url()).pathname));
    try {
      await s.goto(`${env.server.url}?bundleLazyMb=0&bundle=/gen/gen.strata`);
      const sum = await s.call(() => window.strata.workerSummary());
      assert.equal(path.basename(sum.files[0].name), 'gen.json', 'the bundle shows the trace it was packed from');
      assert.ok(sum.bundle && sum.bundle.tiles > 0, `opened lazily: ${JSON.stringify(sum.bundle)}`);
      assert.equal(sum.events, 20000);
      // Its first view's tiles were asked for and drawn.
      await poll(
        async () => {
          const t = await s.call(() => window.strata.tileStats());
          return t.requests > 0 && t.pending === 0;
        },
        { message: 'the first view' },
      );
      assert.ok(!urls.some((u) => u.includes('demo-trace')), `no demo request: ${urls.join(' ')}`);
      assert.ok(
        urls.some((u) => u === '/gen/gen.strata'),
        `the bundle was requested: ${urls.join(' ')}`,
      );
      const m = await marks(s);
      for (const step of ['boot', 'open-sent', 'ui-module', 'ui-ready', 'tracks-to-ui'])
        assert.ok(Number.isFinite(m[step]), `mark ${step}: ${JSON.stringify(m)}`);
      // The open went out from <head>, before the UI module existed, and the page's own scripts
      // ran before the UI started.
      assert.ok(m['open-sent'] < m['page-script'], `open before the body's scripts: ${JSON.stringify(m)}`);
      assert.ok(m['open-sent'] < m['ui-module'], `open before the UI: ${JSON.stringify(m)}`);
      s.assertNoErrors({ what: '?bundle=' });
    } finally {
      await s.page.context().close();
    }
  });

  test('a ?bundle= of another version fails with its message; the page stays usable', async () => {
    const s = await newStrataPage(env.browser);
    try {
      // Listening from before the page's scripts: the start-up load's end is announced once.
      await s.page.addInitScript(() => {
        window.__failed = [];
        window.addEventListener('strata:loadfailed', (e) => window.__failed.push(e.detail.error));
      });
      await s.goto(`${env.server.url}?bundleLazyMb=0&bundle=/gen/bad.strata`);
      const sum = await s.summary();
      assert.equal(sum.files.length, 0, `nothing opened: ${JSON.stringify(sum.files)}`);
      const failed = await s.call(() => window.__failed);
      assert.equal(failed.length, 1, `one strata:loadfailed: ${JSON.stringify(failed)}`);
      assert.match(failed[0], /format version 1/);
      // The UI shows it (its error banner, as strata.state() reports it).
      await s.frame();
      const state = await s.call(() => window.strata.state());
      assert.equal(state.error, failed[0], 'the UI shows the error');
      // The page stays usable: the demo opens by the API after the failure.
      const demo = await s.call(() => window.strata.open('demo/demo-trace.json'));
      assert.match(demo.files[0].name, /demo/);
      s.assertNoErrors({ what: 'bad ?bundle=', allowConsole: true });
    } finally {
      await s.page.context().close();
    }
  });

  test('a bare navigation opens the demo trace', async () => {
    const s = await newStrataPage(env.browser);
    try {
      await s.goto(env.server.url);
      const sum = await s.summary();
      assert.match(sum.files[0].name, /demo/);
      assert.ok(sum.events > 0);
      s.assertNoErrors({ what: 'bare navigation' });
    } finally {
      await s.page.context().close();
    }
  });
});
