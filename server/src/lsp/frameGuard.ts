/**
 * Keeps the language server listening when a client sends a message that breaks the base protocol's framing. The
 * LSP stream is `Content-Length: N\r\n...\r\n\r\n` + N bytes; vscode-jsonrpc's reader stops reading for good on a
 * header without Content-Length (the server stays alive but deaf). This guard sits between stdin and that reader: it
 * forwards well-framed messages untouched and drops a broken one up to the next `Content-Length:` header, saying so.
 * It only splits the stream at frame boundaries; the messages themselves are still read by vscode-jsonrpc.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter, type Connection } from 'vscode-languageserver/node';

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /^content-length:\s*(\d+)\s*$/im;
/** A header block longer than this is no header: resynchronise. */
const MAX_HEADER_BYTES = 8 * 1024;
/** A message larger than this is refused (a 64 MB document is not one a person edits). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export class FrameGuard extends Transform {
  private buffer: Buffer = Buffer.alloc(0);
  /** Body bytes still to forward for the message whose header was forwarded. */
  private bodyLeft = 0;

  constructor(private readonly report: (message: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let data: Buffer = chunk;
    while (data.length) {
      if (this.bodyLeft > 0) {
        const n = Math.min(this.bodyLeft, data.length);
        this.push(data.subarray(0, n));
        this.bodyLeft -= n;
        data = data.subarray(n);
        continue;
      }
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, data]) : data;
      data = Buffer.alloc(0);
      this.drainHeaders();
    }
    done();
  }

  /** Forwards every complete message in the buffer (a partial body then flows through bodyLeft), or drops broken ones. */
  private drainHeaders(): void {
    while (this.buffer.length && this.bodyLeft === 0) {
      const end = this.buffer.indexOf(HEADER_END);
      if (end < 0) {
        if (this.buffer.length > MAX_HEADER_BYTES) this.resync(`a header of over ${MAX_HEADER_BYTES} bytes without its blank line`);
        return;
      }
      const header = this.buffer.subarray(0, end).toString('ascii');
      const m = CONTENT_LENGTH.exec(header);
      if (!m) {
        this.resync('a message header without Content-Length');
        continue;
      }
      const length = Number(m[1]);
      if (length > MAX_MESSAGE_BYTES) {
        this.resync(`a message of ${length} bytes, over the ${MAX_MESSAGE_BYTES}-byte limit`);
        continue;
      }
      const frameStart = end + HEADER_END.length;
      // The header and whatever of its body is here; the rest of the body flows through bodyLeft.
      const available = Math.min(length, this.buffer.length - frameStart);
      this.push(this.buffer.subarray(0, frameStart + available));
      this.bodyLeft = length - available;
      this.buffer = this.buffer.subarray(frameStart + available);
    }
  }

  /** Drops bytes up to the next Content-Length header after the start of the broken one. */
  private resync(why: string): void {
    const next = this.buffer.indexOf('Content-Length:', 1, 'ascii');
    const dropped = next < 0 ? this.buffer.length : next;
    this.report(`dropped ${dropped} bytes from the client: ${why}; reading on from the next message`);
    this.buffer = next < 0 ? Buffer.alloc(0) : this.buffer.subarray(next);
  }
}

/**
 * The server's connection. Over stdio (how VS Code starts it) stdin goes through a FrameGuard first; the other
 * transports (--node-ipc, sockets) carry whole messages and are left to vscode-languageserver.
 */
export function createGuardedConnection(): Connection {
  if (!process.argv.includes('--stdio')) return createConnection(ProposedFeatures.all);
  const guard = new FrameGuard((message) => connection.console.warn(message));
  process.stdin.pipe(guard);
  // The guard reports only while reading, after the connection below exists.
  const connection = createConnection(ProposedFeatures.all, new StreamMessageReader(guard), new StreamMessageWriter(process.stdout));
  return connection;
}
