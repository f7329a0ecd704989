// Issue 4, progressive display: a big file (>= 256 MB) shows its first part while the rest
// loads. The test makes a 300 MB trace with the project's demo generator and serves it itself:
// the first 100 MB at once, the rest only when the test releases it. While the load waits there,
// the timeline must already show the first part (a view range, slices drawn on the canvas);
// then the whole file replaces it.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { REPO_ROOT, analyseImage, poll, screenshotCanvas, setupStrata, tempDir } from './lib.mjs';

const MAKE_DEMO = path.join(REPO_ROOT, 'build/native/strata_make_demo');

describe(
  'progressive display of a big file',
  { skip: !fs.existsSync(MAKE_DEMO) && 'no build/native/strata_make_demo' },
  () => {
    let env, tmp, server, release;
    const held = new Promise((r) => {
      release = r;
    });
    const HOLD_AT = 100e6;
    before(async () => {
      tmp = tempDir();
      const file = path.join(tmp.dir, 'big.json');
      execFileSync(MAKE_DEMO, [file, '150']); // ~300 MB
      server = http.createServer(async (req, res) => {
        const size = fs.statSync(file).size;
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Content-Length': size,
          'Access-Control-Allow-Origin': '*',
        });
        const first = fs.createReadStream(file, { start: 0, end: HOLD_AT - 1 });
        first.pipe(res, { end: false });
        first.on('end', async () => {
          await held;
          fs.createReadStream(file, { start: HOLD_AT }).pipe(res);
        });
      });
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      env = await setupStrata();
    });
    after(async () => {
      release();
      if (env) await env.close();
      if (server) {
        server.closeAllConnections();
        server.close();
      }
      if (tmp) tmp.cleanup();
    });

    test('the first part is on screen before the file is done', async () => {
      const { session, page } = env;
      const bytes = fs.statSync(path.join(tmp.dir, 'big.json')).size;
      assert.ok(bytes >= 256e6, `${bytes} bytes`);
      const url = `http://127.0.0.1:${server.address().port}/big.json`;
      await page.evaluate((u) => {
        window.__big = window.strata.open(u);
      }, url);
      const early = await poll(
        () =>
          session.call(() => {
            const p = window.strata.progress();
            return p.active && p.showingFirstPart ? p : null;
          }),
        { timeout: 60_000, message: 'progress().showingFirstPart while loading' },
      );
      assert.ok(early.loaded <= HOLD_AT, `shown after ${early.loaded} of ${bytes} bytes`);
      await session.frame();
      const v = await session.view();
      assert.ok(v.endNs > v.startNs, JSON.stringify(v));
      // Slices on the canvas: many colours, not an empty background.
      const img = analyseImage((await screenshotCanvas(page)).image);
      assert.ok(img.distinctColourful > 8 && img.nonBackgroundFraction > 0.05, JSON.stringify(img));
      assert.equal(await session.call(() => window.strata.progress().active), true);
      // The preview is a trace of its own: the API sees its first part.
      const partial = await session.find('step');
      assert.ok(partial.count > 0, JSON.stringify(partial).slice(0, 200));
      // Then the whole file.
      release();
      const s = await session.call(() => window.__big, undefined, 120_000, 'the big open');
      assert.deepEqual(s.errors, []);
      assert.equal(s.files[0].bytes, bytes);
      assert.equal(s.warnings.filter((w) => /still loading/.test(w)).length, 0);
      const after_ = await session.call(() => window.strata.progress());
      assert.equal(after_.active, false);
      session.assertNoErrors();
    });
  },
);
