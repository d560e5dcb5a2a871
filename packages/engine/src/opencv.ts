import { createRequire } from 'node:module';

/**
 * The opencv.js module object. Its bundled typings re-export a package ("mirada") that is not
 * installed, so the engine talks to it through this loose type and keeps every use in a few files.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see comment above
export type Cv = any;

let loading: Promise<Cv> | null = null;

/** The OpenCV 5 runtime that computes ORB for each 4.5 runtime (see {@link getCv}). */
const orbRuntimes = new WeakMap<object, Cv>();

/**
 * Loads the OpenCV WASM runtimes once per process (about 300 ms) and returns the module.
 *
 * Two builds are loaded. OpenCV 4.5.2 (`@techstark/opencv-js` 4.5.2) does everything but ORB.
 * ORB runs on OpenCV 5.0 (the same package at 5.0.0-release.1, installed as `opencv-js-5`): its
 * keypoints and descriptors are the same to the bit (tested in features.test.ts), computed in
 * three quarters of the time (51 against 67.5 ms for a 1280x720 frame; ORB is the largest single
 * part of a detector thread's work), for about 70 MB more memory per thread. 5.0 is not used for
 * the rest: its `findHomography` differs from 4.5.2's in the sixth digit, and downstream the real
 * set's detections moved (session 36: 155 / 16 true / false against 164 / 6 at CRF 18).
 */
export function getCv(): Promise<Cv> {
  if (!loading) {
    loading = Promise.all([load('@techstark/opencv-js'), load('opencv-js-5')]).then(([cv, cv5]) => {
      orbRuntimes.set(cv, cv5);
      return cv;
    });
  }
  return loading;
}

/** The runtime that computes ORB for `cv` (the 5.0 one loaded beside it by {@link getCv}). */
export function orbRuntime(cv: Cv): Cv {
  return orbRuntimes.get(cv) ?? cv;
}

function load(name: string): Promise<Cv> {
  return new Promise<Cv>((resolve, reject) => {
    try {
      const require = createRequire(import.meta.url);
      // The Emscripten glue installs process-wide 'uncaughtException'/'unhandledRejection'
      // handlers that abort the process; a library must not do that to its host, so drop them.
      const before = {
        ue: new Set(process.listeners('uncaughtException')),
        ur: new Set(process.listeners('unhandledRejection')),
      };
      const cv = require(name) as Cv;
      for (const l of process.listeners('uncaughtException')) {
        if (!before.ue.has(l)) process.off('uncaughtException', l);
      }
      for (const l of process.listeners('unhandledRejection')) {
        if (!before.ur.has(l)) process.off('unhandledRejection', l);
      }
      // 5.0 exports a promise of the module
      if (cv instanceof Promise) return void cv.then(resolve, reject);
      // 4.5's module object is a thenable whose then() hands back itself: resolving a promise
      // with it loops forever, so drop then() once the runtime is up.
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
