import { describe, expect, it } from 'vitest';
import { decodeAllPem, decodePem } from './pem.js';

const b = (s: string): Buffer => Buffer.from(s, 'latin1');
const body = Buffer.from('hello, pem').toString('base64');

describe('decodePem', () => {
  it('finds a block after other text and returns what follows', () => {
    const found = decodePem(b(`intro\n-----BEGIN THING-----\n${body}\n-----END THING-----\nafter`));
    expect(found?.block).toEqual({ type: 'THING', headers: {}, bytes: Buffer.from('hello, pem') });
    expect(found?.rest.toString()).toBe('after');
  });

  it('keeps headers apart from the body', () => {
    const found = decodePem(b(`-----BEGIN X-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES\n\n${body}\n-----END X-----\n`));
    expect(found?.block.headers).toEqual({ 'Proc-Type': '4,ENCRYPTED', 'DEK-Info': 'AES' });
    expect(found?.block.bytes.toString()).toBe('hello, pem');
  });

  it('accepts an empty block whose END line follows directly', () => {
    expect(decodePem(b('-----BEGIN E-----\n-----END E-----\n'))?.block.bytes.length).toBe(0);
  });

  it('skips blocks with a mismatched END, bad base64 or junk after END', () => {
    expect(decodePem(b(`-----BEGIN A-----\n${body}\n-----END B-----\n`))).toBeUndefined();
    expect(decodePem(b('-----BEGIN A-----\n!!!!\n-----END A-----\n'))).toBeUndefined();
    expect(decodePem(b(`-----BEGIN A-----\n${body}\n-----END A----- x\n`))).toBeUndefined();
    const second = decodePem(b(`-----BEGIN A-----\n!!\n-----END A-----\n-----BEGIN C-----\n${body}\n-----END C-----\n`));
    expect(second?.block.type).toBe('C');
  });

  it('lists every block in order', () => {
    const two = `-----BEGIN A-----\n${body}\n-----END A-----\ntext\n-----BEGIN B-----\n${body}\n-----END B-----\n`;
    expect(decodeAllPem(b(two)).map((x) => x.type)).toEqual(['A', 'B']);
  });
});
