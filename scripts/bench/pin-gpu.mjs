// Frame benchmarks measure the CPU time of building a frame on the page's main thread. Without a
// GPU, Chromium's GPU process draws every frame in software (SwiftShader, 25-100 ms of CPU per
// frame on the 2-core bench machine, on several threads): it then preempts the page's main thread
// in the middle of frames, and the p99 measures the scheduler, not our code. Pinning the GPU
// process to one core (the page keeps every core) stands in for the GPU a user's machine has.
// Benchmarks print whether they pinned. prioritizePageThreads() likewise keeps other work on a
// shared machine from preempting the page mid-frame.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

function descendants(pid) {
  const kids = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!kids.has(ppid)) kids.set(ppid, []);
      kids.get(ppid).push(Number(d));
    } catch {
      /* the process ended */
    }
  }
  const out = [];
  const walk = (p) => {
    for (const k of kids.get(p) || []) {
      out.push(k);
      walk(k);
    }
  };
  walk(pid);
  return out;
}

// Pins the GPU process of the browsers this node process started (playwright's, a child of
// ours) to the last core; returns a line saying what was done, for the benchmark's report.
export function pinGpuProcess() {
  const cpus = os.cpus().length;
  if (cpus < 2) return 'GPU process not pinned (one core)';
  const n = setGpuAffinity(String(cpus - 1));
  return n
    ? `GPU process (software GL) pinned to core ${cpus - 1} of 0-${cpus - 1}`
    : 'GPU process not found: not pinned';
}

// Raises the scheduling priority of the pages' main threads (the renderer processes' first
// threads: Linux nice values are per thread), so that other work on a shared machine does not
// preempt a frame half way. Needs root; returns a line for the report.
export function prioritizePageThreads(nice = -10) {
  if (process.getuid && process.getuid() !== 0) return 'page main thread at normal priority (not root)';
  let n = 0;
  for (const pid of descendants(process.pid)) {
    let cmd = '';
    try {
      cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmd.includes('--type=renderer')) continue;
    try {
      execFileSync('renice', ['-n', String(nice), '-p', String(pid)], { stdio: 'ignore' });
      ++n;
    } catch {
      /* ended */
    }
  }
  return n ? `page main thread at nice ${nice}` : 'page main thread at normal priority (no renderer found)';
}

// Puts the pages' main threads back to normal priority.
export function normalPageThreads() {
  prioritizePageThreads(0);
}

// Lets the GPU process run on every core again.
export function unpinGpuProcess() {
  setGpuAffinity(`0-${os.cpus().length - 1}`);
}

function setGpuAffinity(cpuList) {
  let n = 0;
  for (const pid of descendants(process.pid)) {
    let cmd = '';
    try {
      cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmd.includes('--type=gpu-process')) continue;
    execFileSync('taskset', ['-a', '-p', '-c', cpuList, String(pid)], { stdio: 'ignore' });
    ++n;
  }
  return n;
}
