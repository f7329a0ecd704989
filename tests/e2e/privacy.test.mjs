// Private by design (issue 10): opening and browsing a trace requests nothing but the site's own
// files and the trace asked for; the app runs under index.html's Content-Security-Policy with no
// violation; event names and args never become HTML.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  DIST_DIR,
  REPO_ROOT,
  launchBrowser,
  newStrataPage,
  poll,
  requireDist,
  startStrataServer,
  tempDir,
} from './lib.mjs';
import { makeHtmlTrace } from './html-trace.mjs';

function distFiles(dir, prefix = '') {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...distFiles(path.join(dir, e.name), `${prefix}${e.name}/`));
    else out.push(prefix + e.name);
  }
  return out;
}

const PACK = path.join(REPO_ROOT, 'build/native/strata-pack');

describe('privacy', () => {
  let server, browser;
  before(async () => {
    requireDist();
    // The trace the user asks for, served next to the app.
    const { dir, cleanup } = tempDir();
    fs.writeFileSync(path.join(dir, 'html-names.json'), makeHtmlTrace());
    server = await startStrataServer({ '/traces/': dir });
    server.cleanup = cleanup;
    server.cleanupDir = dir;
    browser = await launchBrowser();
  });
  after(async () => {
    if (browser) await browser.close().catch(() => {});
    if (server) {
      await server.close();
      server.cleanup();
    }
  });

  test('opening and browsing a trace requests only the site and that trace, under the CSP', async () => {
    const s = await newStrataPage(browser);
    try {
      const requests = [];
      // The context sees the page's, its workers' and its service worker's requests.
      s.context.on('request', (r) => requests.push(r.url()));
      await s.context.addInitScript(() => {
        window.__cspViolations = [];
        document.addEventListener('securitypolicyviolation', (e) => {
          window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
        });
      });
      await s.goto(`${server.url}?url=${encodeURIComponent('/traces/html-names.json')}`);
      const sum = await s.summary();
      assert.equal(sum.files[0].name, 'html-names.json', JSON.stringify(sum.files));

      // Browse: search, select an event with HTML in its name and args, zoom, pan, open the demo.
      const found = await s.find('bold');
      assert.ok(found.count > 0, 'search finds <b>bold</b>');
      const sel = await s.call((ev) => window.strata.select({ event: ev }), found.matches[0].event);
      assert.equal(sel.events[0].name, '<b>bold</b>');
      const details = await poll(
        async () => {
          const d = await s.details();
          return d && d.args && d.args.html ? d : null;
        },
        { message: 'details with args' },
      );
      assert.match(details.args.html, /<img/, 'the args arrive as text');
      await s.focusCanvas(0.5, 0.6);
      for (const k of ['KeyW', 'KeyW', 'KeyD', 'KeyS']) await s.holdKey(k);
      await s.open('demo/demo-trace.json');
      await s.frame();

      assert.equal(
        await s.call(() => document.querySelectorAll('img, b, i').length),
        0,
        'trace text became HTML elements',
      );
      assert.equal(await s.call(() => window.__pwned), undefined, 'an onerror handler from the trace ran');

      const own = new Set(distFiles(DIST_DIR));
      const foreign = requests.filter((u) => {
        const url = new URL(u);
        if (url.protocol === 'data:') return false;
        if (url.origin !== server.origin) return true;
        const rel = url.pathname.replace(/^\//, '');
        return !(own.has(rel || 'index.html') || rel === 'traces/html-names.json');
      });
      assert.deepEqual(
        foreign,
        [],
        `requests other than the site's files and the trace (all: ${JSON.stringify(requests)})`,
      );
      assert.ok(
        requests.some((u) => u.endsWith('/traces/html-names.json')),
        'the trace request was seen',
      );
      assert.ok(
        requests.some((u) => u.endsWith('strata_engine.wasm')),
        "the worker's requests were seen",
      );
      assert.deepEqual(await s.call(() => window.__cspViolations), [], 'the app broke its own CSP');
      s.assertNoErrors({ what: 'while browsing' });

      // The policy is really there: an injected inline script does not run, and is reported.
      const injected = await s.call(async () => {
        const el = document.createElement('script');
        el.textContent = 'window.__inlineRan = true;';
        document.head.append(el);
        await new Promise((r) => setTimeout(r, 200));
        return { ran: !!window.__inlineRan, violations: window.__cspViolations };
      });
      assert.equal(injected.ran, false, 'an inline script ran: no CSP in effect');
      assert.ok(
        injected.violations.some((v) => v.startsWith('script-src')),
        JSON.stringify(injected.violations),
      );
    } finally {
      await s.close();
    }
  });

  // A bundle opened lazily fetches its tiles as views need them: every one from the bundle's
  // own place (one file by ranges, a split bundle's tiles beside its manifest), nothing else.
  test(
    'a lazy tile bundle asks only the site and the bundle for its tiles',
    { skip: !fs.existsSync(PACK) },
    async () => {
      const dir = path.join(server.cleanupDir, 'split');
      fs.mkdirSync(dir, { recursive: true });
      execFileSync(PACK, [path.join(server.cleanupDir, 'html-names.json'), '-o', dir, '--split', '--tile-items', '8']);
      const s = await newStrataPage(browser);
      try {
        const requests = [];
        s.context.on('request', (r) => requests.push(r.url()));
        await s.goto(`${server.url}?bundleLazyMb=0&bundle=${encodeURIComponent('/traces/split/manifest.strata')}`);
        const sum = await poll(
          async () => {
            const x = await s.call(() => window.strata.workerSummary());
            return x.bundle && x.bundle.tilesFetched > 0 ? x : null;
          },
          { message: 'tiles fetched' },
        );
        assert.ok(sum.bundle.tiles > 0);
        assert.ok((await s.find('bold')).count > 0, 'search on the lazy bundle');
        await s.focusCanvas(0.5, 0.6);
        for (const k of ['KeyW', 'KeyW', 'KeyD']) await s.holdKey(k);
        const own = new Set(distFiles(DIST_DIR));
        const foreign = requests.filter((u) => {
          const url = new URL(u);
          if (url.protocol === 'data:') return false;
          if (url.origin !== server.origin) return true;
          const rel = url.pathname.replace(/^\//, '');
          return !(
            own.has(rel || 'index.html') ||
            /^traces\/split\/(manifest\.strata|tiles\/\d+\.zst|html-names\.json)$/.test(rel)
          );
        });
        assert.deepEqual(foreign, [], `requests other than the site's and the bundle's: ${JSON.stringify(requests)}`);
        assert.ok(
          requests.some((u) => /\/traces\/split\/tiles\/\d+\.zst$/.test(u)),
          'tiles were fetched',
        );
      } finally {
        await s.close();
      }
    },
  );
});
