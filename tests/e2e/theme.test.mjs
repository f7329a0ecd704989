// Light and dark themes (issue 10): the choice comes from ?theme=, the user's saved choice, or the
// system's prefers-color-scheme; the canvas and the page chrome both follow it.
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
});
