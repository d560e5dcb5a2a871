/** A one-line progress bar on stderr (redrawn in place on a TTY, printed every 10% otherwise). */
export class ProgressBar {
  private lastPct = -1;
  private readonly tty = Boolean(process.stderr.isTTY);
  constructor(private label: string) {}

  setLabel(label: string): void {
    this.label = label;
    this.lastPct = -1;
  }

  update(fraction: number): void {
    const pct = Math.max(0, Math.min(100, Math.floor(fraction * 100)));
    if (pct === this.lastPct) return;
    if (!this.tty && pct % 10 !== 0 && pct !== 100) return;
    this.lastPct = pct;
    const width = 30;
    const full = Math.round((pct / 100) * width);
    const line = `${this.label} [${'#'.repeat(full)}${'-'.repeat(width - full)}] ${String(pct).padStart(3)}%`;
    process.stderr.write(this.tty ? `\r${line}\x1b[K` : `${line}\n`);
  }

  done(): void {
    this.update(1);
    if (this.tty) process.stderr.write('\n');
  }
}
