/** The Preview Contract page (client/src/webviewHtml.ts): no media, a placeholder until the contract arrives. */
import { makeNonce, webviewHtml } from '../webviewHtml';

export interface PreviewHtmlOptions {
  /** webview.cspSource (or the test server's origin). */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  nonce?: string;
}

export function previewHtml(o: PreviewHtmlOptions): string {
  return webviewHtml({
    ...o,
    nonce: o.nonce ?? makeNonce(),
    title: 'Preview Contract',
    body: '<main id="root" aria-live="polite"><p class="muted">Loading the contract…</p></main>',
  });
}
