// Installs the locked dependencies when node_modules is missing or was installed from another
// lockfile, so that `npm start` and `npm test` are each one command on a fresh clone. Compares the
// lockfile's content (not file times), so checkouts and worktrees sharing node_modules agree.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const marker = 'node_modules/.orch-lockfile-sha256';
const lockHash = createHash('sha256').update(readFileSync('package-lock.json')).digest('hex');

/** Whether an install made by plain `npm ci` matches the lockfile: same package versions. */
function matchesHiddenLockfile() {
  const hidden = 'node_modules/.package-lock.json';
  if (!existsSync(hidden)) return false;
  const want = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages ?? {};
  const have = JSON.parse(readFileSync(hidden, 'utf8')).packages ?? {};
  return Object.entries(want).every(([path, pkg]) => path === '' || pkg.optional || have[path]?.version === pkg.version);
}

const installed = existsSync(marker) ? readFileSync(marker, 'utf8').trim() : '';
if (installed !== lockHash) {
  if (!matchesHiddenLockfile()) {
    console.error('orch-apiserver: installing dependencies (npm ci; the SQLite addon compiles once, about two minutes)…');
    execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
  }
  writeFileSync(marker, `${lockHash}\n`);
}
