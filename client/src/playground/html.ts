/** The playground page (client/src/webviewHtml.ts), which also plays audio and video that tools return (data: URLs). */
import { contentSecurityPolicy as pageCsp, webviewHtml, type WebviewPageOptions } from '../webviewHtml';

export { makeNonce } from '../webviewHtml';

export type PageOptions = Omit<WebviewPageOptions, 'body' | 'media'>;

export function contentSecurityPolicy(o: Pick<PageOptions, 'cspSource' | 'nonce'>): string {
  return pageCsp({ ...o, media: true });
}

export function playgroundHtml(o: PageOptions): string {
  return webviewHtml({ ...o, media: true });
}
