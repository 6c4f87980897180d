import type { Rule, RuleFinding } from './types';
import { finding } from './util/finding';
import { isFileSystemCall } from './path-param-unchecked';
import { enumValues, inputSchemaOf, mainType } from './util/json-schema';

/**
 * The recall case path-param-unchecked cannot see: the handler hands its argument to a helper of the same module
 * (`full_path = get_excel_path(filepath)`) that joins it to a base folder and returns it unchecked, and the joined
 * path then goes to code that opens it. Every tool calling that helper is open to `../` (and absolute paths).
 */
export const pathTraversalViaHelper: Rule = {
  id: 'path-traversal-via-helper',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: 'A parameter reaches a file path through a helper that joins it to a base folder with no containment check.',
  checkTool(tool) {
    const h = tool.handler;
    if (!h || h.hasPathContainmentCheck) return [];
    const root = inputSchemaOf(tool);
    const out: RuleFinding[] = [];
    for (const c of h.calls) {
      // Only free text can carry "../": an enum, a number or a boolean cannot.
      const param = c.joinsUncheckedPath?.find((name) => {
        const p = tool.parameters.find((q) => q.name === name);
        return !!p && mainType(p.schema, root) === 'string' && !enumValues(p, root);
      });
      if (!param) continue;
      const py = tool.language === 'python';
      // path-param-unchecked already reports the same parameter at a file-system call of this handler.
      if (h.calls.some((o) => o !== c && isFileSystemCall(o) && o.paramsInArgs.includes(param))) continue;
      out.push(
        finding(
          tool,
          c.span,
          `The parameter \`${param}\` becomes a file path through ${c.callee}(), which joins it to a base folder and never checks the result ` +
            `stays inside it: "../../.ssh/id_rsa" (or an absolute path, which os.path.join, Path / and path.resolve keep as is) reaches every file the server can read or write, ` +
            `in every tool that calls ${c.callee}(). Resolve and refuse in the helper: ` +
            (py
              ? '`target = os.path.realpath(os.path.join(BASE, name))` then `if os.path.commonpath([target, os.path.realpath(BASE)]) != os.path.realpath(BASE): raise ValueError(...)`.'
              : '`const target = path.resolve(ROOT, p); const rel = path.relative(ROOT, target); if (rel.startsWith("..") || path.isAbsolute(rel)) throw new Error(...)`.'),
        ),
      );
      break;
    }
    return out;
  },
};
