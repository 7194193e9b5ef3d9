// Installs the locked dependencies when node_modules is missing or older than the lockfile,
// so that `npm start` and `npm test` are each one command on a fresh clone.
import { execSync } from 'node:child_process';
import { existsSync, lstatSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync('package-lock.json').mtimeMs;
// A symlinked node_modules is shared with another checkout: `npm ci` would empty the directory it
// points to (breaking that checkout) and install a private copy here, so only say what is stale.
const shared = existsSync('node_modules') && lstatSync('node_modules').isSymbolicLink();
if (stale && shared) {
  console.error('orch-apiserver: node_modules is a symlink and looks older than package-lock.json; not reinstalling (run npm ci where it points if needed)');
} else if (stale) {
  console.error('orch-apiserver: installing dependencies (npm ci; the SQLite addon compiles once, about two minutes)…');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
