/** Shared by the error rules: which exceptions a framework shows the model, and what a vague message looks like. */

/** Built-in exceptions: certainly not ToolError subclasses. */
export const BUILTIN_EXCEPTIONS =
  /^(Exception|ValueError|RuntimeError|KeyError|TypeError|LookupError|IndexError|PermissionError|FileNotFoundError|OSError|IOError|NotImplementedError|AssertionError|ConnectionError|TimeoutError|AttributeError)$/;

const GENERIC =
  /^(error|errors|erreur|failed|failure|fail|invalid|invalide|invalid (input|request|argument|arguments|parameter|parameters|params|value|values|data|id)|bad (request|input)|not found|introuvable|internal (server )?error|server error|unknown error|something went wrong|oops|an error occurred|error occurred|operation failed|request failed|unauthorized|forbidden|denied|access denied|exception|ko|nok|\d{3}(\s+[a-z][a-z ]*)?)[.!]*$/i;
const WAY_FORWARD =
  /\b(use|try|must|should|expected|expects?|format|e\.g|example|ex\.|valid values|between|one of|choose|allowed|instead|call|retry|provide|required|at least|at most|like|utilis|essay|doit|choix|avant|first|d'abord|only|seulement|max|min)\b/i;

/** A message that gives the model no way forward: "Invalid", "Error", "500", three words without a hint. */
export function isVagueErrorMessage(message: string): boolean {
  const msg = message.trim();
  if (msg === '') return true;
  const core = msg.replace(/^(error|erreur)\s*[:\-–]\s*/i, '').trim();
  if (GENERIC.test(msg) || GENERIC.test(core)) return true;
  // A placeholder (`${x}`, `{x}`) or a number names a value or a bound: specific enough.
  if (/\$\{|\{[A-Za-z_]|\d/.test(msg)) return false;
  if (WAY_FORWARD.test(msg)) return false;
  return core.split(/\s+/).filter(Boolean).length <= 3;
}
