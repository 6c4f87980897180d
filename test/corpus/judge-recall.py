# Review aid for the recall rules of issue 14 and the two packages added for them (excel-mcp-server 0.1.5,
# awslabs.iam-mcp-server 1.1.2): judges the findings a dump marks unlabelled, with the reasons below (each read in
# the installed code), and prints the label entries to append to labels.json.
# Usage: node --import tsx test/corpus/dump-findings.ts --preset strict > f.json && python3 test/corpus/judge-recall.py f.json
import json, re, sys
from label_entries import print_label_entries

READ = re.compile(r'^(get|list|search|find|read|show|query)', re.I)

def judge(x):
    r, p, t, line, msg = x['rule'], x['package'], x['tool'] or '', x['line'], x['message']
    xl, iam = p == 'excel-mcp-server', p == 'awslabs.iam-mcp-server'
    # The recall rules.
    if r == 'path-traversal-via-helper':
        return 'keep', 'get_excel_path() returns os.path.join(EXCEL_FILES_PATH, filename) (and absolute paths as is) with no containment check; every tool opens what it returns (SSE/HTTP mode)'
    if r == 'context-param-mistyped':
        return 'keep', 'mcp 2.x finds the context by a Context annotation only: ctx: CallToolResult is published as a required object input and the tool never gets its context'
    if r == 'param-range-not-in-schema' and t == 'add_heading':
        return 'keep', "the docstring says Heading level (1-9) and the published schema has no bound: a model sending 0 or 12 is only stopped by python-docx, with a raw error"
    if r == 'param-range-not-in-schema' and t == 'create_role':
        return 'keep', 'the description states the IAM limit, 3600-43200 seconds, and the schema has no bound: a model sending 60 or 86400 gets an AWS ValidationError back'
    if r == 'param-range-not-in-schema' and '"count"' in msg:
        return 'keep', 'count: the description states 1-20 (the Brave API limit: the handler clamps with Math.min(count, 20)) and the schema has no bound: a model asking for 50 silently gets 20'
    if r == 'param-range-not-in-schema':
        return 'keep', 'the description states the API limit (max 100 / 200 / 50000 / 9) and the schema has no maximum: clients cannot validate and models overshoot'
    if r == 'destructive-tool-without-warning':
        return 'keep', 'destructiveHint: true because it silently overwrites an existing file of that name (doc.save / copy to the destination), and the description only says "create" / "copy" / "convert"'
    # Existing rules on the two new packages.
    if r == 'mcp-v1-import':
        return 'keep', 'Requires-Dist mcp[cli]>=1.10.1 has no upper bound: a fresh install gets mcp 2.x, where mcp.server.fastmcp is gone and the server cannot start'
    if r == 'too-many-tools':
        return 'keep', f'{"21" if xl else "29"} tools on one server: every contract is sent each turn'
    if r == 'annotations-missing':
        return 'keep', 'a writing tool with no annotations: clients assume destructive and open-world'
    if r == 'param-description-missing':
        return 'keep', 'no Field description and mcp 1.x does not publish the docstring Args: the model sees only the name'
    if r == 'param-unbounded-string':
        return 'kill', 'a sheet, user, role or policy name no model pads; a maxLength would only reject valid input'
    if r == 'description-no-return-info':
        if READ.search(t):
            return 'keep', 'a read tool whose output shape (fields, format) is not stated: the model cannot plan on it'
        return 'kill', 'a write, validate or action tool: it returns a status message, nothing the model needs described'
    if r == 'description-no-usage-guidance':
        return 'kill', 'the description says what the tool does and no sibling does the same; a "use when" sentence adds nothing'
    if r == 'error-returned-as-success':
        return 'keep', 'the failure is returned as the string "Error: ..." without isError: the client and the model read it as a result'
    if r == 'error-leaks-internals':
        return 'kill', "str(e) of the server's own ValidationError / WorkbookError / SheetError, whose messages are written for the user; other exceptions are re-raised"
    if r == 'param-too-many':
        return 'keep', '18 parameters, most of them optional formatting switches that could be one object'
    if r == 'description-too-short':
        return 'kill', 'short but complete: name plus description say exactly what this simple tool does'
    if r == 'docstring-args-not-in-schema':
        if iam:
            return 'kill', 'every published parameter has Field(description=...): the schema does carry descriptions, the Args: section only repeats them'
        return 'keep', 'mcp 1.x FastMCP does not copy Args: into the schema: the live tools/list has no parameter descriptions'
    if r == 'param-name-ambiguous':
        return 'keep', 'write_data_to_excel data: List[List] with no description: the name says neither shape nor content'
    if r == 'risky-tool-without-dry-run':
        return 'kill', 'acts on exactly the item named in its arguments; a dry run would repeat the arguments, the client confirmation is the safeguard'
    if r == 'tool-name-not-verb-object':
        return 'kill', 'unmerge is a verb the word list lacked'
    if r == 'response-unbounded':
        return 'kill', "bounded by the thing asked about: a sheet's merged ranges, one user's or role's inline policies (AWS caps their size)"
    if r == 'param-unbounded-number':
        if 'max_session_duration' in msg:
            return 'kill', 'a session duration the description bounds to 3600-43200 seconds, not a result count; the proposed le=100 would reject every valid value'
        return 'keep', 'max_items: a result count a model can set huge'
    if r == 'error-message-not-actionable':
        return 'kill', 'the "message" quoted is the variable e: handle_iam_error(e) builds a typed error with the AWS message, not an empty one'
    raise SystemExit(f'no judgment for {r}: {x}')

findings = [x for x in json.load(open(sys.argv[1])) if not x.get('labelled')]
print_label_entries(findings, judge)
