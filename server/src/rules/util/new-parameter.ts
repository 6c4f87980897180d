/** Adds a parameter to a tool's input: TS a property of the zod raw shape, Python a parameter of the def. */
import type { ToolDefinition } from '../../analysis/model';
import type { Edit, RuleContext } from '../types';
import { inputShapeStart, insertFirstProperty } from './object-edits';
import { appendPythonParameter } from './python-edits';
import { addPythonImports } from './python-imports';

interface NewParameter {
  /** snake_case name; TS uses camelCase unless the tool's parameters are snake_case. */
  name: string;
  /** zod expression for TS, e.g. `z.boolean().default(false).describe("...")`. */
  zod: string;
  /** Python annotation using Annotated/Field, e.g. `Annotated[bool, Field(description="...")]`. */
  pyAnnotation: string;
  pyDefault: string;
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** The name the new parameter gets, in the tool's own style. */
export function parameterName(tool: ToolDefinition, snake: string): string {
  if (tool.language === 'python') return snake;
  const names = tool.parameters.map((p) => p.name);
  const snakeStyle = names.some((n) => n.includes('_')) && !names.some((n) => /[a-z][A-Z]/.test(n));
  return snakeStyle ? snake : camel(snake);
}

/** Edits that add the parameter, or undefined when the front-end gave no safe insertion point. */
export function addParameterEdits(tool: ToolDefinition, ctx: RuleContext, p: NewParameter): Edit[] | undefined {
  const name = parameterName(tool, p.name);
  if (tool.language === 'typescript') {
    const shape = tool.inputSchemaNotObject ? undefined : inputShapeStart(ctx, tool);
    if (!shape) return undefined;
    const edit = insertFirstProperty(ctx, shape.file, shape.afterBrace, `${name}: ${p.zod}`);
    return edit ? [edit] : undefined;
  }
  const h = tool.handler;
  if (!h || h.paramsEndOffset === undefined) return undefined;
  if (tool.parameters.some((q) => q.pythonKind === 'kwargs')) return undefined;
  const edit = appendPythonParameter(ctx, h.span.file, h.paramsEndOffset, `${name}: ${p.pyAnnotation} = ${p.pyDefault}`, h.paramsContentEndOffset);
  if (!edit) return undefined;
  const text = ctx.textOf(h.span.file);
  if (text === undefined) return undefined;
  const imports = (
    [
      ['typing', 'Annotated'],
      ['pydantic', 'Field'],
    ] as const
  ).filter(([, imported]) => p.pyAnnotation.includes(imported));
  return [edit, ...addPythonImports(h.span.file, text, imports)];
}
