/** Offset <-> line/character conversion for texts that are not open LSP documents (CLI, cross-file spans). */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
    }
  }
  /** 0-based line and character (UTF-16 code units, as LSP). */
  position(offset: number): { line: number; character: number } {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }
  offset(line: number, character: number): number {
    if (line >= this.starts.length) return this.text.length;
    return Math.min(this.starts[Math.max(0, line)] + character, this.text.length);
  }
}
