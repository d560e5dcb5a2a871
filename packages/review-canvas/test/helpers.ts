import type { CanvasLike } from '../src/renderer.ts';
import type { EditorEvents } from '../src/editor-events.ts';
import type { ReviewEditor } from '../src/review-editor.ts';
import type { Detection, PlacementRef } from '../src/types.ts';

export const RED: PlacementRef = { id: 1, localized_name: 'Pitch side', color: '#ff0000' };
export const BLUE: PlacementRef = { id: 2, localized_name: 'Overlay', color: '#0000ff' };

/** An axis-aligned quad as 8 numbers (clockwise from top-left). */
export function box(x: number, y: number, w: number, h: number): number[] {
  return [x, y, x + w, y, x + w, y + h, x, y + h];
}

/** A one-segment detection. */
export function det(
  id: number,
  begin: number,
  end: number,
  points: number[],
  placement: PlacementRef = RED,
  brand = 10,
): Detection {
  return {
    id,
    brand,
    placement,
    coordinates: [{ start_time: begin, end_time: end, points }],
    time_begin: begin,
    time_end: end,
    video: 7,
  };
}

type Recorded = { [K in keyof EditorEvents]: { type: K; payload: EditorEvents[K] } }[keyof EditorEvents];

/** Records every event except the noisy `changed`. */
export function recordEvents(editor: ReviewEditor): Recorded[] {
  const out: Recorded[] = [];
  const types: (keyof EditorEvents)[] = [
    'selectionChanged',
    'detectionMoved',
    'detectionResized',
    'draftCreated',
    'draftChanged',
    'draftsRemoved',
    'detectionsRemoved',
    'detectionsUpdated',
    'interactionStarted',
    'interactionEnded',
    'videoModeChanged',
  ];
  for (const type of types) editor.on(type, (payload) => out.push({ type, payload } as Recorded));
  return out;
}

export interface DrawCall {
  op: string;
  args: number[];
  lineWidth: number;
  strokeStyle: string;
  fillStyle: string;
  shadowBlur: number;
  dash: number[];
}

/** A CanvasLike that records every drawing call with the style in effect. */
export class RecordingCanvas implements CanvasLike {
  lineWidth = 1;
  strokeStyle: string | object = '#000';
  fillStyle: string | object = '#000';
  shadowBlur = 0;
  shadowColor = 'transparent';
  calls: DrawCall[] = [];
  private dash: number[] = [];
  private path: number[][] = [];
  /** Each stroke() with the subpaths it drew (display coordinates). */
  strokes: {
    lineWidth: number;
    color: string;
    shadowBlur: number;
    shadowColor: string;
    dash: number[];
    paths: number[][];
  }[] = [];

  private rec(op: string, args: number[]): void {
    this.calls.push({
      op,
      args,
      lineWidth: this.lineWidth,
      strokeStyle: String(this.strokeStyle),
      fillStyle: String(this.fillStyle),
      shadowBlur: this.shadowBlur,
      dash: this.dash,
    });
  }
  clearRect(x: number, y: number, w: number, h: number): void {
    this.rec('clearRect', [x, y, w, h]);
  }
  fillRect(x: number, y: number, w: number, h: number): void {
    this.rec('fillRect', [x, y, w, h]);
  }
  strokeRect(x: number, y: number, w: number, h: number): void {
    this.rec('strokeRect', [x, y, w, h]);
  }
  beginPath(): void {
    this.path = [];
    this.rec('beginPath', []);
  }
  moveTo(x: number, y: number): void {
    this.path.push([x, y]);
    this.rec('moveTo', [x, y]);
  }
  lineTo(x: number, y: number): void {
    this.path[this.path.length - 1]?.push(x, y);
    this.rec('lineTo', [x, y]);
  }
  closePath(): void {
    this.rec('closePath', []);
  }
  stroke(): void {
    this.rec('stroke', []);
    this.strokes.push({
      lineWidth: this.lineWidth,
      color: String(this.strokeStyle),
      shadowBlur: this.shadowBlur,
      shadowColor: this.shadowColor,
      dash: this.dash,
      paths: this.path.map((p) => p.slice()),
    });
  }
  setLineDash(segments: number[]): void {
    this.dash = segments.slice();
  }
}
