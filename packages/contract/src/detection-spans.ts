import { Type, type Static } from '@sinclair/typebox';
import { Id } from './entities.ts';

/** Largest number of merged segments answered per brand by the whole-video spans call. */
export const SPANS_MAX_SEGMENTS = 500;

export const DetectionSpansQuery = Type.Object({
  videoId: Type.Integer({ minimum: 1 }),
  segments: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: SPANS_MAX_SEGMENTS,
      description: `Largest number of segments per brand (default 200, at most ${SPANS_MAX_SEGMENTS})`,
    }),
  ),
});
export type DetectionSpansQuery = Static<typeof DetectionSpansQuery>;

export const BrandSpans = Type.Object({
  brand: Id,
  /** Listed detections of the brand in the video. */
  count: Type.Integer({ minimum: 0 }),
  /** [begin, end] in ms, sorted, not overlapping; the shortest gaps closed until at most `segments` remain. */
  spans: Type.Array(Type.Tuple([Type.Number(), Type.Number()])),
});
export type BrandSpans = Static<typeof BrandSpans>;

export const DetectionSpansAnswer = Type.Array(BrandSpans);
export type DetectionSpansAnswer = Static<typeof DetectionSpansAnswer>;
