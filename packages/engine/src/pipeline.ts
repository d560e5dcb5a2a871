import type { DescriptorIndex } from './descriptor-index.ts';
import type { GrayImage } from './features.ts';
import { DEFAULT_DETECTOR, suppress, type DetectorOptions, type FrameHit } from './hits.ts';
import type { Cv } from './opencv.ts';
import { colourRoute } from './routes/colour-route.ts';
import { keypointRoute } from './routes/keypoint-route.ts';
import { learnedRoute } from './routes/learned-route.ts';
import type { Route } from './routes/route.ts';
import { shapeRoute } from './routes/shape-route.ts';
import { textRoute } from './routes/text-route.ts';

/** The routes, in the order they run: a later route sees the earlier ones' hits. */
export const ROUTES: readonly Route[] = [keypointRoute, colourRoute, shapeRoute, textRoute, learnedRoute];

/**
 * Finds every brand instance in one frame: each enabled route proposes verified hits, and where
 * hits overlap the best one is kept (several examples of a brand, or rival brands).
 */
export async function detectInFrame(
  cv: Cv,
  frame: GrayImage,
  index: DescriptorIndex,
  opts: DetectorOptions = DEFAULT_DETECTOR,
  seq = 0,
  last = false,
): Promise<FrameHit[]> {
  if (index.count === 0 && !index.examples.some((e) => e.text.length > 0)) return [];
  const hits: FrameHit[] = [];
  for (const route of ROUTES)
    if (route.enabled(opts))
      for (const h of await route.propose({ cv, frame, index, opts, found: hits.slice(), seq, last }))
        hits.push({ ...h, route: route.name });
  return suppress(hits, index.examples);
}
