/** Where a rule's documentation page lives. The one place that names the repository URL (LSP and SARIF use it). */
export const REPOSITORY_URL = 'https://github.com/toolsmith/toolsmith';

export function ruleDocsUrl(ruleId: string): string {
  return `${REPOSITORY_URL}/blob/main/docs/rules/${encodeURIComponent(ruleId)}.md`;
}
