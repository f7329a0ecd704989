// The top bar's worker setting: how many workers parse a big plain Chrome JSON (web/worker/
// sliced.js), "auto" (as many as the cores, at most 8) or 1, 2, 4, 8. The user's choice is kept
// in localStorage; ?workers=N wins over it for that page and is not kept; strata.setWorkers()
// (scripts, tests) changes it for the page only. Uses the public window.strata API only.
(function () {
  'use strict';
  const strata = window.strata;
  if (!strata || !strata.setWorkers) return;
  const KEY = StrataBoot.WORKERS_KEY;
  const CHOICES = StrataBoot.WORKER_CHOICES; // 0: auto
  const fromUrl = new URLSearchParams(location.search).has('workers');

  function keep(n) {
    try {
      if (n === 0) localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, String(n));
    } catch (e) {
      /* not remembered; still used */
    }
  }
  if (!fromUrl) strata.setWorkers(StrataBoot.storedWorkers());

  const bar = document.getElementById('copy-link');
  if (!bar) return;
  const select = document.createElement('select');
  select.id = 'workers-select';
  select.title = 'Workers that parse a big Chrome JSON trace (auto: one per core, at most 8)';
  select.setAttribute('aria-label', 'Parse with workers');
  const option = (n) => {
    const o = document.createElement('option');
    o.value = String(n);
    o.textContent = n === 0 ? 'Workers: auto' : `Workers: ${n}`;
    return o;
  };
  const show = (n) => {
    // A ?workers=N or setWorkers value outside the menu gets an entry of its own.
    if (!CHOICES.includes(n) && ![...select.options].some((o) => Number(o.value) === n)) select.append(option(n));
    select.value = String(n);
  };
  for (const n of CHOICES) select.append(option(n));
  show(strata.workers());
  select.addEventListener('change', () => {
    const n = Number(select.value);
    keep(n);
    strata.setWorkers(n);
  });
  window.addEventListener('strata:workers', (e) => show(e.detail.workers));
  bar.prepend(select);
})();
