import type { Point, Rect, TargetRef } from '../types.ts';

/** A pointer event in display coordinates (CSS pixels relative to the overlay's top-left corner). */
export interface PointerInput {
  x: number;
  y: number;
  /** 0 = primary; other buttons are ignored. Default 0. */
  button?: number;
  /** Shift adds to the selection (marquee) or toggles (click on an outline). */
  shiftKey?: boolean;
}

/** A key event; only `key` is read (Escape cancels). */
export interface KeyInput {
  key: string;
}

/** The states of the tool machine. */
export type ToolStateId = 'idle' | 'pointing' | 'marquee' | 'translating' | 'resizing' | 'drawing';

/** What the renderer needs from the tools to draw the interactive layer. */
export interface ToolOverlay {
  /** Marquee rectangle in display pixels, while selecting. */
  marquee: Rect | null;
  /** Live quad (video pixels) of the target being translated or resized. */
  preview: { target: TargetRef; points: number[] } | null;
  /** Drawing mode: points placed so far and the pointer, in video pixels. */
  drawing: { points: readonly Point[]; cursor: Point | null } | null;
}

/** Base of the small tool states (tldraw's StateNode in miniature): each handles only its own events. */
export abstract class ToolState<Info = void> {
  abstract readonly id: ToolStateId;
  onEnter(_info: Info): void {}
  onExit(): void {}
  onPointerDown(_e: PointerInput): void {}
  onPointerMove(_e: PointerInput): void {}
  onPointerUp(_e: PointerInput): void {}
  /** Escape or pointer cancel. */
  onCancel(): void {}
  /** Contributes to the overlay. */
  overlay(_out: ToolOverlay): void {}
}
