// Strata as an embeddable, hostable static app (README "Embedding and hosting"):
//  * the iframe postMessage protocol ({strata: {...}} messages, checked, optional origin allowlist),
//  * start-up URL parameters view=, select=, tab= (url= and embed= are read by strata.js),
//  * the "Copy link" button, and registration of the offline service worker (sw.js).
// Uses only the public window.strata API and its window events, so it does not depend on how
// strata.js works inside.
(function () {
  'use strict';
  const strata = window.strata;
  if (!strata) return;
  const params = new URLSearchParams(location.search);
  const embedded = params.get('embed') === '1';
  const initialHash = new URLSearchParams(location.hash.slice(1));

  // ---- load outcomes ---------------------------------------------------------------------------
  // strata.js fires 'strata:loadfailed' (then 'strata:loaded') when a load fails, 'strata:loaded'
  // alone when it succeeds. lastEnd is the outcome of the latest load, read by whoever awaited it.
  let failure = null;
  let lastEnd = null;
  let loadEnds = 0;
  let protocolOpens = 0; // protocol opens in flight: their outcome is sent as a reply
  // What "Copy link" can reopen: the URLs of the shown trace, [] for the demo, null for a local file.
  let currentUrls = params.getAll('url').filter(Boolean);
  // The URLs of the open in flight (start-up: ?url= or the demo), until it has ended: one load
  // (a single URL, a multi-host run's xplanes) or several (other files, one after another).
  let requestedUrls = currentUrls;
  const untilEnded = (urls, done) =>
    Promise.resolve(done).then(() => {
      if (requestedUrls === urls) requestedUrls = null;
    });
  untilEnded(requestedUrls, strata.ready);
  window.addEventListener('strata:loadfailed', (e) => {
    failure = e.detail.error;
  });
  window.addEventListener('strata:loaded', (e) => {
    lastEnd = { summary: e.detail, error: failure };
    loadEnds++;
    failure = null;
    if (!lastEnd.error) {
      // A load by URL keeps its URLs in the link; anything else (picker, drop, buffer) cannot.
      const names = (e.detail.files || []).map((f) => f.name);
      currentUrls =
        requestedUrls && (!requestedUrls.length || requestedUrls.some((u) => names[0] === urlName(u)))
          ? requestedUrls
          : null;
    }
    if (protocolOpens === 0) post(lastEnd.error ? { error: lastEnd.error } : { loaded: lastEnd.summary });
  });
  function urlName(u) {
    try {
      return decodeURIComponent(new URL(u, document.baseURI).pathname.split('/').pop());
    } catch (e) {
      return '';
    }
  }
  function urlsOf(source) {
    if (typeof source === 'string') return [source];
    if (Array.isArray(source) && source.length && source.every((s) => typeof s === 'string')) return source.slice();
    return null;
  }
  // Wrap the API's open so that "Copy link" knows which URLs the shown trace came from.
  const openInner = strata.open;
  strata.open = function (source, opts) {
    const urls = urlsOf(source);
    requestedUrls = urls;
    const done = openInner.call(strata, source, opts);
    untilEnded(urls, done);
    return done;
  };

  // ---- postMessage protocol --------------------------------------------------------------------
  const PROTOCOL = 1;
  const MAX_BUFFER_BYTES = 2 ** 31; // 2 GiB: beyond what one wasm engine can index anyway
  const MAX_URLS = 64,
    MAX_URL_CHARS = 8192,
    MAX_NAME_CHARS = 256,
    MAX_TEXT_CHARS = 1024;
  const { EMBED, REPLY } = StrataProtocol;
  const COMMANDS = Object.values(EMBED);
  const inFrame = window.parent !== window;
  const allowed = parseOrigins(params.get('origins'));
  let hostOrigin = null; // the origin of the last accepted message: where replies and reports go
  let watching = false;

  function parseOrigins(text) {
    if (!text) return null;
    const out = [];
    for (const o of text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      try {
        if (new URL(o).origin === o) out.push(o);
      } catch (e) {
        /* not an origin: ignored */
      }
    }
    return out; // an empty list (only malformed entries) accepts nobody: fail closed
  }
  // Where an unsolicited message may go: the host once it has spoken; before that the parent, if
  // its origin is known to be allowed (Chromium's ancestorOrigins, or the referrer).
  function targetOrigin() {
    if (hostOrigin) return hostOrigin;
    if (!allowed) return '*';
    let parent = location.ancestorOrigins && location.ancestorOrigins.length ? location.ancestorOrigins[0] : '';
    if (!parent && document.referrer) {
      try {
        parent = new URL(document.referrer).origin;
      } catch (e) {
        parent = '';
      }
    }
    return allowed.includes(parent) ? parent : null;
  }
  function post(body, origin) {
    if (!inFrame) return;
    const to = origin || targetOrigin();
    if (!to) return;
    window.parent.postMessage({ strata: body }, to === 'null' ? '*' : to);
  }

  // A message's body, or an error string when it has the wrong shape or size.
  function check(s) {
    if (!s || typeof s !== 'object' || Array.isArray(s)) return 'the message must be {strata: {<command>: ...}}';
    const keys = Object.keys(s).filter((k) => k !== 'id');
    if (keys.length !== 1 || !COMMANDS.includes(keys[0]))
      return `one command expected, one of ${COMMANDS.join(', ')}; got ${JSON.stringify(keys.slice(0, 8))}`;
    if ('id' in s && !(typeof s.id === 'string' && s.id.length <= 64) && !Number.isFinite(s.id))
      return 'id must be a number or a string of at most 64 characters';
    const cmd = keys[0],
      arg = s[cmd];
    switch (cmd) {
      case EMBED.open: {
        if (!arg || typeof arg !== 'object') return 'open: expected {name, buffer} or {url}';
        if ('name' in arg && (typeof arg.name !== 'string' || arg.name.length > MAX_NAME_CHARS))
          return `open.name must be a string of at most ${MAX_NAME_CHARS} characters`;
        const hasBuffer = 'buffer' in arg,
          hasUrl = 'url' in arg;
        if (hasBuffer === hasUrl) return 'open: give exactly one of buffer or url';
        if (hasBuffer) {
          if (!(arg.buffer instanceof ArrayBuffer)) return 'open.buffer must be an ArrayBuffer';
          if (arg.buffer.byteLength === 0) return 'open.buffer is empty';
          if (arg.buffer.byteLength > MAX_BUFFER_BYTES) return `open.buffer is larger than ${MAX_BUFFER_BYTES} bytes`;
          return null;
        }
        const urls = typeof arg.url === 'string' ? [arg.url] : arg.url;
        if (!Array.isArray(urls) || !urls.length || urls.length > MAX_URLS)
          return `open.url must be a URL string or an array of 1 to ${MAX_URLS} of them`;
        for (const u of urls) {
          if (typeof u !== 'string' || !u || u.length > MAX_URL_CHARS)
            return `open.url: each URL is a string of at most ${MAX_URL_CHARS} characters`;
          let url;
          try {
            url = new URL(u, document.baseURI);
          } catch (e) {
            return `open.url: not a URL: ${u.slice(0, 200)}`;
          }
          if (url.protocol !== 'https:' && url.protocol !== 'http:')
            return `open.url: only http(s) URLs can be opened, not ${url.protocol}`;
        }
        return null;
      }
      case EMBED.view:
        return arg && Number.isFinite(arg.startNs) && Number.isFinite(arg.endNs) && arg.endNs > arg.startNs
          ? null
          : 'view: expected {startNs, endNs} with endNs > startNs';
      case EMBED.select:
        if (arg && Number.isInteger(arg.event) && arg.event >= 0) return null;
        return arg && typeof arg.name === 'string' && arg.name.length <= MAX_TEXT_CHARS && Number.isFinite(arg.tsNs)
          ? null
          : 'select: expected {event} or {name, tsNs, pid, tid}';
      case EMBED.find:
        return typeof arg === 'string' && arg.length <= MAX_TEXT_CHARS
          ? null
          : `find: expected a string of at most ${MAX_TEXT_CHARS} characters`;
      case EMBED.tab:
        return typeof arg === 'string' && arg.length <= 32 ? null : 'tab: expected a tab name';
      case EMBED.watchSelection:
        return typeof arg === 'boolean' ? null : 'watchSelection: expected true or false';
      default:
        return null; // hello
    }
  }

  async function run(cmd, arg) {
    switch (cmd) {
      case EMBED.hello:
        return { ready: { version: strata.version, protocol: PROTOCOL } };
      case EMBED.open: {
        protocolOpens++;
        const before = loadEnds;
        try {
          if ('buffer' in arg) await strata.open(arg.buffer, { name: arg.name || 'trace' });
          else await strata.open(typeof arg.url === 'string' ? arg.url : arg.url.slice());
        } finally {
          protocolOpens--;
        }
        if (loadEnds === before) return { error: 'open: the engine stopped before the load ended' };
        return lastEnd.error ? { error: lastEnd.error } : { loaded: lastEnd.summary };
      }
      case EMBED.view: {
        // The answer the embedding protocol documents: the two absolute times.
        const v = strata.setView(arg.startNs, arg.endNs);
        return { view: { startNs: v.startNs, endNs: v.endNs } };
      }
      case EMBED.select:
        return { selection: await strata.select(arg) };
      case EMBED.find:
        return { found: await strata.find(arg) };
      case EMBED.tab:
        if (typeof strata.setTab !== 'function') return { error: 'tab: this version of Strata has no tabs' };
        return { tab: await strata.setTab(arg) };
      case EMBED.watchSelection:
        watching = arg;
        return { watching };
    }
    return { error: `unknown command ${cmd}` };
  }

  if (inFrame) {
    window.addEventListener('message', (e) => {
      if (e.source !== window.parent) return; // only our host page speaks
      const d = e.data;
      if (!d || typeof d !== 'object' || !('strata' in d)) return; // someone else's message
      if (allowed && !allowed.includes(e.origin)) {
        console.warn(`Strata: message from ${e.origin} ignored: not in origins=`);
        return;
      }
      hostOrigin = e.origin;
      const s = d.strata;
      const id = s && typeof s === 'object' && 'id' in s ? s.id : undefined;
      const reply = (body) => post(id === undefined ? body : Object.assign(body, { id }), e.origin);
      const bad = check(s);
      if (bad) {
        reply({ error: bad });
        return;
      }
      const cmd = Object.keys(s).find((k) => k !== 'id');
      // Commands wait for start-up (the UI, the engine and a start-up ?url=).
      Promise.resolve(strata.ready)
        .then(() => run(cmd, s[cmd]))
        .then(reply, (err) => reply({ error: `${cmd}: ${(err && err.message) || err}` }));
    });

    let selTimer = 0;
    window.addEventListener('strata:selection', () => {
      if (!watching) return;
      clearTimeout(selTimer); // a burst of changes (ctrl-clicks, drags) is reported once
      selTimer = setTimeout(() => {
        strata.selection().then((sel) => {
          if (watching) post({ selection: sel });
        });
      }, 100);
    });
  }

  // ---- start-up parameters view=, select=, tab= -------------------------------------------------
  // The hash (#view=...&sel=..., written by strata.js as you browse) is more recent than the
  // query, so the query applies only when the hash has none.
  async function applyParams() {
    if (params.has('tab') && typeof strata.setTab === 'function') await strata.setTab(params.get('tab'));
    if (initialHash.has('view') || initialHash.has('sel')) return;
    const sel = params.get('select');
    if (sel) {
      if (/^\d+$/.test(sel)) await strata.select({ event: Number(sel) });
      else {
        // A name: its first occurrence in time, preferring an exact match over a substring.
        const r = await strata.find(sel);
        const matches = r && r[REPLY.find.matches];
        const m = matches && (matches.find((x) => x[REPLY.event.name] === sel) || matches[0]);
        if (m) await strata.select({ event: m[REPLY.event.event] });
      }
    }
    const view = StrataPage.viewParam(params.get('view'));
    if (view) strata.setView(view[0], view[1]);
  }

  // ---- Copy link -------------------------------------------------------------------------------
  // The page's address with the trace's URLs, the view and the selection. A trace opened from a
  // local file cannot be linked: the link then says so and keeps only the page.
  function link() {
    const q = new URLSearchParams();
    for (const u of currentUrls || []) q.append('url', u);
    for (const k of ['origins', 'tab']) if (params.has(k)) q.set(k, params.get(k));
    const st = strata.state && strata.state();
    if (st && typeof st.tab === 'string') {
      if (st.tab === 'timeline')
        q.delete('tab'); // the default
      else q.set('tab', st.tab);
    }
    const v = strata.view();
    // The hash in strata.js's own form (#view=<startNs>,<endNs>&sel=<event>).
    const sel = new URLSearchParams(location.hash.slice(1)).get('sel');
    const h = [];
    if (v.endText !== v.startText) h.push(`view=${v.startText},${v.endText}`); // a view is set
    if (sel !== null && /^\d+$/.test(sel)) h.push(`sel=${sel}`);
    const qs = q.toString();
    return `${location.origin}${location.pathname}${qs ? '?' + qs : ''}${h.length ? '#' + h.join('&') : ''}`;
  }
  strata.link = link;

  function copyLinkButton() {
    const bar = document.createElement('div');
    bar.id = 'copy-link';
    const button = document.createElement('button');
    button.type = 'button';
    button.id = 'copy-link-button';
    button.textContent = 'Copy link';
    button.title = 'Copy a link to this trace, view and selection';
    const note = document.createElement('output');
    bar.append(note, button);
    document.body.append(bar);
    let timer = 0;
    const say = (text) => {
      note.textContent = text; // text only: names never become HTML
      clearTimeout(timer);
      timer = setTimeout(() => {
        note.textContent = '';
      }, 6000);
    };
    button.addEventListener('click', async () => {
      const url = link();
      const local = currentUrls === null;
      try {
        await navigator.clipboard.writeText(url);
        say(local ? 'Copied. The trace came from a local file: the link has the view, not the file.' : 'Link copied');
      } catch (e) {
        // No clipboard access (an insecure origin, a frame without permission): show it to copy by hand.
        const input = document.createElement('input');
        input.readOnly = true;
        input.value = url;
        note.textContent = '';
        note.append(input);
        input.select();
      }
    });
  }
  if (!embedded) copyLinkButton();

  // ---- offline -----------------------------------------------------------------------------------
  // sw.js keeps this build's files so the app opens without network after the first visit.
  function registerServiceWorker() {
    if (!('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return;
    navigator.serviceWorker.register(new URL('sw.js', document.baseURI)).catch((e) => {
      console.warn(`Strata works online only here: ${(e && e.message) || e}`);
    });
  }

  // strata.ready now also covers the start-up parameters, so scripts and tests see their result.
  strata.ready = Promise.resolve(strata.ready)
    .then(applyParams)
    .catch((e) => console.warn('Strata: URL parameters:', e))
    .then(() => {
      post({ ready: { version: strata.version, protocol: PROTOCOL } });
      registerServiceWorker();
    });
})();
