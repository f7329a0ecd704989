// The details pane: its top edge drags to resize it (the timeline gives up the room), its arrow
// collapses it to the title bar and back; an XLA op's details show what the op computes (the
// HLO expression), its category and the graph link above the raw args. The XLA op comes from a
// small XSpace written here (no real sample carries long_name / hlo_category), so no ../shared.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { poll, strataSuite } from './lib.mjs';
import { writeXSpace } from './xspace-writer.mjs';

const EXPRESSION =
  '%fusion.7 = f32[8,128]{1,0} fusion(f32[8,128]{1,0} %p0, f32[128]{0} %p1), kind=kLoop, calls=%fused_add';

describe('details pane', () => {
  let s, page;
  strataSuite((e) => ({ session: s, page } = e));

  const panels = () => s.call(() => window.strata.panels());
  async function canvasOrigin() {
    const box = await page.locator('#canvas').boundingBox();
    return { x: box.x, y: box.y, h: box.height };
  }

  test('dragging the top edge resizes the pane, the arrow collapses and reopens it', async () => {
    const { x: cx, y: cy, h: canvasH } = await canvasOrigin();
    const d0 = (await panels()).details;
    assert.ok(d0.h > d0.titleH && d0.titleH > 0, JSON.stringify(d0));
    assert.equal(d0.collapsed, false);
    assert.ok(Math.abs(d0.y + d0.h - canvasH) <= 1, 'the pane sits at the bottom of the canvas');
    // Drag the title bar (not its arrow) up by 150 px.
    const gx = cx + d0.x + d0.w / 2,
      gy = cy + d0.y + d0.titleH / 2;
    await page.mouse.move(gx, gy);
    await s.frame();
    await page.mouse.down();
    await s.frame();
    for (let i = 1; i <= 5; i++) {
      await page.mouse.move(gx, gy - 30 * i);
      await s.frame();
    }
    await page.mouse.up();
    await s.frame();
    const d1 = (await panels()).details;
    assert.ok(Math.abs(d1.h - (d0.h + 150)) <= 3, `taller by the drag: ${d0.h} -> ${d1.h}`);
    assert.ok(Math.abs(d1.y - (d0.y - 150)) <= 3, 'its top follows the mouse');
    assert.ok(Math.abs(d1.y + d1.h - canvasH) <= 1, 'still down to the bottom');
    const tl = (await panels()).timeline;
    assert.ok(tl.x0 > 0, 'the timeline is laid out');

    // The arrow at the title bar's left collapses it to the title bar; the timeline takes the rest.
    await page.mouse.click(cx + d1.x + d1.titleH / 2, cy + d1.y + d1.titleH / 2);
    const d2 = await poll(
      async () => {
        await s.frame();
        const d = (await panels()).details;
        return d.collapsed && d.h < d1.h && d;
      },
      { message: 'the pane collapsed' },
    );
    assert.ok(Math.abs(d2.h - d2.titleH) <= 1, `collapsed to its title bar (${d2.h})`);
    assert.ok(Math.abs(d2.y + d2.h - canvasH) <= 1);
    await page.mouse.click(cx + d2.x + d2.titleH / 2, cy + d2.y + d2.titleH / 2);
    const d3 = await poll(
      async () => {
        await s.frame();
        const d = (await panels()).details;
        return !d.collapsed && d.h > d.titleH + 1 && d;
      },
      { message: 'the pane reopened' },
    );
    assert.ok(Math.abs(d3.h - d1.h) <= 1, `reopens at the dragged height (${d3.h} vs ${d1.h})`);
    s.assertNoErrors();
  });

  test("an XLA op's expression, category and graph link come before its raw args", async () => {
    const meta = {
      hlo_module: 'jit_step',
      program_id: 42,
      hlo_op: 'fusion.7',
      long_name: EXPRESSION,
      hlo_category: 'loop fusion',
    };
    const bytes = writeXSpace([
      {
        name: '/device:TPU:0',
        metadata: { 'fusion.7': meta },
        lines: [
          {
            id: 2,
            name: 'XLA Ops',
            timestampNs: 1000,
            events: [
              { name: 'fusion.7', offsetPs: 1e7, durationPs: 4e6, stats: { bytes_accessed: 65536, raw_arg: 'x' } },
            ],
          },
        ],
      },
    ]);
    const sum = await s.openBytes(bytes, 'xla-op.xplane.pb');
    assert.deepEqual(sum.errors, []);
    const found = await s.find('fusion.7');
    assert.ok(found.count >= 1, JSON.stringify(found));
    await s.call((e) => window.strata.select({ event: e }), found.matches[0].event);
    const d = await poll(
      async () => {
        const v = await s.details();
        return v && v.xla ? v : null;
      },
      { message: 'details with xla' },
    );
    assert.equal(d.xla.long_name, EXPRESSION);
    assert.equal(d.xla.hlo_category, 'loop fusion');
    const p = await poll(
      async () => {
        const x = (await panels()).details;
        return x.xlaY >= 0 && x.argsY >= 0 && x;
      },
      { message: 'the pane drew the XLA block and the args' },
    );
    assert.ok(p.xlaY > p.y, 'the XLA block is in the pane');
    assert.ok(p.graphLinkY > p.xlaY, 'the graph link follows the expression and category');
    assert.ok(p.argsY > p.graphLinkY, 'the raw args come after them');
    s.assertNoErrors();
  });
});
