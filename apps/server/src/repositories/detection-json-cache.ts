/**
 * Each detection's JSON (the Detection schema, as the database builds it) kept in the API process
 * for the editor's window query, which reviewers call for every 10 s of video they play: building
 * JSON for the ~1,300 detections of a busy window costs PostgreSQL about 35 ms of its 55, while
 * finding which detections lie in the window costs about 5.
 *
 * An entry is valid for one version of its rows: the `xmin` of the detection's row, of its
 * placement's and of its reviewer's (PostgreSQL writes a new row version with a new `xmin` on
 * every UPDATE, whoever makes it), so a change made by any process, through any code path, is
 * never served stale. Bounded by bytes, least recently used first out.
 *
 * Entries are UTF-8 bytes, not strings: a window is then answered by copying bytes together, where a
 * 1.5 MB string had to be encoded again for every answer (the route's CPU for a window of 1,325
 * detections: 5.9 ms as a string, 1.0 ms as bytes, side by side in bench/load/window-bytes.ts), and
 * the bytes live outside V8's heap, so they add nothing to its garbage collections.
 */
export class DetectionJsonCache {
  private readonly entries = new Map<number, { version: string; json: Buffer }>();
  private size = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  /** The JSON of detection `id` at `version`, or undefined (counted as a miss). */
  get(id: number, version: string): Buffer | undefined {
    const e = this.entries.get(id);
    if (!e || e.version !== version) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // most recently used last
    this.entries.delete(id);
    this.entries.set(id, e);
    return e.json;
  }

  set(id: number, version: string, json: Buffer): void {
    const old = this.entries.get(id);
    if (old) {
      this.size -= cost(old.json);
      this.entries.delete(id);
    }
    if (cost(json) > this.maxBytes) return;
    this.entries.set(id, { version, json });
    this.size += cost(json);
    for (const [key, e] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(key);
      this.size -= cost(e.json);
    }
  }

  /** Bytes held (the JSON's bytes plus the entry). */
  get bytes(): number {
    return this.size;
  }

  get count(): number {
    return this.entries.size;
  }
}

const cost = (json: Buffer) => json.length + 64;

const [OPEN, SEPARATOR, CLOSE] = ['[', ', ', ']'].map((x) => Buffer.from(x));

/**
 * A JSON array of elements given as bytes, with json_agg's separator between them: the same bytes
 * as the database's own array of them.
 */
export function jsonArray(elements: readonly Buffer[]): Buffer {
  const out: Buffer[] = [OPEN];
  for (const e of elements) {
    if (out.length > 1) out.push(SEPARATOR);
    out.push(e);
  }
  out.push(CLOSE);
  return Buffer.concat(out);
}
