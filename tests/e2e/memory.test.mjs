// The Memory tab end to end: a Kineto-style trace built here (and the real ones when present)
// opened in the page, the tab switched by strata.setTab('memory'), strata.memory()'s peaks
// checked against this file's own computation, the chart drawn (not a blank canvas), and
// Ascend memory CSVs opened on their own and on top of a trace.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  analyseImage,
  dataPath,
  dataUrl,
  hasData,
  parseTrace,
  readTraceText,
  screenshotCanvas,
  strataSuite,
  usToNs,
} from './lib.mjs';

const KINETO = 'pytorch_kineto/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz';
const ASCEND = 'ascend/msinsight/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/';

// A training-loop-like trace: ops on one thread, each allocating on GPU 0 (and a little on
// the CPU) inside it and freeing later, one spike in the middle.
function makeTrace() {
  const events = [
    { ph: 'M', name: 'process_name', pid: 1, args: { name: 'python' } },
    { ph: 'M', name: 'thread_name', pid: 1, tid: 1, args: { name: 'main' } },
  ];
  let gpu = 0,
    cpu = 0,
    ts = 1000;
  const live = [];
  for (let i = 0; i < 400; ++i) {
    const op = `aten::op${i % 7}`;
    events.push({ ph: 'X', name: op, cat: 'cpu_op', pid: 1, tid: 1, ts, dur: 8 });
    const bytes = i === 233 ? 3 << 30 : ((i % 13) + 1) << 20;
    gpu += bytes;
    live.push({ addr: 1000 + i, bytes });
    events.push({
      ph: 'i',
      s: 't',
      name: '[memory]',
      cat: 'cpu_instant_event',
      pid: 1,
      tid: 1,
      ts: ts + 1,
      args: {
        'Total Reserved': 8 << 30,
        'Total Allocated': gpu,
        Bytes: bytes,
        Addr: 1000 + i,
        'Device Id': 0,
        'Device Type': 1,
      },
    });
    if (i % 5 === 0) {
      cpu += 4096;
      events.push({
        ph: 'i',
        s: 't',
        name: '[memory]',
        cat: 'cpu_instant_event',
        pid: 1,
        tid: 1,
        ts: ts + 2,
        args: {
          'Total Reserved': 0,
          'Total Allocated': cpu,
          Bytes: 4096,
          Addr: 5000 + i,
          'Device Id': -1,
          'Device Type': 0,
        },
      });
    }
    if (live.length > 3) {
      const f = live.shift();
      gpu -= f.bytes;
      events.push({
        ph: 'i',
        s: 't',
        name: '[memory]',
        cat: 'cpu_instant_event',
        pid: 1,
        tid: 1,
        ts: ts + 5,
        args: {
          'Total Reserved': 8 << 30,
          'Total Allocated': gpu,
          Bytes: -f.bytes,
          Addr: f.addr,
          'Device Id': 0,
          'Device Type': 1,
        },
      });
    }
    ts += 10;
  }
  return { traceEvents: events };
}

// Per device: samples, first maximum of Total Allocated and its time (ns), from the records.
function expectedMemory(records) {
  const out = new Map();
  for (const r of records) {
    if (r.name !== '[memory]' || !r.args) continue;
    const t = r.args['Device Type'],
      id = r.args['Device Id'];
    const name = t === 0 ? 'CPU' : t === 1 ? `GPU ${id}` : t === 6 ? `HIP ${id}` : `Device ${t}:${id}`;
    const d = out.get(name) || { name, samples: 0, peakBytes: -1, peakNs: 0 };
    d.samples++;
    if (r.args['Total Allocated'] > d.peakBytes) {
      d.peakBytes = r.args['Total Allocated'];
      d.peakNs = usToNs(r.ts);
    }
    out.set(name, d);
  }
  return out;
}

async function memoryDevices(session) {
  const m = await session.call(() => window.strata.memory());
  assert.ok(m && Array.isArray(m.devices), JSON.stringify(m));
  return m;
}

describe('memory', () => {
  let env;
  strataSuite((e) => (env = e));

  test("a Kineto trace: strata.memory() peaks equal the trace's own, and the chart is drawn", async () => {
    const { session, page } = env;
    const trace = makeTrace();
    const s = await session.openBytes(Buffer.from(JSON.stringify(trace)), 'memory-trace.json');
    assert.deepEqual(s.errors, []);
    await session.call(() => window.strata.setTab('memory'));
    const m = await memoryDevices(session);
    const want = expectedMemory(trace.traceEvents);
    assert.equal(m.devices.length, want.size);
    for (const d of m.devices) {
      const w = want.get(d.name);
      assert.ok(w, `unexpected device ${d.name}`);
      assert.equal(d.samples, w.samples, d.name);
      assert.equal(d.peakBytes, w.peakBytes, d.name);
      assert.equal(d.peakNs, w.peakNs, d.name);
    }
    assert.ok(m.devices.find((d) => d.name === 'GPU 0').peakBytes > 3 << 30, 'the spike is the peak');
    // The chart: the allocated line (blue) is drawn; a timeline screenshot of the same trace
    // differs from the memory tab's.
    await session.frame();
    await session.frame();
    const shot = await screenshotCanvas(page);
    const a = analyseImage(shot.image, {
      region: { x: 100, y: 80, width: shot.image.width - 120, height: Math.floor(shot.image.height * 0.45) },
    });
    assert.ok(a.colourful > 300, `memory chart looks blank: ${JSON.stringify(a)}`);
    let blue = 0;
    const img = shot.image;
    for (let i = 0; i < img.width * img.height; i++) {
      const r = img.data[4 * i],
        g = img.data[4 * i + 1],
        b = img.data[4 * i + 2];
      if (b > 200 && r < 130 && g > 130 && g < 210) blue++;
    }
    assert.ok(blue > 100, `allocated line pixels: ${blue}`);
    await session.call(() => window.strata.setTab('timeline'));
    await session.frame();
    const tl = await screenshotCanvas(page);
    assert.notDeepEqual(Buffer.from(tl.image.data).subarray(0, 200000), Buffer.from(img.data).subarray(0, 200000));
    session.assertNoErrors();
  });

  test("a Kineto trace's deviceProperties: the GPU peak is shown as a share of its totalGlobalMem", async () => {
    const { session } = env;
    const GiB = 1 << 30;
    // The head as Kineto writes it: the device list before the events; GPU 1 has no memory data.
    const trace = {
      schemaVersion: 1,
      deviceProperties: [
        { id: 0, name: 'Test GPU', totalGlobalMem: 16 * GiB, computeMajor: 8 },
        { id: 1, name: 'Other GPU', totalGlobalMem: 40 * GiB, computeMajor: 8 },
      ],
      ...makeTrace(),
    };
    const s = await session.openBytes(Buffer.from(JSON.stringify(trace)), 'memory-devices.json');
    assert.deepEqual(s.errors, []);
    await session.call(() => window.strata.setTab('memory'));
    const m = await memoryDevices(session);
    const want = expectedMemory(trace.traceEvents).get('GPU 0');
    const gpu = m.devices.find((d) => d.name === 'GPU 0');
    assert.equal(gpu.peakBytes, want.peakBytes);
    assert.equal(gpu.capacityBytes, 16 * GiB);
    assert.equal(gpu.peakShare, want.peakBytes / (16 * GiB));
    assert.match(gpu.capacitySource, /totalGlobalMem/);
    const cpu = m.devices.find((d) => d.name === 'CPU');
    assert.equal(cpu.capacityBytes, undefined, 'the CPU has no stated memory');
    // What the tab shows for the device it opens on (the highest peak: GPU 0).
    let v = null;
    for (let i = 0; i < 50 && !(v && v.ready && v.capacityLabel); ++i) {
      await session.frame();
      v = await session.call(() => window.strata.memoryView());
    }
    assert.equal(v.device, 'GPU 0');
    const pct = ((100 * want.peakBytes) / (16 * GiB)).toFixed(1);
    assert.equal(v.capacityLabel, `${pct}% of 16.00 GiB device memory`);
    session.assertNoErrors();
  });

  test(
    "a real Kineto trace (gzip): the GPU peak equals the file's",
    { skip: !hasData(KINETO) && 'no shared data' },
    async () => {
      const { session } = env;
      await session.open(dataUrl(KINETO));
      const want = expectedMemory(parseTrace(readTraceText(dataPath(KINETO))).records);
      const m = await memoryDevices(session);
      for (const [name, w] of want) {
        const d = m.devices.find((x) => x.name === name);
        assert.ok(d, `device ${name} in ${JSON.stringify(m.devices.map((x) => x.name))}`);
        assert.equal(d.samples, w.samples, name);
        assert.equal(d.peakBytes, w.peakBytes, name);
        assert.ok(Math.abs(d.peakNs - w.peakNs) <= 512, `${name} peak at ${d.peakNs}, want ${w.peakNs}`);
      }
    },
  );

  test(
    'Ascend memory CSVs add their memory to the trace shown',
    { skip: !hasData(ASCEND + 'memory_record.csv') && 'no shared data' },
    async () => {
      const { session } = env;
      const text = fs.readFileSync(dataPath(ASCEND + 'memory_record.csv'), 'utf8');
      // Independently: the component with the highest Total Allocated; its peak in bytes.
      let peak = -1;
      for (const line of text.split('\n').slice(1)) {
        const f = line.split(',');
        if (f.length >= 7 && f[2].trim() !== '') peak = Math.max(peak, Number(f[2]) * 1024 * 1024);
      }
      const before_ = await session.openBytes(Buffer.from(JSON.stringify(makeTrace())), 'memory-trace.json');
      await session.call(() => window.strata.setTab('timeline'));
      const s = await session.open(dataUrl(ASCEND + 'memory_record.csv'));
      assert.deepEqual(s.errors, []);
      assert.equal(s.events, before_.events, 'the trace stays');
      assert.equal((await session.call(() => window.strata.state())).tab, 'memory', 'the memory tab shows the CSV');
      let m = await memoryDevices(session);
      assert.deepEqual(m.devices.map((d) => d.name).sort(), ['CPU', 'GPU 0', 'NPU:0']);
      const npu = () => m.devices.find((d) => d.name === 'NPU:0');
      assert.equal(npu().peakBytes, peak);
      const ops =
        fs
          .readFileSync(dataPath(ASCEND + 'operator_memory.csv'), 'utf8')
          .trim()
          .split('\n').length - 1;
      await session.open(dataUrl(ASCEND + 'operator_memory.csv'));
      m = await memoryDevices(session);
      assert.equal(npu().allocations, ops);
      assert.equal(npu().peakBytes, peak, 'the series stay');
      session.assertNoErrors();
    },
  );
});
