/** The one builder of rule findings, and the wording helpers their messages share. */
import type { Span, ToolDefinition } from '../../analysis/model';
import type { Fix, RuleFinding } from '../types';

/**
 * A finding at `span`. `about` is the tool it is about (its name becomes the finding's tool), or null for a
 * finding about a file or a server (an import, a server with too many tools).
 */
export function finding(about: ToolDefinition | null, span: Span, message: string, fixes: Fix[] = []): RuleFinding {
  return { span, message, tool: about ? (about.name.value ?? null) : null, fixes };
}

/** Where a finding about the tool as a whole goes: its name, unless that is written in another file (then the registration). */
export function toolSpan(tool: ToolDefinition): Span {
  return tool.name.span.file === tool.file ? tool.name.span : tool.registration.span;
}

/** `"search"` for messages; `this tool` when the name is not statically known. */
export function toolLabel(tool: ToolDefinition): string {
  return tool.name.value !== undefined ? `"${tool.name.value}"` : 'this tool';
}
