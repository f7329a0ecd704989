// The page ⇄ worker protocol has one home (src/protocol/): web/shared/protocol.js mirrors its
// message names and reply keys, and no script under web/ writes a message name as a bare string.
// No browser and no dist/ needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { REPO_ROOT } from './lib.mjs';

const read = (p) => fs.readFileSync(path.join(REPO_ROOT, p), 'utf8');
const MIRROR = 'web/shared/protocol.js';

function loadMirror() {
  const ctx = {};
  vm.runInNewContext(`${read(MIRROR)}\nthis.StrataProtocol = StrataProtocol;`, ctx);
  return ctx.StrataProtocol;
}
const strings = (text) => [...text.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
// reply_keys.h and the headers it includes (reply_keys_memory.h...), as one text.
const replyHeaders = () =>
  fs
    .readdirSync(path.join(REPO_ROOT, 'src/protocol'))
    .filter((f) => /^reply_keys.*\.h$/.test(f))
    .sort()
    .map((f) => read(`src/protocol/${f}`))
    .join('\n');
// reply_keys.h's key constants: 'summary::kFiles' → 'files' (a `namespace summary {...}` each).
function keyConstants(text) {
  const out = new Map();
  for (const ns of text.matchAll(/namespace (\w+) \{([^{}]*)\}/g))
    for (const c of ns[2].matchAll(/std::string_view (k\w+) = "([^"]*)"/g)) out.set(`${ns[1]}::${c[1]}`, c[2]);
  return out;
}
// `inline constexpr std::string_view kFooKeys[] = {keys::foo::kBar, ...};` → {foo: ['bar', ...]}.
function replyLists(text) {
  const constants = keyConstants(text);
  const out = {};
  for (const m of text.matchAll(/std::string_view k(\w+)Keys\[\] = \{([^}]*)\}/g)) {
    out[m[1][0].toLowerCase() + m[1].slice(1)] = [...m[2].matchAll(/keys::(\w+::k\w+)/g)].map((c) => {
      assert.ok(constants.has(c[1]), `a list names an unknown constant keys::${c[1]}`);
      return constants.get(c[1]);
    });
  }
  return out;
}
function files(dir, ext) {
  const out = [];
  for (const e of fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...files(p, ext));
    else if (ext.test(p)) out.push(p);
  }
  return out;
}
const webScripts = () => files('web', /\.js$/);

test('web/shared/protocol.js names the messages of src/protocol/worker_messages.h', () => {
  const header = read('src/protocol/worker_messages.h');
  const byDirection = { ToWorker: [], ToPage: [] };
  for (const m of header.matchAll(/\{"(\w+)", Direction::k(ToWorker|ToPage)/g)) byDirection[m[2]].push(m[1]);
  assert.ok(byDirection.ToWorker.length > 5 && byDirection.ToPage.length > 5, 'the header lists messages');
  const p = loadMirror();
  assert.deepEqual([...p.TO_WORKER], byDirection.ToWorker, 'page → worker messages');
  assert.deepEqual([...p.TO_PAGE], byDirection.ToPage, 'worker → page messages');
  const kinds = (name) => strings(new RegExp(`k${name}\\[\\] = \\{([^}]*)\\}`).exec(header)[1]);
  assert.deepEqual(Object.keys(p.QUERY), kinds('QueryKinds'), 'query kinds');
  assert.deepEqual(Object.keys(p.RUNS_KIND), kinds('RunsStatsKinds'), 'runsStats kinds');
  const runsSteps = strings(/kRunsStepKinds\[\] = \{([^}]*)\}/.exec(read('src/protocol/runs_steps.h'))[1]);
  assert.deepEqual(Object.keys(p.RUNS_STEP), runsSteps, 'Runs tab steps');
  assert.deepEqual(Object.keys(p.EMBED), kinds('EmbedCommands'), 'embedding commands');
  // The file kinds and compressions engine_detect_format() answers with.
  const enumValues = (file, name) => {
    const body = new RegExp(`enum class ${name} : uint8_t \\{([^}]*)\\}`).exec(read(file))[1];
    return Object.fromEntries([...body.matchAll(/k(\w+) = (\d+)/g)].map((m) => [m[1].toLowerCase(), Number(m[2])]));
  };
  const lower = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toLowerCase(), v]));
  assert.deepEqual(lower(p.FILE_KIND), enumValues('src/core/formats/detect_format.h', 'FileKind'), 'FILE_KIND');
  assert.deepEqual(
    lower(p.COMPRESSION),
    enumValues('src/core/formats/compression/stream_decoder.h', 'Compression'),
    'COMPRESSION',
  );
});

test('web/shared/protocol.js lists the reply keys of src/protocol/reply_keys.h', () => {
  const lists = replyLists(replyHeaders());
  assert.ok(Object.keys(lists).length > 5, 'the header lists reply keys');
  const mirror = loadMirror().REPLY_KEYS;
  assert.deepEqual(Object.keys(mirror).sort(), Object.keys(lists).sort(), 'the same replies');
  for (const [name, keys] of Object.entries(lists)) assert.deepEqual([...mirror[name]], keys, `REPLY_KEYS.${name}`);
  assert.deepEqual(Object.keys(loadMirror().emptySummary()), lists.summary, 'emptySummary() has every summary key');
});

test('no script under web/ writes a message name as a bare string', () => {
  const p = loadMirror();
  const names = new Set([...p.TO_WORKER, ...p.TO_PAGE, ...Object.keys(p.EMBED)]);
  const problems = [];
  for (const file of webScripts()) {
    if (file === MIRROR) continue;
    const text = read(file);
    const bare = [
      ...text.matchAll(/\btype\s*(?::|===?|!==?)\s*'(\w+)'/g),
      ...text.matchAll(/\bcase\s+'(\w+)'/g),
      ...text.matchAll(/\.type\.startsWith\(\s*'(\w+)'/g),
    ];
    for (const m of bare) if (names.has(m[1]) || m[0].includes('startsWith')) problems.push(`${file}: ${m[0]}`);
    for (const [, group, name] of text.matchAll(
      /\b(MSG|QUERY|RUNS_KIND|RUNS_STEP|EMBED|FILE_KIND|COMPRESSION|REPLY_KEYS|REPLY)\.(\w+)/g,
    )) {
      if (!Object.prototype.hasOwnProperty.call(p[group], name)) problems.push(`${file}: unknown ${group}.${name}`);
    }
    for (const [, reply, key] of text.matchAll(/\bREPLY\.(\w+)\.(\w+)/g)) {
      if (p.REPLY_KEYS[reply] && !p.REPLY_KEYS[reply].includes(key))
        problems.push(`${file}: unknown REPLY.${reply}.${key}`);
    }
  }
  assert.deepEqual(problems, []);
});

// The reply keys of src/protocol/reply_keys.h are spelled there only: writers and readers use
// the constants (C++: keys::<reply>::k<Key>; JS: REPLY.<reply>.<key>). What this can check
// without a parser, and so checks:
//  * only compound keys (camelCase or snake_case: startNs, launchedCount, hlo_module...). The
//    one-word keys (name, count, events, bytes...) are also keys of many objects that are not
//    replies (input formats, memory and runs tables, the script API's own answers), so a
//    literal of one of them proves nothing; their writers and readers use the constants too,
//    by review;
//  * C++ under src/ (not src/protocol, nor src/tools, which write their own reports): a key
//    written as a JSON key (`\"startNs\":`) anywhere, and spelled as a string ("startNs", as in
//    l.key == "startNs" or text("startNs")) outside src/core/formats, whose importers read their
//    input formats' names, some of which a reply passes through unchanged (XStat hlo_module);
//  * JS under web/ (not web/shared/protocol.js): a property read `x.startNs` (not an assignment,
//    not through a constant: REPLY.<reply>.<key> or an upper-case alias of it), except the
//    keys below, which are also fields of page → worker messages or of the script API's own
//    objects and arguments (strata.view(), strata.select({tsNs}), lossTags, the graphNode
//    message's trace.totalNs), reads this cannot tell from a reply's.
const JS_SHARED_NAMES = new Set(['startNs', 'endNs', 'tsNs', 'totalNs', 'lossTag', 'iterationTag']);
const compound = (k) => /[A-Z_]/.test(k);
const allReplyKeys = () => new Set(keyConstants(replyHeaders()).values());
const replyKeyNames = () => new Set([...allReplyKeys()].filter(compound));

// Files writing objects of their own (the script API's) with fields named like a reply's key,
// and those keys: strata.timeline's folded runs carry startRelNs / endRelNs as the memory
// chart's devices do.
const OWN_OBJECT_KEYS = new Map([['src/ui/timeline/timeline_state.cc', new Set(['startRelNs', 'endRelNs'])]]);
// The C++ lines spelling a compound reply key by hand, as "file:line: text".
function cxxKeyLiterals(file, text, keySet) {
  const out = [];
  const anyLiteral = !file.startsWith('src/core/formats/');
  const own = OWN_OBJECT_KEYS.get(file) || new Set();
  text.split('\n').forEach((line, i) => {
    if (/^\s*\/\//.test(line)) return;
    for (const m of line.matchAll(/\\"(\w+)\\":|"(\w+)"/g)) {
      const key = m[1] || m[2];
      if (keySet.has(key) && !own.has(key) && (m[1] || anyLiteral)) out.push(`${file}:${i + 1}: ${m[0]}`);
    }
  });
  return out;
}
// The JS lines reading a compound reply key as a bare property, as "file:line: text".
function jsKeyReads(file, text, keySet) {
  const out = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*\/\//.test(line)) return;
    const code = line.replace(/\bREPLY\.\w+\.\w+/g, 'R');
    for (const m of code.matchAll(/([\w$\])]+)\.(\w+)\b(?!\s*=[^=])/g)) {
      if (/^[A-Z][A-Z0-9_]*$/.test(m[1]) || !keySet.has(m[2]) || JS_SHARED_NAMES.has(m[2])) continue;
      out.push(`${file}:${i + 1}: ${m[0]}`);
    }
  });
  return out;
}

test('no C++ file outside src/protocol spells a compound reply key by hand', () => {
  const keySet = replyKeyNames();
  assert.ok(keySet.has('launchedCount') && keySet.has('hlo_module'), 'the header names its keys');
  const problems = [];
  for (const file of files('src', /\.(cc|h)$/)) {
    if (file.startsWith('src/protocol/') || file.startsWith('src/tools/')) continue;
    problems.push(...cxxKeyLiterals(file, read(file), keySet));
  }
  assert.deepEqual(problems, []);
  // The check can fail: a writer's and a reader's hand-spelt key are both found.
  const sample = 'o += ",\\"startNs\\":";\nif (l.key == "launchedCount") {}\nif (l.key == reply::event::kStartNs) {}';
  assert.equal(cxxKeyLiterals('src/engine/x.cc', sample, keySet).length, 2);
});

test('no script under web/ reads a compound reply key as a bare property', () => {
  const keySet = replyKeyNames();
  const problems = [];
  for (const file of webScripts()) if (file !== MIRROR) problems.push(...jsKeyReads(file, read(file), keySet));
  assert.deepEqual(problems, []);
  const sample = 'x = s.heapBytes;\ny = s[REPLY.summary.heapBytes];\nout.heapBytes = 1;\nz = SUMMARY.heapBytes;';
  assert.deepEqual(jsKeyReads('web/x.js', sample, keySet), ['web/x.js:1: s.heapBytes']);
});

test('REPLY.<reply>.<key> is the key, and a key the reply does not list throws', () => {
  const p = loadMirror();
  for (const [reply, list] of Object.entries(p.REPLY_KEYS))
    for (const key of list) assert.equal(p.REPLY[reply][key], key, `REPLY.${reply}.${key}`);
  assert.throws(() => p.REPLY.summary.heapByte, /REPLY.summary has no key 'heapByte'/);
});

// One-word keys too (name, count, bytes, series...), where a literal can be told from a key of
// some other object:
//  * C++ under src/ui: a string literal naming any reply key compared (== or !=) with a JSON
//    key: JsonLine's `.key`, json_walk's key path `k[i]`, or a name the parsers bind to one
//    (`key`, `f`: `const std::string& f = k[2]`). A literal compared with anything else is a
//    value (an opcode "fusion", "true"), which may spell a key by chance;
//  * JS under web/: a value the engine or the UI answered, that is a name bound by
//    `const|let x = [await] JSON.parse(…) | …request(…) | trace.find(…) | trace.summary(…)`
//    (until the name is bound again: another const/let, an arrow's parameter) or such a call's
//    result read directly (`JSON.parse(json).name`), read as `x.key` for any reply key.
// The C++ lines comparing with a reply key spelt by hand, as "file:line: text".
function cxxKeyComparisons(file, text, keySet) {
  const out = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*\/\//.test(line)) return;
    for (const m of line.matchAll(
      /\b(?:key|k\[\d+\]|f)\s*(?:==|!=)\s*"(\w+)"|"(\w+)"\s*(?:==|!=)\s*[\w.]*\b(?:key|k\[\d+\]|f)\b/g,
    )) {
      if (keySet.has(m[1] || m[2])) out.push(`${file}:${i + 1}: ${m[0]}`);
    }
  });
  return out;
}
const REPLY_SOURCE =
  /\b(?:const|let|var)\s+(\w+)\s*=\s*(?:[\w.!]+\s*\?\s*)?(?:await\s+)?(?:JSON\.parse|[\w.]*\brequest|trace\.find|trace\.summary)\(/g;
const BINDING = /\b(?:const|let|var)\s+(\w+)\s*=|\(([\w\s,]*)\)\s*=>|\b(\w+)\s*=>/g;
// The JS lines reading an answer's key as a bare property, as "file:line: text".
function jsAnswerReads(file, text, keySet) {
  const out = [];
  const answers = new Set();
  text.split('\n').forEach((line, i) => {
    if (/^\s*\/\//.test(line)) return;
    for (const m of line.matchAll(BINDING))
      for (const name of (m[1] ?? m[2] ?? m[3] ?? '').split(',')) answers.delete(name.trim());
    for (const m of line.matchAll(REPLY_SOURCE)) answers.add(m[1]);
    const code = line.replace(/\bREPLY\.\w+\.\w+/g, 'R');
    for (const m of code.matchAll(/(\w+|\))\.(\w+)\b(?!\s*=[^=])/g)) {
      if (!keySet.has(m[2])) continue;
      const direct =
        m[1] === ')' && /\b(?:JSON\.parse|request|trace\.find|trace\.summary)\(/.test(code.slice(0, m.index));
      if (direct || answers.has(m[1])) out.push(`${file}:${i + 1}: ${m[0]}`);
    }
  });
  return out;
}

test('the UI compares reply keys, one-word ones too, only with the constants', () => {
  const keySet = allReplyKeys();
  assert.ok(keySet.has('name') && keySet.has('series') && keySet.has('peakBytes'), 'every header is read');
  const problems = [];
  for (const file of files('src/ui', /\.(cc|h)$/)) problems.push(...cxxKeyComparisons(file, read(file), keySet));
  assert.deepEqual(problems, []);
  const sample = [
    'if (k[2] == "samples") {}',
    'else if ("name" == l.key) {}',
    'if (f != "commOps") {}',
    'if (l.key == reply::memory_device::kSamples) {}',
    'd.on = l.value == "true";',
    'if (opcode == "fusion") {}',
  ].join('\n');
  assert.equal(cxxKeyComparisons('src/ui/x.cc', sample, keySet).length, 3);
});

test('no script under web/ reads a key of an answer as a bare property', () => {
  const keySet = allReplyKeys();
  const problems = [];
  for (const file of webScripts()) if (file !== MIRROR) problems.push(...jsAnswerReads(file, read(file), keySet));
  assert.deepEqual(problems, []);
  const sample = [
    'const r = JSON.parse(M.UTF8ToString(M._graph_hlo_stream_end(1)));',
    'a = r.errors;',
    'b = r[REPLY.graphAdded.errors];',
    'c = JSON.parse(json).name;',
    'd = list.map((r) => r.name);',
    'const v = await ctx.request({ type: MSG.runsStats });',
    'v.errors = [];',
    'e = v.count;',
    'const s = json ? JSON.parse(json) : null;',
    'f = s.step;',
  ].join('\n');
  assert.deepEqual(jsAnswerReads('web/x.js', sample, keySet), [
    'web/x.js:2: r.errors',
    'web/x.js:4: ).name',
    'web/x.js:8: v.count',
    'web/x.js:10: s.step',
  ]);
});

// The Runs tab's page side performs the UI's steps and reads them only through
// REPLY.runsStep: a bare read planted in the real file is caught.
test("web/page/runs.js reads the UI's Runs steps only through REPLY.runsStep", () => {
  const keySet = allReplyKeys();
  const file = 'web/page/runs.js';
  const text = read(file);
  assert.deepEqual(jsAnswerReads(file, text, keySet), []);
  assert.match(text, /step\[STEP\.entry\]/, 'the page reads the step through the constants');
  const planted = text.replace('step[STEP.entry]', 'step.entry');
  assert.equal(jsAnswerReads(file, planted, keySet).length, 1, 'a planted bare read is caught');
  assert.match(jsAnswerReads(file, planted, keySet)[0], /step\.entry$/);
  // The page decides nothing about the folder: no discovery or selection fields are read.
  for (const field of ['profiles', 'workers', 'views', 'kind', 'enabled'])
    assert.doesNotMatch(text, new RegExp(`\\.${field}\\b`), `runs.js reads .${field}`);
});
