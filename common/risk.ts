/**
 * The one risk model: the level every surface shows for a tool — the Servers tree, the playground, the Contract
 * Preview and the language server (docs/rules/, "Annotations and risk"):
 *   Low      = read-only;
 *   Medium   = writes, not destructive, closed world;
 *   High     = destructive in a closed world, or a write that reaches an open world (other users, external systems);
 *   Critical = destructive and open world.
 * Declared hints win. A hint that is not declared takes what the source analysis inferred when the caller has it
 * (the language server does), else the MCP spec default a cautious client assumes (readOnlyHint false,
 * destructiveHint true, openWorldHint true) — and the assessment says it was assumed.
 * Pure: no vscode, no DOM, no server types, so the extension, the webviews and the language server share it.
 */

export type RiskLevel = 'Low' | 'Medium' | 'High' | 'Critical';

/** The hints the level depends on (idempotentHint says whether a retry is safe, not how risky a call is). */
export type RiskHint = 'readOnlyHint' | 'destructiveHint' | 'openWorldHint';

/** What the source analysis (name and handler) says about a tool, for the hints its author did not declare. */
export interface InferredRisk {
  /** The name or the handler writes; `why` says which. */
  writes: boolean;
  destructive: boolean;
  /** Why it writes (or deletes), e.g. `its handler calls fs.unlinkSync`. */
  why: string;
  /** The verb of a name that says it only reads ("get", "list"...), for the reason text. */
  readVerb?: string;
  /** The name says the effect leaves the system (send, pay, publish): it cannot be taken back. */
  leavesSystem: boolean;
  /** The verb saying so, for the reason text. */
  externalVerb?: string;
  /** The handler calls the network. */
  network: boolean;
  /** The name says it touches other users' data or rights: High at least, unless a closed world is declared. */
  otherUsers: boolean;
}

export interface RiskAssessment {
  level: RiskLevel;
  /** Short sentences explaining the level, in the order the facts were used. */
  reasons: string[];
  /** Hints the level depends on that the tool does not declare (inferred from the source, or assumed). */
  undeclared: RiskHint[];
  /** True when at least one undeclared hint took the spec default: nothing was there to infer it from. */
  assumed: boolean;
}

/** The spec defaults of the hints, which a client applies to a hint a tool does not declare. */
const SPEC_DEFAULT: Record<RiskHint, boolean> = { readOnlyHint: false, destructiveHint: true, openWorldHint: true };

/**
 * The risk of a tool from its annotations (published, or as written in the source), and what the source analysis
 * inferred when the caller has it. Hint values that are not booleans count as not declared.
 */
export function assessRisk(annotations: unknown, inferred?: InferredRisk): RiskAssessment {
  const ann = typeof annotations === 'object' && annotations !== null ? (annotations as Record<string, unknown>) : {};
  const declared = (key: RiskHint): boolean | undefined => (typeof ann[key] === 'boolean' ? ann[key] : undefined);
  const reasons: string[] = [];
  const undeclared: RiskHint[] = [];
  const assume = (key: RiskHint): boolean => {
    undeclared.push(key);
    reasons.push(`${key}: ${String(SPEC_DEFAULT[key])} (not declared: spec default)`);
    return SPEC_DEFAULT[key];
  };
  const say = (key: RiskHint, value: boolean): boolean => {
    reasons.push(`${key}: ${String(value)}`);
    return value;
  };
  const done = (level: RiskLevel): RiskAssessment => {
    const assumed = !inferred && undeclared.length > 0;
    if (assumed) reasons.push('Declare the missing hints: clients assume the worst for hints a tool does not declare.');
    else if (undeclared.length) {
      reasons.push(`Not declared: ${undeclared.join(', ')}. Toolsmith inferred them from the name and handler; clients cannot, and assume the worst (destructive, open world).`);
    }
    return { level, reasons, undeclared, assumed };
  };

  const readOnlyHint = declared('readOnlyHint');
  let readOnly: boolean;
  if (readOnlyHint !== undefined) readOnly = say('readOnlyHint', readOnlyHint);
  else if (!inferred) readOnly = assume('readOnlyHint');
  else {
    undeclared.push('readOnlyHint');
    readOnly = !inferred.writes;
    reasons.push(inferred.writes ? `writes: ${inferred.why}` : inferred.readVerb ? `reads: its name says "${inferred.readVerb}"` : 'no write seen in its name or handler');
  }
  if (readOnly) return done('Low');

  // Open world first: an effect that leaves the system is destructive only where it reaches an open world.
  const openWorldHint = declared('openWorldHint');
  const destructiveHint = declared('destructiveHint');
  let openWorld: boolean;
  let openWorldReason: string | undefined;
  if (openWorldHint !== undefined || !inferred) openWorld = openWorldHint ?? SPEC_DEFAULT.openWorldHint;
  else {
    openWorld = inferred.leavesSystem || inferred.network;
    if (inferred.leavesSystem) openWorldReason = `open world: its name says "${inferred.externalVerb}"`;
    else if (inferred.network) openWorldReason = 'open world: its handler calls the network';
  }

  let destructive: boolean;
  if (destructiveHint !== undefined) destructive = say('destructiveHint', destructiveHint);
  else if (!inferred) destructive = assume('destructiveHint');
  else {
    undeclared.push('destructiveHint');
    destructive = inferred.destructive || (inferred.leavesSystem && openWorld);
    if (inferred.destructive) reasons.push(`destructive: ${inferred.why}`);
    else if (destructive) reasons.push('the effect leaves the system (sent, paid or published) and cannot be taken back');
  }

  if (openWorldHint !== undefined) say('openWorldHint', openWorldHint);
  else if (!inferred) assume('openWorldHint');
  else {
    undeclared.push('openWorldHint');
    if (openWorldReason) reasons.push(openWorldReason);
  }

  if (destructive) return done(openWorld ? 'Critical' : 'High');
  if (openWorld) {
    reasons.push('writes to an open world: touches data beyond this server (other users, external systems)');
    return done('High');
  }
  // Other users' data is beyond this server too, unless the author declared a closed world.
  if (inferred?.otherUsers && openWorldHint === undefined) {
    reasons.push("touches other users' data or rights");
    return done('High');
  }
  return done('Medium');
}

/** How the Servers tree and the playground name a level: "High risk", "(assumed)" when a spec default decided it. */
export function riskLabel(risk: RiskAssessment): string {
  return `${risk.level} risk${risk.assumed ? ' (assumed)' : ''}`;
}
