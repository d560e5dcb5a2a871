import { createStore } from './create-store';

/** Local-storage key of the last selected video id (spec section 3), shared with the editor. */
export const VIDEO_KEY = 'VIDEO';

function read(): number | null {
  try {
    const raw = localStorage.getItem(VIDEO_KEY);
    const id = raw === null ? NaN : Number(raw);
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/** The video the editor opens; the header shows 'Editor: {video name}' for it. */
export const selectedVideoStore = createStore<number | null>(read());

export function selectVideo(id: number | null): void {
  // The editor's saved position (TIME) belongs to the previous video.
  if (id !== selectedVideoStore.get()) localStorage.removeItem('TIME');
  if (id === null) localStorage.removeItem(VIDEO_KEY);
  else localStorage.setItem(VIDEO_KEY, String(id));
  selectedVideoStore.set(id);
}
