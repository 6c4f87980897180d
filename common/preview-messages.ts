/** Typed messages between the Preview Contract panel (extension host) and its webview. */
import type { PreviewView, LiveView } from './preview-model';

export type ClientTarget = 'vscode' | 'claude' | 'cursor';

export type HostToPreview =
  | { type: 'render'; view: PreviewView }
  /** Only the live half changed (server started, restarted, compared). */
  | { type: 'live'; key: string; live: LiveView }
  /** Nothing to show, with why (the tool disappeared from the source, the server cannot be reached...). */
  | { type: 'message'; text: string };

export type PreviewToHost =
  | { type: 'ready' }
  | { type: 'copyJson' }
  | { type: 'copyConfig'; target: ClientTarget }
  | { type: 'reveal'; uri: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } }
  | { type: 'fix'; index: number }
  | { type: 'openDocs'; ruleId: string }
  | { type: 'live'; action: 'compare' | 'restart' }
  | { type: 'save' };

/** What the webview keeps across hide/show (vscode.getState/setState). */
export interface PreviewState {
  view?: PreviewView;
  scrollY: number;
  /** Section ids the user collapsed. */
  collapsed: string[];
}
