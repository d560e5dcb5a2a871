import { createRequire } from 'node:module';

/**
 * The opencv.js module object. Its bundled typings re-export a package ("mirada") that is not
 * installed, so the engine talks to it through this loose type and keeps every use in a few files.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see comment above
export type Cv = any;

let loading: Promise<Cv> | null = null;

/** Loads the OpenCV WASM runtime once per process (about 150 ms) and returns the module. */
export function getCv(): Promise<Cv> {
  if (!loading) {
    loading = new Promise<Cv>((resolve, reject) => {
      try {
        const require = createRequire(import.meta.url);
        // The Emscripten glue installs process-wide 'uncaughtException'/'unhandledRejection'
        // handlers that abort the process; a library must not do that to its host, so drop them.
        const before = {
          ue: new Set(process.listeners('uncaughtException')),
          ur: new Set(process.listeners('unhandledRejection')),
        };
        const cv = require('@techstark/opencv-js') as Cv;
        for (const l of process.listeners('uncaughtException')) {
          if (!before.ue.has(l)) process.off('uncaughtException', l);
        }
        for (const l of process.listeners('unhandledRejection')) {
          if (!before.ur.has(l)) process.off('unhandledRejection', l);
        }
        // The module object is a thenable whose then() hands back itself: resolving a promise with
        // it loops forever, so drop then() once the runtime is up.
        const ready = () => {
          delete cv.then;
          resolve(cv);
        };
        if (cv.Mat) ready();
        else cv.onRuntimeInitialized = ready;
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }
  return loading;
}
