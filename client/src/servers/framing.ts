/**
 * Line framing of a server's stdout and stderr, linear in the bytes read.
 *
 * The SDK's stdio ReadBuffer concatenates its whole buffer with every chunk and rescans it from the start for a
 * newline, so one 100 MB message costs O(n²) (77 s measured) and blocks the extension host meanwhile; it also drops
 * a line that is not JSON without a word. StdioFramer keeps the chunks of the line being read in a list, scans each
 * chunk once, and joins them once when the line ends. It is put in place of the transport's ReadBuffer (same
 * append / readMessage / clear shape), so the SDK's transport, process handling and negotiation stay the SDK's.
 */
import { deserializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';

export class StdioFramer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly ready: JSONRPCMessage[] = [];

  constructor(
    private readonly maxMessageBytes: number,
    /** A complete stdout line that is not a JSON-RPC message (a print() or console.log on stdout). */
    private readonly onJunk: (line: string, why: string) => void,
  ) {}

  append(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.pending.push(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxMessageBytes) {
        this.clear();
        throw new Error(`a single stdout message exceeded ${Math.round(this.maxMessageBytes / 1024 / 1024)} MB`);
      }
      this.pending.push(chunk.subarray(start));
    }
  }

  private endLine(): void {
    const line = (this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending)).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    if (line.trim() === '') return;
    try {
      this.ready.push(deserializeMessage(line));
    } catch (err) {
      const why = err instanceof SyntaxError ? 'not JSON' : 'JSON, but not a JSON-RPC message';
      this.onJunk(line.length > 200 ? `${line.slice(0, 200)}…` : line, why);
    }
  }

  /** The next complete message, or null (the transport's ReadBuffer contract). */
  readMessage(): JSONRPCMessage | null {
    return this.ready.shift() ?? null;
  }

  clear(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.ready.length = 0;
  }
}

/**
 * stderr as lines, bounded: `\r` (a progress bar redrawing its line) keeps only what follows it, and a line longer
 * than maxLineChars keeps its head and its last characters, so 30 MB of progress never sits in memory.
 */
export class StderrLines {
  private partial = '';
  private truncated = false;

  constructor(private readonly maxLineChars = 16 * 1024) {}

  /** The complete lines in `text` (with what came before it). */
  push(text: string): string[] {
    const out: string[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a) {
        this.add(text.slice(start, i));
        out.push(this.take());
        start = i + 1;
      } else if (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a) {
        // A redraw: what the line said so far is overwritten.
        this.partial = '';
        this.truncated = false;
        start = i + 1;
      } else if (c === 0x0d) {
        this.add(text.slice(start, i));
        start = i + 1; // the \n that follows ends the line
      }
    }
    this.add(text.slice(start));
    return out;
  }

  private add(piece: string): void {
    if (!piece) return;
    if (this.partial.length + piece.length <= this.maxLineChars) {
      this.partial += piece;
      return;
    }
    // Keep the head and the latest tail (both bounded: partial never exceeds maxLineChars).
    const head = this.maxLineChars / 2;
    this.partial = this.partial.slice(0, head) + (this.partial.slice(head) + piece.slice(-head)).slice(-head);
    this.truncated = true;
  }

  private take(): string {
    const head = this.maxLineChars / 2;
    const line = this.truncated ? `${this.partial.slice(0, head)} … (line cut) … ${this.partial.slice(head)}` : this.partial;
    this.partial = '';
    this.truncated = false;
    return line;
  }
}
