// The Memory tab's header says what the profile states of the device's memory: the peak's share
// when it states the size (Kineto's totalGlobalMem, in memory.test.mjs), else that it does not,
// with what it names instead. A real Ascend db names its NPU's chip (NPU_INFO) but no HBM size:
// the header says "device memory not stated in this profile" and names the chip, found here in
// the db's bytes; no share is made up.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { dataPath, dataUrl, poll, setupStrata, skipUnlessData } from './lib.mjs';

const DB = 'ascend/msinsight/db_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db';
const NOT_STATED = 'device memory not stated in this profile';

describe('the device memory the Memory tab states', { skip: skipUnlessData(DB) }, () => {
  let env, s;
  before(async () => {
    env = await setupStrata();
    s = env.session;
  });
  after(async () => {
    if (env) await env.close();
  });

  test('an Ascend db names the chip, not its HBM size: the header says so', async () => {
    const chip = fs
      .readFileSync(dataPath(DB))
      .toString('latin1')
      .match(/Ascend\d+[A-Za-z0-9]*/);
    assert.ok(chip, 'the db names its chip');
    const sum = await s.open(dataUrl(DB));
    assert.deepEqual(sum.errors, []);
    assert.equal(await s.call(() => window.strata.setTab('memory')), true);
    const m = await s.call(() => window.strata.memory());
    const npu = m.devices.find((d) => d.name === 'NPU:0');
    assert.ok(npu, JSON.stringify(m.devices.map((d) => d.name)));
    assert.equal(npu.capacityBytes, undefined, 'no size is made up');
    assert.match(npu.capacityWhy, new RegExp(`${chip[0]}.*not its HBM size`));
    const v = await poll(
      async () => {
        const x = await s.call(() => window.strata.memoryView());
        return x.ready && x.device === 'NPU:0' && x.capacityNote && x;
      },
      { timeout: 60_000, message: 'the header on NPU:0' },
    );
    assert.equal(v.capacityLabel, '');
    assert.ok(v.capacityNote.startsWith(NOT_STATED), v.capacityNote);
    assert.ok(v.capacityNote.includes(chip[0]), v.capacityNote);
    assert.equal(v.capacityShown, NOT_STATED, 'the header line says it');
    s.assertNoErrors();
  });
});
