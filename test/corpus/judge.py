# One-off review aid kept with the labels: the judgments below were made by reading the code around each group of
# findings in the installed corpus (see labels.json "reason"); re-running it rebuilds labels.json from a findings dump.
# Usage: python3 test/corpus/judge.py findings.json > test/corpus/labels.json && npx prettier --write test/corpus/labels.json
import json, re, sys
from label_entries import print_label_entries

READ = re.compile(r'^(get|list|search|find|read|show|query|all|filter|schema)|^"""(execute a read)|Shows|List ', re.I)

OW_TWINS = {'add_heading', 'insert_header_near_text', 'add_paragraph', 'insert_line_or_paragraph_near_text', 'add_footnote_to_document', 'add_footnote_after_text', 'add_footnote_before_text', 'add_footnote_enhanced', 'add_footnote_robust', 'delete_footnote_from_document', 'delete_footnote_robust', 'merge_table_cells', 'merge_table_cells_horizontal', 'merge_table_cells_vertical', 'set_table_column_width', 'set_table_column_widths', 'get_all_comments', 'get_comments_by_author', 'get_comments_for_paragraph'}

def judge(x):
    r, p, t, line, msg = x['rule'], x['package'], x['tool'] or '', x['line'], x['message']
    ow = p == 'office-word-mcp-server'
    if r == 'param-description-missing':
        if p == 'mcp-server-time':
            return 'kill', 'Field(description=f"... {local_tz} ...") exists: an f-string of a run-time value the analysis cannot read, not a missing description'
        return 'keep', 'the schema has no description for this parameter and nothing else tells the model its meaning or format'
    if r == 'param-default-mismatch':
        return 'keep', 'FastMCP publishes {"type": "string"|"integer", "default": null}: a model sending the default back is rejected by pydantic (a warning, not an error: omitting it works)'
    if r == 'annotation-incoherent':
        return 'kill', 'destructiveHint: false / idempotentHint next to readOnlyHint: true agree with it; nothing contradicts'
    if r == 'annotations-missing':
        return 'keep', 'a writing tool with no annotations: clients assume destructive and open-world'
    if r == 'description-no-usage-guidance':
        # Re-judged tool by tool (issue 14, second round): a first pass kept all 54 office-word tools.
        if ow and t in OW_TWINS:
            return 'keep', 'a sibling names the same action on the same object (add_heading / insert_header_near_text, the five add_footnote tools, the three merge_table_cells, the three comment readers): the model needs to know which to pick'
        if ow:
            return 'kill', 'no sibling names the same action on the same object (re-judged tool by tool: the first keep was given to all 54 office-word tools); the description says what it does, a "use when" sentence adds nothing'
        if t == 'list_directory':
            return 'keep', 'list_directory_with_sizes gives the same listing plus sizes, with a near-identical description: nothing says when to pick this one (re-judged: the first kill missed that sibling)'
        return 'kill', 'the description says what the tool does and no sibling does the same; a "use when" sentence adds nothing'
    if r == 'description-no-return-info':
        if re.search(r'get_document_text|echo|roots|fetch|query-docs|calculat|"""Execute a (read|write)', t + line):
            return 'kill', 'what comes back is evident from the name and description (the text, the echo, the page, the query result)'
        if re.search(r'^(maps_(search_places|place_details|elevation|directions)|slack_get_|airbnb_)', t):
            return 'keep', 'a read tool whose output shape (fields, format) is not stated: the model cannot plan on it (re-judged: first taken for a write by its server-prefixed name, maps_ / slack_ / airbnb_, but it only reads)'
        if t in ('insert_numbered_list_near_text', 'search_and_replace'):
            return 'kill', 'a write tool (it inserts a list / replaces text): it returns a status message, nothing the model needs described (re-judged: first taken for a read by the "list" / "search" in its name)'
        if READ.search(t) or READ.search(line.lstrip('description="').lstrip()) or 'annotated' in t:
            return 'keep', 'a read tool whose output shape (fields, format) is not stated: the model cannot plan on it'
        return 'kill', 'a write or action tool: it returns a status message, nothing the model needs described'
    if r == 'description-too-short':
        return 'kill', 'short but complete: name plus description say exactly what this simple tool does'
    if r == 'description-too-long':
        return 'keep', 'over 1,500 characters sent on every turn; much of it is usage essay that could be trimmed'
    if r == 'description-placeholder':
        if t == 'merge_pull_request':
            return 'keep', '"Merge a pull request" only repeats the tool name merge_pull_request: nothing on when to use it or what it needs (mergeable state, method)'
        return 'kill', '<revision> / ref://<id> is syntax in a worked example, not an unfilled template'
    if r == 'description-missing':
        return 'kill', 'the tool list is built by tool_handler.get_tool_description(): the description exists, the analysis cannot see it'
    if r == 'mcp-v1-import':
        return 'kill', 'the package pins mcp<2,>=1.4.1 (Requires-Dist), where mcp.server.fastmcp exists'
    if r == 'tool-name-not-verb-object':
        if t in ('all_table_names', 'schema_definitions', 'directory_tree', 'highlight_table_header'):
            return 'keep', 'a noun phrase: the action is not in the name'
        return 'kill', 'the name starts with a verb (or is one: fetch, search, echo) the word list lacked; sequentialthinking is an established name'
    if r == 'param-unbounded-string':
        return 'kill', 'free text whose natural size is unbounded (content, prompt, query) or a short name no model abuses; a maxLength would only reject valid input'
    if r == 'param-unbounded-number':
        if re.search(r'font_size|"top"', msg):
            return 'kill', 'a formatting value (font size, cell padding), not a result count: no call can ask for 100000 results with it'
        if '"rows"' in msg:
            return 'keep', 'rows of a new table: a count the model can set to 100000'
        return 'keep', 'a result/size count (max_count, max_results, max_length, context_lines, maxTokens) a model can set huge'
    if r == 'param-number-should-be-integer':
        if '"top"' in msg:
            return 'kill', 'cell padding in points is legitimately fractional'
        return 'keep', 'a count typed as number: 2.5 passes the schema'
    if r == 'param-name-ambiguous':
        if '"data"' in msg and ow:
            return 'keep', 'add_table data: a 2-D array of cells, the name says neither shape nor content'
        return 'kill', 'a, b of a sum, q of a filter, params of a query, data described next to it: the conventional name, already described'
    if r == 'param-format-hint-missing':
        if '"message"' in msg:
            return 'kill', 'the message is free text that mentions a URL, not a URL'
        return 'keep', 'a URL/UUID in a plain string: format would let clients validate'
    if r == 'param-enum-in-description':
        return 'kill', '"(e.g., 000000)" / "(e.g., Helvetica)" is an example, not a closed list'
    if r == 'param-too-many':
        return 'keep', '11 parameters, most of them optional formatting switches that could be one object'
    if r == 'too-many-tools':
        return 'keep', '54 tools on one server: every contract is sent each turn'
    if r == 'response-unbounded':
        if re.search(r'get-roots-list|read_multiple_files|list_allowed_directories|write_neo4j|insert_numbered_list|search_and_replace|schema|execute_query', t + line):
            return 'kill', 'bounded by what the caller passes or by configuration (roots, allowed dirs, the files asked for), or not a list at all'
        return 'keep', 'lists a directory / graph / comment set / query result that can be arbitrarily large, with no limit'
    if r == 'risky-tool-without-dry-run':
        if 'write_neo4j' in line:
            return 'keep', 'runs any write Cypher: a dry run (EXPLAIN) would show what it would change'
        return 'kill', 'acts on exactly the item named in its arguments; a dry run would repeat the arguments, the client confirmation is the safeguard'
    if r == 'structured-content-without-text':
        return 'kill', 'content holds a text block built in a variable, passed through, or an image: the model does not get an empty result'
    if r == 'path-param-unchecked':
        return 'kill', 'the path goes through validatePath() (lib.js: realpath + allowed-directory check) before fs'
    if r == 'error-leaks-internals':
        if 'query' in line or 'e)}' in line and p == 'mcp-alchemy':
            return 'kill', 'the database error on the query the model wrote is the feedback it needs to fix the query'
        return 'keep', 'a raw exception (connection, network) reaches the model: hostnames and stack details leak'
    if r == 'error-message-not-actionable':
        return 'keep', 'names the bad value but not the valid ones (inline, gzip…)'
    if r == 'error-returned-as-success':
        return 'keep', 'the SQL error is returned as a normal result, without isError'
    if r == 'generic-execute-tool':
        if 'calculate' in t:
            return 'kill', 'evaluates arithmetic through a whitelisting AST walk, not code'
        return 'keep', 'runs arbitrary SQL / code: worth a warning even when it is the point of the server'
    if r == 'tool-name-vague':
        return 'keep', '"execute_query" says neither the language (SQL) nor the target'
    if r == 'deprecated-server-tool':
        return 'keep', 'server.tool() is deprecated in the SDK it installs; registerTool is there'
    if r == 'sync-io-in-handler':
        return 'keep', 'gzipSync on a fetched file blocks the event loop'
    if r == 'docstring-args-not-in-schema':
        return 'keep', 'mcp 2.x does not copy Args: into the schema: the live tools/list has no parameter descriptions'
    if r == 'annotation-contradicts-name':
        return 'kill', '"trigger-long-running-operation" only sleeps and reports progress: read-only is right'
    raise SystemExit(f'no judgment for {r}: {x}')

findings = json.load(open(sys.argv[1]))
print_label_entries(findings, judge)
