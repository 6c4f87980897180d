import type { Rule } from './types';
import { outputSchemaMissing } from './output-schema-missing';
import { structuredContentWithoutText } from './structured-content-without-text';
import { outputSchemaWithoutStructuredContent } from './output-schema-without-structured-content';
import { errorReturnedAsSuccess } from './error-returned-as-success';
import { errorMessageNotActionable } from './error-message-not-actionable';
import { errorLeaksInternals } from './error-leaks-internals';
import { syncIoInHandler } from './sync-io-in-handler';
import { responseUnbounded } from './response-unbounded';
import { annotationsMissing } from './annotations-missing';
import { annotationContradictsName } from './annotation-contradicts-name';
import { annotationIncoherent } from './annotation-incoherent';
import { riskyToolWithoutDryRun } from './risky-tool-without-dry-run';
import { pathParamUnchecked } from './path-param-unchecked';
import { commandInjection } from './command-injection';
import { secretInContract } from './secret-in-contract';
import { genericExecuteTool } from './generic-execute-tool';
import { mcpV1Import } from './mcp-v1-import';
import { decoratorNotCalled } from './decorator-not-called';
import { deprecatedServerTool } from './deprecated-server-tool';
import { inputSchemaNotObject } from './input-schema-not-object';
import { schemaUnrepresentable } from './schema-unrepresentable';
import { tooManyTools } from './too-many-tools';

/** Results/errors, annotations, security and server-level rules (RULES.md). One file per rule. */
export const CATALOG_B: Rule[] = [
  outputSchemaMissing,
  structuredContentWithoutText,
  outputSchemaWithoutStructuredContent,
  errorReturnedAsSuccess,
  errorMessageNotActionable,
  errorLeaksInternals,
  syncIoInHandler,
  responseUnbounded,
  annotationsMissing,
  annotationContradictsName,
  annotationIncoherent,
  riskyToolWithoutDryRun,
  pathParamUnchecked,
  commandInjection,
  secretInContract,
  genericExecuteTool,
  mcpV1Import,
  decoratorNotCalled,
  deprecatedServerTool,
  inputSchemaNotObject,
  schemaUnrepresentable,
  tooManyTools,
];
