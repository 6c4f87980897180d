/**
 * The Timeline section of the playground: every JSON-RPC message between the client and the server, both ways, with
 * its time and (for a request and its response) how long the answer took. Filtered by method, direction and text; a
 * request the client sent can be sent again (Replay); the whole list exported as JSON by the host. Messages are data:
 * shown through textContent only.
 */
import type { HostToWebview, TimelineEntryView, WebviewToHost } from '../../../common/playground-messages';
import { button, h } from '../form/dom';

type TimelineMessage = Extract<HostToWebview, { type: 'timeline' }>;

function time(at: number): string {
  const d = new Date(at);
  return `${d.toLocaleTimeString('en-GB', { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

function size(chars: number): string {
  return chars >= 1024 * 1024 ? `${(chars / 1048576).toFixed(1)} MB` : chars >= 1024 ? `${(chars / 1024).toFixed(1)} KB` : `${chars} B`;
}

function pretty(e: TimelineEntryView): string {
  if (e.cut) return `${e.text}\n… (cut: ${e.chars.toLocaleString('en')} characters in all)`;
  try {
    return JSON.stringify(JSON.parse(e.text), null, 2);
  } catch {
    return e.text;
  }
}

export class TimelineView {
  private readonly rows = new Map<number, { li: HTMLElement; entry: TimelineEntryView }>();
  private readonly list = h('ol', { class: 'timeline-list', 'aria-label': 'JSON-RPC messages' });
  private readonly bounds = h('div', { class: 'note timeline-bounds' });
  private readonly outcome = h('div', { class: 'timeline-outcome', 'aria-live': 'polite' });
  private readonly methodFilter = h('vscode-textfield', { class: 'timeline-method', placeholder: 'method', 'aria-label': 'Filter by method' }) as HTMLElement & { value: string };
  private readonly textFilter = h('vscode-textfield', { class: 'timeline-text', placeholder: 'text in the message', 'aria-label': 'Filter by text' }) as HTMLElement & { value: string };
  private readonly directionFilter = h(
    'vscode-single-select',
    { class: 'timeline-direction', 'aria-label': 'Filter by direction' },
    h('vscode-option', { value: 'all' }, 'both ways'),
    h('vscode-option', { value: 'out' }, 'client → server'),
    h('vscode-option', { value: 'in' }, 'server → client'),
  ) as HTMLElement & { value: string };
  private maxEntries = 1000;
  readonly count = h('span', { class: 'timeline-count' });

  constructor(
    readonly el: HTMLElement,
    private readonly post: (m: WebviewToHost) => void,
  ) {
    el.append(
      h(
        'div',
        { class: 'timeline-tools row' },
        this.methodFilter,
        this.directionFilter,
        this.textFilter,
        button('Export JSON…', () => this.post({ type: 'exportTimeline' }), { secondary: true, name: 'export-timeline', title: 'Save the timeline as JSON (secrets masked)' }),
        button('Clear', () => this.post({ type: 'clearTimeline' }), { secondary: true, name: 'clear-timeline' }),
      ),
      this.bounds,
      this.outcome,
      this.list,
    );
    for (const f of [this.methodFilter, this.textFilter]) f.addEventListener('input', () => this.applyFilter());
    this.directionFilter.addEventListener('change', () => this.applyFilter());
  }

  onTimeline(m: TimelineMessage): void {
    this.maxEntries = m.maxEntries;
    if (m.reset) {
      this.rows.clear();
      this.list.replaceChildren();
      this.outcome.replaceChildren();
    }
    for (const e of m.entries) {
      const row = this.rows.get(e.seq);
      if (row) {
        row.entry = e;
        this.fillRow(row.li, e);
      } else {
        const li = h('li', {});
        this.fillRow(li, e);
        this.rows.set(e.seq, { li, entry: e });
        this.list.append(li);
      }
    }
    for (const [seq, row] of this.rows) {
      if (this.rows.size <= this.maxEntries) break;
      row.li.remove();
      this.rows.delete(seq);
    }
    this.bounds.textContent =
      `Keeps the last ${m.maxEntries.toLocaleString('en')} messages; a message longer than ${m.maxPayloadChars.toLocaleString('en')} characters keeps its head only (its size is shown).` +
      (m.dropped ? ` ${m.dropped.toLocaleString('en')} older messages were dropped.` : '');
    this.count.textContent = ` (${this.rows.size.toLocaleString('en')})`;
    this.applyFilter();
  }

  onReplayed(m: Extract<HostToWebview, { type: 'replayed' }>): void {
    this.outcome.replaceChildren(
      h(
        'div',
        { class: `replayed ${m.error ? 'error' : 'ok'}`, 'data-seq': String(m.seq) },
        h('strong', {}, `Replay of #${m.seq}: `),
        m.error ? m.error : 'answered',
        m.result !== undefined ? h('pre', {}, m.result) : undefined,
      ),
    );
  }

  onExported(m: Extract<HostToWebview, { type: 'timelineExported' }>): void {
    if (m.error) this.outcome.replaceChildren(h('div', { class: 'error' }, `Export failed: ${m.error}`));
    else if (m.file) this.outcome.replaceChildren(h('div', { class: 'note' }, `Exported to ${m.file}`));
  }

  private fillRow(li: HTMLElement, e: TimelineEntryView): void {
    const wasOpen = li.querySelector('details')?.open ?? false;
    li.className = `tl-entry dir-${e.direction} kind-${e.kind}`;
    li.dataset.seq = String(e.seq);
    li.dataset.direction = e.direction;
    li.dataset.method = e.method ?? '';
    const pre = h('pre', {});
    const details = h(
      'details',
      {},
      h(
        'summary',
        {},
        h('span', { class: 'when' }, time(e.at)),
        h('span', { class: 'arrow', title: e.direction === 'out' ? 'client → server' : 'server → client' }, e.direction === 'out' ? '→' : '←'),
        h('span', { class: 'tl-kind' }, e.kind),
        h('code', { class: 'tl-method' }, e.method ?? '(unknown request)'),
        e.id !== undefined ? h('span', { class: 'tl-id' }, `#${String(e.id)}`) : '',
        e.durationMs !== undefined ? h('span', { class: 'duration' }, `${Math.round(e.durationMs).toLocaleString('en')} ms`) : '',
        h('span', { class: 'size' }, size(e.chars)),
        e.probe
          ? h(
              'span',
              {
                class: 'tl-probe',
                title:
                  e.probe === 'sibling'
                    ? 'The protocol-version probe, sent to a short-lived second process of the server before this connection started'
                    : 'The protocol-version probe, sent on this connection before the session started',
              },
              e.probe === 'sibling' ? 'version probe · 2nd process' : 'version probe',
            )
          : '',
        e.cut ? h('span', { class: 'cut', title: `cut to the first characters of ${e.chars.toLocaleString('en')}` }, 'cut') : '',
      ),
      pre,
    );
    // The JSON is pretty-printed when first opened (a thousand big messages cost nothing until looked at).
    const fill = () => details.open && !pre.textContent && (pre.textContent = pretty(e));
    details.addEventListener('toggle', fill);
    details.open = wasOpen;
    fill();
    li.replaceChildren(
      details,
      e.replayable ? button('Replay', () => this.post({ type: 'replay', seq: e.seq }), { secondary: true, name: 'replay', title: 'Send this request again (same params, a new id)' }) : '',
    );
  }

  private applyFilter(): void {
    const method = this.methodFilter.value?.trim().toLowerCase() ?? '';
    const text = this.textFilter.value?.trim().toLowerCase() ?? '';
    const dir = this.directionFilter.value || 'all';
    for (const { li, entry } of this.rows.values()) {
      li.hidden = (dir !== 'all' && entry.direction !== dir) || (method !== '' && !(entry.method ?? '').toLowerCase().includes(method)) || (text !== '' && !entry.text.toLowerCase().includes(text));
    }
  }
}
