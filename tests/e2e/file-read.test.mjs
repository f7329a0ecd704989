// Issue 3, reading picked files: a File is read in 32 MB slices by web/worker/read-worker.js, which
// transfers them to the engine worker in file order. A file of several slices must arrive
// whole and in order (every record counted as an independent parse counts it), and when the
// reader cannot start, the engine worker reads the file itself with the same result.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DIST_DIR, REPO_ROOT, countTrace, newStrataPage, poll, serverAndBrowser, tempDir } from './lib.mjs';

const MAKE_DEMO = path.join(REPO_ROOT, 'build/native/strata_make_demo');
const SLICE = 32 << 20; // web/worker/sources.js SLICE_BYTES

// The site without worker/read-worker.js, at /noreader/ (links to dist's files).
function siteWithoutReader(dir) {
  fs.mkdirSync(path.join(dir, 'worker'), { recursive: true });
  for (const f of fs.readdirSync(DIST_DIR)) {
    if (f !== 'worker') fs.symlinkSync(path.join(DIST_DIR, f), path.join(dir, f));
  }
  for (const f of fs.readdirSync(path.join(DIST_DIR, 'worker'))) {
    if (f !== 'read-worker.js') fs.symlinkSync(path.join(DIST_DIR, 'worker', f), path.join(dir, 'worker', f));
  }
  return dir;
}

describe(
  'picked files read by the reader worker',
  { skip: !fs.existsSync(MAKE_DEMO) && 'no build/native/strata_make_demo' },
  () => {
    const tmp = tempDir();
    const env = serverAndBrowser({ '/noreader/': siteWithoutReader(path.join(tmp.dir, 'noreader')) });
    let file, expected;
    before(() => {
      file = path.join(tmp.dir, 'slices.json');
      execFileSync(MAKE_DEMO, [file, '40']); // ~80 MB: three slices, the last one partial
      expected = countTrace(file);
    });
    after(() => tmp.cleanup());

    async function pickAndCount(session) {
      await session.page.setInputFiles('input[type=file]', file);
      return poll(
        async () => {
          const s = await session.summary();
          return s.files.length && s.files[0].name === 'slices.json' && s.events > 0 ? s : null;
        },
        { timeout: 60_000, message: 'summary() of slices.json' },
      );
    }

    test('a file of several slices arrives whole and in order', async () => {
      const size = fs.statSync(file).size;
      assert.ok(size > 2 * SLICE && size % SLICE !== 0, `${size} bytes`);
      const session = await newStrataPage(env.browser);
      const reads = [];
      session.page.on('worker', (w) => reads.push(w.url()));
      try {
        await session.goto(env.server.origin + '/');
        const sum = await pickAndCount(session);
        assert.ok(
          reads.some((u) => u.endsWith('/read-worker.js')),
          `the engine worker started the reader worker: ${reads}`,
        );
        assert.deepEqual(sum.phases, expected.phases, 'phases of the picked file');
        assert.deepEqual(sum.errors, []);
        session.assertNoErrors({ what: 'reading slices.json' });
      } finally {
        await session.close();
      }
    });

    test('without the reader worker, the engine worker reads the file itself', async () => {
      const session = await newStrataPage(env.browser);
      try {
        await session.goto(env.server.origin + '/noreader/');
        const sum = await pickAndCount(session);
        assert.ok(
          session.log.httpErrors.some((e) => e.includes('/noreader/worker/read-worker.js')),
          `the reader worker was asked for and not found: ${JSON.stringify(session.log.httpErrors)}`,
        );
        assert.deepEqual(sum.phases, expected.phases, 'phases of the picked file, read in the engine worker');
        assert.deepEqual(sum.errors, []);
        session.assertNoErrors({
          allowHttp: true,
          allowConsole: true,
          what: 'reading slices.json without read-worker.js',
        });
      } finally {
        await session.close();
      }
    });
  },
);
