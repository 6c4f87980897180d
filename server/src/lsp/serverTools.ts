/**
 * `toolsmith/serverTools`: the whole server an entry starts (`analysis/entry.ts`, the analysis behind
 * `toolsmith contract <entry>`), as the client reads it. Answered on the main thread from a cache per entry that any
 * change to a workspace file empties (the graph may read any of them); each module is read through the file host and
 * its size cap, and the graph is bounded (analysis/typescript MAX_MODULE_DEPTH, python/graph.ts).
 */
import type { PredictedServer, ServerToolsResult, ToolSummary } from '../../../common/protocol';
import type { ToolsmithSettings } from '../../../common/settings';
import { analyzeEntry } from '../analysis/entry';
import type { FileHost } from '../analysis/model';
import { runRules } from '../rules';
import { SpanMapper } from './spans';
import { fileToUri } from './paths';
import { toolSummary } from './summaries';

export class ServerToolsCache {
  private readonly answers = new Map<string, ServerToolsResult>();

  constructor(
    private readonly host: FileHost,
    private readonly settings: () => ToolsmithSettings,
  ) {}

  /** A workspace file changed (edited, saved, created, deleted): every answer may be stale. */
  invalidate(): void {
    this.answers.clear();
  }

  get(file: string): ServerToolsResult {
    let answer = this.answers.get(file);
    if (!answer) {
      answer = this.compute(file);
      this.answers.set(file, answer);
    }
    return answer;
  }

  private compute(file: string): ServerToolsResult {
    const text = this.host.readFile(file);
    if (text === undefined) return { servers: [], unresolved: [] };
    const { result, servers } = analyzeEntry(file, text, this.host);
    const mapper = new SpanMapper((f) => this.host.readFile(f), new Map([[file, text]]));
    // The findings each tool has in the whole server (the counts the tree and the preview show).
    const findings = runRules(result, { settings: this.settings(), textOf: (f) => this.host.readFile(f) });
    const summary = (i: number): ToolSummary => {
      const t = result.tools[i];
      const counts = { error: 0, warning: 0, info: 0 };
      for (const f of findings) if (f.tool !== null && f.tool === t.name.value && f.span.file === t.file) counts[f.severity]++;
      return toolSummary(t, fileToUri(t.file), mapper, counts);
    };
    const predicted: PredictedServer[] = servers.map((s) => ({
      ...(s.name !== undefined ? { name: s.name } : {}),
      variable: s.variable,
      ...(s.framework ? { framework: s.framework } : {}),
      uri: fileToUri(s.span.file),
      range: mapper.range(s.span),
      constructed: s.constructed,
      tools: s.tools.map(summary),
    }));
    return { servers: predicted, unresolved: result.graph.unfollowed.map((u) => ({ reason: u.reason, uri: fileToUri(u.span.file), range: mapper.range(u.span) })) };
  }
}
