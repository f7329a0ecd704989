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
// `inline constexpr std::string_view kFooKeys[] = {...};` → {foo: [...]} (suffix: 'Keys', ...).
function constexprLists(text, suffix) {
  const out = {};
  const re = new RegExp(`std::string_view k(\\w+)${suffix}\\[\\] = \\{([^}]*)\\}`, 'g');
  for (const m of text.matchAll(re)) out[m[1][0].toLowerCase() + m[1].slice(1)] = strings(m[2]);
  return out;
}
function webScripts(dir = 'web') {
  const out = [];
  for (const e of fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...webScripts(p));
    else if (p.endsWith('.js')) out.push(p);
  }
  return out;
}

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
  const lists = constexprLists(read('src/protocol/reply_keys.h'), 'Keys');
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
      /\b(MSG|QUERY|RUNS_KIND|EMBED|FILE_KIND|COMPRESSION|REPLY_KEYS)\.(\w+)/g,
    )) {
      if (!Object.prototype.hasOwnProperty.call(p[group], name)) problems.push(`${file}: unknown ${group}.${name}`);
    }
  }
  assert.deepEqual(problems, []);
});
