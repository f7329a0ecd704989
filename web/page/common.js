// Small helpers every page script shares: a download of text, and a size as a label.
'use strict';
/* exported StrataPage */

const StrataPage = (() => {
  // Saves `text` as `fileName` through a temporary link (the browser's download).
  function download(fileName, text, mime = 'text/plain') {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: mime }));
    a.download = fileName;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }
  // "12.3 MB" from 1e6 bytes up, else "4.5 KB".
  const sizeLabel = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} KB`);

  // A deep link's "view=<start>,<end>" value (absolute ns) as setView takes it: decimal text
  // stays text, so epoch ns stay exact (a Number would round them to 256 ns); anything else a
  // Number ("1e6" from a hand-written link); null when it is not two of them.
  function viewParam(text) {
    const parts = String(text || '').split(',');
    if (parts.length !== 2) return null;
    const view = parts.map((p) => (/^-?\d+(\.\d+)?$/.test(p.trim()) ? p.trim() : Number(p)));
    return view.every((x) => typeof x === 'string' || Number.isFinite(x)) ? view : null;
  }

  return Object.freeze({ download, sizeLabel, viewParam });
})();
