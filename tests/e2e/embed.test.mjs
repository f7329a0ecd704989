// Embedding and hosting (issue 10): web/embed-example.html drives Strata in an iframe over the
// postMessage protocol, same-origin and cross-origin, with the origins= allowlist; messages of the
// wrong shape are answered with errors; the URL parameters view=, select=, several url=, and the
// "Copy link" button; the embedded top bar has no stray separators.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  CALL_TIMEOUT_MS,
  DIST_DIR,
  countTrace,
  newStrataPage,
  poll,
  screenshotCanvas,
  serverAndBrowser,
  withTimeout,
} from './lib.mjs';
import { makeHtmlTrace } from './html-trace.mjs';

describe('embedding', () => {
  const env = serverAndBrowser();
  // The same server under another name is another origin: a cross-origin host page.
  const localhostOrigin = () => env.server.origin.replace('127.0.0.1', 'localhost');
  const TRACE = makeHtmlTrace();
  const EXP = countTrace(TRACE);

  // Opens the example dashboard and waits for Strata's {ready} message.
  async function openDashboard(url) {
    const s = await newStrataPage(env.browser);
    await s.page.goto(url, { waitUntil: 'load' });
    await waitFor(s, (m) => m.ready, 'the {strata: {ready}} message');
    const frame = await poll(() => s.page.frames().find((f) => f.url().includes('index.html')), {
      message: 'the Strata frame',
    });
    return { s, frame };
  }
  const messages = (s) => s.call(() => window.dashboard.log, undefined, CALL_TIMEOUT_MS, 'dashboard.log');
  async function waitFor(s, pred, what, timeout = 60_000) {
    return poll(async () => (await messages(s)).find(pred), { timeout, message: what });
  }
  const send = (s, cmd) => s.call((c) => window.dashboard.send(c), cmd, CALL_TIMEOUT_MS, 'dashboard.send');

  test('the example dashboard opens a file, selects, and hears of clicks in the frame', async () => {
    const { s, frame } = await openDashboard(`${env.server.url}embed-example.html`);
    try {
      const ready = await waitFor(s, (m) => m.ready, 'ready');
      assert.equal(ready.ready.protocol, 1, 'protocol version');
      // embed=1 starts empty (no demo) and its file picker is off.
      const empty = await frame.evaluate(() => window.strata.summary());
      assert.equal(empty.files.length, 0, `embed=1 loads nothing at start: ${JSON.stringify(empty.files)}`);

      // The dashboard's file input → {open: {name, buffer}} (transferred) → {loaded: summary}.
      await s.page.setInputFiles('#file', { name: 'dash-trace.json', mimeType: 'application/json', buffer: TRACE });
      const loaded = await waitFor(
        s,
        (m) => m.loaded && m.loaded.files[0].name === 'dash-trace.json',
        'loaded dash-trace.json',
      );
      assert.deepEqual(loaded.loaded.phases, EXP.phases, 'summary.phases vs an independent count');
      assert.deepEqual(loaded.loaded.errors, []);
      assert.equal(typeof loaded.id, 'number', 'the reply carries the request id');
      assert.match(await s.page.textContent('#summary'), /dash-trace\.json/);

      // A select command: the reply names the event; the dashboard shows the HTML-like name as text.
      const id = await send(s, { select: { name: '<b>bold</b>', tsNs: 1000 * 1000 } });
      const sel = await waitFor(s, (m) => m.id === id, 'the select reply');
      assert.equal(sel.selection.count, 1, JSON.stringify(sel));
      assert.equal(sel.selection.events[0].name, '<b>bold</b>');
      await poll(async () => (await s.page.textContent('#selection')).includes('<b>bold</b>'), {
        message: 'selection list',
      });
      assert.equal(await s.page.locator('#selection b').count(), 0, 'an event name became HTML on the dashboard');

      // A click inside the frame is reported (watchSelection was asked for on ready).
      const at = await frame.evaluate(() => window.strata.locate({ name: 'long_step', tsNs: 0, pid: 1, tid: 2 }));
      assert.ok(at, 'long_step is on screen');
      const box = await s.page.locator('#strata').boundingBox();
      await s.page.mouse.click(box.x + at.x, box.y + at.y);
      const report = await waitFor(
        s,
        (m) => m.selection && m.id === undefined && m.selection.events[0] && m.selection.events[0].name === 'long_step',
        'the selection report of a click',
      );
      assert.equal(report.selection.count, 1);

      // A view command answers with the (clamped) view.
      const vid = await send(s, { view: { startNs: 1e6, endNs: 2e6 } });
      const v = await waitFor(s, (m) => m.id === vid, 'the view reply');
      assert.deepEqual(v.view, { startNs: 1e6, endNs: 2e6 });
      s.assertNoErrors({ what: 'on the dashboard' });
    } finally {
      await s.close();
    }
  });

  test('messages of the wrong shape or size get an error and change nothing', async () => {
    const { s, frame } = await openDashboard(`${env.server.url}embed-example.html`);
    try {
      await s.page.click('#demo'); // {open: {url}}
      await waitFor(s, (m) => m.loaded && /demo/.test(m.loaded.files[0].name), 'the demo to load by URL');
      const bad = [
        [{ bogus: 1 }, /one command expected/],
        [{ open: {} }, /exactly one of buffer or url/],
        [{ open: { url: 'javascript:alert(1)' } }, /only http\(s\) URLs/],
        [{ open: { name: 'x', buffer: 'not a buffer' } }, /ArrayBuffer/],
        [{ open: { url: Array(65).fill('a.json') } }, /1 to 64/],
        [{ open: { name: 'x'.repeat(300), url: 'a.json' } }, /at most 256/],
        [{ view: { startNs: 5, endNs: 1 } }, /endNs > startNs/],
        [{ find: 'x'.repeat(5000) }, /at most 1024/],
        [{ open: { url: '/no-such-trace.json' } }, /could not fetch/],
      ];
      for (const [cmd, re] of bad) {
        const id = await send(s, cmd);
        const r = await waitFor(s, (m) => m.id === id, `the reply to ${JSON.stringify(cmd).slice(0, 80)}`);
        assert.match(String(r.error), re, `reply to ${JSON.stringify(cmd).slice(0, 80)}: ${JSON.stringify(r)}`);
      }
      // A message that is not even an object is answered too (without an id).
      await s.call(() => document.getElementById('strata').contentWindow.postMessage({ strata: 'hi' }, '*'));
      await waitFor(s, (m) => m.error && /must be \{strata/.test(m.error), 'the error for {strata: "hi"}');
      const sum = await frame.evaluate(() => window.strata.summary());
      assert.match(sum.files[0].name, /demo/, 'the demo is still loaded');
      s.assertNoErrors({ allowHttp: true, what: 'after bad messages' }); // the 404 was asked for
    } finally {
      await s.close();
    }
  });

  test('cross-origin: an allowed host page drives Strata, any other origin is ignored', async () => {
    const strataUrl = `${env.server.url}index.html`;
    const { s } = await openDashboard(
      `${localhostOrigin()}/embed-example.html?strata=${encodeURIComponent(strataUrl)}`,
    );
    try {
      await s.page.click('#demo');
      const loaded = await waitFor(s, (m) => m.loaded, 'the demo to load cross-origin');
      assert.match(loaded.loaded.files[0].name, /demo/);

      // A second frame that allows only another origin: it neither announces itself nor obeys.
      await s.call(
        (src) => {
          const f = document.createElement('iframe');
          f.id = 'strict';
          f.src = src;
          window.__strictLog = [];
          window.addEventListener('message', (e) => {
            if (e.source === f.contentWindow) window.__strictLog.push(e.data);
          });
          document.body.append(f);
        },
        `${strataUrl}?embed=1&origins=${encodeURIComponent('https://elsewhere.example')}`,
      );
      const strict = await poll(() => s.page.frames().find((f) => f.url().includes('elsewhere')), {
        message: 'the strict frame',
      });
      await withTimeout(
        strict.waitForFunction(() => window.strata && window.strata.ready),
        60_000,
        'strict frame start',
      );
      await strict.evaluate(() => window.strata.ready);
      await s.call(() =>
        document.getElementById('strict').contentWindow.postMessage({ strata: { hello: true, id: 1 } }, '*'),
      );
      await s.call(() =>
        document
          .getElementById('strict')
          .contentWindow.postMessage({ strata: { open: { url: 'demo/demo-trace.json' } } }, '*'),
      );
      await new Promise((r) => setTimeout(r, 2000));
      assert.deepEqual(await s.call(() => window.__strictLog), [], 'a frame with another allowlist answered');
      assert.equal(
        (await strict.evaluate(() => window.strata.summary())).files.length,
        0,
        'it opened a file for a stranger',
      );
      s.assertNoErrors({ what: 'cross-origin' });
    } finally {
      await s.close();
    }
  });
});

describe('URL parameters and Copy link', () => {
  const env = serverAndBrowser();

  test('view= and select= open the demo at that place; Copy link reopens it', async () => {
    const first = await newStrataPage(env.browser);
    let pick, range;
    try {
      await first.goto(env.server.url);
      const sum = await first.summary();
      const found = await first.find('e');
      pick = found.matches[Math.min(5, found.matches.length - 1)];
      const span = sum.endNs - sum.startNs;
      range = [Math.round(sum.startNs + span * 0.25), Math.round(sum.startNs + span * 0.5)];
    } finally {
      await first.close();
    }

    const s = await newStrataPage(env.browser);
    try {
      await s.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
      await s.goto(`${env.server.url}?view=${range.join(',')}&select=${pick.event}`);
      const sel = await poll(() => s.call(() => window.strata.selection()).then((x) => x.count && x), {
        message: 'select= applied',
      });
      assert.equal(sel.events[0].event, pick.event, 'select= picked that event');
      const v = await s.view();
      assert.ok(
        Math.abs(v.startNs - range[0]) < 2 && Math.abs(v.endNs - range[1]) < 2,
        `view= ${JSON.stringify(v)} vs ${range}`,
      );

      // strata.js writes the hash deep link every 300 ms: wait for it to hold the selection.
      await poll(() => s.call(() => location.hash.includes(`sel=`)), { message: 'the hash to carry sel=' });
      await s.page.click('#copy-link-button');
      await poll(async () => /copied/i.test(await s.page.textContent('#copy-link output')), {
        message: '"Link copied"',
      });
      const link = await s.call(() => navigator.clipboard.readText());
      assert.ok(link.startsWith(env.server.url), link);

      const again = await newStrataPage(env.browser);
      try {
        await again.goto(link);
        const sel2 = await poll(() => again.call(() => window.strata.selection()).then((x) => x.count && x), {
          message: 'the link selects',
        });
        assert.equal(sel2.events[0].event, pick.event, `the link ${link} selects the same event`);
        const v2 = await again.view();
        assert.ok(
          Math.abs(v2.startNs - v.startNs) < 2 && Math.abs(v2.endNs - v.endNs) < 2,
          `the link's view ${JSON.stringify(v2)}`,
        );
        again.assertNoErrors({ what: 'opening a copied link' });
      } finally {
        await again.close();
      }
      s.assertNoErrors({ what: 'with view= and select=' });
    } finally {
      await s.close();
    }
  });

  test('select= by name, and several url= open together', async () => {
    const s = await newStrataPage(env.browser);
    try {
      const demo = `${env.server.url}demo/demo-trace.json`;
      await s.goto(env.server.url);
      const found = await s.find('e');
      const name = found.matches[3].name;
      await s.goto(`${env.server.url}?select=${encodeURIComponent(name)}`);
      const sel = await poll(() => s.call(() => window.strata.selection()).then((x) => x.count && x), {
        message: 'select=<name>',
      });
      assert.equal(sel.events[0].name, name);

      // Two Chrome JSON files open together as one trace (a run's ranks, as several xplanes are
      // a run's hosts: multirank.test.mjs): one load of both files; both URLs are in Copy
      // link's link.
      const opened = [];
      await s.page.exposeFunction('__e2eLoaded', (name) => {
        opened.push(name);
      });
      await s.page.addInitScript(() =>
        window.addEventListener('strata:loaded', (e) =>
          window.__e2eLoaded(e.detail.files[0] && e.detail.files[0].name),
        ),
      );
      await s.goto(
        `${env.server.url}?url=${encodeURIComponent(demo)}&url=${encodeURIComponent('/some/dir/demo/demo-trace.json')}`,
      );
      const sum = await s.summary();
      assert.match(sum.files[0].name, /demo/);
      assert.equal(sum.files.length, 2);
      assert.match(sum.files[1].name, /demo/);
      assert.deepEqual(sum.errors, []);
      await poll(() => opened.length >= 1, { message: 'the url= pair loaded' });
      assert.equal((await s.call(() => window.strata.link())).split('url=').length - 1, 2, 'both url= in the link');
    } finally {
      await s.close();
    }
  });

  test('?url= on another env.server: opens with CORS, explains CORS without it', async () => {
    // Another origin (localhost vs 127.0.0.1, another port), allowing cross-origin reads under /cors/ only.
    const body = fs.readFileSync(path.join(DIST_DIR, 'demo', 'demo-trace.json'));
    const other = http.createServer((req, res) => {
      const cors = req.url.startsWith('/cors/') ? { 'Access-Control-Allow-Origin': '*' } : {};
      res.writeHead(200, { 'Content-Type': 'application/json', ...cors });
      res.end(body);
    });
    await new Promise((r) => other.listen(0, '127.0.0.1', r));
    const base = `http://localhost:${other.address().port}`;
    const s = await newStrataPage(env.browser);
    try {
      await s.goto(`${env.server.url}?url=${encodeURIComponent(`${base}/cors/far-trace.json`)}`);
      const ok = await s.summary();
      assert.deepEqual(
        ok.files.map((f) => f.name),
        ['far-trace.json'],
      );
      assert.deepEqual(ok.errors, []);
      const link = await s.call(() => window.strata.link());
      assert.ok(
        link.startsWith(`${env.server.url}?url=${encodeURIComponent(`${base}/cors/far-trace.json`)}#view=`),
        `Copy link keeps the trace URL: ${link}`,
      );

      await s.goto(`${env.server.url}?url=${encodeURIComponent(`${base}/plain/far-trace.json`)}`);
      const bad = await s.summary();
      assert.equal(bad.files.length, 0);
      assert.match(bad.errors.join('\n'), /could not fetch .*far-trace\.json.*CORS/, 'the error explains CORS');
      s.assertNoErrors({ allowHttp: true, what: 'a cross-origin ?url=' });
    } finally {
      await s.close();
      other.close();
    }
  });

  test('embedded and empty, the top bar ends at the tabs: no stray separator', async () => {
    const s = await newStrataPage(env.browser);
    try {
      await s.goto(`${env.server.url}?embed=1`);
      await s.frame();
      let st = await s.call(() => window.strata.state());
      assert.equal(st.title, '');
      assert.equal(st.topBar.itemsRight, st.topBar.tabsRight, 'nothing is drawn after the tabs');
      assert.match(st.emptyMessage, /host page opens files/);
      // Pixels: right of the tabs, the top bar is one colour (no "|" left over).
      const { image } = await screenshotCanvas(s.page);
      const colours = new Set();
      for (let y = 2; y < 30; y++)
        for (let x = Math.ceil(st.topBar.tabsRight) + 2; x < image.width; x++) {
          const j = (y * image.width + x) * 4;
          colours.add((image.data[j] << 16) | (image.data[j + 1] << 8) | image.data[j + 2]);
        }
      assert.equal(colours.size, 1, `the top bar after the tabs is empty (${colours.size} colours)`);
      // With a trace, a separator comes before its name.
      await s.open('demo/demo-trace.json');
      await s.frame();
      st = await s.call(() => window.strata.state());
      assert.match(st.title, /demo-trace\.json/);
      assert.ok(st.topBar.itemsRight > st.topBar.tabsRight + 100, 'the title follows the tabs');
      s.assertNoErrors();
    } finally {
      await s.close();
    }
  });
});
