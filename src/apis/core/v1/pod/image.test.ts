import { describe, expect, it } from 'vitest';
import { defaultPullPolicy, imageTag } from './image.js';

const digest = `sha256:${'0123456789abcdef'.repeat(4)}`;

describe('image references', () => {
  it.each([
    ['nginx', 'latest'],
    ['nginx:1.25', '1.25'],
    ['library/nginx:stable-alpine', 'stable-alpine'],
    ['localhost:5000/team/app', 'latest'],
    ['localhost:5000/team/app:v2', 'v2'],
    [`nginx@${digest}`, ''],
    [`nginx:1.25@${digest}`, '1.25'],
    ['Nginx', ''],
    ['', ''],
    ['two words', ''],
  ])('%j runs with tag %j', (image, tag) => {
    expect(imageTag(image)).toBe(tag);
  });

  it('pulls always only for latest or no tag', () => {
    expect(defaultPullPolicy('nginx')).toBe('Always');
    expect(defaultPullPolicy('nginx:latest')).toBe('Always');
    expect(defaultPullPolicy('nginx:1')).toBe('IfNotPresent');
    expect(defaultPullPolicy(`nginx@${digest}`)).toBe('IfNotPresent');
    // An unparseable reference is not "latest".
    expect(defaultPullPolicy('UPPER')).toBe('IfNotPresent');
  });
});
