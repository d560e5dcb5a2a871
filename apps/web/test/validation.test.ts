import { describe, expect, it } from 'vitest';
import { confirmNameMatches, isValidEmail, requiredFilled } from '../src/components/validation';
import { mergeFiles } from '../src/components/file-picker';
import { matchesSearch } from '../src/components/filter-by-name';

describe('validation', () => {
  it('requires every field to be filled', () => {
    expect(requiredFilled(['a', 1, [new File(['x'], 'a.mp4')]])).toBe(true);
    expect(requiredFilled(['a', '  '])).toBe(false);
    expect(requiredFilled(['a', null])).toBe(false);
    expect(requiredFilled([[]])).toBe(false);
  });
  it('checks the email type', () => {
    expect(isValidEmail('ada@example.com')).toBe(true);
    expect(isValidEmail('ada@example')).toBe(false);
    expect(isValidEmail('')).toBe(false);
  });
  it('matches the typed name case-insensitively', () => {
    expect(confirmNameMatches('nike', 'Nike')).toBe(true);
    expect(confirmNameMatches(' NIKE ', 'Nike')).toBe(true);
    expect(confirmNameMatches('Nik', 'Nike')).toBe(false);
    expect(confirmNameMatches('', '')).toBe(false);
  });
  it('keeps a single video file and never duplicates file names', () => {
    const a = new File(['1'], 'a.png');
    const a2 = new File(['2'], 'a.png');
    const b = new File(['3'], 'b.png');
    expect(mergeFiles([a], [a2, b], true)).toEqual([a, b]);
    expect(mergeFiles([a], [b, a2], false)).toEqual([b]);
  });
  it('searches with a lower-cased substring', () => {
    expect(matchesSearch('ike', 'NIKE')).toBe(true);
    expect(matchesSearch('  ', 'x')).toBe(true);
    expect(matchesSearch('zz', 'Nike', null)).toBe(false);
  });
});
