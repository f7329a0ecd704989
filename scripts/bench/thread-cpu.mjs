// CPU time per thread of this process's descendants (the headless Chromium a bench launched),
// from /proc: on a shared machine a thread's wall time says little, its CPU time says what the
// work cost. snapshot() before and after a run; delta() gives each thread's CPU seconds in
// between (threads started meanwhile count from zero), with its process and name.
import fs from 'node:fs';

const TICKS = 100; // USER_HZ: the kernel reports utime/stime in 1/100 s on Linux

function descendants(root) {
  const parent = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch (e) {
      /* gone meanwhile */
    }
  }
  const out = [];
  const walk = (pid) => {
    for (const [child, p] of parent) if (p === pid) (out.push(child), walk(child));
  };
  walk(root);
  return out;
}

// Chromium's process kind from its command line (--type=renderer, gpu-process, utility; none:
// the browser process).
function kindOf(pid) {
  try {
    const m = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').match(/--type=([\w-]+)/);
    return m ? m[1] : 'browser';
  } catch (e) {
    return 'gone';
  }
}

// Map "pid/tid" → {pid, tid, kind (of its process), name, cpu (s)}.
export function snapshot(root = process.pid) {
  const threads = new Map();
  for (const pid of descendants(root)) {
    let tids = [];
    try {
      tids = fs.readdirSync(`/proc/${pid}/task`);
    } catch (e) {
      continue;
    }
    const kind = kindOf(pid);
    for (const tid of tids) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // Fields 14 and 15 of stat (utime, stime) are 11 and 12 after the name.
        const cpu = (Number(f[11]) + Number(f[12])) / TICKS;
        threads.set(`${pid}/${tid}`, { pid, tid: Number(tid), kind, name, cpu });
      } catch (e) {
        /* the thread ended */
      }
    }
  }
  return threads;
}

// Threads that used CPU between two snapshots, by pid then tid (a process's threads in the
// order they started).
export function delta(before, after) {
  const out = [];
  for (const [key, t] of after) {
    const cpu = t.cpu - (before.get(key)?.cpu ?? 0);
    if (cpu > 0) out.push({ ...t, cpu });
  }
  return out.sort((a, b) => a.pid - b.pid || a.tid - b.tid);
}
