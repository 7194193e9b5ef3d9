/**
 * A network namespace joined to this one by a veth pair with private test addresses (10.x.y.1 here,
 * 10.x.y.2 inside), for servers that must not be on loopback (EndpointSlices refuse loopback
 * addresses). Needs root or CAP_NET_ADMIN and the `ip` tool; `createNetns` says why when it cannot.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';

export interface NetNs {
  name: string;
  /** This namespace's end of the pair. */
  hostIp: string;
  /** The address inside the namespace. */
  nsIp: string;
  /** Runs a program inside the namespace. */
  spawn(cmd: string, args: string[]): ChildProcess;
  remove(): void;
}

const ip = (...args: string[]): void => {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
};

/** The namespace, or the reason it could not be made (already cleaned up). */
export function createNetns(): NetNs | string {
  const tag = `${process.pid % 100000}${randomInt(100)}`;
  const name = `orch-wh-${tag}`;
  const hostEnd = `owh${tag}a`;
  const nsEnd = `owh${tag}b`;
  const prefix = `10.${200 + randomInt(50)}.${randomInt(256)}`;
  const hostIp = `${prefix}.1`;
  const nsIp = `${prefix}.2`;
  const remove = (): void => {
    try {
      ip('link', 'del', hostEnd);
    } catch {
      // Gone already, or never made.
    }
    try {
      ip('netns', 'del', name);
    } catch {
      // Gone already, or never made.
    }
  };
  try {
    ip('netns', 'add', name);
    ip('link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', nsEnd);
    ip('link', 'set', nsEnd, 'netns', name);
    ip('addr', 'add', `${hostIp}/30`, 'dev', hostEnd);
    ip('link', 'set', hostEnd, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${nsIp}/30`, 'dev', nsEnd);
    ip('netns', 'exec', name, 'ip', 'link', 'set', nsEnd, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (e) {
    remove();
    const err = e as { stderr?: Buffer; message?: string };
    return (err.stderr?.toString().trim() || err.message || String(e)).split('\n')[0] ?? 'unknown error';
  }
  return {
    name,
    hostIp,
    nsIp,
    spawn: (cmd, args) => spawn('ip', ['netns', 'exec', name, cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }),
    remove,
  };
}

/** Resolves with the first line of `child`'s stdout matching `pattern`; rejects when it exits first. */
export function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs = 15_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; stderr: ${err}`)), timeoutMs);
    child.stdout?.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.stderr?.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before printing ${pattern}; stderr: ${err}`));
    });
  });
}
