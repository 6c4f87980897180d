import type { Rule } from './types';
import { finding } from './util/finding';
import { FRAMEWORKS } from '../../../common/frameworks';

/** What to write instead, by the Python SDK's error. */
function pythonAdvice(message: string): string {
  if (/^ValueError: Mismatch/.test(message))
    return "The URI's `{variables}` and the function's parameters (the Context parameter aside) must be the same names: rename one side, or add the missing variable or parameter.";
  if (/query parameter\(s\)/.test(message)) return 'A client may leave a `{?query}` variable out of the URI: give the parameter bound to it a default value.';
  if (/has no URI template variables/.test(message)) return 'A static URI calls the function with no arguments: add `{param}` variables to the URI for its parameters, or remove them.';
  return 'Each variable is one expression in braces, e.g. `users://{user_id}/posts{?limit}` (RFC 6570).';
}

/**
 * `new ResourceTemplate(template, ...)` parses the template with the SDK's UriTemplate (both lines), which throws on
 * what it cannot parse (an expression left open, a template over its size limits): the server does not start. The
 * front-end runs the SDK's own parser and records its message. Python: `@server.resource(uri)` raises at import when
 * mcp 2.x's UriTemplate.parse refuses the URI, or when the URI's variables are not the function's parameters (mcp 1.x
 * and 2.x compare the two sets; a `{?query}` variable needs a default) — checks the front-end reproduces from the SDK.
 */
export const resourceUriTemplateInvalid: Rule = {
  id: 'resource-uri-template-invalid',
  defaultSeverity: 'error',
  languages: ['typescript', 'python'],
  summary: "A resource URI template the SDK cannot parse, or (Python) whose variables are not the function's parameters: it throws at start-up.",
  checkResource(resource) {
    return (resource.throws ?? [])
      .filter((t) => t.part === 'uriTemplate')
      .map((t) =>
        finding(
          null,
          t.span,
          resource.language === 'python'
            ? `${FRAMEWORKS[resource.framework].name} refuses this resource when the module is imported (${t.message}), so the server does not start and lists nothing. ${pythonAdvice(t.message)}`
            : `The SDK cannot parse this URI template and throws when the server starts: "${t.message}". ` +
                'Each variable is one expression in braces, e.g. `users://{userId}/posts{?limit}` (RFC 6570).',
        ),
      );
  },
};
