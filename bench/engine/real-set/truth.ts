/** The shape of `truth.json` (see README.md), shared by the benchmark and the labelling script. */
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
