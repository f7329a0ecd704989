// Start-up marks: performance.mark('strata:<step>'), each step marked once, in the page and in the
// engine worker. scripts/bench-startup reads them (with the resource timings) to say where a
// navigation's time goes before the first view is drawn; they cost nothing otherwise.
'use strict';
/* exported StrataMarks */

const StrataMarks = (() => {
  const done = new Set();
  function mark(step) {
    if (done.has(step)) return;
    done.add(step);
    try {
      performance.mark(`strata:${step}`);
    } catch (e) {
      /* no User Timing here: nothing to record */
    }
  }
  // A step that recurs (each view request): marked every time, up to a few dozen times.
  const counts = new Map();
  function each(step) {
    const n = (counts.get(step) || 0) + 1;
    counts.set(step, n);
    if (n <= EACH_MAX) mark(`${step}#${n}`);
  }
  const EACH_MAX = 40;
  return Object.freeze({ mark, each });
})();
