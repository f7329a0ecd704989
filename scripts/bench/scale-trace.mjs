#!/usr/bin/env node
// Makes a large benchmark trace from a real one: the real trace's events repeated back to back
// in time until the output reaches the wanted size, so the big file has the real file's mix of
// names, args, phases and nesting.   node scripts/bench/scale-trace.mjs <in.json[.gz]> <out.json> <MB>
import fs from 'node:fs';
import zlib from 'node:zlib';

const [input, output, mbArg] = process.argv.slice(2);
if (!input || !output || !mbArg) {
  console.error('usage: scale-trace.mjs <in.json[.gz]> <out.json> <MB>');
  process.exit(2);
}
let raw = fs.readFileSync(input);
if (raw[0] === 0x1f && raw[1] === 0x8b) raw = zlib.gunzipSync(raw);
const doc = JSON.parse(raw.toString('utf8'));
const events = Array.isArray(doc) ? doc : doc.traceEvents;
const meta = events.filter((e) => e.ph === 'M');
const timed = events.filter((e) => e.ph !== 'M' && typeof e.ts === 'number');
let lo = Infinity,
  hi = -Infinity;
for (const e of timed) {
  lo = Math.min(lo, e.ts);
  hi = Math.max(hi, e.ts + (typeof e.dur === 'number' ? e.dur : 0));
}
const span = Math.ceil(hi - lo) + 1000;
const target = Number(mbArg) * 1e6;
const out = fs.openSync(output, 'w');
let written = 0;
const write = (s) => {
  fs.writeSync(out, s);
  written += Buffer.byteLength(s);
};
write('{"traceEvents":[\n');
write(meta.map((e) => JSON.stringify(e)).join(',\n'));
for (let copy = 0; written < target; ++copy) {
  const shift = copy * span;
  const parts = [];
  for (const e of timed) {
    const c = Object.assign({}, e, { ts: e.ts + shift });
    // Flow ids must stay unique per copy or flows from different copies would pair up.
    if (c.id !== undefined && typeof c.id === 'number') c.id = c.id + copy * 1e9;
    parts.push(JSON.stringify(c));
  }
  write(',\n' + parts.join(',\n'));
}
write('\n]}\n');
fs.closeSync(out);
console.log(`${output}: ${(written / 1e6).toFixed(1)} MB from ${input}`);
