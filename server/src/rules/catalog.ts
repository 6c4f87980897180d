import type { Rule } from './types';
import { toolNameInvalid } from './tool-name-invalid';
import { toolNameNotPortable } from './tool-name-not-portable';
import { toolNameVague } from './tool-name-vague';
import { toolNameNotVerbObject } from './tool-name-not-verb-object';
import { toolNameDuplicate } from './tool-name-duplicate';
import { toolNameStyleMixed } from './tool-name-style-mixed';
import { descriptionMissing } from './description-missing';
import { descriptionTooShort } from './description-too-short';
import { descriptionNoUsageGuidance } from './description-no-usage-guidance';
import { descriptionNoReturnInfo } from './description-no-return-info';
import { descriptionTooLong } from './description-too-long';
import { descriptionPlaceholder } from './description-placeholder';
import { descriptionHiddenInstructions } from './description-hidden-instructions';
import { promptDescriptionMissing } from './prompt-description-missing';
import { resourceDescriptionMissing } from './resource-description-missing';
import { resourceUriUnreadable } from './resource-uri-unreadable';
import { resourceCacheHintInvalid } from './resource-cache-hint-invalid';
import { resourceUriTemplateInvalid } from './resource-uri-template-invalid';
import { paramDescriptionMissing } from './param-description-missing';
import { docstringArgsNotInSchema } from './docstring-args-not-in-schema';
import { docstringArgsMismatch } from './docstring-args-mismatch';
import { paramEnumInDescription } from './param-enum-in-description';
import { paramUnboundedString } from './param-unbounded-string';
import { paramUnboundedNumber } from './param-unbounded-number';
import { paramNumberShouldBeInteger } from './param-number-should-be-integer';
import { paramUntyped } from './param-untyped';
import { paramFormatHintMissing } from './param-format-hint-missing';
import { paramDefaultMismatch } from './param-default-mismatch';
import { paramNestedTooDeep } from './param-nested-too-deep';
import { paramTooMany } from './param-too-many';
import { paramNameAmbiguous } from './param-name-ambiguous';
import { paramIdempotencyKeyExposed } from './param-idempotency-key-exposed';
import { paramPrivateName } from './param-private-name';
import { inputSchemaNotObject } from './input-schema-not-object';
import { schemaUnrepresentable } from './schema-unrepresentable';
import { outputSchemaMissing } from './output-schema-missing';
import { structuredContentWithoutText } from './structured-content-without-text';
import { outputSchemaWithoutStructuredContent } from './output-schema-without-structured-content';
import { responseUnbounded } from './response-unbounded';
import { annotationsMissing } from './annotations-missing';
import { annotationContradictsName } from './annotation-contradicts-name';
import { annotationIncoherent } from './annotation-incoherent';
import { riskyToolWithoutDryRun } from './risky-tool-without-dry-run';
import { errorReturnedAsSuccess } from './error-returned-as-success';
import { errorMessageNotActionable } from './error-message-not-actionable';
import { errorLeaksInternals } from './error-leaks-internals';
import { pathParamUnchecked } from './path-param-unchecked';
import { commandInjection } from './command-injection';
import { secretInContract } from './secret-in-contract';
import { genericExecuteTool } from './generic-execute-tool';
import { syncIoInHandler } from './sync-io-in-handler';
import { tooManyTools } from './too-many-tools';
import { mcpV1Import } from './mcp-v1-import';
import { decoratorNotCalled } from './decorator-not-called';
import { deprecatedServerTool } from './deprecated-server-tool';
import { tsSdkV1Import } from './ts-sdk-v1-import';
import { xMcpHeaderInvalid } from './x-mcp-header-invalid';
import { pathTraversalViaHelper } from './path-traversal-via-helper';
import { urlParamUnrestricted } from './url-param-unrestricted';
import { contextParamMistyped } from './context-param-mistyped';
import { paramRangeNotInSchema } from './param-range-not-in-schema';
import { paramListAsString } from './param-list-as-string';
import { destructiveToolWithoutWarning } from './destructive-tool-without-warning';
import { toolNameVerbMixed } from './tool-name-verb-mixed';
import { toolNameCollides } from './tool-name-collides';

/** One area of the catalogue: a row of the README's "Rules" table. */
interface RuleArea {
  title: string;
  rules: Rule[];
}

/**
 * Every rule, one file each (its page: docs/rules/<id>.md), by area in the order the README's "Rules" table and
 * the CLI's SARIF rule list show them. A new rule goes into its area here.
 */
export const RULE_AREAS: readonly RuleArea[] = [
  {
    title: 'Naming',
    rules: [toolNameInvalid, toolNameNotPortable, toolNameVague, toolNameNotVerbObject, toolNameDuplicate, toolNameStyleMixed, toolNameVerbMixed, toolNameCollides],
  },
  {
    title: 'Description',
    rules: [
      descriptionMissing,
      descriptionTooShort,
      descriptionNoUsageGuidance,
      descriptionNoReturnInfo,
      descriptionTooLong,
      descriptionPlaceholder,
      descriptionHiddenInstructions,
      destructiveToolWithoutWarning,
      promptDescriptionMissing,
      resourceDescriptionMissing,
    ],
  },
  {
    title: 'Parameters',
    rules: [
      paramDescriptionMissing,
      docstringArgsNotInSchema,
      docstringArgsMismatch,
      paramEnumInDescription,
      paramUnboundedString,
      paramUnboundedNumber,
      paramNumberShouldBeInteger,
      paramUntyped,
      paramFormatHintMissing,
      paramDefaultMismatch,
      paramNestedTooDeep,
      paramTooMany,
      paramNameAmbiguous,
      paramIdempotencyKeyExposed,
      paramPrivateName,
      paramRangeNotInSchema,
      paramListAsString,
    ],
  },
  {
    title: 'Schema and output',
    rules: [inputSchemaNotObject, schemaUnrepresentable, outputSchemaMissing, structuredContentWithoutText, outputSchemaWithoutStructuredContent, responseUnbounded, xMcpHeaderInvalid],
  },
  {
    title: 'Annotations and risk',
    rules: [annotationsMissing, annotationContradictsName, annotationIncoherent, riskyToolWithoutDryRun],
  },
  {
    title: 'Errors',
    rules: [errorReturnedAsSuccess, errorMessageNotActionable, errorLeaksInternals],
  },
  {
    title: 'Security and I/O',
    rules: [pathParamUnchecked, commandInjection, secretInContract, genericExecuteTool, syncIoInHandler, pathTraversalViaHelper, urlParamUnrestricted],
  },
  {
    title: 'Server level',
    rules: [tooManyTools],
  },
  {
    title: 'Resources',
    rules: [resourceUriUnreadable, resourceUriTemplateInvalid, resourceCacheHintInvalid],
  },
  {
    title: 'Framework and migration',
    rules: [mcpV1Import, decoratorNotCalled, deprecatedServerTool, tsSdkV1Import, contextParamMistyped],
  },
];

export const RULES: readonly Rule[] = RULE_AREAS.flatMap((a) => a.rules);
