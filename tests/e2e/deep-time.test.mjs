// Times at deep zoom, beyond the ruler: the details pane shows an event's start and end as
// offsets from the base the ruler counts from (named once), its duration to the nanosecond, and
// copies the exact absolute time on a right-click; a #view= deep link reopens a window of a few
// ns exactly (decimal text, never a JS Number of epoch ns), and old links keep working.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  dataPath,
  dataUrl,
  newStrataPage,
  parseTrace,
  poll,
  readTraceText,
  serverAndBrowser,
  skipUnlessData,
} from './lib.mjs';

// A Kineto trace with ns decimals on its µs times (ts "4203669604595.407").
const NS_KINETO = 'pytorch_kineto/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz';
// An epoch-based Kineto trace (1.7e18 ns: a JS Number is good to 256 ns there).
const EPOCH_KINETO = 'pytorch_kineto/hta/critical_path/benchmark_result_2869224_1695835535_trace.json.gz';

/** µs as written in the trace ("4203669604595.407" or a Number) → ns, exactly, as a BigInt. */
function usToNsExact(v) {
  const [whole, frac = ''] = String(v).split('.');
  return BigInt(whole) * 1000n + BigInt((frac + '000').slice(0, 3));
}
const UNIT_NS = { ns: 1n, us: 1000n, ms: 1000000n, s: 1000000000n };
/** "+12.345 us" / "1.5 s" / "-3 ns" → ns as a BigInt, exactly (null for text that is not one). */
function textToNs(text) {
  const m = /^([+-]?)(\d+)(?:\.(\d+))? (ns|us|ms|s)$/.exec(text);
  if (!m) return null;
  const unit = UNIT_NS[m[4]];
  const digits = String(unit).length - 1;
  const frac = m[3] || '';
  if (frac.length > digits) return null; // finer than a ns: not what these rows hold
  const ns = BigInt(m[2]) * unit + BigInt((frac + '0'.repeat(digits)).slice(0, digits) || '0');
  return m[1] === '-' ? -ns : ns;
}

describe('the details pane at deep zoom', () => {
  const env = serverAndBrowser();
  let s, page;
  before(async () => {
    s = await newStrataPage(env.browser);
    page = s.page;
    await s.goto(env.server.url);
  });
  after(async () => {
    if (s) await s.close();
  });
  const times = () => s.call(() => window.strata.detailsTimes());
  const row = (rows, label) => rows.find((r) => r.label === label);

  test(
    'start and end count from the ruler base, the duration is exact, a right-click copies the absolute time',
    { skip: skipUnlessData(NS_KINETO) },
    async () => {
      await s.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
      await s.open(dataUrl(NS_KINETO));
      await s.frame();
      const { records } = parseTrace(readTraceText(dataPath(NS_KINETO)));
      const pick = records.find(
        (r) => r.ph === 'X' && /\.\d*[1-9]/.test(String(r.ts)) && /\.\d*[1-9]/.test(String(r.dur)) && r.dur > 1,
      );
      assert.ok(pick, 'an X event with ns in its start and duration');
      const at = usToNsExact(pick.ts);
      const dur = usToNsExact(pick.dur);
      const sel = await s.call((q) => window.strata.select(q), {
        name: pick.name,
        tsNs: Number(at),
        pid: pick.pid,
        tid: pick.tid,
      });
      assert.ok(sel && sel.count === 1, `selected ${pick.name}`);

      // The whole trace: the ruler writes times since the trace start, so does the pane.
      await s.call(() => window.strata.setView(0, 1e300));
      const wide = await poll(
        async () => {
          await s.frame();
          const r = await times();
          return row(r, 'Start') && r;
        },
        { message: 'the details time rows' },
      );
      const v0 = await s.view();
      const origin = BigInt(v0.originNs);
      assert.equal((await s.call(() => window.strata.ruler())).base, null, 'no ruler base on the whole trace');
      assert.equal(row(wide, 'Times from').text, 'trace start');
      assert.equal(row(wide, 'Start').absNs, String(at), 'the absolute start, exact');
      assert.equal(row(wide, 'End').absNs, String(at + dur), 'the absolute end, exact');
      assert.equal(textToNs(row(wide, 'Start').text), at - origin, `start ${row(wide, 'Start').text}`);
      assert.equal(textToNs(row(wide, 'End').text), at + dur - origin, `end ${row(wide, 'End').text}`);
      const durText = row(wide, 'Duration').text.split('   ')[0];
      assert.equal(textToNs(durText), dur, `the duration to the ns: ${durText} for ${pick.dur} us`);

      // Six ns around its start: offsets from the ruler's base, a few characters long.
      await s.call(([a, b]) => window.strata.setView(a, b), [String(at - 2n), String(at + 4n)]);
      const deep = await poll(
        async () => {
          await s.frame();
          const r = await times();
          const ruler = await s.call(() => window.strata.ruler());
          return ruler.base && row(r, 'Times from') && row(r, 'Times from').text !== 'trace start' && { r, ruler };
        },
        { message: 'the rows to count from the ruler base' },
      );
      const base = deep.ruler.fromMark ? `mark @ ${deep.ruler.base}` : `@ ${deep.ruler.base}`;
      assert.equal(row(deep.r, 'Times from').text, base, 'the base is named as the ruler names it');
      const baseRel = BigInt(deep.ruler.baseRelNs);
      const start = row(deep.r, 'Start').text;
      assert.equal(textToNs(start), at - origin - baseRel, `start ${start} from base ${deep.ruler.base}`);
      assert.ok(start.length <= 12, `no twelve-digit time: ${start}`);
      assert.equal(textToNs(row(deep.r, 'End').text), at + dur - origin - baseRel, row(deep.r, 'End').text);
      assert.equal(row(deep.r, 'Start').absNs, String(at));

      // A right-click on the start offers the absolute time; its first item copies it.
      const box = await page.locator('#canvas').boundingBox();
      const st = row(deep.r, 'Start');
      const x = box.x + st.x + 4,
        y = box.y + st.y + 6;
      await page.mouse.move(x, y);
      await s.frame();
      await page.mouse.click(x, y, { button: 'right' });
      await s.frame();
      await page.mouse.move(x + 30, y + 16);
      await s.frame();
      await page.mouse.click(x + 30, y + 16);
      await s.frame();
      const copied = await poll(() => s.call(() => navigator.clipboard.readText()).then((t) => t === String(at) && t), {
        message: 'the absolute start on the clipboard',
        timeout: 10_000,
      });
      assert.equal(copied, String(at));
      s.assertNoErrors();
    },
  );
});

describe('#view= deep links are exact at epoch scale', () => {
  const env = serverAndBrowser();

  test(
    'a few-ns window reopens exactly from the link; an old integer link still works',
    { skip: skipUnlessData(EPOCH_KINETO) },
    async () => {
      const first = await newStrataPage(env.browser);
      let v, link;
      try {
        await first.goto(`${env.server.url}?url=${encodeURIComponent(dataUrl(EPOCH_KINETO))}`);
        const sum = await first.summary();
        assert.ok(sum.startNs > 1.6e18, `epoch-based: starts at ${sum.startNs}`);
        // Zoom the way a user does, so the window lands on fractions of a ns too.
        await first.call(() => {
          const w = window.strata.view();
          const mid = Math.round((w.startRelNs + w.endRelNs) / 2) + 0.37;
          return window.strata.setViewRel(mid - 500, mid + 500);
        });
        await first.focusCanvas(0.6, 0.5);
        for (let i = 0; i < 40; i++) await first.page.keyboard.press('KeyW');
        await first.frame();
        v = await first.view();
        assert.ok(v.endRelNs - v.startRelNs <= 8, `a window of a few ns: ${JSON.stringify(v)}`);
        // The hash follows the view; Copy link carries the same.
        await poll(() => first.call(() => location.hash).then((h) => h.includes(`view=${v.startText},${v.endText}`)), {
          message: `the hash to carry view=${v.startText},${v.endText}`,
        });
        link = await first.call(() => window.strata.link());
        assert.ok(link.includes(`#view=${v.startText},${v.endText}`), link);
        first.assertNoErrors();
      } finally {
        await first.close();
      }

      const again = await newStrataPage(env.browser);
      try {
        await again.goto(link);
        const v2 = await poll(
          () => again.view().then((x) => x.originNs === v.originNs && x.endRelNs - x.startRelNs < 100 && x),
          { message: 'the link to set the view' },
        );
        assert.equal(v2.startRelNs, v.startRelNs, `start exactly: ${JSON.stringify(v2)} vs ${JSON.stringify(v)}`);
        assert.equal(v2.endRelNs, v.endRelNs, `end exactly: ${JSON.stringify(v2)} vs ${JSON.stringify(v)}`);

        // An old link: integer ns as a JS Number wrote them. It opens where it says, to the ns.
        const origin = BigInt(v.originNs);
        const oldStart = origin + 1000000n,
          oldEnd = origin + 1000600n;
        await again.leave();
        await again.goto(`${link.split('#')[0]}#view=${oldStart},${oldEnd}`);
        const v3 = await poll(() => again.view().then((x) => x.endRelNs - x.startRelNs === 600 && x), {
          message: 'the old link to set the view',
        });
        assert.equal(v3.startText, String(oldStart));
        assert.equal(v3.endText, String(oldEnd));
        again.assertNoErrors();
      } finally {
        await again.close();
      }
    },
  );
});
