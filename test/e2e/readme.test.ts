/**
 * The README's claims, checked: its flags table is `--help`'s list of flags and defaults, its links
 * point at files in the repository, and its test-suite example passes when run as a project of its
 * own that has the package installed (the files `npm pack` would ship, with the package's
 * dependencies beside them), the way a user would run it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, runCli, tempDir } from './helpers/cli.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The body of a `## title` or `### title` section, up to the next heading of that level or above. */
function section(title: string): string {
  const start = README.search(new RegExp(`^#{2,3} ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  if (start < 0) throw new Error(`README has no section "${title}"`);
  const level = /^#+/.exec(README.slice(start))?.[0].length ?? 2;
  const rest = README.slice(start).split('\n').slice(1).join('\n');
  const end = rest.search(new RegExp(`^#{2,${level}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

interface FlagRow {
  flag: string;
  default: string | undefined;
}

/** `--help`'s flags in order, each with the default its description names (`(default X)` or `X (default)`). */
function helpFlags(help: string): FlagRow[] {
  const rows: { flag: string; text: string }[] = [];
  for (const line of help.split('\n')) {
    const m = /^ {2}(--[a-z][a-z0-9-]*)(\S*)\s*(.*)$/.exec(line);
    if (m) rows.push({ flag: m[1] as string, text: m[3] as string });
    else if (/^ {4,}\S/.test(line) && rows.length > 0) (rows.at(-1) as { text: string }).text += ` ${line.trim()}`;
  }
  return rows.map(({ flag, text }) => {
    const named = /\(default ([^;)]+)[;)]/.exec(text)?.[1] ?? /(\S+) \(default\)/.exec(text)?.[1];
    return { flag, default: named?.trim() };
  });
}

/** The README's flags table: the flag and default cells of every row. */
function tableFlags(): FlagRow[] {
  return section('Flags')
    .split('\n')
    .filter((l) => l.startsWith('| `--'))
    .map((l) => {
      const cells = l.split(/(?<!\\)\|/).map((c) => c.trim());
      const strip = (c: string | undefined): string | undefined => (c ? c.replace(/^`|`$/g, '') : undefined) || undefined;
      return { flag: strip(cells[1]) as string, default: strip(cells[2]) };
    });
}

beforeAll(() => {
  console.log(`readme e2e: ${ensureBuilt()}`);
});

describe('the README', () => {
  it('lists exactly the flags of --help, in its order, with its defaults', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    const fromHelp = helpFlags(help.stdout);
    expect(fromHelp.map((f) => f.flag)).toContain('--etcd-servers');
    expect(tableFlags()).toEqual(fromHelp);
  });

  it('links only to files that exist in the repository', () => {
    const links = [...README.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].map((m) => m[1] as string).filter((l) => !/^[a-z]+:/.test(l));
    expect(links).toContain('docs/architecture.md');
    for (const link of links) expect(existsSync(join(ROOT, link)), link).toBe(true);
    expect(README).not.toMatch(/\.\.\/shared|DESIGN\.md/);
  });

  describe('test-suite example', () => {
    let project: string | undefined;
    afterAll(() => {
      if (project) rmSync(project, { recursive: true, force: true });
    });

    it('passes in a project of its own with the packed package installed', async () => {
      const example = /```ts\n([\s\S]*?)```/.exec(section('In a test suite'))?.[1];
      expect(example, 'a ts code block under "In a test suite"').toBeDefined();
      expect(example).toMatch(/beforeAll\(/);
      expect(example).toMatch(/from 'orch-apiserver'/);
      expect(example).toMatch(/from '@kubernetes\/client-node'/);
      expect(example).toMatch(/server\.close\(\)/);

      project = tempDir('orch-readme-example-');
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'readme-example', private: true, type: 'module' }));
      writeFileSync(join(project, 'cluster.test.ts'), example as string);
      // The package as `npm pack` would ship it: exactly the files it lists, nothing else of the clone.
      const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { files: { path: string }[] }[];
      const installed = join(project, 'node_modules', 'orch-apiserver');
      for (const { path } of packed[0]?.files ?? []) {
        mkdirSync(dirname(join(installed, path)), { recursive: true });
        cpSync(join(ROOT, path), join(installed, path));
      }
      expect(existsSync(join(installed, 'dist', 'index.js'))).toBe(true);
      expect(existsSync(join(installed, 'src'))).toBe(false);
      // Its dependencies, and the example's own (vitest, the client), as npm would place them.
      const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
      for (const dep of [...Object.keys(pkg.dependencies), 'vitest', '@kubernetes/client-node']) {
        mkdirSync(dirname(join(project, 'node_modules', dep)), { recursive: true });
        symlinkSync(join(ROOT, 'node_modules', dep), join(project, 'node_modules', dep), 'dir');
      }

      const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
      const run = await new Promise<{ code: number; out: string }>((resolve) => {
        execFile(process.execPath, [vitest, 'run', '--root', project as string], { cwd: project, timeout: 120_000, env: { ...process.env, CI: '1', NO_COLOR: '1' } }, (err, stdout, stderr) => {
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, out: stdout + stderr });
        });
      });
      expect(run.code, run.out).toBe(0);
      expect(run.out).toMatch(/Tests\s+1 passed \(1\)/);
    }, 180_000);
  });
});
