# Review aid for the prompt and resource rules (issue 15): judges their unlabelled findings on the corpus with the
# reasons below (each checked against the installed code, and resources/read run against the live server) and
# prints the label entries to append to labels.json.
# Usage: node --import tsx test/corpus/dump-findings.ts --preset strict --rule resource-description-missing,resource-uri-unreadable,resource-uri-template-invalid,resource-cache-hint-invalid,prompt-description-missing > f.json
#        python3 test/corpus/judge-resources.py f.json
import json, sys, collections


def judge(x):
    r, pkg, line = x['rule'], x['package'], x['line']
    if r == 'resource-uri-unreadable' and pkg == '@takescake/1password-mcp':
        if '{vaultId}' in line:
            return 'keep', 'registered as a static URI with a {vaultId} variable and a scheme starting with a digit: resources/read answers "Resource URI 1password://vaults/{vaultId}/items is invalid" (checked live), and no vault id can ever reach the callback that parses one'
        return 'keep', 'the scheme "1password" starts with a digit, so new URL() rejects it: resources/read of this listed resource answers "Resource URI ... is invalid" (checked live against the installed server)'
    # Low-level servers' resources/list handlers (branch lowsurfaces): the entries as the live servers list them.
    if r == 'resource-description-missing' and pkg == '@modelcontextprotocol/server-everart' and 'Generated Images' in line:
        return 'keep', 'a low-level resources/list entry listed live as {uri: "everart://images", mimeType, name} and nothing else; its resources/read returns an empty blob, so only a description could tell a client what the entry is for (the images are links in the tool results)'
    if r == 'resource-description-missing' and pkg == '@executeautomation/playwright-mcp-server' and 'Browser console logs' in line:
        return 'keep', 'a low-level resources/list entry listed live as {uri: "console://logs", mimeType, name} and nothing else (1.0.12 and 1.0.4): no word on what it holds or when it fills (the console of the page the browser tools opened), which a client needs to decide to read it'
    return None


def main():
    found = json.load(open(sys.argv[1]))
    groups = collections.OrderedDict()
    for x in found:
        if x.get('labelled'):
            continue
        verdict = judge(x)
        if verdict is None:
            print('not judged:', x['package'], x['file'], x['rule'], x['line'], file=sys.stderr)
            continue
        key = (x['package'], x['file'], x['rule'], x['tool'], x['line'], verdict[0])
        if key in groups:
            groups[key]['count'] += 1
        else:
            groups[key] = {'package': x['package'], 'file': x['file'], 'rule': x['rule'], 'tool': x['tool'], 'line': x['line'], 'verdict': verdict[0], 'count': 1, 'message': x['message'], 'reason': verdict[1]}
    print(json.dumps(list(groups.values()), indent=1, ensure_ascii=False))


main()
