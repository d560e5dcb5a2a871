import { describe, expect, it } from 'vitest';
import { greeting } from '../src/shell/greeting';

describe('greeting', () => {
  it('greets with both names', () => {
    expect(greeting({ first_name: 'Ada', last_name: 'Lovelace', username: 'ada' })).toBe(
      'Hello, Ada Lovelace!',
    );
  });
  it('greets with only the first name', () => {
    expect(greeting({ first_name: 'Ada', last_name: '', username: 'ada' })).toBe('Howdy Ada!');
  });
  it('falls back to the username without a first name', () => {
    expect(greeting({ first_name: '', last_name: 'Lovelace', username: 'ada' })).toBe('Welcome ada');
    expect(greeting({ first_name: '  ', last_name: '', username: 'ada' })).toBe('Welcome ada');
  });
});
