/**
 * Offset <-> line/character conversion for texts that are not open LSP documents (CLI, cross-file spans). Lines end
 * at \n, \r\n or a lone \r, as LSP and editors count them (old Mac files use \r alone).
 */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) this.starts.push(i + 1);
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
  /** Offset of a 0-based position; a character past the end of its line is clamped to the line end (as LSP says). */
  offset(line: number, character: number): number {
    if (line >= this.starts.length) return this.text.length;
    const start = this.starts[Math.max(0, line)];
    const next = line + 1 < this.starts.length ? this.starts[line + 1] : this.text.length + 1;
    // The line's text ends before its terminator: \n, \r, or the \r of \r\n.
    let lineEnd = next - 1;
    if (lineEnd > start && this.text.charCodeAt(lineEnd) === 10 && this.text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
    return Math.min(start + Math.max(0, character), Math.max(start, Math.min(lineEnd, this.text.length)));
  }
  get lineCount(): number {
    return this.starts.length;
  }
}
