/**
 * One build of the overlay core for overlay-chromium.bench.ts: registers `ReviewEditor` under a variant
 * name, so two builds (the working tree, and a baseline commit's copy of packages/review-canvas) can be
 * measured side by side in the same page.
 */
import { ReviewEditor } from '@logo-review/review-canvas';

declare const __VARIANT__: string;

const w = window as unknown as { overlayVariants?: Record<string, typeof ReviewEditor> };
(w.overlayVariants ??= {})[__VARIANT__] = ReviewEditor;
