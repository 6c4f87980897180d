import type { Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { inputSchemaOf, mainType, paramDescription } from './util/json-schema';

const SEPARATED_LIST = /\b(comma|semicolon|space|pipe)[- ](separated|delimited)\b|\bseparated by (commas|semicolons)\b/i;
/** CSV text is data, not a list of values the model picks. */
const CSV_DATA = /comma[- ]separated values|\bcsv\b/i;

export const paramListAsString: Rule = {
  id: 'param-list-as-string',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'A string parameter described as a comma-separated list: it should be an array.',
  checkTool(tool) {
    const out: RuleFinding[] = [];
    const root = inputSchemaOf(tool);
    for (const p of tool.parameters) {
      if (mainType(p.schema, root) !== 'string') continue;
      const d = paramDescription(p);
      if (!d || !SEPARATED_LIST.test(d) || CSV_DATA.test(d)) continue;
      const item = tool.language === 'python' ? 'list[str]' : 'z.array(z.string())';
      out.push(
        finding(
          tool,
          p.nameSpan,
          `"${p.name}" of ${toolLabel(tool)} is a string the description calls a separated list: the model has to join values by hand (and quote ` +
            `the ones that contain the separator), and no client can check the items. Make it an array (${item}) and drop the parsing.`,
        ),
      );
    }
    return out;
  },
};
