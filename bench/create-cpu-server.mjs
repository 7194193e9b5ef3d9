// The child of bench/create-cpu.mjs: a memory-backed server answering cpu / prof-start / prof-stop / close messages.
import { createServer } from '../dist/index.js';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
const srv = await createServer({ port: 0, storageBackend: 'memory', plainHttp: true });
const session = new Session();
session.connect();
process.on('message', async (m) => {
  if (m === 'cpu') {
    const { readFileSync, readdirSync } = await import('node:fs');
    const threads = {};
    for (const t of readdirSync('/proc/self/task')) {
      const st = readFileSync(`/proc/self/task/${t}/stat`, 'utf8'); const comm = readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim();
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      const k = t === String(process.pid) ? "main" : comm; threads[k] = (threads[k] ?? 0) + (Number(f[11]) + Number(f[12])) * 10000; // µs (100 Hz ticks)
    }
    process.send({ cpu: process.cpuUsage(), elu: performance.eventLoopUtilization(), threads });
  }
  if (m === 'prof-start') { await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 100 }); await session.post('Profiler.start'); process.send({ ok: 1 }); }
  if (m === 'prof-stop') { const { profile } = await session.post('Profiler.stop'); writeFileSync(process.env.PROF_OUT ?? '/tmp/create.cpuprofile', JSON.stringify(profile)); process.send({ ok: 1 }); }
  if (m === 'close') srv.close().then(() => process.exit(0));
});
process.send({ url: srv.url });
