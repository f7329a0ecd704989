// Runs one pod of a deploy/k8s Job manifest here, as the kubelet would run its container: the
// container's command and args, with $(VAR) references expanded from the container's env and,
// for an Indexed Job, JOB_COMPLETION_INDEX (what Kubernetes sets for each completion), and the
// image's and the volumes' paths mapped onto this machine's. No cluster runs here (no container
// engine on the CI machine), so this checks what the manifest itself says: the Job's kind and
// mode, the command, its arguments and env, and that they pack or merge as the other engines do.
//   node tests/pod/k8s_job_run.mjs MANIFEST [--index N] [--map /strata=DIR]... [--map /data=DIR]...
// Exits with the container command's status.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const args = process.argv.slice(2);
const manifest = args[0];
const fail = (m) => {
  console.error(`k8s_job_run: ${manifest}: ${m}`);
  process.exit(2);
};
const opt = (name) => args.flatMap((a, i) => (a === name ? [args[i + 1]] : []));
const maps = opt('--map').map((m) => m.split('='));
const index = opt('--index')[0];
const text = fs.readFileSync(manifest, 'utf8');

// The manifests keep their lists in flow style (JSON-compatible) and scalars plain, so a field
// is read by its key; a manifest rewritten in another style fails here, naming the field.
const field = (key) => {
  const m = text.match(new RegExp(`^\\s*(?:- )?${key}:\\s*(.+?)\\s*(?:#.*)?$`, 'm'));
  return m ? m[1] : undefined;
};
const list = (key) => {
  const v = field(key);
  if (v === undefined) return [];
  try {
    return JSON.parse(v);
  } catch {
    return fail(`${key} is not a flow list: ${v}`);
  }
};
if (field('apiVersion') !== 'batch/v1' || field('kind') !== 'Job') fail('not a batch/v1 Job');
if (field('restartPolicy') !== 'Never') fail('restartPolicy is not Never (a Job pod must not restart in place)');
const indexed = field('completionMode') === 'Indexed';
if (index !== undefined && !indexed) fail('--index given but the Job is not Indexed');
if (index === undefined && indexed) fail('an Indexed Job needs --index');

const env = {};
for (const m of text.matchAll(/- name: (\S+)\s*\n\s*value: (.+)/g)) env[m[1]] = m[2].trim();
if (indexed) env.JOB_COMPLETION_INDEX = String(index);
const mapPath = (s) => maps.reduce((v, [from, to]) => (v.startsWith(from) ? to + v.slice(from.length) : v), s);
// Kubernetes expands $(VAR) in command and args from the container's env; $$ escapes a $.
const expand = (s) => s.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (all, v) => (v ? (env[v] ?? all) : '$'));
const argv = [...list('command'), ...list('args')].map((a) => mapPath(expand(a)));
if (!argv.length) fail('no command');
for (const k of Object.keys(env)) env[k] = mapPath(env[k]);
for (const m of text.matchAll(/mountPath: (\S+?)[,}\s]/g)) {
  if (!maps.some(([from]) => from === m[1] || from.startsWith(m[1] + '/'))) fail(`volume mount ${m[1]} has no --map`);
}

const run = spawnSync(argv[0], argv.slice(1), { stdio: 'inherit', env: { ...process.env, ...env } });
if (run.error) fail(`${argv[0]}: ${run.error.message}`);
process.exit(run.status ?? 1);
