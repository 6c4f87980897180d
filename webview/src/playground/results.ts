/**
 * Renders a tool call's outcome. Tool output is data, never markup: every string goes through textContent
 * (or a data: URL for images/audio), so a result full of HTML and script shows up as text.
 */
import type { ContentView, ResultView, Violation } from '../../../common/playground-messages';
import { button, h } from '../form/dom';

export interface ResultActions {
  copy(text: string): void;
  readResource(uri: string): void;
  /** Saves a binary resource blob kept by the host (ContentView.blobId). */
  saveBlob?(blobId: string): void;
}

/** The time of day a result was produced, to the second. */
export function clock(at: number): string {
  return new Date(at).toLocaleTimeString('en-GB', { hour12: false });
}

/** A block's annotations (audience, priority, lastModified) as small tags, or nothing. */
function annotationTags(c: ContentView): HTMLElement | undefined {
  const a = c.annotations;
  if (!a) return undefined;
  const tags: HTMLElement[] = [];
  if (a.audience?.length) tags.push(h('span', { class: 'annotation audience', title: 'annotations.audience: who this block is for' }, `for ${a.audience.join(' & ')}`));
  if (a.priority !== undefined) tags.push(h('span', { class: 'annotation priority', title: 'annotations.priority: 1 = most important, 0 = optional' }, `priority ${a.priority}`));
  if (a.lastModified) tags.push(h('span', { class: 'annotation modified', title: 'annotations.lastModified' }, `modified ${a.lastModified}`));
  return h('span', { class: 'annotations' }, ...tags);
}

function pretty(text: string): string {
  const t = text.trim();
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
    try {
      return JSON.stringify(JSON.parse(t), null, 2);
    } catch {
      /* not JSON after all */
    }
  }
  return text;
}

function copyButton(actions: ResultActions, text: () => string, what: string): HTMLElement {
  return button('Copy', () => actions.copy(text()), { secondary: true, title: `Copy ${what}`, name: 'copy' });
}

function truncNote(shown: number, total?: number): HTMLElement | undefined {
  return total ? h('div', { class: 'note' }, `Showing the first ${shown.toLocaleString('en')} of ${total.toLocaleString('en')} characters.`) : undefined;
}

/** One content block (of a tool result or a prompt message), rendered as data. */
export function renderContent(c: ContentView, actions: ResultActions): HTMLElement {
  return block(c, actions);
}

/** The contents of a resources/read, each rendered as data (text, a decoded text blob, or a binary blob to save). */
export function renderResourceContents(contents: ContentView[], actions: ResultActions): HTMLElement[] {
  return contents.map((c) => block(c, actions));
}

function block(c: ContentView, actions: ResultActions): HTMLElement {
  const el = blockOf(c, actions);
  const tags = annotationTags(c);
  if (tags) (el.querySelector(':scope > .bar') ?? el).append(tags);
  return el;
}

function blockOf(c: ContentView, actions: ResultActions): HTMLElement {
  switch (c.type) {
    case 'text': {
      const text = pretty(c.text);
      return h(
        'div',
        { class: 'content text' },
        h(
          'div',
          { class: 'bar' },
          h('span', { class: 'kind' }, 'text'),
          copyButton(actions, () => text, 'text'),
        ),
        h('pre', {}, text),
        truncNote(c.text.length, c.truncatedFrom),
      );
    }
    case 'image': {
      const body = c.droppedBytes
        ? h('div', { class: 'note' }, `Image of ${c.droppedBytes.toLocaleString('en')} bytes, too large to show.`)
        : h('img', { src: `data:${c.mimeType};base64,${c.data}`, alt: `image (${c.mimeType})` });
      return h('div', { class: 'content image' }, h('div', { class: 'bar' }, h('span', { class: 'kind' }, `image · ${c.mimeType}`)), body);
    }
    case 'audio': {
      const body = c.droppedBytes
        ? h('div', { class: 'note' }, `Audio of ${c.droppedBytes.toLocaleString('en')} bytes, too large to play here.`)
        : h('audio', { controls: true, src: `data:${c.mimeType};base64,${c.data}` });
      return h('div', { class: 'content audio' }, h('div', { class: 'bar' }, h('span', { class: 'kind' }, `audio · ${c.mimeType}`)), body);
    }
    case 'resource_link':
      return h(
        'div',
        { class: 'content resource-link' },
        h(
          'div',
          { class: 'bar' },
          h('span', { class: 'kind' }, 'resource link'),
          button('Read', () => actions.readResource(c.uri), { secondary: true, name: 'read-resource' }),
        ),
        h('div', {}, h('strong', {}, c.title ?? c.name ?? c.uri), ' ', h('code', {}, c.uri), c.mimeType ? ` (${c.mimeType})` : ''),
        c.description ? h('div', { class: 'note' }, c.description) : undefined,
      );
    case 'resource':
      return h(
        'div',
        { class: 'content resource' },
        h(
          'div',
          { class: 'bar' },
          h('span', { class: 'kind' }, `resource · ${c.mimeType ?? 'no mime type'}${c.decodedFrom === 'blob' ? ' · blob decoded as UTF-8' : ''}`),
          typeof c.text === 'string' ? copyButton(actions, () => c.text ?? '', 'resource text') : undefined,
          c.blobId && actions.saveBlob ? button('Save…', () => actions.saveBlob?.(c.blobId!), { secondary: true, name: 'save-blob', title: 'Save the bytes to a file' }) : undefined,
        ),
        h('code', {}, c.uri),
        typeof c.text === 'string'
          ? h('pre', {}, pretty(c.text))
          : h('div', { class: 'note' }, `binary, ${(c.blobBytes ?? 0).toLocaleString('en')} bytes${c.blobId ? '' : ' (too large to keep for saving)'}`),
        typeof c.text === 'string' ? truncNote(c.text.length, c.truncatedFrom) : undefined,
      );
    default:
      return h('div', { class: 'content unknown' }, h('div', { class: 'bar' }, h('span', { class: 'kind' }, 'unknown content')), h('pre', {}, c.json));
  }
}

/** Pretty JSON with the values named by the violations' JSON pointers marked (or their nearest existing parent). */
function jsonWithMarks(value: unknown, violations: Violation[]): HTMLElement {
  const exists = (path: string): boolean => {
    let v: unknown = value;
    for (const seg of path.split('/').slice(1)) {
      const k = seg.replace(/~1/g, '/').replace(/~0/g, '~');
      if (v && typeof v === 'object' && k in v) v = (v as Record<string, unknown>)[k];
      else return false;
    }
    return true;
  };
  const marks = new Map<string, string[]>();
  for (const v of violations) {
    let p = v.path;
    while (p && !exists(p)) p = p.slice(0, p.lastIndexOf('/'));
    marks.set(p, [...(marks.get(p) ?? []), v.path === p ? v.message : `${v.path.slice(p.length + 1)} ${v.message}`]);
  }
  const ptr = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
  const node = (v: unknown, path: string, indent: string): Node => {
    const frag = document.createDocumentFragment();
    if (v && typeof v === 'object') {
      const isArr = Array.isArray(v);
      const entries = isArr ? (v as unknown[]).map((x, i) => [String(i), x] as const) : Object.entries(v);
      frag.append(isArr ? '[' : '{');
      entries.forEach(([k, x], i) => {
        frag.append(`\n${indent}  ${isArr ? '' : `${JSON.stringify(k)}: `}`, node(x, `${path}/${ptr(k)}`, `${indent}  `), i < entries.length - 1 ? ',' : '');
      });
      frag.append(entries.length ? `\n${indent}${isArr ? ']' : '}'}` : isArr ? ']' : '}');
    } else frag.append(JSON.stringify(v) ?? 'undefined');
    const mark = marks.get(path);
    if (!mark) return frag;
    const out = document.createDocumentFragment();
    const span = h('span', { class: 'violation', 'data-path': path, title: mark.join('; ') });
    span.append(frag);
    out.append(span, h('span', { class: 'violation-note' }, `  ← ${mark.join('; ')}`));
    return out;
  };
  return h('pre', { class: 'json' }, node(value, '', ''));
}

/** Which tool produced a result and when: on every result, so one left on screen is never taken for another's. */
function label(r: ResultView): HTMLElement {
  return h(
    'span',
    { class: 'result-label', 'data-tool': r.tool },
    h('code', { class: 'result-tool' }, r.tool),
    ' at ',
    h('time', { class: 'result-time', datetime: new Date(r.at).toISOString() }, clock(r.at)),
  );
}

function stderrBlock(lines: string[] | undefined): HTMLElement | undefined {
  if (!lines?.length) return undefined;
  return h('details', { class: 'call-stderr', open: true }, h('summary', {}, `stderr during the call (last ${lines.length} line${lines.length === 1 ? '' : 's'})`), h('pre', {}, lines.join('\n')));
}

export function renderResult(r: ResultView, actions: ResultActions): HTMLElement {
  const ms = `${Math.round(r.durationMs).toLocaleString('en')} ms`;
  if (r.kind === 'error') {
    const title =
      r.errorKind === 'protocol-error'
        ? `Protocol error${r.code !== undefined ? ` (JSON-RPC ${r.code})` : ''} — not a tool result`
        : r.errorKind === 'crashed'
          ? 'The server crashed during the call'
          : r.errorKind === 'timeout'
            ? 'Timed out'
            : r.errorKind === 'cancelled'
              ? 'Cancelled'
              : 'The call could not be made';
    return h(
      'section',
      { class: `result protocol-error kind-${r.errorKind}`, 'data-outcome': r.errorKind },
      h('div', { class: 'result-head' }, h('span', { class: 'badge error' }, title), label(r), h('span', { class: 'duration' }, ms)),
      h('pre', { class: 'message' }, r.message),
      stderrBlock(r.stderr),
      r.data ? h('details', {}, h('summary', {}, 'error data'), h('pre', {}, r.data)) : undefined,
      raw(r.rawRequest, r.rawResponse, actions),
    );
  }
  const section = h(
    'section',
    { class: `result ${r.isError ? 'tool-error' : 'ok'}`, 'data-outcome': r.isError ? 'tool-error' : 'ok' },
    h(
      'div',
      { class: 'result-head' },
      h('span', { class: `badge ${r.isError ? 'error' : 'ok'}` }, r.isError ? 'Tool error (isError: true)' : r.dryRun ? 'Dry run result' : 'Result'),
      label(r),
      h('span', { class: 'duration' }, ms),
      r.responseBytes > 1_000_000 ? h('span', { class: 'size' }, `${(r.responseBytes / 1_048_576).toFixed(1)} MB`) : undefined,
    ),
  );
  if (r.content.length === 0) section.append(h('div', { class: 'note' }, 'No content blocks.'));
  for (const c of r.content) section.append(block(c, actions));
  if (r.structuredContent !== undefined) {
    const violations = r.structuredViolations ?? [];
    const sc = h(
      'div',
      { class: `content structured ${violations.length ? 'has-violations' : ''}` },
      h(
        'div',
        { class: 'bar' },
        h('span', { class: 'kind' }, 'structuredContent'),
        copyButton(actions, () => JSON.stringify(r.structuredContent, null, 2), 'structuredContent'),
      ),
    );
    if (violations.length) {
      sc.append(
        h(
          'div',
          { class: 'violations', role: 'alert' },
          h('strong', {}, `Does not match the outputSchema (${violations.length} violation${violations.length === 1 ? '' : 's'}):`),
          h('ul', {}, ...violations.map((v) => h('li', {}, h('code', {}, v.path || '/'), ` ${v.message}`))),
        ),
      );
    } else if (r.structuredViolations) sc.append(h('div', { class: 'note ok' }, 'Matches the outputSchema.'));
    sc.append(jsonWithMarks(r.structuredContent, violations));
    section.append(sc);
  } else if (r.missingStructured) {
    section.append(h('div', { class: 'violations', role: 'alert' }, 'The tool declares an outputSchema but returned no structuredContent: clients that check it reject this result.'));
  }
  section.append(stderrBlock(r.stderr) ?? '', raw(r.rawRequest, r.rawResponse, actions) ?? '');
  return section;
}

function raw(request: string | undefined, response: string | undefined, actions: ResultActions): HTMLElement | undefined {
  if (!request && !response) return undefined;
  return h(
    'details',
    { class: 'raw' },
    h('summary', {}, 'Raw JSON-RPC request and response'),
    h(
      'div',
      { class: 'bar' },
      h('span', { class: 'kind' }, 'request'),
      copyButton(actions, () => request ?? '', 'request'),
    ),
    h('pre', {}, request ?? '(not sent)'),
    h(
      'div',
      { class: 'bar' },
      h('span', { class: 'kind' }, 'response'),
      copyButton(actions, () => response ?? '', 'response'),
    ),
    h('pre', {}, response ?? '(no response)'),
  );
}
