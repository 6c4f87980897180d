# Review aid for issue 14's last round (branch precision2): judges the findings a dump marks unlabelled — the
# recall package fetch-mcp 0.0.5 (url-param-unrestricted through got-scraping and a class's static method) — with
# the reasons below, each read in the installed code, and prints the label entries to append to labels.json.
# Usage: node --import tsx test/corpus/dump-findings.ts --preset strict > f.json && python3 test/corpus/judge-precision2.py f.json
import json, sys
from label_entries import print_label_entries


def judge(x):
    r, p, t = x['rule'], x['package'], x['tool'] or ''
    if p != 'fetch-mcp':
        raise SystemExit(f'no judgment for {r} on {p}: {x}')
    if r == 'url-param-unrestricted':
        return 'keep', 'the model\'s URL goes to got-scraping after a scheme test only (/^https?:\\/\\// or an https:// prefix): any host, so http://169.254.169.254/ or localhost is fetched when served over --http / --sse'
    if r == 'ts-sdk-v1-import':
        return 'keep', 'opt-in migration hint (strict only): the import is the TypeScript SDK 1.x, v2 is the stable line and the only one serving 2026-07-28; the message names the v2 import'
    if r == 'deprecated-server-tool':
        return 'keep', 'server.tool() is deprecated in the SDK it installs; registerTool is there'
    if r == 'description-no-return-info':
        return 'kill', 'what comes back is evident from the name and description (the page as Markdown, the transcript), like mcp-server-fetch\'s fetch'
    if r == 'param-format-hint-missing':
        return 'keep', 'a URL/UUID in a plain string: format would let clients validate'
    if r == 'param-number-should-be-integer':
        return 'keep', 'a count typed as number: 2.5 passes the schema'
    if r == 'param-unbounded-number':
        return 'keep', 'a result/size count (max_count, max_results, max_length, context_lines, maxTokens) a model can set huge'
    if r == 'error-leaks-internals' and t == 'fetch_youtube_transcript':
        return 'kill', 'the errors are the package\'s own YoutubeTranscript*Error messages (written for the user) and got\'s errors on www.youtube.com: nothing internal to leak'
    raise SystemExit(f'no judgment for {r}: {x}')


findings = [x for x in json.load(open(sys.argv[1])) if not x.get('labelled')]
print_label_entries(findings, judge)
