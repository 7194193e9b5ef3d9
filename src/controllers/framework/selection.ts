/**
 * `--controllers`, as kube-controller-manager reads it: a list of `*` (every controller that is on by
 * default), `name` (this one on) and `-name` (this one off); the first entry naming a controller
 * decides, else `*` decides, else it is off. Every name must be a known controller. Pure.
 */

/** The flag's default: every controller that is on by default. */
export const DEFAULT_CONTROLLERS: readonly string[] = ['*'];

/** Problems with a `--controllers` list, one message each (kube-controller-manager's words). */
export function validateControllerSelection(selection: readonly string[], known: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const entry of selection) {
    if (entry === '*') continue;
    const name = entry.startsWith('-') ? entry.slice(1) : entry;
    if (!known.has(name)) problems.push(`${JSON.stringify(name)} is not in the list of known controllers`);
  }
  return problems;
}

/** Whether the controller `name` runs under `selection`. */
export function isControllerEnabled(name: string, disabledByDefault: ReadonlySet<string>, selection: readonly string[]): boolean {
  let star = false;
  for (const entry of selection) {
    if (entry === name) return true;
    if (entry === `-${name}`) return false;
    if (entry === '*') star = true;
  }
  return star && !disabledByDefault.has(name);
}
