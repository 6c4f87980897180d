# Review aid for the SDK v2 packages of issue 15 (@takescake/1password-mcp 4.0.2 and the five MCP Apps examples):
# judges their findings with the reasons below (each read in the installed code) and prints the label entries for
# labels.json. Give it the dumps from before and after a rule fix, so the killed findings are labelled too.
# Usage: node --import tsx test/corpus/dump-findings.ts --preset strict --partial > f.json
#        python3 test/corpus/judge-v2.py f.json [before.json ...]
import json, sys, collections

PACKAGES = {'@takescake/1password-mcp', '@modelcontextprotocol/server-map', '@modelcontextprotocol/server-basic-vanillajs',
            '@modelcontextprotocol/server-threejs', '@modelcontextprotocol/server-pdf', '@modelcontextprotocol/server-system-monitor'}
WRITES = {'item_archive', 'item_delete', 'item_edit', 'note_create', 'password_create', 'password_update'}


def judge(x):
    r, t, line, msg = x['rule'], x['tool'] or '', x['line'], x['message']
    # Found once the MCP Apps bundles were predicted (registerAppTool followed, their inlined zod 4.3.5 converted).
    if r == 'param-range-not-in-schema' and t == 'show-map':
        return 'keep', 'the bounds (-180 to 180, -90 to 90) are only in the words: minimum/maximum would let the client reject an out-of-range coordinate before the call'
    if r == 'description-no-return-info' and t == 'show-map':
        return 'kill', 'a display tool: what comes back is the map widget and a one-line confirmation, nothing the model plans on'
    if r == 'response-unbounded' and t == 'show_threejs_scene':
        return 'kill', 'returns a fixed confirmation and { success }, not a list'
    if r == 'description-hidden-instructions':
        return 'kill', 'returnSecret is a flag of a password manager: "include the created password in the response" says what the tool returns, not where the model should carry a secret'
    if r == 'description-missing':
        return 'kill', "the registerTool inside the bundle's minified registerAppTool helper spreads its config parameter ({ ...F }): the description is in the caller's argument, unresolved, not missing"
    if r == 'tool-name-vague':
        if t == 'item_get':
            return 'kill', '"item" is the 1Password entity the description names ("a full 1Password item") and get is the action: the name says what and to what'
        return 'keep', '"op_run" mirrors the op CLI\'s `op run` but names neither what it runs (a shell command) nor its secrets; run_with_secrets would say it'
    if r == 'generic-execute-tool':
        return 'keep', 'runs arbitrary shell commands: worth a warning even when it is the point of the tool (argv without a shell is offered too)'
    if r == 'command-injection':
        return 'keep', '`command` is spawned with shell: shell ?? true (and the model may pick `shell` itself): injected text becomes a command line; the argv form without a shell exists'
    if r == 'annotations-missing':
        return 'keep', 'a writing tool with no annotations: clients assume destructive and open-world'
    if r == 'tool-name-not-verb-object':
        if t in ('geocode', 'learn_threejs'):
            return 'kill', 'the name starts with a verb (or is one: geocode, learn) the word list lacked'
        return 'kill', 'object_verb order (item_delete, password_create, op_check_ref): the action is in the name, and the server uses the order consistently'
    if r == 'description-no-return-info':
        if t in WRITES:
            return 'kill', 'a write or action tool: it returns a status or the item written, nothing the model needs described'
        if t == 'item_get':
            return 'kill', 'the description lists what comes back (title, category, tags, notes, all fields) without the word "returns"'
        if t == 'password_read':
            return 'keep', 'a read tool that returns either the value or "metadata-only" without saying which fields: the model cannot plan on it'
        return 'kill', 'what comes back is evident from the name and description (the generated password, the documentation)'
    if r == 'description-no-usage-guidance':
        if t in ('item_edit', 'password_update'):
            return 'keep', 'item_edit (upsert fields) and password_update (rotate a concealed field) overlap: the model needs to know which to pick for a password change'
        if t == 'op_run':
            return 'kill', 'the description says when: "prefer op_run ... over reading a secret with password_read/item_get"'
        return 'kill', 'the description says what the tool does and no sibling does the same (archive vs delete, list vs search are told apart); a "use when" sentence adds nothing'
    if r == 'param-unbounded-string':
        return 'kill', 'free text whose natural size is unbounded (content, prompt, query) or a short name no model abuses; a maxLength would only reject valid input'
    if r == 'response-unbounded':
        if t == 'item_list':
            return 'keep', 'lists every item of a vault (hundreds or thousands) with no limit or page'
        return 'kill', 'the vaults one service account can access: a handful, set by its configuration'
    if r == 'param-enum-in-description':
        return 'kill', '"Provide either `command` or `argv`" names the sibling parameter, not values of this one'
    if r == 'error-message-not-actionable':
        return 'kill', "relays the cause (Nominatim's HTTP status, fetch failed), which tells the model to retry or rephrase the place"
    if r == 'error-leaks-internals':
        return 'kill', "the only errors are fetch's \"fetch failed\" and the public Nominatim API's status: nothing internal to leak"
    return None, None


def main():
    counts = collections.defaultdict(collections.Counter)
    first = {}
    for path in sys.argv[1:]:
        per = collections.Counter()
        for x in json.load(open(path)):
            if x['package'] not in PACKAGES:
                continue
            key = (x['package'], x['file'], x['rule'], x['tool'], x['line'])
            per[key] += 1
            first.setdefault(key, x)
        for k, n in per.items():
            counts[k]['n'] = max(counts[k]['n'], n)
    out, unjudged = [], []
    for key, c in counts.items():
        x = first[key]
        verdict, reason = judge(x)
        if verdict is None:
            unjudged.append(f"{x['package']} {x['rule']} {x['tool']}: {x['line']}")
            continue
        out.append({'package': key[0], 'file': key[1], 'rule': key[2], 'tool': key[3], 'line': key[4], 'verdict': verdict,
                    'count': c['n'], 'message': x['message'][:200], 'reason': reason})
    if unjudged:
        sys.exit('not judged:\n' + '\n'.join(unjudged))
    json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
    print()


main()
