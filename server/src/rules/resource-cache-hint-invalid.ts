import type { Rule } from './types';
import { finding } from './util/finding';

/**
 * SDK v2's registerResource validates `cacheHint` (the 2026-07-28 cache fields of resources/read results) with
 * assertValidCacheHint: `ttlMs` a non-negative safe integer, `cacheScope` "public" or "private"; anything else is a
 * RangeError at registration, so the server does not start. The front-end records the SDK's message.
 */
export const resourceCacheHintInvalid: Rule = {
  id: 'resource-cache-hint-invalid',
  defaultSeverity: 'error',
  languages: ['typescript'],
  summary: 'A registerResource cacheHint that SDK v2 rejects at registration (ttlMs not a non-negative integer, cacheScope not public/private).',
  checkResource(resource) {
    return (resource.throws ?? [])
      .filter((t) => t.part === 'cacheHint')
      .map((t) =>
        finding(
          null,
          t.span,
          `The SDK throws a RangeError when it registers this resource, so the server does not start: "${t.message}". ` +
            'A cache hint says how long (ttlMs, whole milliseconds, 0 or more) and by whom (cacheScope "public" or "private") a resources/read result may be reused.',
        ),
      );
  },
};
