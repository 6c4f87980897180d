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

/** Naming, description and parameter rules (RULES.md: Naming, Description, Parameters). One file per rule. */
export const CATALOG_A: Rule[] = [
  toolNameInvalid,
  toolNameNotPortable,
  toolNameVague,
  toolNameNotVerbObject,
  toolNameDuplicate,
  toolNameStyleMixed,
  descriptionMissing,
  descriptionTooShort,
  descriptionNoUsageGuidance,
  descriptionNoReturnInfo,
  descriptionTooLong,
  descriptionPlaceholder,
  descriptionHiddenInstructions,
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
];
