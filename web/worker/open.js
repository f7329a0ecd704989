// An `open` message's job: opens the source(s), decides from the first bytes what they are and
// hands them to the part that loads that kind (the trace, the loss view, the graph viewer).
// Returns the one answer to post: {message, transfer, traceLoaded}.
'use strict';
/* exported createOpener */

// M: the engine module; parts: {sources, trace, loss, graph}.
function createOpener(M, { sources, trace, loss, graph }) {
  const { MSG } = StrataProtocol;

  // What the head of file `name` is: {kind: 'hlo-text' | 'hlo-proto' | 'training-log' | 'trace', gzip}.
  async function detect(name, head) {
    if (!/\.xplane\.pb(\.gz|\.zst)?$/i.test(name)) {
      if (/(\.hlo_proto\.pb|\.hlo\.pb|hlo_?proto[^/]*\.pb)$/i.test(name)) return { kind: 'hlo-proto' };
      if (graph.sniffText(head)) return { kind: 'hlo-text' };
    }
    // A gzip-compressed log is told from a compressed trace by its inflated start.
    const gzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
    const text = gzip ? await loss.gunzipHead(head, loss.GUESS_BYTES) : null;
    if (loss.sniff(text || head)) return { kind: 'training-log', gzip: !!text };
    return { kind: 'trace' };
  }

  async function firstChunk(opened) {
    const r = await opened.chunks.next();
    return r.done ? new Uint8Array(0) : r.value;
  }
  // opened.chunks with `head` put back in front.
  function withHead(opened, head) {
    const rest = opened.chunks;
    opened.chunks = (async function* () {
      if (head.length) yield head;
      yield* rest;
    })();
    return opened;
  }

  const failed = (id, error) => ({ message: { type: MSG.loadFailed, id, error, summary: trace.summary() } });

  // msg: {id, name, source: one source or an array of them (the xplanes of one run)}.
  async function open(msg) {
    const t0 = performance.now();
    const list = Array.isArray(msg.source) ? msg.source : [msg.source];
    const name = msg.name || 'trace';
    let first;
    try {
      first = await sources.open(list[0], name);
    } catch (e) {
      return failed(msg.id, trace.fail(name, `${e.message}`).error);
    }
    if (list.length === 1) {
      first.name = name; // the page's name for it (e.g. from the URL)
      let head;
      try {
        head = await firstChunk(first);
      } catch (e) {
        return failed(msg.id, trace.fail(name, `reading the file failed: ${e.message || e}`).error);
      }
      const what = await detect(name, head);
      if (what.kind === 'hlo-text' || what.kind === 'hlo-proto') {
        try {
          const g = await graph.importFile(name, head, first.chunks, what.kind === 'hlo-text' ? 1 : 2);
          return { message: { type: MSG.graphLoaded, id: msg.id, summary: trace.summary(), graph: g } };
        } catch (e) {
          return failed(msg.id, trace.fail(name, `${e.message || e}`).error);
        }
      }
      if (what.kind === 'training-log') {
        let r;
        try {
          r = await loss.importFile(name, first, head, what.gzip);
        } catch (e) {
          return failed(msg.id, trace.fail(name, `reading the log failed: ${e.message || e}`).error);
        }
        const m = loss.message(MSG.lossLoaded, r, { id: msg.id, summary: trace.summary() });
        return { message: m, transfer: [m.points] };
      }
      withHead(first, head);
    }
    const r = await trace.load(first, list.slice(1), t0);
    const summary = trace.summary();
    if (!r.ok) return failed(msg.id, r.error);
    if (trace.merged()) {
      // A memory CSV added to the trace shown: the timeline is unchanged.
      return { message: { type: MSG.loaded, id: msg.id, summary, trackList: null, memoryAdded: true } };
    }
    const tl = trace.trackList();
    return { message: { type: MSG.loaded, id: msg.id, summary, trackList: tl }, transfer: [tl], traceLoaded: true };
  }

  return { open };
}
