// Light and dark themes (issue 10): the choice comes from ?theme=, the user's saved choice, or the
// system's prefers-color-scheme; the canvas and the page chrome both follow it, on every tab.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newStrataPage, screenshotCanvas, analyseImage, serverAndBrowser, poll } from './lib.mjs';

// Mean luminance (0..255) of the canvas's most common colour: the timeline's background rows.
async function backgroundLuminance(s) {
  await s.call(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const { image } = await screenshotCanvas(s.page);
  const [r, g, b] = analyseImage(image).background;
  return 0.299 * r + 0.587 * g + 0.114 * b;
}
const pageBackground = (s) => s.call(() => getComputedStyle(document.body).backgroundColor);

describe('themes', () => {
  const env = serverAndBrowser();

  test('follows prefers-color-scheme until the user chooses', async () => {
    const s = await newStrataPage(env.browser);
    await s.page.emulateMedia({ colorScheme: 'light' });
    await s.goto(env.server.url);
    assert.deepEqual(await s.call(() => strata.theme()), { theme: 'light', choice: 'auto' });
    assert.ok((await backgroundLuminance(s)) > 200, 'light system scheme: canvas background is light');
    assert.equal(await pageBackground(s), 'rgb(242, 243, 244)');
    await s.page.emulateMedia({ colorScheme: 'dark' });
    // strata.theme() reads the media query at once; the page applies it on the 'change' event.
    await poll(() => s.call(() => document.documentElement.dataset.theme === 'dark'), {
      message: 'theme follows the system to dark',
    });
    assert.ok((await backgroundLuminance(s)) < 60, 'dark system scheme: canvas background is dark');
    s.assertNoErrors();
    await s.context.close();
  });

  test('?theme= wins, the button toggles, and the choice is remembered', async () => {
    const s = await newStrataPage(env.browser);
    await s.page.emulateMedia({ colorScheme: 'dark' });
    await s.goto(env.server.url + '?theme=light');
    assert.equal((await s.call(() => strata.theme())).theme, 'light');
    assert.ok((await backgroundLuminance(s)) > 200, '?theme=light over a dark system');
    assert.equal(await s.page.locator('#theme-button').textContent(), 'Dark');
    await s.page.locator('#theme-button').click();
    assert.deepEqual(await s.call(() => strata.theme()), { theme: 'dark', choice: 'dark' });
    assert.ok((await backgroundLuminance(s)) < 60, 'after the button: dark canvas');
    // Reloaded without the parameter, over a light system: the saved choice (dark) holds.
    await s.page.emulateMedia({ colorScheme: 'light' });
    await s.goto(env.server.url);
    assert.deepEqual(await s.call(() => strata.theme()), { theme: 'dark', choice: 'dark' });
    assert.equal(await s.call(() => strata.setTheme('auto')), 'light');
    assert.ok((await backgroundLuminance(s)) > 200, "'auto' follows the light system again");
    await assert.rejects(
      s.call(() => strata.setTheme('purple')),
      /unknown theme/,
    );
    s.assertNoErrors();
    await s.context.close();
  });

  // Every tab, in both themes: the share of its pixels that are greys of the other theme (light
  // surfaces in the dark theme, dark ones in the light theme). Text is a few per cent; a panel
  // or canvas left in the other theme's colours is tens of per cent.
  const LOSS_LOG =
    Array.from(
      { length: 30 },
      (_, i) => ` iteration ${String(i + 1).padStart(6)}/ 30 | lm loss: ${(5 / (i + 1)).toFixed(4)} |`,
    ).join('\n') + '\n';
  const HLO =
    'HloModule themed\n\nENTRY main {\n  p = f32[8] parameter(0)\n  n = f32[8] negate(p)\n  ROOT e = f32[8] exponential(n)\n}\n';
  const WRONG_SHARE_MAX = 0.1;
  const shares = new Map(); // `${tab}/${theme}` -> share of the other theme's greys
  function otherThemeShare(img, theme) {
    let wrong = 0;
    const n = img.width * img.height;
    for (let i = 0; i < n; i++) {
      const r = img.data[4 * i],
        g = img.data[4 * i + 1],
        b = img.data[4 * i + 2];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 30) continue; // colours: slices, series, pies
      const l = 0.299 * r + 0.587 * g + 0.114 * b;
      if (theme === 'dark' ? l > 190 : l < 60) wrong++;
    }
    return wrong / n;
  }
  const TABS = ['timeline', 'memory', 'loss', 'runs', 'graph'];

  test('every tab, drawn in both themes', async () => {
    const s = await newStrataPage(env.browser);
    try {
      await s.goto(env.server.url);
      await s.openBytes(Buffer.from(LOSS_LOG), 'themed-a.log');
      await s.openBytes(Buffer.from(LOSS_LOG.replace(/lm loss: 1/g, 'lm loss: 2')), 'themed-b.log');
      await s.openBytes(Buffer.from(HLO), 'themed.hlo');
      await s.call(async () => {
        const text = await (await fetch('demo/demo-trace.json')).text();
        const file = new File([text], 'host_1.1700000000000.pt.trace.json');
        return window.strata.open([{ path: 'themed_runs/run_a/host_1.1700000000000.pt.trace.json', file }]);
      });
      for (const theme of ['dark', 'light']) {
        await s.call((t) => strata.setTheme(t), theme);
        for (const tab of TABS) {
          await s.call((t) => strata.setTab(t), tab);
          await s.frame();
          const { image } = await screenshotCanvas(s.page);
          shares.set(`${tab}/${theme}`, otherThemeShare(image, theme));
        }
      }
      s.assertNoErrors();
    } finally {
      await s.close();
    }
  });
  for (const tab of TABS)
    for (const theme of ['dark', 'light'])
      test(`${tab} in the ${theme} theme keeps no colours of the other theme`, () => {
        const share = shares.get(`${tab}/${theme}`);
        assert.ok(share !== undefined, 'drawn by the test before');
        assert.ok(
          share < WRONG_SHARE_MAX,
          `${(share * 100).toFixed(1)} % of the ${tab} tab is in the other theme's greys`,
        );
      });
});
