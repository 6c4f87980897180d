import type { ToolDefinition } from '../analysis/model';
import type { Rule } from './types';
import { finding } from './util/finding';

const ADVICE: [RegExp, string][] = [
  [/date/i, 'accept an ISO string instead (`z.iso.datetime()` or `z.iso.date()`) and build the Date in the handler'],
  [/bigint/i, 'use `z.number().int()` (or a digit string) and convert in the handler'],
  [/transform|pipe|preprocess/i, 'keep the schema plain and do the conversion in the handler'],
  [/custom|instanceof/i, 'describe the value with concrete zod types (object, string, enum...)'],
  [/function|promise|symbol|map|set|nan|void|undefined/i, 'use a JSON type (object, array, string...) instead'],
];

export const schemaUnrepresentable: Rule = {
  id: 'schema-unrepresentable',
  defaultSeverity: 'error',
  languages: ['typescript'],
  summary: 'zod that JSON Schema cannot carry (z.date(), .transform, z.bigint(), z.custom, functions).',
  checkTool(tool: ToolDefinition) {
    return tool.unrepresentable.map((u) =>
      finding(
        tool,
        u.span,
        `\`${u.construct}\` cannot be written as JSON Schema: the SDK's conversion throws ("cannot be represented in JSON Schema") when the client lists tools, ` +
          `so tools/list fails and the model gets no tools at all. ${(ADVICE.find(([re]) => re.test(u.construct))?.[1] ?? 'use JSON types only').replace(/^./, (c) => c.toUpperCase())}.`,
      ),
    );
  },
};
