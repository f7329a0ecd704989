// Recent files (issue 10): a picked file is kept in the site's private storage (OPFS), a later
// visit reopens it from the "Recent" panel, and "Forget all recent files" deletes it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { countTrace, newStrataPage, poll, serverAndBrowser } from './lib.mjs';
import { makeHtmlTrace } from './html-trace.mjs';

describe('recent files', () => {
  const env = serverAndBrowser();

  test('a picked file reopens on a later visit, and Forget deletes it', async () => {
    const trace = makeHtmlTrace();
    const exp = countTrace(trace);
    const s = await newStrataPage(env.browser);
    try {
      await s.goto(env.server.url);
      await s.call(() => {
        window.__loads = [];
        window.addEventListener('strata:loaded', (e) => window.__loads.push(e.detail));
      });
      await s.page.setInputFiles('#file-input', {
        name: 'kept-trace.json',
        mimeType: 'application/json',
        buffer: trace,
      });
      await poll(() => s.call(() => window.__loads.some((x) => x.files[0] && x.files[0].name === 'kept-trace.json')), {
        message: 'the pick to load',
      });
      const kept = await poll(
        async () => {
          const l = await s.call(() => window.strata.recent.list());
          return l.length ? l : null;
        },
        { message: 'the file to be kept' },
      );
      assert.deepEqual(kept[0].names, ['kept-trace.json']);
      assert.equal(kept[0].bytes, trace.length);

      // A later visit (same browser profile): the demo opens, the Recent panel reopens the file.
      const page = await s.context.newPage();
      await page.goto(env.server.url);
      await page.evaluate(() => window.strata.ready);
      await page.click('#recent-button');
      const entry = page.locator('#recent-panel .recent-entry');
      await entry.first().waitFor({ timeout: 10_000 });
      assert.match(await entry.first().textContent(), /kept-trace\.json/);
      await page.evaluate(
        () =>
          new Promise((resolve) => {
            window.addEventListener('strata:loaded', (e) => {
              if (e.detail.files[0].name === 'kept-trace.json') resolve();
            });
            document.querySelector('#recent-panel .recent-entry').click();
          }),
      );
      const sum = await page.evaluate(() => window.strata.summary());
      assert.deepEqual(sum.phases, exp.phases, 'the reopened file is the same trace');
      assert.deepEqual(sum.errors, []);

      // Forget: the list is empty and nothing of the file stays in storage.
      await page.click('#recent-button');
      await page.click('#recent-forget');
      await poll(async () => (await page.evaluate(() => window.strata.recent.list())).length === 0, {
        message: 'forget',
      });
      const left = await page.evaluate(async () => {
        const names = [];
        for await (const [name] of (await navigator.storage.getDirectory()).entries()) names.push(name);
        return names;
      });
      assert.deepEqual(left, [], "files left in the site's storage");
      s.assertNoErrors({ what: 'recent files' });
    } finally {
      await s.close();
    }
  });
});
