/**
 * One undoable change. `undo` and `redo` send the inverse or the change again (to the server, then the
 * model); they may be async. A rejected promise means the step did not happen.
 */
export interface UndoEntry {
  /** What the step did, for the status line ("True positive", "Move", ...). */
  label: string;
  undo(): Promise<void> | void;
  redo(): Promise<void> | void;
}

/**
 * Undo and redo of the editor's changes (issue 17, item 5), one stack per opened video. Steps run one at a
 * time in the order asked (a key held down queues them), so an undo never overtakes the one before it. A
 * step that fails stays where it was, and the error reaches the caller. The oldest steps fall off beyond
 * `depth`; a new change clears the redo side.
 */
export class UndoStack<E extends UndoEntry = UndoEntry> {
  private readonly done: E[] = [];
  private readonly undone: E[] = [];
  private chain: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<() => void>();

  constructor(readonly depth = 100) {
    if (!(depth >= 1)) throw new RangeError('depth must be at least 1');
  }

  /** Records a change that already happened. */
  push(entry: E): void {
    this.done.push(entry);
    if (this.done.length > this.depth) this.done.splice(0, this.done.length - this.depth);
    this.undone.length = 0;
    this.emit();
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** Steps that can be undone. */
  get size(): number {
    return this.done.length;
  }

  /** The label of the step the next undo reverts, or null. */
  get undoLabel(): string | null {
    return this.done.at(-1)?.label ?? null;
  }

  get redoLabel(): string | null {
    return this.undone.at(-1)?.label ?? null;
  }

  /** Undoes the latest step; resolves with it, or null when there was nothing to undo. */
  undo(): Promise<E | null> {
    return this.run(this.done, this.undone, (e) => e.undo());
  }

  /** Redoes the latest undone step; resolves with it, or null. */
  redo(): Promise<E | null> {
    return this.run(this.undone, this.done, (e) => e.redo());
  }

  clear(): void {
    this.done.length = 0;
    this.undone.length = 0;
    this.emit();
  }

  /** Called after every change of the stacks; returns the unsubscribe function. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private run(from: E[], to: E[], step: (e: E) => Promise<void> | void): Promise<E | null> {
    const next = this.chain.then(async () => {
      const entry = from.pop();
      if (entry === undefined) return null;
      try {
        await step(entry);
      } catch (error) {
        from.push(entry);
        throw error;
      }
      to.push(entry);
      this.emit();
      return entry;
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  private emit(): void {
    for (const fn of this.listeners) fn();
  }
}
