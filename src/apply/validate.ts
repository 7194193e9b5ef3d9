/**
 * Checks an applied configuration against the schema before it is merged: scalar types, maps and
 * lists where the schema has them, fields the schema does not declare, and list items that cannot
 * be told apart (no key, duplicate key). Returns the errors in structured-merge-diff's words,
 * each prefixed with its path (`.spec.replicas: expected numeric (int or float), got string`). Pure.
 */
import { elementKey, pathToString, pe, type PathElement } from './path.js';
import { atomOf, entryType, ListItemError, listItemElement, type Atom, type TypeRef } from './schema-view.js';
import { isObject } from './value.js';

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'list';
  if (isObject(v)) return 'map';
  return typeof v;
}

export function validateTyped(type: TypeRef, value: unknown): string[] {
  const errs: string[] = [];
  walk(type, value, [], errs);
  return errs;
}

function report(errs: string[], path: PathElement[], message: string): void {
  errs.push(path.length ? `${pathToString(path)}: ${message}` : message);
}

function walk(type: TypeRef, value: unknown, path: PathElement[], errs: string[]): void {
  if (value === null || value === undefined) return;
  const atom = atomOf(type, value);
  switch (atom.kind) {
    case 'scalar':
      checkScalar(atom, value, path, errs);
      return;
    case 'list':
      if (!Array.isArray(value)) return report(errs, path, `expected list, got ${jsonKind(value)}`);
      return walkList(atom, value, path, errs);
    case 'map':
      if (!isObject(value)) return report(errs, path, `expected map, got ${jsonKind(value)}`);
      for (const [k, v] of Object.entries(value)) {
        const child = entryType(atom, k);
        const p = [...path, pe.field(k)];
        if (child === undefined) report(errs, p, 'field not declared in schema');
        else walk(child, v, p, errs);
      }
  }
}

function checkScalar(atom: Extract<Atom, { kind: 'scalar' }>, value: unknown, path: PathElement[], errs: string[]): void {
  if (atom.scalar === 'any') return;
  if (Array.isArray(value) || isObject(value)) {
    const want = atom.scalar === 'numeric' ? 'numeric (int or float)' : atom.scalar === 'untyped' ? 'scalar' : atom.scalar;
    return report(errs, path, `expected ${want}, got ${jsonKind(value)}`);
  }
  if (atom.scalar === 'numeric' && typeof value !== 'number') report(errs, path, `expected numeric (int or float), got ${jsonKind(value)}`);
  if (atom.scalar === 'string' && typeof value !== 'string') report(errs, path, `expected string, got ${jsonKind(value)}`);
  if (atom.scalar === 'boolean' && typeof value !== 'boolean') report(errs, path, `expected boolean, got ${jsonKind(value)}`);
}

function walkList(atom: Extract<Atom, { kind: 'list' }>, items: unknown[], path: PathElement[], errs: string[]): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (atom.atomic) return walk(atom.element, item, [...path, pe.index(i)], errs);
    let e: PathElement;
    try {
      e = listItemElement(atom, item);
    } catch (err) {
      if (err instanceof ListItemError) return report(errs, path, `element ${i}: ${err.message}`);
      throw err;
    }
    const key = elementKey(e);
    if (seen.has(key)) return report(errs, path, `duplicate entries for key ${pathToString([e])}`);
    seen.add(key);
    walk(atom.element, item, [...path, e], errs);
  });
}
