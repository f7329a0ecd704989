// Recently opened local files (README "Embedding and hosting"): files picked or dropped are kept
// in this site's private browser storage (the Origin Private File System), so they can be
// reopened later without picking them again; "Forget" deletes them. Nothing leaves the machine.
// Uses the public window.strata API and its window events only.
(function () {
  'use strict';
  const strata = window.strata;
  const embedded = new URLSearchParams(location.search).get('embed') === '1';
  if (!strata || embedded || !navigator.storage || !navigator.storage.getDirectory) return;
  const KEEP = 5; // entries kept; older ones are deleted
  const MAX_BYTES = 1024 ** 3; // a pick bigger than 1 GiB in total is not kept

  // The folder of kept files; null when there is none and create is false (after Forget).
  async function dir(create) {
    const root = await navigator.storage.getDirectory();
    return root.getDirectoryHandle('strata-recent', { create }).catch((e) => {
      if (create) throw e;
      return null;
    });
  }
  async function readIndex(d) {
    if (!d) return [];
    try {
      const f = await (await d.getFileHandle('index.json')).getFile();
      const list = JSON.parse(await f.text());
      return Array.isArray(list) ? list : [];
    } catch (e) {
      return [];
    }
  }
  async function writeIndex(d, list) {
    const w = await (await d.getFileHandle('index.json', { create: true })).createWritable();
    await w.write(JSON.stringify(list));
    await w.close();
  }

  // Files of the pick or drop in flight, saved once their load has succeeded.
  let picked = null;
  const take = (files) => {
    picked = files && files.length ? Array.from(files) : null;
  };
  // Capture phase on window: runs before strata.js's own handlers, which clear the file input.
  window.addEventListener(
    'change',
    (e) => {
      if (e.target && e.target.id === 'file-input') take(e.target.files);
    },
    true,
  );
  window.addEventListener(
    'drop',
    (e) => {
      if (e.dataTransfer) take(e.dataTransfer.files);
    },
    true,
  );
  window.addEventListener('strata:loadfailed', () => {
    picked = null;
  });
  window.addEventListener('strata:loaded', (e) => {
    const files = picked;
    picked = null;
    const names = (e.detail.files || []).map((f) => f.name);
    if (!files || names[0] !== files[0].name) return;
    remember(files).catch((err) =>
      console.warn(`Strata: could not keep ${files[0].name} for later: ${(err && err.message) || err}`),
    );
  });

  let saving = Promise.resolve();
  function remember(files) {
    saving = saving.then(async () => {
      const total = files.reduce((s, f) => s + f.size, 0);
      if (total > MAX_BYTES) return;
      const d = await dir(true);
      const id = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const entry = { id, openedAt: new Date().toISOString(), bytes: total, files: [] };
      for (let i = 0; i < files.length; ++i) {
        const key = `${id}-${i}`;
        const w = await (await d.getFileHandle(key, { create: true })).createWritable();
        await files[i].stream().pipeTo(w); // closes w
        entry.files.push({ key, name: files[i].name, bytes: files[i].size });
      }
      // The same pick again replaces its older copy.
      const same = (x) =>
        x.files.map((f) => `${f.name}:${f.bytes}`).join('|') ===
        entry.files.map((f) => `${f.name}:${f.bytes}`).join('|');
      const list = await readIndex(d);
      const drop = list.filter(same).concat(list.filter((x) => !same(x)).slice(KEEP - 1));
      const keep = [entry].concat(list.filter((x) => !same(x)).slice(0, KEEP - 1));
      await writeIndex(d, keep);
      for (const x of drop) for (const f of x.files) await d.removeEntry(f.key).catch(() => {});
      render();
    });
    return saving;
  }

  async function list() {
    await saving;
    return (await readIndex(await dir(false))).map((x) => ({
      id: x.id,
      openedAt: x.openedAt,
      bytes: x.bytes,
      names: x.files.map((f) => f.name),
    }));
  }
  async function reopen(id) {
    const d = await dir(false);
    const entry = (await readIndex(d)).find((x) => x.id === id);
    if (!entry) return null;
    const files = [];
    for (const f of entry.files) files.push(new File([await (await d.getFileHandle(f.key)).getFile()], f.name));
    return strata.open(files.length > 1 ? files : files[0]);
  }
  // Deletes every kept file (and the folder), so nothing of them stays in the browser.
  async function forget() {
    await saving;
    const root = await navigator.storage.getDirectory();
    await root.removeEntry('strata-recent', { recursive: true }).catch(() => {});
    render();
  }
  strata.recent = { list, open: reopen, forget };

  // ---- the "Recent" menu, next to Copy link ---------------------------------------------------
  const button = document.createElement('button');
  button.type = 'button';
  button.id = 'recent-button';
  button.textContent = 'Recent';
  button.title = 'Reopen a recently opened local file (kept in this browser only)';
  const panel = document.createElement('div');
  panel.id = 'recent-panel';
  panel.hidden = true;
  document.body.append(panel);
  const bar = document.getElementById('copy-link');
  if (bar) bar.prepend(button);
  else document.body.append(button);
  button.addEventListener('click', () => {
    panel.hidden = !panel.hidden;
    if (!panel.hidden) render();
  });

  async function render() {
    if (panel.hidden) return;
    const entries = await list();
    panel.replaceChildren();
    const title = document.createElement('p');
    title.textContent = entries.length ? 'Recently opened (kept in this browser only):' : 'No recent files.';
    panel.append(title);
    for (const x of entries) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'recent-entry';
      b.textContent = `${x.names.join(', ')}  (${StrataPage.sizeLabel(x.bytes)})`; // text: names never become HTML
      b.addEventListener('click', () => {
        panel.hidden = true;
        reopen(x.id);
      });
      panel.append(b);
    }
    if (entries.length) {
      const f = document.createElement('button');
      f.type = 'button';
      f.id = 'recent-forget';
      f.textContent = 'Forget all recent files';
      f.addEventListener('click', () => forget());
      panel.append(f);
    }
  }
})();
