/** Shared facts about a tool's description for the Description rules. */
import type { ToolDefinition } from '../../analysis/model';
import { placeholderReason } from './text-heuristics';

/** The description text the model sees, when it is statically known and not empty. */
export function descriptionText(tool: ToolDefinition): string | undefined {
  const v = tool.description?.value;
  return v !== undefined && v.trim() !== '' ? v : undefined;
}

/** A description that is there but is a placeholder: the other description rules leave it to description-placeholder. */
export function isPlaceholder(tool: ToolDefinition): boolean {
  const v = descriptionText(tool);
  return v !== undefined && placeholderReason(v, tool.name.value) !== undefined;
}

const PRIMITIVE_RETURNS = /^(str|int|float|bool|bytes|None|Any|object|dict|list|tuple|Dict|List|Tuple|Optional\[str\]|CallToolResult|Sequence|Iterable|Mapping|TextContent|ImageContent)\b/;

/**
 * The tool declares a meaningful output shape, which tells what comes back: a TS outputSchema, a Python return model,
 * or a published outputSchema naming fields (FastMCP's `output_schema=` of a response model, as wikipedia-mcp
 * passes); not the `{"result": ...}` wrapper of a bare value.
 */
export function declaresOutputShape(tool: ToolDefinition): boolean {
  if (tool.language === 'typescript') return tool.outputSchemaSpan !== undefined;
  const ret = tool.handler?.returnAnnotation?.trim();
  if (ret && !PRIMITIVE_RETURNS.test(ret)) return true;
  const out = tool.contract.outputSchema;
  const props = out && typeof out === 'object' && !Array.isArray(out) ? out.properties : undefined;
  const names = props && typeof props === 'object' && !Array.isArray(props) ? Object.keys(props) : [];
  return names.length > 1 || (names.length === 1 && names[0] !== 'result');
}

/** Which text the model gets for this tool's description, for messages. */
export function descriptionSource(tool: ToolDefinition): string {
  if (tool.language === 'typescript') return 'description';
  return tool.description?.origin === 'explicit' ? 'description=' : 'docstring';
}
