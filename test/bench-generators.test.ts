import { describe, expect, it } from 'vitest';
import { cpuMicros, parseH2load, parseWrk } from '../bench/lib/generators.mjs';

// Reports as wrk 4.1 and h2load (nghttp2 1.52) print them.
const WRK = `Running 2s test @ http://127.0.0.1:40000/api/v1/namespaces/bench-get/configmaps/get-target
  1 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.45ms  310.00us   9.80ms   91.00%
    Req/Sec    11.02k   600.00    12.00k    80.00%
  Latency Distribution
     50%    1.40ms
     75%    1.50ms
     90%    1.70ms
     99%    2.90ms
  21934 requests in 2.00s, 33.10MB read
  Non-2xx or 3xx responses: 12
Requests/sec:  10967.12
Transfer/sec:     16.55MB
`;

const H2LOAD = `starting benchmark...
spawning thread #0: 16 total client(s). Timing-based test with 0s of warm-up time and 2s of main duration for measurements.
Application protocol: h2
finished in 2.00s, 3088.50 req/s, 4.90MB/s
requests: 6177 total, 6193 started, 6177 done, 6177 succeeded, 0 failed, 0 errored, 0 timeout
status codes: 6170 2xx, 0 3xx, 7 4xx, 0 5xx
traffic: 9.80MB (10276000) total, 120.00KB (122880) headers (space savings 90.00%), 8.20MB (8597000) data
`;

describe('bench load generators', () => {
  it("reads wrk's rate, request count and non-2xx answers", () => {
    expect(parseWrk(WRK)).toEqual({ rps: 10967.12, total: 21934, non2xx: 12, errors: undefined });
    const withErrors = WRK.replace('Requests/sec', '  Socket errors: connect 0, read 2, write 0, timeout 0\nRequests/sec');
    expect(parseWrk(withErrors).errors).toBe('Socket errors: connect 0, read 2, write 0, timeout 0');
  });

  it('refuses a wrk run that completed nothing', () => {
    expect(() => parseWrk(WRK.replace('21934 requests', '0 requests').replace('10967.12', '0.00'))).toThrow(/completed no requests/);
  });

  it("reads h2load's rate and status codes", () => {
    expect(parseH2load(H2LOAD)).toEqual({ rps: 3088.5, total: 6177, non2xx: 7, failed: 0 });
  });

  it('refuses an h2load run with failed requests or without h2', () => {
    expect(() => parseH2load(H2LOAD.replace('0 failed', '10 failed'))).toThrow(/10 requests failed/);
    expect(() => parseH2load(H2LOAD.replace('Application protocol: h2', 'Application protocol: http/1.1'))).toThrow(/not h2/);
  });

  it.runIf(process.platform === 'linux')('reads CPU time of a process from /proc', () => {
    const before = cpuMicros(process.pid);
    let x = 0;
    for (let i = 0; i < 5e6; i++) x += i;
    expect(x).toBeGreaterThan(0);
    expect(Number.isFinite(before)).toBe(true);
    expect(cpuMicros(process.pid)).toBeGreaterThanOrEqual(before);
    expect(cpuMicros(2 ** 30)).toBeNaN();
  });
});
