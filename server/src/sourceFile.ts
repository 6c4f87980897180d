/**
 * Reading a workspace source file without trusting it: a checked-out repository may hold a FIFO, a symlink to
 * /dev/zero or a 100 MB generated file under a `.ts` or `.py` name. Only regular files (a symlink counts when it
 * resolves to one) of at most `maxBytes` are read; anything else is a skip with a reason the CLI and the language
 * server can show. The file is opened non-blocking and checked on the open descriptor, so a FIFO never blocks and a
 * file swapped between the check and the read is still refused.
 */
import * as fs from 'node:fs';

/** Larger source files are not analysed (a generated bundle, not a tool definition); the CLI can raise it. */
export const MAX_SOURCE_BYTES = 1024 * 1024;
/**
 * `toolsmith contract`'s limit for the entry it is given and the modules it runs: a published server is often one
 * bundle of 1–5 MiB (launchdarkly, notion, sentry, nx-mcp), and the author asked for that server. The language
 * server and `check` keep MAX_SOURCE_BYTES (generated files met while scanning a workspace).
 */
export const CONTRACT_MAX_BYTES = 8 * 1024 * 1024;

export type SourceRead =
  | { ok: true; text: string; /** The file began with a UTF-8 byte order mark, removed from `text` (as editors do). */ bom: boolean }
  | { ok: false; reason: 'missing' | 'not-regular' | 'too-large' | 'unreadable'; message: string };

const BOM = 0xfeff;

function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) ? 1 : 0)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}

function decode(buf: Buffer): { text: string; bom: boolean } {
  const text = buf.toString('utf8');
  return text.charCodeAt(0) === BOM ? { text: text.slice(1), bom: true } : { text, bom: false };
}

function openFailure(err: unknown): SourceRead {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' ? { ok: false, reason: 'missing', message: 'no such file' } : { ok: false, reason: 'unreadable', message: `cannot open it (${code ?? String(err)})` };
}

const readFailure = (err: unknown): SourceRead => ({ ok: false, reason: 'unreadable', message: `cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})` });

/** Refuses what the descriptor's stat says is not a regular file of at most maxBytes; else the buffer to read into. */
function bufferFor(st: fs.Stats, maxBytes: number): SourceRead | Buffer {
  if (!st.isFile()) return { ok: false, reason: 'not-regular', message: `${kindOf(st)}, not a regular file` };
  if (st.size > maxBytes) return { ok: false, reason: 'too-large', message: `${formatBytes(st.size)}, larger than the ${formatBytes(maxBytes)} limit` };
  // One byte past the limit: a file that grows while it is read is still bounded, and caught.
  return Buffer.allocUnsafe(Math.min(st.size, maxBytes) + 1);
}

function finish(buf: Buffer, filled: number, maxBytes: number): SourceRead {
  if (filled > maxBytes) return { ok: false, reason: 'too-large', message: `larger than the ${formatBytes(maxBytes)} limit` };
  return { ok: true, ...decode(buf.subarray(0, filled)) };
}

export function readSourceFileSync(file: string, maxBytes = MAX_SOURCE_BYTES): SourceRead {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    return openFailure(err);
  }
  try {
    const buf = bufferFor(fs.fstatSync(fd), maxBytes);
    if (!Buffer.isBuffer(buf)) return buf;
    let filled = 0;
    while (filled < buf.length) {
      const n = fs.readSync(fd, buf, filled, buf.length - filled, null);
      if (n === 0) break;
      filled += n;
    }
    return finish(buf, filled, maxBytes);
  } catch (err) {
    return readFailure(err);
  } finally {
    fs.closeSync(fd);
  }
}

export async function readSourceFile(file: string, maxBytes = MAX_SOURCE_BYTES): Promise<SourceRead> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    return openFailure(err);
  }
  try {
    const buf = bufferFor(await handle.stat(), maxBytes);
    if (!Buffer.isBuffer(buf)) return buf;
    let filled = 0;
    while (filled < buf.length) {
      const { bytesRead } = await handle.read(buf, filled, buf.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return finish(buf, filled, maxBytes);
  } catch (err) {
    return readFailure(err);
  } finally {
    await handle.close();
  }
}
