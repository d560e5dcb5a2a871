/** The shape of `truth.json` (see README.md), shared by the benchmark and the labelling script. */
import { quadOverlapOfSmaller } from '../../../packages/engine/src/geometry.ts';
export type Quad = number[];
export type Kind = 'board' | 'shirt' | 'overlay' | 'photo';

export interface Instance {
  brand: string;
  /** corners clockwise from the top-left, frame pixels */
  quad: Quad;
  kind: Kind;
  placement: 'Broadcast overlay' | 'In-scene';
  /** neither a miss nor a false detection when unmatched or matched */
  difficult: boolean;
}

export interface Frame {
  source: string;
  /** a scored moment of a video source */
  time_ms?: number;
  /** a photo, relative to ../shared/data */
  file?: string;
  width: number;
  height: number;
  instances: Instance[];
}

export interface Example {
  /** cut from a video source at a moment that is not scored */
  source?: string;
  time_ms?: number;
  quad?: Quad;
  /** or an image file (relative to ../shared/data, or to `package` in node_modules) */
  file?: string;
  package?: string;
}

export interface Truth {
  sources: { id: string; path: string; kind: 'video' | 'photos'; origin?: string; licence?: string }[];
  brands: { name: string; examples: Example[] }[];
  frames: Frame[];
}

/** Share of the smaller of two labels of one brand in one frame beyond which they are one logo labelled twice. */
const SAME_LOGO_OVERLAP = 0.8;

/**
 * Labels that cannot all be right, as one line each (none: the set can be scored): two labels of
 * one brand in one frame, one (nearly) inside the other, label one logo twice (a part of a board's
 * words drawn again beside the whole), and the engine's one detection there can match only one of
 * them, so the other counts as a miss that no engine could avoid. Labels of two brands may overlap
 * (the two rows of a two-row board do, at a slant).
 */
export function truthProblems(truth: Truth): string[] {
  const problems: string[] = [];
  for (const f of truth.frames) {
    const where = f.file ?? `${f.source} ${f.time_ms} ms`;
    f.instances.forEach((a, i) => {
      for (const b of f.instances.slice(i + 1))
        if (a.brand === b.brand && quadOverlapOfSmaller(a.quad, b.quad) > SAME_LOGO_OVERLAP)
          problems.push(
            `${where}: two ${a.brand} labels, one inside the other (${a.quad.join(',')} and ${b.quad.join(',')})`,
          );
    });
  }
  return problems;
}
