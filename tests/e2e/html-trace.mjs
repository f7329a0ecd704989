// A small Chrome trace made by the tests (embed, privacy): event names and args with HTML in
// them, which must stay text everywhere (Strata's canvas, its details, an embedding dashboard).
export function makeHtmlTrace() {
  const ev = [{ ph: 'M', name: 'process_name', pid: 1, args: { name: '<i>trainer</i>' } }];
  ev.push({
    ph: 'X',
    name: 'long_step',
    cat: 'c',
    ts: 0,
    dur: 20000,
    pid: 1,
    tid: 2,
    args: { note: 'the one to click' },
  });
  for (let i = 0; i < 200; i++) {
    ev.push({
      ph: 'X',
      name: i % 10 === 0 ? '<b>bold</b>' : `op_${i % 7}`,
      cat: 'c',
      ts: i * 100,
      dur: 80,
      pid: 1,
      tid: 1,
      args: { html: '<img src="/x-injected-arg" onerror="window.__pwned=1">' },
    });
  }
  return Buffer.from(JSON.stringify({ traceEvents: ev }));
}
