/**
 * Every JSON-RPC message between the client and one server, both ways, as the transport carried it: requests,
 * responses, notifications, the server's requests and our replies. Fed by the session's transport tap (session.ts,
 * tapMessages), so nothing is re-derived from what the SDK chose to surface. vscode-free.
 *
 * Bounded: the last MAX_ENTRIES messages are kept, and a message longer than MAX_PAYLOAD_CHARS keeps its head only
 * (its full size is recorded). Text is masked (the launch's secrets) before it is stored.
 */
import { EventEmitter } from 'node:events';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

export const TIMELINE_MAX_ENTRIES = 1000;
/** 1,000 × 32 K characters: about 32 MB of text at worst (measured 31.6 MB for 1,000 cut 200 KB answers, docs/playground.md). */
export const TIMELINE_MAX_PAYLOAD_CHARS = 32 * 1024;

/** out: client → server; in: server → client. */
export type TimelineDirection = 'out' | 'in';
export type TimelineKind = 'request' | 'response' | 'error' | 'notification';

export interface TimelineEntry {
  /** Increasing over the session's life (restarts included): the webview's and replay's handle on an entry. */
  seq: number;
  /** Epoch ms when the message was sent or received. */
  at: number;
  direction: TimelineDirection;
  kind: TimelineKind;
  /** The request's or notification's method; for a response, the method of the request it answers (when seen). */
  method?: string;
  id?: string | number;
  /** On a response: ms since its request (same id, other direction). */
  durationMs?: number;
  /** On a request that got its response: the seq of that response. */
  answeredBy?: number;
  /** Length of the whole message as JSON text. */
  chars: number;
  /** The message as JSON, masked; cut to TIMELINE_MAX_PAYLOAD_CHARS (then `cut` is true). */
  text: string;
  cut?: boolean;
  /** A client → server request small enough to be kept whole: its params, to send it again (replay). Unmasked, host only. */
  params?: Record<string, unknown>;
  /**
   * Part of the protocol-version probe the SDK runs before connecting (`server/discover`): 'sibling' on stdio, where
   * it runs on a short-lived second process of the server; 'in-place' over HTTP, on the connection itself.
   */
  probe?: 'sibling' | 'in-place';
}

export interface TimelineEvents {
  entry: [TimelineEntry];
  /** A request's entry got its response (durationMs known): the entry is the request's. */
  answered: [TimelineEntry];
}

export class Timeline extends EventEmitter<TimelineEvents> {
  private readonly items: TimelineEntry[] = [];
  private seq = 0;
  /** Requests waiting for their response, by "<direction of the request>:<id>". */
  private readonly open = new Map<string, TimelineEntry>();
  /** How many entries were dropped off the front (the cap). */
  dropped = 0;

  constructor(
    private readonly mask: (text: string) => string = (t) => t,
    readonly maxEntries = TIMELINE_MAX_ENTRIES,
    readonly maxPayloadChars = TIMELINE_MAX_PAYLOAD_CHARS,
  ) {
    super();
  }

  get entries(): readonly TimelineEntry[] {
    return this.items;
  }

  find(seq: number): TimelineEntry | undefined {
    return this.items.find((e) => e.seq === seq);
  }

  /** A new connection: ids start over, so requests still open can never be answered. */
  reset(): void {
    this.open.clear();
  }

  clear(): void {
    this.items.length = 0;
    this.open.clear();
    this.dropped = 0;
  }

  record(direction: TimelineDirection, message: JSONRPCMessage, at = Date.now(), probe?: TimelineEntry['probe']): TimelineEntry {
    const m = message as { id?: string | number; method?: string; params?: Record<string, unknown>; error?: unknown };
    const kind: TimelineKind = m.method !== undefined ? (m.id !== undefined ? 'request' : 'notification') : m.error !== undefined ? 'error' : 'response';
    let full: string;
    try {
      full = JSON.stringify(message);
    } catch {
      full = String(message);
    }
    const cut = full.length > this.maxPayloadChars;
    const entry: TimelineEntry = {
      seq: ++this.seq,
      at,
      direction,
      kind,
      method: m.method,
      id: m.id,
      chars: full.length,
      // A slice of a string keeps the whole string alive in V8: the head is copied, so a cut 20 MB answer costs 32 K.
      text: this.mask(cut ? Buffer.from(full.slice(0, this.maxPayloadChars), 'utf8').toString('utf8') : full),
      ...(cut ? { cut: true } : {}),
      ...(probe ? { probe } : {}),
    };
    // A probe went to the sibling process (or before the session): it is not sent again.
    if (kind === 'request' && direction === 'out' && !cut && !probe) entry.params = m.params ?? {};
    if (kind === 'request' && m.id !== undefined) this.open.set(`${direction}:${m.id}`, entry);
    let req: TimelineEntry | undefined;
    if ((kind === 'response' || kind === 'error') && m.id !== undefined) {
      const key = `${direction === 'in' ? 'out' : 'in'}:${m.id}`;
      req = this.open.get(key);
      if (req) {
        this.open.delete(key);
        entry.method = req.method;
        entry.durationMs = at - req.at;
        req.durationMs = entry.durationMs;
        req.answeredBy = entry.seq;
      }
    }
    this.items.push(entry);
    if (this.items.length > this.maxEntries) {
      const gone = this.items.splice(0, this.items.length - this.maxEntries);
      this.dropped += gone.length;
      for (const g of gone) if (g.kind === 'request' && g.id !== undefined) this.open.delete(`${g.direction}:${g.id}`);
    }
    this.emit('entry', entry);
    if (req) this.emit('answered', req);
    return entry;
  }
}
