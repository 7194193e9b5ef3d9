// Server CPU per create and per GET at c=1 on the memory backend, with the server in a child process
// (`node bench/create-cpu.mjs` after a build). CPU time is steadier than wall time on a shared
// machine; "main" is the main thread, "node" the V8 helper threads (GC, compiler). Env: N (3000),
// WARM (500); PROF=1 profiles the server during the creates only (PROF_OUT, /tmp/create.cpuprofile).
import { fork } from 'node:child_process';
import { configMap } from './lib/objects.mjs';
const N = Number(process.env.N ?? 3000);
const WARM = Number(process.env.WARM ?? 500);
const child = fork(new URL('./create-cpu-server.mjs', import.meta.url), []);
const msg = () => new Promise((res) => child.once('message', res));
const { url: base } = await msg();
const cpu = async () => { child.send('cpu'); return await msg(); };
const url = `${base}/api/v1/namespaces/default/configmaps`;
async function post(i) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(configMap(`cm-${i}`, i)) });
  if (r.status !== 201) throw new Error(`status ${r.status}: ${await r.text()}`);
  await r.arrayBuffer();
}
async function get(i) {
  const r = await fetch(`${url}/cm-${i}`);
  if (r.status !== 200) throw new Error(`status ${r.status}`);
  await r.arrayBuffer();
}
async function phase(fn) {
  const a = await cpu(); const t0 = performance.now();
  for (let i = 0; i < N; i++) await fn(i);
  const t1 = performance.now(); const b = await cpu();
  const busy = (b.elu.active - a.elu.active) / N * 1000; // main-thread busy µs per request
  const threads = Object.fromEntries(Object.keys(b.threads).map((k) => [k, Math.round((b.threads[k] - (a.threads[k] ?? 0)) / N)]).filter(([, v]) => v > 0));
  return { threads, perSec: Math.round(N / (t1 - t0) * 1000), cpuUs: Math.round((b.cpu.user + b.cpu.system - a.cpu.user - a.cpu.system) / N), loopUs: Math.round(busy) };
}
for (let i = 0; i < WARM; i++) await post(1_000_000 + i);
for (let i = 0; i < WARM; i++) await get(1_000_000 + i);
if (process.env.PROF) { child.send('prof-start'); await msg(); }
const create = await phase(post);
if (process.env.PROF) { child.send('prof-stop'); await msg(); }
const read = await phase(get);
console.log(JSON.stringify({ create, get: read }));
child.send('close');
