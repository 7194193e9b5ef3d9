/**
 * Which controllers run, as kube-controller-manager decides from `--controllers`: a name chooses
 * it, `-name` refuses it (the first mention wins), and otherwise `*` runs the default-on ones.
 * Pure.
 */

/** Controllers Kubernetes leaves off unless named (of those this server has). */
export const DISABLED_BY_DEFAULT: ReadonlySet<string> = new Set(['tokencleaner', 'bootstrapsigner']);

export function isControllerEnabled(name: string, controllers: readonly string[] = ['*'], disabledByDefault = DISABLED_BY_DEFAULT.has(name)): boolean {
  let star = false;
  for (const c of controllers) {
    if (c === name) return true;
    if (c === `-${name}`) return false;
    if (c === '*') star = true;
  }
  return star && !disabledByDefault;
}
