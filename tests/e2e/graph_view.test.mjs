// The Graph tab as a new user first meets it: a dump cut short opens with what was read and says
// where it stops; box names are drawn exactly (every character, '.' and '-' too) at every zoom
// text is drawn at; changing the width around the selection lands on the selection; a huge
// computation opens on a readable overview with the whole graph one click away; hovering a box
// tells its op, shape and source line; the canvas follows the theme. State through
// strata.graph(), and pixels where the defect is visual.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { analyseImage, dataPath, poll, screenshotCanvas, setupStrata, skipUnlessData } from './lib.mjs';

const KERNEL_REUSE = 'hlo/xla/kernel_reuse.hlo';
const LLAMA = 'hlo/xla/hlo_llama31_8b_bf16_1x8.hlo';

// The luminance of a box's fill: the most common colour inside its outline.
function fillLum(img, box, x0, y0, x1, y1) {
  const region = { x: Math.ceil(x0 - box.x) + 2, y: Math.ceil(y0 - box.y) + 2 };
  region.width = Math.floor(x1 - box.x) - 2 - region.x;
  region.height = Math.floor(y1 - box.y) - 2 - region.y;
  const [r, g, b] = analyseImage(img, { region }).background;
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

const lum = (img, x, y) => {
  const j = (Math.round(y) * img.width + Math.round(x)) * 4;
  return 0.299 * img.data[j] + 0.587 * img.data[j + 1] + 0.114 * img.data[j + 2];
};

// Page position of world point (x, y) in the graph's state (canvas: where it is, CSS px).
function toScreen(g) {
  const [cx, cy, cw, ch] = g.canvas;
  return {
    sx: (x) => cx + cw / 2 + (x - g.centre.x) * g.zoom,
    sy: (y) => cy + ch / 2 + (y - g.centre.y) * g.zoom,
  };
}

// An HLO module whose entry is a dot (with source metadata) then a chain of `n` negates: too big
// to read whole when n is large.
function chainModule(n) {
  let t = 'HloModule chain\n\nENTRY main {\n  p = f32[8,16] parameter(0)\n  q = f32[16,4] parameter(1)\n';
  t +=
    '  d = f32[8,4] dot(p, q), lhs_contracting_dims={1}, rhs_contracting_dims={0}, ' +
    'metadata={op_name="jit(step)/dot_general" source_file="/src/model.py" source_line=42}\n';
  let last = 'd';
  for (let k = 0; k < n; ++k) {
    t += `  n.${k} = f32[8,4] negate(${last})\n`;
    last = `n.${k}`;
  }
  return t + `  ROOT r = f32[8,4] negate(${last})\n}\n`;
}

describe('graph viewer: first day', () => {
  let env, call;
  const graph = () => call(() => window.strata.graph());
  const shot = async () => screenshotCanvas(env.page);
  before(async () => {
    env = await setupStrata();
    call = env.session.call;
    await call(() => window.strata.setTheme('light'));
  });
  after(async () => {
    if (env) await env.close();
  });

  // Pixels of the error text's colour in the band above the canvas (toolbar and notes).
  async function errorTextPixels(g) {
    const { image, box } = await shot();
    const [cx, cy, cw] = g.canvas;
    let n = 0;
    for (let y = 0; y < Math.floor(cy - box.y); ++y)
      for (let x = Math.ceil(cx - box.x); x < Math.floor(cx + cw - box.x); ++x) {
        const j = (y * image.width + x) * 4;
        const [r, gr, b] = [image.data[j], image.data[j + 1], image.data[j + 2]];
        if (r > 150 && gr < 90 && b < 90) ++n; // the light theme's dark red
      }
    return n;
  }

  test(
    'a dump cut mid-computation opens with what was read and says where it stops',
    { skip: skipUnlessData(KERNEL_REUSE) },
    async () => {
      const text = fs.readFileSync(dataPath(KERNEL_REUSE), 'utf8');
      const cut = text.indexOf('  custom-call.2 = '); // inside the first module's ENTRY
      assert.ok(cut > 0);
      const s = await env.session.openBytes(Buffer.from(text.slice(0, cut)), 'cut_short.hlo');
      assert.equal(s.graph.modules, 1);
      assert.equal(await call(() => window.strata.tab()), 'graph');
      await call(() => window.strata.graphSettled());
      const g = await graph();
      assert.equal(g.module, 'KernelReuse');
      assert.equal(g.computation, 'main');
      const names = g.nodes.map((n) => n.name);
      for (const n of ['a', 'custom-call', 'fusion.2', 'custom-call.1', 'fusion.1']) assert.ok(names.includes(n), n);
      assert.ok(!names.includes('custom-call.2'));
      assert.ok(g.note, 'the graph says the module is cut short');
      const line = Number((/^line (\d+):/.exec(g.note) || [])[1]);
      const lines = text.slice(0, cut).split('\n').length;
      assert.ok(
        line >= 33 && line <= lines + 1,
        `names where it stops (ENTRY at 33, text ends at ${lines}): ${g.note}`,
      );
      assert.match(g.note, /not closed/);
      assert.equal(g.modules.find((m) => m.source === 'cut_short.hlo').note, g.note);
      const red = await errorTextPixels(g);
      assert.ok(red > 40, `the note is drawn above the canvas in the error colour (${red} px)`);

      // A whole file says nothing.
      await env.session.openBytes(Buffer.from(text), 'whole.hlo');
      await call(() => window.strata.graphSettled());
      const whole = await graph();
      assert.equal(whole.note, null);
      assert.equal(await errorTextPixels(whole), 0);
      env.session.assertNoErrors();
    },
  );

  test(
    'a dump cut before its ENTRY opens on the last computation read and says so',
    { skip: skipUnlessData(KERNEL_REUSE) },
    async () => {
      const text = fs.readFileSync(dataPath(KERNEL_REUSE), 'utf8');
      const s = await env.session.openBytes(Buffer.from(text.slice(0, text.indexOf('ENTRY main'))), 'no_entry.hlo');
      assert.equal(s.graph.modules, 1);
      await call(() => window.strata.graphSettled());
      const g = await graph();
      assert.equal(g.computation, 'fused_computation.2');
      assert.ok(g.nodeCount >= 4, JSON.stringify(g.nodes.map((n) => n.name)));
      assert.match(g.note || '', /no ENTRY computation/);
      assert.match(g.note, /fused_computation\.2/);
      assert.ok((await errorTextPixels(g)) > 40);
      env.session.assertNoErrors();
    },
  );

  test(
    'box names are drawn whole, dots and dashes too, at every zoom with text',
    { skip: skipUnlessData(KERNEL_REUSE) },
    async () => {
      await env.session.open('/data/' + KERNEL_REUSE);
      await call(() => window.strata.graphOpen(0));
      await env.session.frame();
      const zooms = [];
      for (let step = 0; step < 40; ++step) {
        const g = await graph();
        if (g.label.px === 0) break; // boxes only from here out
        zooms.push(g.zoom);
        const { image, box } = await shot();
        const { sx, sy } = toScreen(g);
        const [cx, cy, cw, ch] = g.canvas;
        let checked = 0;
        for (const n of g.nodes.filter((n) => /[.-]/.test(n.name))) {
          const x0 = sx(n.x - n.w / 2),
            y0 = sy(n.y - n.h / 2),
            x1 = sx(n.x + n.w / 2),
            y1 = sy(n.y + n.h / 2);
          if (x0 < cx + 1 || y0 < cy + 1 || x1 > cx + cw - 1 || y1 > cy + ch - 1) continue;
          const adv = g.label.advance;
          if (n.name.length * adv > x1 - x0 - 10) continue; // cut with '~': not whole
          const fill = fillLum(image, box, x0, y0, x1, y1);
          const tx = Math.floor(x0 + 6 * g.zoom) - box.x,
            ty = Math.floor(y0 + 5 * g.zoom) - box.y;
          for (let c = 0; c < n.name.length; ++c) {
            let darkest = 255;
            for (let y = ty; y < ty + g.label.px + 2; ++y)
              for (let x = Math.floor(tx + c * adv); x < Math.ceil(tx + (c + 1) * adv); ++x)
                darkest = Math.min(darkest, lum(image, x, y));
            assert.ok(
              darkest < fill - 60,
              `${n.name}: '${n.name[c]}' (character ${c}) is not drawn at zoom ${g.zoom.toFixed(3)}, ${g.label.px} px ` +
                `(darkest ${darkest.toFixed(0)}, box ${fill.toFixed(0)})`,
            );
          }
          ++checked;
        }
        assert.ok(checked >= 1, `names checked at zoom ${g.zoom}`);
        // Zoom out a little about the canvas centre.
        await env.page.mouse.move(cx + cw / 2, cy + ch / 2);
        await env.page.mouse.wheel(0, 25);
        await env.session.frame();
      }
      assert.ok(zooms.length >= 5 && Math.min(...zooms) < 0.6, `zooms tried: ${zooms.map((z) => z.toFixed(2))}`);
      env.session.assertNoErrors();
    },
  );

  test(
    'changing the width around the selection lands on the selection',
    { skip: skipUnlessData(KERNEL_REUSE) },
    async () => {
      const mods = (await graph()).modules;
      let best = 0;
      mods.forEach((m, k) => {
        if (m.source === 'kernel_reuse.hlo' && m.instructions > mods[best].instructions) best = k;
      });
      await call((k) => window.strata.graphOpen(k), best);
      const g0 = await graph();
      // The node furthest from the fitted view's centre.
      const far = g0.nodes.reduce((a, n) =>
        Math.hypot(n.x - g0.centre.x, n.y - g0.centre.y) > Math.hypot(a.x - g0.centre.x, a.y - g0.centre.y) ? n : a,
      );
      assert.equal(await call((n) => window.strata.graphSelect(n), far.name), true);
      for (const hops of [1, 2, 1]) {
        const g = await call((h) => window.strata.graphHops(h), hops);
        assert.equal(g.hops, hops);
        assert.equal(g.selected, far.name);
        const n = g.nodes.find((m) => m.name === far.name);
        assert.ok(
          Math.abs(g.centre.x - n.x) < 1 && Math.abs(g.centre.y - n.y) < 1,
          `width ${hops}: centred on ${far.name} at ${n.x},${n.y}, not ${JSON.stringify(g.centre)}`,
        );
        // And the canvas shows it: its box's colour at its centre, not the empty canvas.
        await env.session.frame();
        const { image, box } = await shot();
        const { sx, sy } = toScreen(g);
        const at = lum(image, sx(n.x - n.w / 2) + 3 - box.x, sy(n.y) - box.y);
        const [cx, cy] = g.canvas;
        const empty = lum(image, cx + 2 - box.x, cy + 2 - box.y);
        assert.ok(
          Math.abs(at - empty) > 5 || g.nodeCount === 1,
          `width ${hops}: the selection is drawn (${at} vs ${empty})`,
        );
      }
      env.session.assertNoErrors();
    },
  );

  test('a huge computation opens on its largest op; hover tells op, shape and source; whole graph is one click', async () => {
    const N = 1500;
    const s = await env.session.openBytes(Buffer.from(chainModule(N)), 'chain.hlo');
    assert.equal(s.graph.modules, 1);
    await call(() => window.strata.graphSettled());
    await env.session.frame();
    const g = await graph();
    assert.ok(g.overview, 'opened on an overview');
    assert.equal(g.overview.op, 'd');
    assert.equal(g.overview.of, N + 4);
    assert.equal(g.selected, 'd');
    assert.ok(g.hops >= 1 && g.nodeCount <= 150, `${g.nodeCount} nodes around d, width ${g.hops}`);
    assert.ok(g.label.px >= 6, `readable: box text drawn at ${g.label.px} px`);
    assert.ok(g.details && g.details.name === 'd', 'the largest op is selected, its details shown');

    // Hover the dot's box.
    const n = g.nodes.find((m) => m.name === 'd');
    const { sx, sy } = toScreen(g);
    await env.page.mouse.move(sx(n.x), sy(n.y));
    const h = await poll(
      async () => {
        await env.session.frame();
        const s = await graph();
        return s.hover && s.hover.name === 'd' && s.hover;
      },
      { message: 'the hovered box' },
    );
    assert.equal(h.opcode, 'dot');
    assert.equal(h.shape, 'f32[8,4]');
    assert.equal(h.source, '/src/model.py:42');
    assert.match(h.tooltip, /^d\ndot {2}f32\[8,4\]\nsource: \/src\/model\.py:42$/);
    // Off the boxes: no tooltip.
    const [cx, cy, , ch] = g.canvas;
    await env.page.mouse.move(cx + 3, cy + ch - 3);
    await env.session.frame();
    assert.equal((await graph()).hover, null);

    // "Whole graph": a button in the toolbar.
    assert.ok(g.wholeButton, 'the Whole graph button is drawn');
    const [bx, by, bw, bh] = g.wholeButton;
    await env.page.mouse.click(bx + bw / 2, by + bh / 2);
    const whole = await poll(
      async () => {
        const s = await graph();
        // The fit is applied on a frame after the layout lands: wait for both.
        const fits = s.zoom * s.height <= s.canvas[3] && s.zoom * s.width <= s.canvas[2];
        return !s.pending && s.nodeCount === N + 4 && fits && s;
      },
      { timeout: 60_000, message: 'the whole graph, fitted' },
    );
    assert.equal(whole.overview, null);
    assert.equal(whole.hops, 0);
    assert.equal(whole.selected, 'd', 'the selection is kept');
    assert.equal(whole.wholeButton, null);
    assert.ok(whole.zoom * whole.height <= whole.canvas[3] && whole.zoom * whole.width <= whole.canvas[2], 'fitted');
    env.session.assertNoErrors();
  });

  test(
    'the Llama 3.1 8B step opens on a readable overview, not 23,000 boxes',
    { skip: skipUnlessData(LLAMA) },
    async () => {
      const s = await env.session.open('/data/' + LLAMA);
      assert.equal(s.graph.modules, 1);
      await call(() => window.strata.graphSettled(60000));
      await env.session.frame();
      const g = await graph();
      assert.ok(g.overview, 'an overview');
      assert.ok(g.overview.of > 20000, JSON.stringify(g.overview));
      assert.ok(g.nodeCount > 1 && g.nodeCount < 1000, `${g.nodeCount} nodes`);
      assert.equal(g.selected, g.overview.op);
      const op = g.nodes.find((n) => n.name === g.overview.op);
      assert.notEqual(op.opcode, 'parameter');
      assert.ok(g.label.px >= 6 || g.nodeCount > 150, `text drawn at ${g.label.px} px`);
      // The canvas shows boxes, not an empty view.
      const { image, box } = await shot();
      const [cx, cy, cw, ch] = g.canvas;
      const region = {
        x: Math.ceil(cx - box.x),
        y: Math.ceil(cy - box.y),
        width: Math.floor(cw) - 1,
        height: Math.floor(ch) - 1,
      };
      assert.ok(analyseImage(image, { region, background: [250, 250, 252] }).nonBackground > 2000);
      env.session.assertNoErrors();
    },
  );
});

describe('graph viewer: themes', { skip: skipUnlessData(KERNEL_REUSE) }, () => {
  let env, call;
  before(async () => {
    env = await setupStrata();
    call = env.session.call;
    await env.session.open('/data/' + KERNEL_REUSE);
    await call(() => window.strata.graphSettled());
  });
  after(async () => {
    if (env) await env.close();
  });

  for (const theme of ['dark', 'light']) {
    test(`the graph canvas, its boxes and their text follow the ${theme} theme`, async () => {
      await call((t) => window.strata.setTheme(t), theme);
      await env.session.frame();
      const g = await call(() => window.strata.graph());
      const { image, box } = await screenshotCanvas(env.page);
      const [cx, cy, cw, ch] = g.canvas;
      const region = {
        x: Math.ceil(cx - box.x),
        y: Math.ceil(cy - box.y),
        width: Math.floor(cw) - 1,
        height: Math.floor(ch) - 1,
      };
      const [r, gr, b] = analyseImage(image, { region }).background;
      const bg = 0.299 * r + 0.587 * gr + 0.114 * b;
      if (theme === 'dark') assert.ok(bg < 60, `dark canvas: ${[r, gr, b]}`);
      else assert.ok(bg > 200, `light canvas: ${[r, gr, b]}`);
      // A box: its fill, and the brightest / darkest pixel of its name.
      const { sx, sy } = toScreen(g);
      const n = g.nodes.find((m) => m.name === 'fusion.2');
      const x0 = sx(n.x - n.w / 2),
        y0 = sy(n.y - n.h / 2),
        x1 = sx(n.x + n.w / 2),
        y1 = sy(n.y + n.h / 2);
      assert.ok(x0 > cx && y0 > cy && x1 < cx + cw && y1 < cy + ch, 'fusion.2 in view');
      assert.ok(g.label.px > 0);
      const fill = fillLum(image, box, x0, y0, x1, y1);
      let lo = 255,
        hi = 0;
      const tx = Math.floor(x0 + 6 * g.zoom) - box.x,
        ty = Math.floor(y0 + 5 * g.zoom) - box.y;
      for (let y = ty; y < ty + g.label.px; ++y)
        for (let x = tx; x < tx + n.name.length * g.label.advance; ++x) {
          lo = Math.min(lo, lum(image, x, y));
          hi = Math.max(hi, lum(image, x, y));
        }
      if (theme === 'dark') {
        assert.ok(fill < 130, `a dark box fill (${fill})`);
        assert.ok(hi > fill + 80, `light text on it (${hi} on ${fill})`);
      } else {
        assert.ok(fill > 180, `a light box fill (${fill})`);
        assert.ok(lo < fill - 80, `dark text on it (${lo} on ${fill})`);
      }
      env.session.assertNoErrors();
    });
  }
});
