import { API, DetectionTrackAnswer, DetectionTrackBody, LIMITS } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { badRequest, HttpError, notFound } from '../errors.ts';
import { EngineTimeoutError, runEngineTask } from '../jobs/engine-client.ts';
import { libraryRepository } from '../repositories/library.repository.ts';
import { orgOf } from './auth-hook.ts';
import { ErrorRef, errors, routes } from './route-kit.ts';

/**
 * Follows at most this long (ms of work) and answers what it found by then: a reviewer waits for
 * the answer. The thread is stopped for good a little later (a decode that hangs).
 */
const FOLLOW_TIME_LIMIT_MS = 20_000;
const THREAD_TIME_LIMIT_MS = FOLLOW_TIME_LIMIT_MS + 15_000;
/**
 * Follows running at once in this process: each takes a thread and an ffmpeg decode, and the
 * analysis jobs need the cores too. More callers get 503 and try again.
 */
const MAX_RUNNING = 2;
let running = 0;

/** Boxes that follow the logo: the engine's tracker from a box at a time, off the request thread. */
export const trackRoutes = (ctx: AppContext) =>
  routes((app) => {
    app.post(
      API.detectionsTrack,
      {
        schema: {
          tags: ['detections'],
          description:
            "Follows a box through the video's frames from a time, forward and/or backward, until the " +
            'logo is lost (it leaves the frame, is covered or changes), a shot cut, maxMs, or the ' +
            "video's ends. Answers the proposed segments in time order (the given box first at its time).",
          body: DetectionTrackBody,
          response: { 200: DetectionTrackAnswer, ...errors, 503: ErrorRef },
        },
      },
      async (req) => {
        const org = orgOf(req);
        const { videoId, time, points } = req.body;
        const video = await libraryRepository.video(ctx.db, org, videoId);
        if (!video) throw notFound('Video');
        if (!(video.width > 0 && video.duration > 0))
          throw badRequest('videoId: the video is not read yet (no size or duration); try again when it is.');
        if (time > video.duration * 1000)
          throw badRequest(
            `time: ${time} ms is after the end of the video (${Math.round(video.duration * 1000)} ms).`,
          );
        if (!points.every((v) => Math.abs(v) < 1e6)) throw badRequest('points: must be finite numbers.');
        if (running >= MAX_RUNNING)
          throw new HttpError(503, 'The tracker is busy with other boxes; try again in a moment.');
        running++;
        try {
          const segments = await runEngineTask(
            {
              kind: 'follow',
              file: ctx.storage.resolve(video.stored_path),
              options: {
                timeMs: time,
                points,
                direction: req.body.direction ?? 'both',
                maxMs: req.body.maxMs ?? LIMITS.trackDefaultMs,
                timeLimitMs: FOLLOW_TIME_LIMIT_MS,
              },
            },
            () => undefined,
            THREAD_TIME_LIMIT_MS,
          );
          return { segments };
        } catch (err) {
          if (err instanceof EngineTimeoutError)
            throw new HttpError(503, 'Following the box took too long; try a shorter maxMs.');
          throw err;
        } finally {
          running--;
        }
      },
    );
  });
