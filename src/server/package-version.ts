/** The package version, read once from package.json beside the build. */
import { readFileSync } from 'node:fs';

function readVersion(): string {
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'orch-apiserver' && pkg.version) return pkg.version;
    } catch {
      // Try the next location: the source tree and the build sit at different depths.
    }
  }
  return '0.0.0';
}

export const PACKAGE_VERSION = readVersion();
