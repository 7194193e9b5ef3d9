/**
 * Preloaded into the server under test (`node --import bench/lib/loop-delay-monitor.mjs`), so that no
 * measuring code sits in the server's own request path: samples the event-loop delay, and on SIGUSR2
 * writes the histogram since the previous SIGUSR2 (ms) to $BENCH_LOOP_DELAY_FILE and starts afresh.
 */
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_DELAY_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let seq = 0;
  process.on('SIGUSR2', () => {
    const ms = (ns) => ns / 1e6;
    writeFileSync(file, JSON.stringify({ seq: ++seq, p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), samples: h.count }));
    h.reset();
  });
}
