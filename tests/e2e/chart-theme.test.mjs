// The Runs tab's charts take their colours from the theme (src/ui/theme.*): the Distributed
// view's computation bars are the dark theme's blue, and after strata.setTheme('light') the
// light theme's darker blue, in the pixels. Needs the Ascend sample in ../shared/data.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CALL_TIMEOUT_MS, folderEntries, hasData, poll, screenshotCanvas, strataSuite } from './lib.mjs';

const ASCEND = 'ascend/msinsight/text_level1';
// theme.cc chart_series_a, as RGB: dark, light.
const SERIES_A = { dark: [66, 133, 244], light: [26, 95, 210] };

function countColour(img, [r, g, b]) {
  let n = 0;
  for (let i = 0; i < img.width * img.height; i++)
    if (img.data[4 * i] === r && img.data[4 * i + 1] === g && img.data[4 * i + 2] === b) n++;
  return n;
}

describe('chart colours follow the theme', { skip: hasData(ASCEND) ? false : `no ../shared/data/${ASCEND}` }, () => {
  let s;
  strataSuite((e) => ({ session: s } = e));

  test("the Distributed view's computation bars, dark then light", async () => {
    await s.call((t) => window.strata.setTheme(t), 'dark');
    await s.call((l) => window.strata.open(l), folderEntries(ASCEND), CALL_TIMEOUT_MS * 4);
    const sel = await s.call(() => window.strata.selectRun({ view: 'Distributed' }), undefined, CALL_TIMEOUT_MS * 4);
    assert.equal(sel.view, 'Distributed');
    const counts = async () => {
      await s.frame();
      const { image } = await screenshotCanvas(s.page);
      return { dark: countColour(image, SERIES_A.dark), light: countColour(image, SERIES_A.light) };
    };
    const dark = await poll(async () => ((await counts()).dark > 200 ? counts() : null), {
      message: 'the dark blue bars drawn',
    });
    assert.ok(dark.light < dark.dark / 20, `dark theme: ${JSON.stringify(dark)}`);
    await s.call((t) => window.strata.setTheme(t), 'light');
    const light = await poll(async () => ((await counts()).light > 200 ? counts() : null), {
      message: 'the light theme blue bars drawn',
    });
    assert.ok(light.dark < light.light / 20, `light theme: ${JSON.stringify(light)}`);
    s.assertNoErrors();
  });
});
