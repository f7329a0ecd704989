// Window sizes (issue 10): at 1280x720 and on a 4K screen (3840x2160 device pixels: a 1920x1080
// window at device pixel ratio 2) the canvas draws at device resolution and the demo is on screen.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseImage, decodePng, serverAndBrowser } from './lib.mjs';

describe('display sizes', () => {
  const env = serverAndBrowser();

  for (const [w, h, dpr] of [
    [1280, 720, 1],
    [1920, 1080, 2],
  ]) {
    test(`${w}x${h} at device pixel ratio ${dpr}`, async () => {
      const context = await env.browser.newContext({ viewport: { width: w, height: h }, deviceScaleFactor: dpr });
      try {
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(env.server.url);
        await page.waitForFunction(() => window.strata && window.strata.ready, undefined, { timeout: 60_000 });
        await page.evaluate(async () => {
          await window.strata.ready;
          await window.strata.frame();
        });
        const size = await page.evaluate(() => {
          const c = document.getElementById('canvas');
          return { width: c.width, height: c.height, cssWidth: c.clientWidth, cssHeight: c.clientHeight };
        });
        assert.deepEqual(
          size,
          { width: w * dpr, height: h * dpr, cssWidth: w, cssHeight: h },
          'the canvas backing store is the window at device resolution',
        );
        const img = analyseImage(decodePng(await page.screenshot({ type: 'png', timeout: 60_000 })));
        assert.equal(img.width, w * dpr, 'screenshot at device resolution');
        assert.ok(
          img.distinctColourful >= 8 && img.nonBackgroundFraction > 0.02,
          `the demo is drawn: ${JSON.stringify(img)}`,
        );
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }
});
