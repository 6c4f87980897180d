/**
 * The live half of the preview: a running server's tools/list (from the server manager's session, the one the
 * playground uses) compared with the prediction, with the facts that explain a difference (was the source saved
 * after the server started? which SDK version runs?). vscode-free, and free of the MCP stack.
 */
import * as fs from 'node:fs';
import type { JsonSchema } from '../../../common/json';
import type { Framework } from '../../../common/frameworks';
import type { LspRange } from '../../../common/protocol';
import { FRAMEWORKS } from '../../../common/frameworks';
import { compareContracts, type ContractDiff } from '../../../common/contract-diff';
import { installedSdkVersion, type SourceLaunch } from './launch';

/** What the comparison needs to know of the running server process. */
export interface LiveSource {
  /** Epoch ms when the server process was started. */
  startedAt: number;
  /** The file the running process loaded (its entry file). */
  entryFile: string;
}

function mtime(file: string): number | undefined {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Why a running server may be stale: a watched file was saved after it started, or a compiled entry is older than its source. */
export function staleness(session: LiveSource, sourceFiles: string[]): { message: string } | undefined {
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
  session: LiveSource;
  sourceFiles: string[];
  unsaved: boolean;
  framework: Framework;
  frameworkVersion?: string;
  spec?: SourceLaunch;
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
