/**
 * Logo detection engine: builds per-brand matching indexes from example logos and finds those
 * logos in videos and images with local features (ORB), one shared LSH matcher over all brands,
 * RANSAC homographies with geometric checks, and tracking of per-frame hits over time.
 * No HTTP, no database.
 *
 * @packageDocumentation
 */

/** Bump whenever results would change for the same input and brand indexes. */
export const ENGINE_VERSION = '0.49.0';

export {
  buildBrandIndex,
  serializeBrandIndex,
  deserializeBrandIndex,
  INDEX_FORMAT,
  type BrandExampleInput,
  type BrandIndex,
  type IndexedExample,
} from './brand-index.ts';
export {
  analyzeVideo,
  analyzeImage,
  DEFAULT_SAMPLE_FPS,
  DEFAULT_ANALYSIS_HEIGHT,
  type AnalyzeVideoOptions,
  type AnalysisStats,
  type EngineDetection,
  type MediaAnalysis,
} from './analyze.ts';
export { probeVideo, type VideoInfo } from './video.ts';
export { endThread, startThread, WarmDetectors } from './detector-pool.ts';
export { quadIoU, type Quad } from './geometry.ts';
export type { Placement } from './tracker.ts';
/**
 * Follows a box drawn on a logo through a video's frames from a time, forward and/or backward, until
 * the logo is lost or the shot cuts: the editor's "boxes that follow the logo".
 */
export { followBox, type FollowBoxOptions, type FollowedSegment } from './follow-box.ts';
