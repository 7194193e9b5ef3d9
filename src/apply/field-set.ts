/**
 * A set of field paths stored as a trie: at each level, the elements that are members (the path
 * ending there is in the set) and the elements with children (longer paths go on below). A path
 * can be both. Set operations return new sets and never mutate their operands; `insert` mutates.
 */
import { compareElements, elementKey, pathToString, type Path, type PathElement } from './path.js';

interface Child {
  readonly element: PathElement;
  readonly set: FieldSet;
}

export class FieldSet {
  /** Members by canonical element text. */
  private readonly members = new Map<string, PathElement>();
  /** Non-empty subtrees by canonical element text. */
  private readonly children = new Map<string, Child>();

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path; the empty path (the whole object) is never a member. Mutates. */
  insert(path: Path): this {
    if (path.length === 0) return this;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.descend(path[i] as PathElement);
    const last = path[path.length - 1] as PathElement;
    node.members.set(elementKey(last), last);
    return this;
  }

  private descend(e: PathElement): FieldSet {
    const key = elementKey(e);
    let child = this.children.get(key);
    if (!child) {
      child = { element: e, set: new FieldSet() };
      this.children.set(key, child);
    }
    return child.set;
  }

  private addChild(e: PathElement, set: FieldSet): void {
    if (!set.empty) this.children.set(elementKey(e), { element: e, set });
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && node; i++) node = node.children.get(elementKey(path[i] as PathElement))?.set;
    return !!node && node.members.has(elementKey(path[path.length - 1] as PathElement));
  }

  hasMember(e: PathElement): boolean {
    return this.members.has(elementKey(e));
  }

  get empty(): boolean {
    if (this.members.size > 0) return false;
    for (const c of this.children.values()) if (!c.set.empty) return false;
    return true;
  }

  /** The subtree below one element (empty when there is none). */
  withPrefix(e: PathElement): FieldSet {
    return this.children.get(elementKey(e))?.set ?? new FieldSet();
  }

  /** The elements of this level, members and those with children, sorted. */
  elements(): { element: PathElement; member: boolean; children: FieldSet | undefined }[] {
    // Members first, then elements with children only, each in insertion order; then sorted.
    const out: { element: PathElement; member: boolean; children: FieldSet | undefined }[] = [];
    for (const [k, element] of this.members) out.push({ element, member: true, children: this.children.get(k)?.set });
    for (const [k, c] of this.children) if (!this.members.has(k)) out.push({ element: c.element, member: false, children: c.set });
    if (out.length > 1) out.sort((a, b) => compareElements(a.element, b.element));
    return out;
  }

  union(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, e] of this.members) out.members.set(k, e);
    for (const [k, e] of o.members) out.members.set(k, e);
    for (const [k, c] of this.children) {
      const other = o.children.get(k);
      out.addChild(c.element, other ? c.set.union(other.set) : c.set.clone());
    }
    for (const [k, c] of o.children) if (!this.children.has(k)) out.addChild(c.element, c.set.clone());
    return out;
  }

  intersection(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, e] of this.members) if (o.members.has(k)) out.members.set(k, e);
    for (const [k, c] of this.children) {
      const other = o.children.get(k);
      if (other) out.addChild(c.element, c.set.intersection(other.set));
    }
    return out;
  }

  /** Paths of this set not in `o`; a member of `o` does not remove paths below it. */
  difference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, e] of this.members) if (!o.members.has(k)) out.members.set(k, e);
    for (const [k, c] of this.children) {
      const other = o.children.get(k);
      out.addChild(c.element, other ? c.set.difference(other.set) : c.set.clone());
    }
    return out;
  }

  /** Paths of this set neither in `o` nor below a member of `o`. */
  recursiveDifference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, e] of this.members) if (!o.members.has(k)) out.members.set(k, e);
    for (const [k, c] of this.children) {
      if (o.members.has(k)) continue;
      const other = o.children.get(k);
      out.addChild(c.element, other ? c.set.recursiveDifference(other.set) : c.set.clone());
    }
    return out;
  }

  clone(): FieldSet {
    return this.union(new FieldSet());
  }

  equals(o: FieldSet): boolean {
    if (this.members.size !== o.members.size) return false;
    for (const k of this.members.keys()) if (!o.members.has(k)) return false;
    const mine = [...this.children].filter(([, c]) => !c.set.empty);
    const theirs = [...o.children].filter(([, c]) => !c.set.empty);
    if (mine.length !== theirs.length) return false;
    return mine.every(([k, c]) => {
      const other = o.children.get(k);
      return !!other && c.set.equals(other.set);
    });
  }

  /** Every member path, in sorted preorder (a path before the paths below it). */
  paths(): Path[] {
    const out: Path[] = [];
    const walk = (s: FieldSet, prefix: Path): void => {
      for (const { element, member, children } of s.elements()) {
        const p = [...prefix, element];
        if (member) out.push(p);
        if (children) walk(children, p);
      }
    };
    walk(this, []);
    return out;
  }

  toString(): string {
    return this.paths().map(pathToString).join('\n');
  }
}
