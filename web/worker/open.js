// An `open` message's job: opens the source(s), asks the engine what each is (the core's one
// detect_format, from the name and first bytes) and hands it to the part that loads that kind
// (the trace, the loss view, the graph viewer). A list of sources whose files are all XSpace (a
// run's hosts) or all Chrome JSON (a run's Kineto traces, one per rank) is one trace; any other
// list opens file by file, each with its own answer (all but the last marked `more`); a list of
// which no file is one Strata reads fails once, naming what each looks like. Returns
// the answers to post: [{message, transfer, traceLoaded}].
'use strict';
/* exported createOpener */

// M: the engine module; parts: {sources, trace, loss, graph, db, sliced, pod}.
function createOpener(M, { sources, trace, loss, graph, db, sliced, pod }) {
  const { withString, withBytes } = StrataWasm;
  const { MSG, FILE_KIND, COMPRESSION } = StrataProtocol;
  const DETECT_BYTES = 1 << 20; // of a head handed to the detector (it inflates at most 64 KB)

  // {kind: FILE_KIND value, compression: COMPRESSION value, name: the kind's name}.
  function detect(name, head) {
    const v = withString(M, name, (pn) =>
      withBytes(M, head.subarray(0, DETECT_BYTES), (p, n) => M._engine_detect_format(pn, p, n)),
    );
    const kind = v & 0xff;
    return { kind, compression: (v >>> 8) & 0xff, name: M.UTF8ToString(M._engine_file_kind_name(kind)) };
  }

  // What a file of no kind Strata reads looks like ("a PNG image").
  function unknownWhat(name, head) {
    return withString(M, name, (pn) =>
      withBytes(M, head.subarray(0, DETECT_BYTES), (p, n) => M.UTF8ToString(M._engine_unknown_file_what(pn, p, n))),
    );
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

  // One source: {id, name, source} → one answer. slicing: the open message's {workers,
  // sliceMinBytes} (sliced.js) and bundleLazyBytes (db.js); siblings: the other sources of its
  // list (a pod's bundles).
  async function openOne(id, name, src, t0, slicing = {}, siblings = []) {
    let first, head;
    try {
      first = await sources.open(src, name);
    } catch (e) {
      return failed(id, trace.fail(name, `${e.message}`).error);
    }
    first.name = name; // the page's name for it (e.g. from the URL)
    try {
      head = await firstChunk(first);
    } catch (e) {
      return failed(id, trace.fail(name, `reading the file failed: ${e.message || e}`).error);
    }
    const what = detect(name, head);
    // HLO files and logs, plain, gzip or zstd, are inflated by the engine as they stream.
    if (what.kind === FILE_KIND.hloText || what.kind === FILE_KIND.hloProto) {
      try {
        const g = await graph.importFile(name, head, first.chunks, what.kind === FILE_KIND.hloText ? 1 : 2);
        return {
          message: { type: MSG.graphLoaded, id, kind: what.name, summary: trace.summary(), graph: g },
        };
      } catch (e) {
        return failed(id, trace.fail(name, `${e.message || e}`).error);
      }
    }
    if (what.kind === FILE_KIND.trainingLog) {
      let r;
      try {
        r = await loss.importFile(name, first, head);
      } catch (e) {
        return failed(id, trace.fail(name, `reading the log failed: ${e.message || e}`).error);
      }
      const m = loss.message(MSG.lossLoaded, r, { id, kind: what.name, summary: trace.summary() });
      return { message: m, transfer: [m.points] };
    }
    // A pod manifest: its host table for the Pod tab; hosts open later (podHosts).
    if (what.kind === FILE_KIND.pod) {
      let r;
      try {
        r = await pod.open(first, head, src, siblings, slicing.bundleLazyBytes);
      } catch (e) {
        return failed(id, trace.fail(name, `reading the pod manifest failed: ${e.message || e}`).error);
      }
      if (!r.ok) return failed(id, trace.fail(name, r.error).error);
      return { message: { type: MSG.podLoaded, id, kind: what.name, name, summary: trace.summary(), pod: r.table } };
    }
    if (what.kind === FILE_KIND.sqlite || what.kind === FILE_KIND.bundle) {
      const r =
        what.kind === FILE_KIND.sqlite
          ? await db.load(first)
          : await db.loadBundle(first, head, slicing.bundleLazyBytes);
      if (!r.ok) return failed(id, r.error);
      return loaded(id, what.name);
    }
    // A big plain Chrome JSON or XSpace is parsed by several workers where it can be (sliced.js).
    const xspace = what.kind === FILE_KIND.xspace;
    if ((what.kind === FILE_KIND.chromeJson || xspace) && what.compression === COMPRESSION.none) {
      const planned = await sliced.plan(first, head, slicing.workers, slicing.sliceMinBytes, xspace).catch(() => null);
      if (planned) return loadTrace(id, planned, [], what.name, t0);
    }
    // A gzip'd XSpace for several workers: inflated first (the browser's DecompressionStream,
    // into a Blob), then cut as a plain one; the engine reads the inflated bytes as its file.
    if (xspace && what.compression === COMPRESSION.gzip && sliced.count(slicing.workers) > 1) {
      let inflated = null;
      try {
        inflated = await sliced.inflate(withHead(first, head), name, slicing.sliceMinBytes);
      } catch (e) {
        return failed(id, trace.fail(name, `inflating the gzip file failed: ${e.message || e}`).error);
      }
      if (!inflated) return loadTrace(id, first, [], what.name, t0); // its head is back in front
      const head2 = await firstChunk(inflated);
      const planned = await sliced
        .plan(inflated, head2, slicing.workers, slicing.sliceMinBytes, true)
        .catch(() => null);
      return loadTrace(id, planned || withHead(inflated, head2), [], what.name, t0);
    }
    return loadTrace(id, withHead(first, head), [], what.name, t0);
  }

  // The answer to a load that replaced the trace.
  function loaded(id, kind) {
    const tl = trace.trackList();
    return {
      message: { type: MSG.loaded, id, kind, summary: trace.summary(), trackList: tl },
      transfer: [tl],
      traceLoaded: true,
    };
  }

  async function loadTrace(id, first, rest, kind, t0) {
    const r = await trace.load(first, rest, t0);
    const summary = trace.summary();
    if (!r.ok) return failed(id, r.error);
    if (trace.merged()) {
      // A memory CSV added to the trace shown: the timeline is unchanged.
      return { message: { type: MSG.loaded, id, kind, summary, trackList: null, memoryAdded: true } };
    }
    const tl = trace.trackList();
    return { message: { type: MSG.loaded, id, kind, summary, trackList: tl }, transfer: [tl], traceLoaded: true };
  }

  // The first bytes of a source without opening it for a load (a Blob's slice, a URL's range);
  // empty when they cannot be read (its own load then says why).
  async function peek(src) {
    try {
      if (typeof src !== 'string') {
        const blob = src instanceof Blob ? src : new Blob([src]);
        return new Uint8Array(await blob.slice(0, DETECT_BYTES).arrayBuffer());
      }
      return await sources.peekUrl(src, DETECT_BYTES);
    } catch (e) {
      return new Uint8Array(0);
    }
  }
  // A list's file as the page names a single source: a URL's last segment (else its host), a
  // File's name.
  function sourceName(src) {
    if (typeof src !== 'string') return src instanceof Blob ? src.name || 'blob' : 'buffer';
    const url = new URL(src, self.location.href);
    return decodeURIComponent(url.pathname.split('/').pop() || url.hostname);
  }

  // msg: {id, name, source: one source or an array of them, notes: texts for the opened trace's
  // summary().notes}. Answers with kind: the FILE_KIND name of what was opened.
  async function open(msg, answer) {
    const t0 = performance.now();
    // The next load takes them (a failed one drops them); every open sets them, so none leak.
    const notes = Array.isArray(msg.notes) ? msg.notes.map(String).join('\n') : '';
    withString(M, notes, (p) => M._engine_next_load_notes(p));
    const name = msg.name || 'trace';
    trace.setWorkersSetting(msg.workers);
    if (!Array.isArray(msg.source)) return answer(await openOne(msg.id, name, msg.source, t0, msg));
    const list = msg.source;
    const kinds = [];
    const unread = []; // "name\twhat" of the files of no kind Strata reads
    for (const src of list) {
      const srcName = sourceName(src);
      const head = await peek(src);
      const what = detect(srcName, head);
      kinds.push(what);
      if (what.kind === FILE_KIND.unknown)
        unread.push(`${srcName.replace(/[\t\n]/g, ' ')}\t${unknownWhat(srcName, head)}`);
    }
    // Nothing here is a file Strata reads: one message naming each (the trace shown stays).
    if (list.length && unread.length === list.length) {
      const text = withString(M, unread.join('\n'), (p) => M.UTF8ToString(M._engine_unread_files_message(p)));
      return answer(failed(msg.id, trace.fail('', text).error));
    }
    // A pod manifest picked or dropped with its bundles: the manifest opens, with them beside it.
    const podAt = kinds.findIndex((k) => k.kind === FILE_KIND.pod);
    if (podAt >= 0) return answer(await openOne(msg.id, sourceName(list[podAt]), list[podAt], t0, msg, list));
    const kind = kinds.length ? kinds[0].kind : FILE_KIND.unknown;
    const oneTrace = kind === FILE_KIND.xspace || kind === FILE_KIND.chromeJson;
    if (list.length > 1 && oneTrace && kinds.every((k) => k.kind === kind)) {
      // The xplanes of one run (one per host) or its Kineto traces (one per rank): one trace on
      // one time axis. The first file's failure to open fails the load.
      let first;
      try {
        first = await sources.open(list[0], name);
      } catch (e) {
        return answer(failed(msg.id, trace.fail(name, `${e.message}`).error));
      }
      return answer(await loadTrace(msg.id, first, list.slice(1), kinds[0].name, t0));
    }
    // Anything else file by file, in order (logs join the loss view, a trace replaces the trace).
    for (let k = 0; k < list.length; ++k) {
      const one = await openOne(msg.id, sourceName(list[k]), list[k], performance.now(), msg);
      if (k < list.length - 1) one.message.more = true;
      await answer(one);
    }
  }

  return { open };
}
