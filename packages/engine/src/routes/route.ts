import type { DescriptorIndex } from '../descriptor-index.ts';
import type { GrayImage } from '../features.ts';
import type { DetectorOptions, FrameHit } from '../hits.ts';
import type { Cv } from '../opencv.ts';

/** What a route is given for one frame. */
export interface RouteInput {
  cv: Cv;
  /** the analysed frame (grey, with its chroma when known) */
  frame: GrayImage;
  /** every active brand's examples and keypoints */
  index: DescriptorIndex;
  opts: DetectorOptions;
  /** hits that the routes before this one found in the frame (a route may skip what they have) */
  found: readonly FrameHit[];
  /** the sample's number in its video (0 for a still image), for routes that run on some samples only */
  seq?: number;
  /** the last sample of the analysed span (a video's end or a chunk's), which nothing after it confirms */
  last?: boolean;
}

/**
 * One way of finding logos in a frame. Each route proposes verified hits (quad, score, the
 * example that explains them) for the same frame and the same examples; the pipeline
 * (pipeline.ts) runs the enabled routes in order and keeps the best hit where hits overlap.
 * Routes do not import each other: what they share is in appearance.ts and hits.ts.
 */
export interface Route {
  /** short name, for options and the benchmark */
  readonly name: string;
  enabled(opts: DetectorOptions): boolean;
  propose(input: RouteInput): FrameHit[] | Promise<FrameHit[]>;
}

/**
 * Whether a route that runs on some samples only runs on this one: every `every`-th sample,
 * those whose number plus `offset` it divides, and the span's last one (nothing after it would
 * confirm or carry what the route finds there).
 */
export function onSchedule(
  { seq, last }: Pick<RouteInput, 'seq' | 'last'>,
  every: number,
  offset = 0,
): boolean {
  return Boolean(last) || ((seq ?? 0) + offset) % Math.max(1, every) === 0;
}
