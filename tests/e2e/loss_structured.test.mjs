// Structured training logs in the Loss tab: a TensorBoard event file and a JSON-lines file
// dropped on the canvas become curves (read back through strata.loss() against an independent
// decode in this file, and seen as the series' colour in the chart's pixels), with the tags,
// keys or columns they hold listed for the tag dialog; a CSV with a header gives its columns;
// a bad JSON line is skipped with a count in the log's note.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { dataPath, hasData, poll, screenshotCanvas, strataSuite } from './lib.mjs';
import { dropFolder } from './drop_folder.mjs';

const KATIB =
  'tensorboard/katib/tfevent-metricscollector/logs/train/events.out.tfevents.1637681485.2d662933d616.19.0.v2';

// ---- independent reference: TFRecord frames and the Event fields the sample uses -------------
function varint(b, at) {
  let v = 0n,
    s = 0n;
  for (;;) {
    const x = b[at.i++];
    v |= BigInt(x & 0x7f) << s;
    if (x < 0x80) return v;
    s += 7n;
  }
}
function fields(b, start, end, f) {
  const at = { i: start };
  while (at.i < end) {
    const key = Number(varint(b, at));
    const num = key >> 3,
      type = key & 7;
    if (type === 0) f(num, type, varint(b, at));
    else if (type === 1) (f(num, type, b.subarray(at.i, at.i + 8)), (at.i += 8));
    else if (type === 5) (f(num, type, b.subarray(at.i, at.i + 4)), (at.i += 4));
    else if (type === 2) {
      const n = Number(varint(b, at));
      f(num, type, b.subarray(at.i, at.i + n));
      at.i += n;
    } else throw new Error('wire type ' + type);
  }
}
// {tag: [[step, value], ...]} for scalar tensors (DT_FLOAT in tensor_content) and simple_value.
function decodeEvents(buf) {
  const b = new Uint8Array(buf);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out = {};
  for (let at = 0; at + 12 <= b.length; ) {
    const len = Number(dv.getBigUint64(at, true));
    const data = b.subarray(at + 12, at + 12 + len);
    let step = 0;
    fields(data, 0, data.length, (n, t, v) => {
      if (n === 2 && t === 0) step = Number(v);
      if (n !== 5) return;
      fields(v, 0, v.length, (vn, vt, val) => {
        if (vn !== 1) return;
        let tag = '',
          value = null;
        fields(val, 0, val.length, (k, kt, x) => {
          if (k === 1) tag = new TextDecoder().decode(x);
          if (k === 2 && kt === 5) value = new DataView(x.buffer, x.byteOffset, 4).getFloat32(0, true);
          if (k === 8)
            fields(x, 0, x.length, (tk, tt, tx) => {
              if (tk === 4 && tx.length === 4) value = new DataView(tx.buffer, tx.byteOffset, 4).getFloat32(0, true);
            });
        });
        if (value !== null) (out[tag] = out[tag] || []).push([step, value]);
      });
    });
    at += 16 + len;
  }
  return out;
}

function metricsJsonl() {
  let s = '';
  for (let i = 1; i <= 60; ++i) {
    s += JSON.stringify({ step: i * 5, train: { loss: 4 / i + 0.1, grad_norm: 1 + (i % 7) }, lr: 1e-4 * i }) + '\n';
    if (i === 30) s += '{"step": 151, "train": {"loss": }\n'; // not JSON: skipped, counted
  }
  return s;
}
const jsonlPoints = (text, series, step) =>
  text
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        const o = JSON.parse(l);
        const v = series.split('/').reduce((x, k) => (x == null ? x : x[k]), o);
        return typeof v === 'number' ? [[o[step], v]] : [];
      } catch {
        return [];
      }
    });

// Pixels of a series' colour (loss_series_color(i), ImGui ABGR: 0xFFE0A040, 0xFF4080F0, ...) right
// of the side list, in the upper (data) board.
const SERIES_RGB = [
  [0x40, 0xa0, 0xe0],
  [0xf0, 0x80, 0x40],
  [0x60, 0xc0, 0x60],
  [0xd0, 0x70, 0xd0],
  [0xe0, 0xd0, 0x40],
  [0xff, 0x80, 0x80],
  [0x60, 0xb0, 0xb0],
  [0xc0, 0xa0, 0x70],
];
function seriesPixels(image, index = 0) {
  const [r, g, b] = SERIES_RGB[index];
  let n = 0;
  for (let y = 40; y < image.height / 2; ++y)
    for (let x = 300; x < image.width; ++x) {
      const j = (y * image.width + x) * 4;
      const d = Math.abs(image.data[j] - r) + Math.abs(image.data[j + 1] - g) + Math.abs(image.data[j + 2] - b);
      if (d < 60) ++n;
    }
  return n;
}

async function drop(session, bytes, name) {
  const dt = await session.page.evaluateHandle(
    ({ b64, name }) => {
      const bin = atob(b64);
      const u8 = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
      const d = new DataTransfer();
      d.items.add(new File([u8], name));
      return d;
    },
    { b64: Buffer.from(bytes).toString('base64'), name },
  );
  for (const type of ['dragenter', 'dragover', 'drop'])
    await session.page.dispatchEvent('#canvas', type, { dataTransfer: dt });
  return poll(
    async () => (await session.call(() => window.strata.loss())).files.find((f) => f.name === name && f.count > 0),
    { timeout: 60_000, message: `${name} in strata.loss() after the drop` },
  );
}

describe('structured training logs', () => {
  let env, call;
  strataSuite((e) => {
    env = e;
    call = e.session.call;
  });

  test('a dropped TensorBoard event file is a curve with its tags listed', { skip: !hasData(KATIB) }, async () => {
    const { session } = env;
    const bytes = fs.readFileSync(dataPath(KATIB));
    const ref = decodeEvents(bytes);
    assert.deepEqual(Object.keys(ref).sort(), ['accuracy', 'loss']);
    await call(() => window.strata.setTab('loss'));
    await session.frame();
    const before = seriesPixels((await screenshotCanvas(session.page)).image);
    const f = await drop(session, bytes, 'events.out.tfevents.1637681485.2d662933d616.19.0.v2');
    assert.equal(await call(() => window.strata.tab()), 'loss');
    assert.equal(f.format, 'tfevents');
    assert.deepEqual([...f.seriesKeys].sort(), ['accuracy', 'loss']);
    assert.deepEqual([f.lossTag, f.iterationTag], ['loss', 'step']);
    assert.equal(f.note, '');
    assert.equal(f.points.length, ref.loss.length);
    f.points.forEach(([it, v], i) => {
      assert.equal(it, ref.loss[i][0]);
      assert.ok(Math.abs(v - ref.loss[i][1]) <= 1e-6 * Math.abs(ref.loss[i][1]), `point ${i}`);
    });
    await session.frame();
    const drawn = seriesPixels((await screenshotCanvas(session.page)).image);
    assert.ok(drawn > before + 100, `the curve's colour: ${drawn} pixels, ${before} before the drop`);
    // Another tag from the list: its points; a tag that is not there: no curve, and a note.
    const acc = await call(() =>
      window.strata.setLossTags('events.out.tfevents.1637681485.2d662933d616.19.0.v2', 'accuracy', 'step'),
    );
    assert.equal(acc.points, ref.accuracy.length);
    const none = await call(() =>
      window.strata.setLossTags('events.out.tfevents.1637681485.2d662933d616.19.0.v2', 'nope', 'step'),
    );
    assert.equal(none.points, 0);
    const g = (await call(() => window.strata.loss())).files.find((x) => x.format === 'tfevents');
    assert.match(g.note, /no series "nope"/);
    await session.frame();
    const gone = seriesPixels((await screenshotCanvas(session.page)).image);
    assert.ok(gone < drawn / 2, `no curve left: ${gone} pixels vs ${drawn}`);
    await call(() => window.strata.setLossTags('events.out.tfevents.1637681485.2d662933d616.19.0.v2', 'loss', 'step'));
    await call(() => window.strata.setLossChecked('events.out.tfevents.1637681485.2d662933d616.19.0.v2', false));
    session.assertNoErrors();
  });

  test('a dropped JSON-lines file is a curve; its keys are listed and a bad line is counted', async () => {
    const { session } = env;
    const text = metricsJsonl();
    await call(() => window.strata.setTab('loss'));
    await session.frame();
    const idx = (await call(() => window.strata.loss())).files.length; // its colour's index
    const before = seriesPixels((await screenshotCanvas(session.page)).image, idx);
    const f = await drop(session, Buffer.from(text), 'metrics.jsonl');
    assert.equal(f.format, 'jsonl');
    assert.deepEqual(f.seriesKeys, ['step', 'train/loss', 'train/grad_norm', 'lr']);
    assert.deepEqual([f.lossTag, f.iterationTag], ['train/loss', 'step']);
    assert.deepEqual(f.points, jsonlPoints(text, 'train/loss', 'step'));
    assert.equal(f.points.length, 60);
    assert.match(f.note, /1 of 61 records could not be read and were skipped/);
    await session.frame();
    const drawn = seriesPixels((await screenshotCanvas(session.page)).image, idx);
    assert.ok(drawn > before + 100, `the curve's colour: ${drawn} pixels, ${before} before`);
    const lr = await call(() => window.strata.setLossTags('metrics.jsonl', 'lr', 'step'));
    assert.equal(lr.points, 60);
    const l = (await call(() => window.strata.loss())).files.find((x) => x.name === 'metrics.jsonl');
    assert.deepEqual(l.points, jsonlPoints(text, 'lr', 'step'));
    session.assertNoErrors();
  });

  test('a step,loss CSV gives its points, with TensorBoard CSV downloads too', async () => {
    const { session } = env;
    const r = await session.openBytes(Buffer.from('step,loss\n1,2.5\n2,2.25\n3,2\n'), 'run.csv');
    assert.equal(r.loss.points, 3);
    assert.equal(r.loss.format, 'csv');
    assert.deepEqual(r.loss.seriesKeys, ['step', 'loss']);
    const tb = await session.openBytes(Buffer.from('Wall time,Step,Value\n1.5,10,3.5\n2.5,20,3.25\n'), 'tb.csv');
    assert.deepEqual([tb.loss.lossTag, tb.loss.iterationTag, tb.loss.points], ['Value', 'Step', 2]);
    const f = (await call(() => window.strata.loss())).files.find((x) => x.name === 'tb.csv');
    assert.deepEqual(f.points, [
      [10, 3.5],
      [20, 3.25],
    ]);
    session.assertNoErrors();
  });
  test(
    'a dropped folder of TensorBoard runs names each curve by its run, as tensorboard --logdir does',
    { skip: !hasData(KATIB) },
    async () => {
      const { session } = env;
      const bytes = fs.readFileSync(dataPath(KATIB));
      const points = decodeEvents(bytes).loss.length;
      await call(() => window.strata.setTab('loss'));
      // The earlier tests' curves are hidden: the same points dropped before would lie under the
      // runs' curves. The runs take whichever palette colours come next, so every colour counts.
      for (const f of (await call(() => window.strata.loss())).files)
        await call((n) => window.strata.setLossChecked(n, false), f.name);
      await session.frame();
      const both = (image) => SERIES_RGB.reduce((n, _, i) => n + seriesPixels(image, i), 0);
      const before = both((await screenshotCanvas(session.page)).image);
      await dropFolder(session, 'runs', [
        { path: 'runs/baseline/events.out.tfevents.1637681485.host.1.0.v2', bytes },
        { path: 'runs/lr_0.1/train/events.out.tfevents.1637681486.host.1.0.v2', bytes },
      ]);
      const files = await poll(
        async () => {
          const l = await call(() => window.strata.loss());
          const runs = l.files.filter((f) => f.name === 'baseline' || f.name === 'lr_0.1/train');
          return runs.length === 2 && runs.every((f) => f.count > 0) ? l.files : null;
        },
        { timeout: 60_000, message: 'the two runs in strata.loss() after the folder drop' },
      );
      assert.ok(
        !files.some((f) => /host\.1\.0\.v2/.test(f.name)),
        `no curve of the folder named by its file (the earlier single drop keeps its name): ${files.map((f) => f.name)}`,
      );
      for (const name of ['baseline', 'lr_0.1/train']) {
        const f = files.find((x) => x.name === name);
        assert.equal(f.format, 'tfevents', name);
        assert.equal(f.points.length, points, name);
      }
      assert.equal(await call(() => window.strata.tab()), 'loss');
      await session.frame();
      const drawn = both((await screenshotCanvas(session.page)).image);
      assert.ok(drawn > before + 100, `the runs' curves: ${drawn} pixels, ${before} before the drop`);
      for (const name of ['baseline', 'lr_0.1/train']) await call((n) => window.strata.setLossChecked(n, false), name);
      session.assertNoErrors();
    },
  );
});
