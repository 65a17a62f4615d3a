import { describe, expect, it } from 'vitest';

import { codeFileName, initialVersionId, truncateComment, versionLabel } from './version-format';

describe('versions viewer formatting', () => {
  it('truncates comments at 30 characters in the dropdown label', () => {
    expect(truncateComment('a'.repeat(30))).toBe('a'.repeat(30));
    expect(truncateComment(`${'b'.repeat(30)}c`)).toBe(`${'b'.repeat(30)}...`);
    expect(truncateComment('Ångström'.repeat(5))).toBe(`${[...'Ångström'.repeat(5)].slice(0, 30).join('')}...`);
    const label = versionLabel({
      id: '12',
      comment: 'First light: a much longer comment than thirty',
      status: 'PENDING_REVIEW',
      created_at: '2026-03-01T12:00:00Z',
    });
    expect(label).toBe('#12 First light: a much longer com... (pending review, 2026-03-01)');
  });

  it('selects the enabled version first, else the latest', () => {
    const versions = [{ id: '9' }, { id: '7' }, { id: '3' }];
    expect(initialVersionId('7', versions)).toBe('7');
    expect(initialVersionId(null, versions)).toBe('9');
    expect(initialVersionId(null, [])).toBeNull();
  });

  it('downloads code as {filter name}.py', () => {
    expect(codeFileName('Bright things')).toBe('Bright things.py');
  });
});
