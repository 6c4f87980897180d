/**
 * The live half of the preview: a running server's tools/list, read with the MCP SDK's own Client over stdio, and
 * the facts that explain a difference (was the source saved after the server started? which SDK version runs?).
 * vscode-free. When the playground's sessions (client/src/servers) run the server, their session is used instead
 * through the same LiveSession shape (see index.ts).
 */
import * as fs from 'node:fs';
import type { JsonSchema } from '../../../common/json';
import type { Framework } from '../../../common/frameworks';
import type { LspRange } from '../../../common/protocol';
import { FRAMEWORKS } from '../../../common/frameworks';
import { compareContracts, type ContractDiff } from '../../../common/contract-diff';
import { installedSdkVersion, type LaunchSpec } from './launch';
import { playgroundBundle } from '../playground/lazy';

export interface LiveSession {
  /** Epoch ms when the server process was started. */
  startedAt: number;
  /** The files the running process loaded (its entry file at least). */
  entryFile: string;
  listTools(): Promise<JsonSchema[]>;
  close(): Promise<void>;
  /** Last lines the server wrote to stderr (for error messages). */
  stderrTail(): string;
  /** Who runs it: "preview" for our own adapter, "playground" for a playground session. */
  owner: 'preview' | 'playground';
}

/** Starts the server described by `spec` and connects the SDK Client to it (liveClient.ts, loaded with dist/playground.js on first use). */
export async function startLiveSession(spec: LaunchSpec, timeoutMs?: number): Promise<LiveSession> {
  return playgroundBundle().startLiveSession(spec, timeoutMs);
}

function mtime(file: string): number | undefined {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Why a running server may be stale: a watched file was saved after it started, or a compiled entry is older than its source. */
export function staleness(session: Pick<LiveSession, 'startedAt' | 'entryFile'>, sourceFiles: string[]): { message: string } | undefined {
  for (const f of sourceFiles) {
    const m = mtime(f);
    if (m !== undefined && m > session.startedAt) {
      return { message: `${f.split(/[\\/]/).pop()} was saved at ${new Date(m).toLocaleTimeString()}, after the server started (${new Date(session.startedAt).toLocaleTimeString()}).` };
    }
  }
  const entry = mtime(session.entryFile);
  if (entry !== undefined) {
    for (const f of sourceFiles) {
      const m = mtime(f);
      if (f !== session.entryFile && m !== undefined && m > entry) {
        return { message: `the compiled ${session.entryFile.split(/[\\/]/).pop()} is older than ${f.split(/[\\/]/).pop()}: rebuild.` };
      }
    }
  }
  return undefined;
}

export interface LiveCompareInput {
  toolName: string | undefined;
  predicted: JsonSchema | undefined;
  liveTools: JsonSchema[];
  unresolved: { part: string; reason: string; uri: string; range: LspRange }[];
  session: Pick<LiveSession, 'startedAt' | 'entryFile'>;
  sourceFiles: string[];
  unsaved: boolean;
  framework: Framework;
  frameworkVersion?: string;
  spec?: LaunchSpec;
  workspaceRoot?: string;
}

/** Finds the live tool by name and compares it with the prediction, with every fact that may explain a difference. */
export function compareWithLive(input: LiveCompareInput): ContractDiff {
  const live = input.liveTools.find((t) => t.name === input.toolName);
  const packageName = FRAMEWORKS[input.framework].versionPackage;
  const installed = input.spec ? installedSdkVersion(input.spec, packageName, { workspaceRoot: input.workspaceRoot }) : undefined;
  return compareContracts({
    toolName: input.toolName,
    predicted: input.predicted,
    live,
    unresolved: input.unresolved,
    stale: staleness(input.session, input.sourceFiles),
    unsaved: input.unsaved,
    sdk: { packageName, predicted: input.frameworkVersion, installed },
  });
}
