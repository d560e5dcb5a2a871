import { describe, expect, it } from 'vitest';
import { hotkeyAction, isTextEntryElement } from '../src/hotkeys.ts';

const never = () => false;

describe('hotkeys', () => {
  it('maps the spec keys to actions', () => {
    expect(hotkeyAction({ key: 'm' }, never)).toBe('togglePlayMode');
    expect(hotkeyAction({ key: 'f' }, never)).toBe('openFilters');
    expect(hotkeyAction({ key: 'v' }, never)).toBe('toggleFilteredVisible');
    expect(hotkeyAction({ key: 'p' }, never)).toBe('togglePlay');
    expect(hotkeyAction({ key: 'P' }, never)).toBe('togglePlay');
    expect(hotkeyAction({ key: 'ArrowRight' }, never)).toBe('nextFrame');
    expect(hotkeyAction({ key: 'ArrowLeft' }, never)).toBe('previousFrame');
    expect(hotkeyAction({ key: 'ArrowRight', ctrlKey: true }, never)).toBe('nextSecond');
    expect(hotkeyAction({ key: 'ArrowLeft', ctrlKey: true }, never)).toBe('previousSecond');
    expect(hotkeyAction({ key: '+' }, never)).toBe('speedUp');
    expect(hotkeyAction({ key: '-' }, never)).toBe('speedDown');
    expect(hotkeyAction({ key: 'n' }, never)).toBe('nextDetection');
    expect(hotkeyAction({ key: 'b' }, never)).toBe('previousDetection');
  });

  it('ignores other keys and browser shortcuts', () => {
    expect(hotkeyAction({ key: 'x' }, never)).toBeNull();
    expect(hotkeyAction({ key: 'f', ctrlKey: true }, never)).toBeNull();
    expect(hotkeyAction({ key: 'ArrowRight', altKey: true }, never)).toBeNull();
  });

  it('does nothing while a text field has focus', () => {
    expect(hotkeyAction({ key: 'p' }, () => true)).toBeNull();
    expect(hotkeyAction({ key: 'ArrowRight' }, () => true)).toBeNull();
  });

  it('recognises text entry elements', () => {
    expect(isTextEntryElement({ tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(isTextEntryElement({ tagName: 'input' })).toBe(true);
    expect(isTextEntryElement({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTextEntryElement({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTextEntryElement({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTextEntryElement({ tagName: 'BUTTON' })).toBe(false);
    expect(isTextEntryElement(null)).toBe(false);
  });
});
