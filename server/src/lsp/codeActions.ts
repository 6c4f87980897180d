import { CodeActionKind, type CodeAction, type CodeActionParams, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver';
import type { Edit, Finding } from '../rules/types';
import type { SpanMapper } from './spans';
import { toDiagnostic } from './diagnostics';
import { fileToUri } from './paths';
import { fixAll } from '../rules';

export const FIX_ALL_KIND = 'source.fixAll.toolsmith';

/** LSP kind matching: a requested kind covers itself and every kind below it (`source` covers `source.fixAll.x`). */
function kindRequested(only: string[] | undefined, kind: string): boolean {
  if (!only) return true;
  return only.some((k) => kind === k || kind.startsWith(`${k}.`));
}

export function workspaceEdit(edits: Edit[], mapper: SpanMapper): WorkspaceEdit {
  const changes: Record<string, TextEdit[]> = {};
  for (const e of edits) {
    const uri = fileToUri(e.span.file);
    (changes[uri] ??= []).push({ range: mapper.range(e.span), newText: e.newText });
  }
  return { changes };
}

function overlaps(f: Finding, start: number, end: number): boolean {
  return f.span.start <= end && start <= f.span.end;
}

/**
 * One quick fix per Fix of every finding overlapping the requested range (the first fix of each finding preferred),
 * plus `source.fixAll.toolsmith` when asked for by kind: every safe fix that does not collide with another.
 */
export function codeActions(params: CodeActionParams, findings: Finding[], file: string, mapper: SpanMapper): CodeAction[] {
  const actions: CodeAction[] = [];
  const only = params.context.only;
  const own = findings.filter((f) => f.span.file === file);
  if (kindRequested(only, CodeActionKind.QuickFix)) {
    const start = mapper.offset(file, params.range.start);
    const end = mapper.offset(file, params.range.end);
    for (const finding of own) {
      if (!overlaps(finding, start, end)) continue;
      const diagnostic = toDiagnostic(finding, mapper);
      finding.fixes.forEach((fix, i) => {
        if (fix.edits.length === 0) return;
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: i === 0,
          edit: workspaceEdit(fix.edits, mapper),
        });
      });
    }
  }
  // The fix-all action is a source action: offered only when the client asks for that kind (save actions, menu).
  if (only && kindRequested(only, FIX_ALL_KIND)) {
    const { fixes, edits } = fixAll(own);
    if (fixes.length) {
      actions.push({
        title: 'Fix all safe Toolsmith problems',
        kind: FIX_ALL_KIND,
        diagnostics: [],
        edit: workspaceEdit(edits, mapper),
      });
    }
  }
  return actions;
}
