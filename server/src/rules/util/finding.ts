/** Small helpers every rule uses to build findings. */
import type { Span, ToolDefinition } from '../../analysis/model';
import type { Fix, RuleFinding } from '../types';

export function toolFinding(tool: ToolDefinition, span: Span, message: string, fixes: Fix[] = []): RuleFinding {
  return { span, message, tool: tool.name.value ?? null, fixes };
}

/** `"search"` for messages; `this tool` when the name is not statically known. */
export function toolLabel(tool: ToolDefinition): string {
  return tool.name.value !== undefined ? `"${tool.name.value}"` : 'this tool';
}
