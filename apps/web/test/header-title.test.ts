import { describe, expect, it } from 'vitest';
import { headerTitle } from '../src/shell/header-title';

describe('headerTitle', () => {
  it("is 'Dashboard' on the root", () => {
    expect(headerTitle('/')).toBe('Dashboard');
    expect(headerTitle('')).toBe('Dashboard');
  });
  it('is the last URL segment elsewhere', () => {
    expect(headerTitle('/brands')).toBe('brands');
    expect(headerTitle('/videos/')).toBe('videos');
    expect(headerTitle('/a/b/verification')).toBe('verification');
  });
  it("is 'Editor: {video name}' on the editor with a selected video", () => {
    expect(headerTitle('/editor', 'Match 1')).toBe('Editor: Match 1');
    expect(headerTitle('/editor', null)).toBe('editor');
    expect(headerTitle('/brands', 'Match 1')).toBe('brands');
  });
});
