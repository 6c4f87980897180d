// Preview Contract webview: renders the view-model the extension host sends; keeps scroll position and collapsed
// sections across re-renders (the host re-sends the view as the source changes) and across hide/show.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import './preview/preview.css';
import type { HostToPreview, PreviewToHost, PreviewState } from '../../common/preview-messages';
import type { PreviewView } from '../../common/preview-model';
import { renderView, renderLive, h } from './preview/render';

interface VsCodeApi {
  postMessage(message: PreviewToHost): void;
  getState(): PreviewState | undefined;
  setState(state: PreviewState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('root')!;
let state: PreviewState = vscode.getState() ?? { scrollY: 0, collapsed: [] };
const post = (m: PreviewToHost) => vscode.postMessage(m);

function save(patch: Partial<PreviewState>): void {
  state = { ...state, ...patch };
  vscode.setState(state);
}

function render(view: PreviewView): void {
  const sameTool = state.view?.key === view.key;
  // Keep the reader where they were while the same tool re-renders; a different tool starts at the top.
  const scrollY = sameTool ? window.scrollY || state.scrollY : 0;
  root.replaceChildren(renderView(view, post, new Set(state.collapsed)));
  save({ view, scrollY });
  requestAnimationFrame(() => window.scrollTo(0, scrollY));
}

root.addEventListener('vsc-collapsible-toggle', (e) => {
  const id = (e.target as HTMLElement).dataset.section;
  if (!id) return;
  const collapsed = new Set(state.collapsed);
  if ((e as CustomEvent<{ open: boolean }>).detail.open) collapsed.delete(id);
  else collapsed.add(id);
  save({ collapsed: [...collapsed] });
});

let scrollTimer: number | undefined;
window.addEventListener('scroll', () => {
  clearTimeout(scrollTimer);
  scrollTimer = window.setTimeout(() => save({ scrollY: window.scrollY }), 100);
});

window.addEventListener('message', (event: MessageEvent<HostToPreview>) => {
  const m = event.data;
  if (!m || typeof m !== 'object') return;
  if (m.type === 'render') render(m.view);
  else if (m.type === 'live') {
    if (!state.view || state.view.key !== m.key) return;
    save({ view: { ...state.view, live: m.live } });
    const slot = document.getElementById('live-slot');
    if (slot) slot.replaceChildren(renderLive(m.live, post));
  } else if (m.type === 'message') {
    root.replaceChildren(h('p', { class: 'message' }, m.text));
    save({ view: undefined });
  }
});

// Shown at once after a hide/show, then refreshed by the host.
if (state.view) render(state.view);
post({ type: 'ready' });
