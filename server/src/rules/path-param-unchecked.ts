import type { CallFact, ToolDefinition } from '../analysis/model';
import type { Rule, RuleFinding } from './types';
import { finding } from './util/finding';
import { snakeCase } from './util/names';
import { memoByString } from './util/memo';

const PATH_NAME = /(^|_)(path|paths|file|files|filename|filepath|file_path|dir|dirname|directory|folder|location|dest|destination|src|source_path|target_path)$/;

/** File-system calls: Node fs (and promises), Python open / os / shutil / pathlib / aiofiles. */
export function isFileSystemCall(c: CallFact): boolean {
  return fileSystemCallee(c.callee);
}

// A pure function of the callee text, asked for every call of every handler: once per distinct callee.
const fileSystemCallee = memoByString((callee: string): boolean => {
  const last = callee.split('.').pop() ?? callee;
  if (/^(fs|fsp|fsPromises|node:fs|fs\.promises|fs\/promises|os|os\.path|shutil|pathlib|aiofiles|glob)\./.test(callee)) return true;
  if (/^(open|Path|pathlib\.Path|PurePath|send_file|FileResponse|readFile|writeFile|readdir|createReadStream|createWriteStream|unlink|rm|mkdir|stat|appendFile|opendir|copyFile|rename)$/.test(callee))
    return true;
  return (
    /^(read_text|read_bytes|write_text|write_bytes|iterdir|glob|rglob|unlink|rmdir|mkdir|touch|open|readFile|readFileSync|writeFile|writeFileSync|readdir|readdirSync|createReadStream|createWriteStream|rm|rmSync|unlinkSync)$/.test(
      last,
    ) && callee.includes('.')
  );
});

export const pathParamUnchecked: Rule = {
  id: 'path-param-unchecked',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: 'A path-like parameter reaches a file-system call with no containment check.',
  checkTool(tool: ToolDefinition) {
    const h = tool.handler;
    if (!h || h.hasPathContainmentCheck) return [];
    const pathParams = new Set(tool.parameters.filter((p) => PATH_NAME.test(snakeCase(p.name))).map((p) => p.name));
    if (pathParams.size === 0) return [];
    const out: RuleFinding[] = [];
    for (const c of h.calls) {
      if (!isFileSystemCall(c)) continue;
      const param = c.paramsInArgs.find((p) => pathParams.has(p));
      if (!param) continue;
      const py = tool.language === 'python';
      out.push(
        finding(
          tool,
          c.span,
          `The parameter \`${param}\` reaches ${c.callee} without a containment check: a model (or a prompt injection in what it read) ` +
            `can pass "../../.ssh/id_rsa" or an absolute path and read or write any file the server can. ` +
            (py
              ? 'Resolve it against your root and refuse what escapes: `target = (ROOT / path).resolve()` then `if not target.is_relative_to(ROOT): raise ToolError(...)`.'
              : 'Resolve it against your root and refuse what escapes: `const target = path.resolve(ROOT, p); if (path.relative(ROOT, target).startsWith("..") || path.isAbsolute(path.relative(ROOT, target))) return { isError: true, ... }`.'),
        ),
      );
    }
    return out;
  },
};
