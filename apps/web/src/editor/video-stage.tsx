import { useEffect, useLayoutEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import {
  fitVideo,
  videoMimeType,
  wheelZoomFactor,
  type FittedVideo,
  type PointerInput,
} from '@logo-review/review-canvas';
import { useStore } from '../state/create-store';
import type { EditorSession } from './editor-session';
import { usePanelVersion } from './use-session';

function pointer(e: ReactPointerEvent<HTMLCanvasElement>): PointerInput {
  return { x: e.nativeEvent.offsetX, y: e.nativeEvent.offsetY, button: e.button, shiftKey: e.shiftKey };
}

/**
 * Zoom and pan gestures on the overlay: a two-finger pinch zooms around its centre; Alt+drag or a
 * middle-button drag pans. Each handler returns true when it took the event (the tools do not see it).
 */
function useGesture(session: EditorSession) {
  const ref = useRef<{
    pointers: Map<number, { x: number; y: number }>;
    pan: { x: number; y: number } | null;
    pinch: number | null;
  }>({ pointers: new Map(), pan: null, pinch: null });
  const g = ref.current;
  const spread = () => {
    const [a, b] = [...g.pointers.values()];
    return { d: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  };
  return {
    down(e: ReactPointerEvent<HTMLCanvasElement>): boolean {
      const p = { x: e.nativeEvent.offsetX, y: e.nativeEvent.offsetY };
      if (e.pointerType === 'touch') {
        g.pointers.set(e.pointerId, p);
        if (g.pointers.size === 2) {
          // The first finger started a tool interaction: cancel it, this is a pinch.
          session.editor.pointerCancel();
          g.pinch = spread().d;
          return true;
        }
      }
      if (e.button === 1 || (e.button === 0 && e.altKey)) {
        g.pan = p;
        return true;
      }
      return g.pinch !== null;
    },
    move(e: ReactPointerEvent<HTMLCanvasElement>): boolean {
      const p = { x: e.nativeEvent.offsetX, y: e.nativeEvent.offsetY };
      if (g.pointers.has(e.pointerId)) g.pointers.set(e.pointerId, p);
      if (g.pinch !== null && g.pointers.size === 2) {
        const s = spread();
        if (g.pinch > 0) session.zoomAt(s.d / g.pinch, s.x, s.y);
        g.pinch = s.d;
        return true;
      }
      if (g.pan !== null) {
        session.panBy(p.x - g.pan.x, p.y - g.pan.y);
        g.pan = p;
        return true;
      }
      return false;
    },
    up(e: ReactPointerEvent<HTMLCanvasElement>): boolean {
      g.pointers.delete(e.pointerId);
      const took = g.pan !== null || g.pinch !== null;
      if (g.pointers.size < 2) g.pinch = null;
      g.pan = null;
      return took;
    },
  };
}

interface VideoStageProps {
  session: EditorSession;
  /** The displayed size, for the panels (table height = video height - 52 - 16). */
  onResize(size: FittedVideo): void;
}

/**
 * The video fitted to the container width (capped at its native width, height in proportion) with the
 * detection overlay canvas exactly over it. Pointer events go to the core's tool machine.
 */
export function VideoStage({ session, onResize }: VideoStageProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState<FittedVideo>({ width: 0, height: 0, scale: 1 });
  const { videoReady, loadingDetections } = useStore(session.playback);
  const view = useStore(session.zoom);
  const gesture = useGesture(session);
  usePanelVersion(session);
  const drawing = session.editor.videoMode === 'NEW_DETECTION';
  const { video } = session;
  // The signed path of the first answer: a refetched video (new signature) must not reload the element.
  const [source] = useState(() => ({
    src: video.video_file,
    type: videoMimeType(video.file_name || video.video_file),
  }));

  useLayoutEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    const measure = () => {
      const fitted = fitVideo(el.clientWidth, video.width, video.height);
      setSize((prev) => (prev.width === fitted.width && prev.height === fitted.height ? prev : fitted));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [video.width, video.height]);

  useEffect(() => {
    session.attachVideo(videoRef.current);
    session.attachCanvas(canvasRef.current);
    return () => {
      session.attachVideo(null);
      session.attachCanvas(null);
    };
  }, [session]);

  useLayoutEffect(() => {
    if (size.width > 0) session.setViewport(size.width, size.height, size.scale);
    onResize(size);
  }, [session, size, onResize]);

  // Wheel (and a trackpad pinch, which Chromium sends as Ctrl+wheel) zooms around the pointer. A
  // non-passive listener: React's onWheel is passive, so it could not keep the page from scrolling.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      session.zoomAt(wheelZoomFactor(e.deltaY), e.offsetX, e.offsetY);
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, [session]);

  const canvas = canvasRef.current;
  const setCursor = (x: number, y: number) => {
    if (canvas) canvas.style.cursor = session.editor.cursorAt(x, y);
  };

  return (
    <Box ref={containerRef} sx={{ width: '100%' }}>
      <Box
        sx={{
          position: 'relative',
          width: size.width || '100%',
          height: size.height || 240,
          bgcolor: '#000',
          borderRadius: 1,
          overflow: 'hidden',
          mx: 'auto',
        }}
      >
        <video
          ref={videoRef}
          preload="auto"
          playsInline
          muted
          aria-label={`Video ${video.name}`}
          style={{
            position: 'absolute',
            inset: 0,
            width: '100%',
            height: '100%',
            display: 'block',
            transformOrigin: '0 0',
            transform:
              view.zoom === 1 ? undefined : `translate(${view.panX}px, ${view.panY}px) scale(${view.zoom})`,
          }}
        >
          <source src={source.src} type={source.type} />
        </video>
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={drawing ? 'Drawing a new detection' : 'Detection overlay'}
          style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', touchAction: 'none' }}
          data-zoom={view.zoom}
          data-pan-x={view.panX}
          data-pan-y={view.panY}
          onPointerDown={(e) => {
            e.currentTarget.setPointerCapture(e.pointerId);
            if (gesture.down(e)) return;
            session.editor.pointerDown(pointer(e));
            session.scheduleRender();
          }}
          onPointerMove={(e) => {
            if (gesture.move(e)) return;
            session.editor.pointerMove(pointer(e));
            setCursor(e.nativeEvent.offsetX, e.nativeEvent.offsetY);
            if (drawing || session.editor.toolState !== 'idle') session.scheduleRender();
          }}
          onPointerUp={(e) => {
            if (gesture.up(e)) return;
            session.editor.pointerUp(pointer(e));
            session.scheduleRender();
          }}
          onPointerCancel={(e) => {
            gesture.up(e);
            session.editor.pointerCancel();
            session.scheduleRender();
          }}
        />
        {!videoReady && (
          <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', color: '#fff' }}>
            <Typography>Loading video..</Typography>
          </Box>
        )}
        {loadingDetections && (
          <Box
            role="progressbar"
            aria-label="Loading detections"
            sx={{
              position: 'absolute',
              inset: 0,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 1.5,
              color: '#fff',
              bgcolor: 'rgba(0, 0, 0, 0.35)',
              pointerEvents: 'none',
            }}
          >
            <CircularProgress size={22} color="inherit" />
            <Typography variant="body2">Loading detections</Typography>
          </Box>
        )}
        {drawing && (
          <Typography
            variant="caption"
            sx={{
              position: 'absolute',
              top: 8,
              left: 8,
              px: 1,
              py: 0.25,
              borderRadius: 1,
              color: '#fff',
              bgcolor: 'rgba(198, 40, 40, 0.85)',
              pointerEvents: 'none',
            }}
          >
            Click the four corners of the logo · Esc cancels
          </Typography>
        )}
      </Box>
    </Box>
  );
}
