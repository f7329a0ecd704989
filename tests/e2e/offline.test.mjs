// Offline start (issue 10): after one visit, the service worker (web/sw.js) has this build's files
// in a cache named after the build hash, and a second visit with the server stopped still opens
// Strata with the demo trace, from the root and from a sub-path.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DIST_DIR, SUB_PATH, launchBrowser, newStrataPage, requireDist, startStrataServer } from './lib.mjs';

describe('offline', () => {
  let browser;
  before(async () => {
    requireDist();
    browser = await launchBrowser();
  });
  after(async () => {
    if (browser) await browser.close().catch(() => {});
  });

  for (const where of ['/', SUB_PATH]) {
    test(`a second visit to ${where} opens with the server stopped`, async () => {
      const build = /^const BUILD = '([0-9a-f]{16})';$/m.exec(fs.readFileSync(path.join(DIST_DIR, 'sw.js'), 'utf8'));
      assert.ok(build, 'dist/sw.js has no build hash: was it assembled by scripts/build.sh?');
      const server = await startStrataServer();
      const s = await newStrataPage(browser);
      let stopped = false;
      try {
        const url = server.origin + where;
        await s.goto(url);
        const scope = await s.call(
          async () => (await navigator.serviceWorker.ready).scope,
          undefined,
          60_000,
          'service worker ready',
        );
        assert.equal(scope, url, "the service worker covers the page's directory");
        const keys = await s.call(() => caches.keys());
        assert.ok(keys.includes(`strata-${build[1]}`), `cache named after the build: ${JSON.stringify(keys)}`);
        s.assertNoErrors({ what: 'first visit' });

        await server.close();
        stopped = true;
        const again = await s.context.newPage(); // same profile: same service worker and cache
        await again.goto(`${url}?view=1,2`, { waitUntil: 'load', timeout: 60_000 });
        await again.waitForFunction(() => window.strata && window.strata.ready, undefined, { timeout: 60_000 });
        const sum = await again.evaluate(async () => {
          await window.strata.ready;
          return window.strata.summary();
        });
        assert.match(sum.files[0].name, /demo/, `offline: ${JSON.stringify(sum.files)}`);
        assert.deepEqual(sum.errors, [], 'offline: summary.errors');
        assert.ok(sum.events > 0, 'offline: the demo has events');
      } finally {
        await s.close();
        if (!stopped) await server.close();
      }
    });
  }
});
