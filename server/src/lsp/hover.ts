import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import type { JsonValue, ToolDefinition } from '../analysis/model';
import type { FileAnalysis } from '../service';
import type { SpanMapper } from './spans';

function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function typeOf(schema: Record<string, JsonValue> | undefined): string {
  if (!schema) return 'unresolved';
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  const t = schema.type;
  let text = Array.isArray(t) ? t.join(' \\| ') : typeof t === 'string' ? t : schema.anyOf ? 'union' : 'any';
  if (t === 'array' && schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) {
    text = `${typeOf(schema.items)}[]`;
  }
  if (typeof schema.format === 'string') text += ` (${schema.format})`;
  return text;
}

/** The contract summary shown when hovering a tool's name: what the model will see, and what is not known. */
function toolHoverMarkdown(tool: ToolDefinition): string {
  const c = tool.contract as Record<string, JsonValue>;
  const lines: string[] = [];
  const name = tool.name.value ?? '(name not statically known)';
  lines.push(`**MCP tool \`${name}\`**${tool.title?.value ? ` — ${tool.title.value}` : ''}`);
  lines.push('');
  const description = typeof c.description === 'string' ? c.description : tool.description?.value;
  if (description !== undefined) lines.push(description.length > 600 ? `${description.slice(0, 600)}…` : description);
  else lines.push(tool.description ? '_Description: unresolved._' : '_No description: the model sees only the name._');
  const schema = (c.inputSchema ?? {}) as { properties?: Record<string, Record<string, JsonValue>>; required?: string[] };
  const props = Object.entries(schema.properties ?? {});
  const fromModel = tool.parameters.filter((p) => !props.some(([n]) => n === p.name));
  lines.push('');
  if (props.length === 0 && fromModel.length === 0) {
    lines.push('_No parameters._');
  } else {
    lines.push('| Parameter | Type | Required | Description |', '| --- | --- | --- | --- |');
    for (const [pname, prop] of props) {
      const required = schema.required?.includes(pname) ? 'yes' : 'no';
      const desc = typeof prop.description === 'string' ? cell(prop.description) : '—';
      lines.push(`| \`${cell(pname)}\` | ${cell(typeOf(prop))} | ${required} | ${desc} |`);
    }
    for (const p of fromModel)
      lines.push(`| \`${cell(p.name)}\` | ${p.schema ? cell(typeOf(p.schema)) : 'unresolved'} | ${p.required ? 'yes' : 'no'} | ${p.description?.value ? cell(p.description.value) : '—'} |`);
  }
  const annotations = c.annotations;
  if (annotations && typeof annotations === 'object' && !Array.isArray(annotations) && Object.keys(annotations).length) {
    lines.push(
      '',
      `**Annotations:** ${Object.entries(annotations)
        .map(([k, v]) => `\`${k}: ${JSON.stringify(v)}\``)
        .join(', ')}`,
    );
  } else {
    lines.push('', '**Annotations:** none');
  }
  if (c.outputSchema) lines.push('', '**Output schema:** declared');
  if (tool.unresolved.length) {
    lines.push('', '**Unresolved (the contract is partial):**');
    for (const u of tool.unresolved) lines.push(`- \`${u.part}\`: ${u.reason}`);
  }
  return lines.join('\n');
}

/** Hover on a tool's name (the literal, or the function name of a Python decorated tool). */
export function hoverAt(analysis: FileAnalysis, file: string, position: Position, mapper: SpanMapper): Hover | null {
  const offset = mapper.offset(file, position);
  for (const tool of analysis.result.tools) {
    const span = tool.name.span;
    if (span.file !== file || offset < span.start || offset > span.end) continue;
    return { contents: { kind: MarkupKind.Markdown, value: toolHoverMarkdown(tool) }, range: mapper.range(span) };
  }
  return null;
}
