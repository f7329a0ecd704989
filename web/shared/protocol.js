// The page ⇄ engine worker protocol, as names: the mirror of src/protocol/worker_messages.h and
// src/protocol/reply_keys.h (tests/e2e/protocol.test.mjs checks that the two agree). Loaded by
// the page (a <script>) and by the engine worker (importScripts). Every script under web/ names
// a message as MSG.<name>, never as a bare string.
'use strict';
/* exported StrataProtocol */

const StrataProtocol = (() => {
  // worker_messages.h kWorkerMessages, by direction.
  const TO_WORKER = [
    'open',
    'view',
    'details',
    'find',
    'locate',
    'query',
    'summary',
    'lossTags',
    'lossRemove',
    'runsStats',
    'graphLayout',
    'graphNode',
    'graphOccurrences',
    'graphModules',
    'graphSearch',
    'graphFind',
    'graphBench',
    'compareOpen',
    'compareResult',
    'compareAlign',
    'compareView',
    'compareQuery',
    'compareMatch',
    'compareDetails',
    'podHosts',
    'loadWhole',
  ];
  const TO_PAGE = [
    'ready',
    'workerError',
    'progress',
    'preview',
    'loaded',
    'loadFailed',
    'graphLoaded',
    'lossLoaded',
    'lossPoints',
    'view',
    'details',
    'queryResult',
    'reply',
    'graph',
    'graphModules',
    'graphNode',
    'podLoaded',
    'compareView',
    'compareDetails',
  ];
  const names = (list) => Object.freeze(Object.fromEntries(list.map((n) => [n, n])));
  const MSG = names([...TO_WORKER, ...TO_PAGE]);

  // worker_messages.h kQueryKinds: the engine's query names ('memory' is a prefix: memory_live...).
  const QUERY = names(['select', 'memory', 'analysis', 'find']);
  // worker_messages.h kRunsStatsKinds.
  const RUNS_KIND = names(['ascend', 'trace', 'keep', 'diff', 'head']);
  // runs_steps.h kRunsStepKinds: what the Runs tab's model asks the page to do next.
  const RUNS_STEP = names(['open', 'request', 'frames', 'done']);

  // core/formats/detect_format.h FileKind and compression/stream_decoder.h Compression: the
  // engine's engine_detect_format() answers kind | compression << 8.
  const FILE_KIND = Object.freeze({
    unknown: 0,
    chromeJson: 1,
    xspace: 2,
    hloText: 3,
    hloProto: 4,
    ascendCsv: 5,
    trainingLog: 6,
    perfetto: 7,
    sqlite: 8,
    bundle: 9,
    pod: 10,
  });
  const COMPRESSION = Object.freeze({ none: 0, gzip: 1, zstd: 2 });

  // worker_messages.h kEmbedCommands: a host page's commands to an embedded Strata.
  const EMBED = names(['hello', 'open', 'view', 'select', 'find', 'tab', 'watchSelection']);

  // reply_keys.h: kSummaryKeys → summary, ...
  const REPLY_KEYS = Object.freeze({
    summary: [
      'files',
      'phases',
      'events',
      'counters',
      'tracks',
      'processes',
      'startNs',
      'endNs',
      'loadMs',
      'heapBytes',
      'errors',
      'warnings',
      'notes',
      'workers',
      'workersSetting',
      'slices',
      'digest',
      'bundle',
    ],
    summaryFile: ['name', 'bytes', 'format'],
    pod: ['base', 'medianStepNs', 'medianBusyPct', 'stragglers', 'hosts', 'errors'],
    podHost: [
      'name',
      'bundle',
      'offsetNs',
      'spanNs',
      'events',
      'tracks',
      'busyNs',
      'busyPct',
      'steps',
      'stepMedianNs',
      'stepRatio',
      'straggler',
      'why',
      'error',
      'open',
    ],
    summaryBundle: [
      'bytes',
      'tiles',
      'tilesFetched',
      'bytesFetched',
      'tilesFailed',
      'cacheBytes',
      'cacheTiles',
      'cacheCap',
      'evictions',
    ],
    summarySlice: ['offset', 'bytes', 'readMs', 'parseMs', 'waitMs', 'mergeMs', 'absorbed'],
    event: [
      'event',
      'name',
      'cat',
      'phase',
      'tsNs',
      'startNs',
      'durNs',
      'start',
      'end',
      'depth',
      'pid',
      'tid',
      'process',
      'thread',
      'track',
    ],
    details: ['name', 'cat', 'startNs', 'durNs', 'pid', 'tid', 'phase'],
    detailsStack: ['event', 'process', 'selfNs', 'parent', 'childCount', 'children'],
    detailsLaunched: ['launchedCount', 'launchedTotalNs', 'launchedSpanNs', 'launchedComplete', 'launched'],
    detailsFlow: ['flows'],
    detailsObject: ['record'],
    detailsNote: ['recordNote'],
    detailsRecord: ['args', 'xla'],
    select: ['count', 'summary', 'events'],
    selectedEvent: ['event', 'name', 'tsNs', 'durNs', 'pid', 'tid'],
    find: ['count', 'matches'],
    findMatch: ['event', 'name', 'durNs'],
    lossInfo: [
      'name',
      'lossTag',
      'iterationTag',
      'points',
      'bytes',
      'scanMs',
      'mbps',
      'format',
      'seriesKeys',
      'stepKeys',
      'note',
    ],
    graphModule: ['name', 'fromTrace', 'programId'],
    hloProto: ['programId', 'module', 'file', 'offset', 'length', 'compressed'],
    graphLink: ['programId', 'op', 'module'],
    graphNode: ['name'],
    graphAdded: ['added', 'errors'],
    graphDownload: ['name'],
    graphFind: ['instr', 'computation'],
    runsStats: ['operators', 'kernels', 'kernelCoreTypes', 'distributed', 'operatorDiff', 'stepDiff', 'errors'],
    runsStep: ['step', 'entry', 'note', 'message', 'files', 'answer'],
    graphBench: ['ms', 'nodes', 'edges', 'crossings'],
    advisor: ['extra'],
    compare: ['a', 'b', 'tables', 'steps', 'errors', 'tree', 'alignment'],
    compareAlignment: ['mode', 'step', 'event', 'used', 'note', 'aAlignNs', 'bAlignNs', 'offsetNs', 'aStep', 'bStep'],
    compareOpen: ['ok', 'error', 'name', 'result'],
    compareMatch: ['from', 'occurrences', 'nearest', 'none', 'matches'],
    compareMatchRow: ['event', 'counterpart', 'kind', 'ordinal'],
  });

  // REPLY.<reply>.<key> === '<key>': how a script reads a reply's field (m[REPLY.summary.heapBytes]).
  // Reading a key the reply does not list throws, so a misspelt key fails where it is read.
  const strictNames = (list, what) =>
    new Proxy(names(list), {
      get(target, key) {
        if (typeof key !== 'string' || Object.prototype.hasOwnProperty.call(target, key)) return target[key];
        throw new Error(`${what} has no key '${key}' (src/protocol/reply_keys.h)`);
      },
    });
  const REPLY = Object.freeze(
    Object.fromEntries(Object.entries(REPLY_KEYS).map(([reply, list]) => [reply, strictNames(list, `REPLY.${reply}`)])),
  );

  // The keys of `from` listed in `keys` that it has (a copy, in the list's order).
  function pick(from, keys) {
    const out = {};
    for (const k of keys) if (from && from[k] !== undefined) out[k] = from[k];
    return out;
  }
  // A summary before any load: every key of REPLY_KEYS.summary, empty.
  function emptySummary() {
    const lists = new Set(['files', 'errors', 'warnings', 'notes', 'slices']);
    const empty = (k) => (lists.has(k) ? [] : k === 'phases' ? {} : k === 'digest' ? '' : k === 'workers' ? 1 : 0);
    return Object.fromEntries(REPLY_KEYS.summary.map((k) => [k, empty(k)]));
  }

  return Object.freeze({
    TO_WORKER,
    TO_PAGE,
    MSG,
    QUERY,
    RUNS_KIND,
    RUNS_STEP,
    EMBED,
    FILE_KIND,
    COMPRESSION,
    REPLY_KEYS,
    REPLY,
    pick,
    emptySummary,
  });
})();
