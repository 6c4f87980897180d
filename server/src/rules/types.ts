import type { FileFacts, PromptDefinition, ResourceDefinition, Span, ToolDefinition } from '../analysis/model';
import type { Severity, ToolsmithSettings } from '../../../common/settings';

/** A text edit expressed on source offsets (converted to LSP/CLI positions by the caller). */
export interface Edit {
  span: Span;
  newText: string;
}

export interface Fix {
  title: string;
  edits: Edit[];
  /** Safe fixes are applied by `source.fixAll.toolsmith` and `toolsmith check --fix`. */
  safe: boolean;
}

export interface Finding {
  ruleId: string;
  severity: Severity;
  message: string;
  span: Span;
  /** The tool's name, or null for a server/file-level finding. */
  tool: string | null;
  fixes: Fix[];
}

/** What a rule's check returns: the engine adds the rule id and the effective severity. */
export type RuleFinding = Omit<Finding, 'ruleId' | 'severity'>;

/** All tools and file facts of one analysis (the analysed file and every module it followed). */
export interface WholeAnalysis {
  tools: readonly ToolDefinition[];
  files: readonly FileFacts[];
  prompts: readonly PromptDefinition[];
  resources: readonly ResourceDefinition[];
}

export interface RuleContext {
  settings: ToolsmithSettings;
  /** Full text of a file by path (the analysed document, or a workspace file for cross-file spans). */
  textOf(file: string): string | undefined;
}

export interface Rule {
  id: string;
  defaultSeverity: Severity;
  /**
   * `strict`: the rule runs only with `toolsmith.preset: "strict"` (or when `toolsmith.rules` names it): on the
   * labelled real-world set it was wrong too often for the default. `opt-in`: it runs only when `toolsmith.rules`
   * names it, under either preset: on that set it was not right often enough even for `strict`. Without it the rule
   * is in `recommended`.
   */
  preset?: 'strict' | 'opt-in';
  /** Languages the rule applies to. */
  languages: ('typescript' | 'python')[];
  /** One line: what the rule checks (shown in docs/CLI). */
  summary: string;
  /** Per-tool check. */
  checkTool?(tool: ToolDefinition, ctx: RuleContext): RuleFinding[];
  /** Per-prompt check (prompts/list entries; TypeScript). Its findings name no tool. */
  checkPrompt?(prompt: PromptDefinition, ctx: RuleContext): RuleFinding[];
  /** Per-resource check (resources/list and resources/templates/list entries; TypeScript). Its findings name no tool. */
  checkResource?(resource: ResourceDefinition, ctx: RuleContext): RuleFinding[];
  /** Per-server check (all tools registered on one server instance, plus the file facts). */
  checkServer?(tools: ToolDefinition[], files: FileFacts[], ctx: RuleContext): RuleFinding[];
  /**
   * Per-file check, for facts not tied to a tool or a server (imports, syntax). Called once per analysed file
   * whose language the rule covers, with the tools registered in that file (possibly none), and the whole analysis
   * the file was analysed with (every file it followed: where the same server's other registrations are).
   */
  checkFile?(file: FileFacts, tools: ToolDefinition[], ctx: RuleContext, analysis: WholeAnalysis): RuleFinding[];
}
