# Review aid for the findings that appeared when the Python front-end started following decorator factories
# (wikipedia-mcp 2.0.1: @register_tool(...); excel-mcp-server 2.2.2: @tools.reader/writer/destroyer(...)) and bound
# methods with @wraps (mcp-clickhouse 0.7.0: Tool.from_function(_queries.run_query_async)): judges the
# findings a dump marks unlabelled, with the reasons below (each read against the installed code and its live
# tools/list), and prints the label entries to append to labels.json.
# Usage: node --import tsx test/corpus/dump-findings.ts --preset strict > f.json && python3 test/corpus/judge-pycorpus.py f.json
import json, sys
from label_entries import print_label_entries

# Tools with an overlapping sibling (the article, summary and fact tools; links and related topics), each also listed
# under a wikipedia_ alias: the model needs to know which one to pick.
WIKI_OVERLAPPING = {'get_article', 'summarize_article_for_query', 'summarize_article_section', 'extract_key_facts', 'get_related_topics', 'get_links'}

def judge(x):
    r, p, t, msg = x['rule'], x['package'], x['tool'] or '', x['message']
    base = t[len('wikipedia_'):] if t.startswith('wikipedia_') else t
    if p == 'wikipedia-mcp':
        if r == 'param-description-missing':
            return 'keep', 'the live schema has no description for it (the docstring has no Parameters: entry for it): the model sees only the name'
        if r == 'param-unbounded-string':
            return 'kill', 'an article title, section title, topic or search term: no model pads it, a maxLength would only reject valid input'
        if r == 'param-unbounded-number':
            return 'keep', 'a result count or snippet length with no bounds in the schema (search clamps to 500 in code, the others not at all)'
        if r == 'description-no-usage-guidance':
            if base in WIKI_OVERLAPPING:
                return 'keep', 'overlapping siblings (article / summary / query summary / section summary / key facts; links / related topics): the model needs to know which to pick'
            return 'kill', 'no sibling does the same (search, coordinates, sections, connectivity test): a "use when" sentence adds nothing'
        if r == 'description-no-return-info':
            return 'kill', 'the tool publishes an outputSchema (the response model) that states the shape of what comes back'
        if r == 'error-returned-as-success':
            return 'keep', 'the failure is returned as a normal result dict (status "error" / an "error" key) without isError: the client reads it as a result'
        if r == 'response-unbounded':
            if base == 'get_links':
                return 'keep', 'every link of an article, with no limit: a long article has thousands'
            return 'kill', "bounded by the article asked about: its sections or its few coordinates"
        if r == 'error-message-not-actionable':
            return 'kill', 'the error text is the variable summary (the client\'s own message), not the key "title" the rule quotes'
    if p == 'excel-mcp-server':
        if r == 'param-description-missing':
            return 'keep', 'the live schema has no description for it (a $ref parameter\'s $defs model has none either): the model sees only the name'
        if r == 'param-unbounded-string':
            return 'kill', 'a sheet, chart, table or defined name, a search text or a note: no model pads it, a maxLength would only reject valid input'
        if r == 'param-unbounded-number':
            return 'keep', 'max_cells: a page size with a minimum and no maximum, a model can set it huge'
        if r == 'param-too-many':
            return 'keep', 'more than 10 parameters, most of them optional switches: every call makes that many choices'
        if r == 'param-nested-too-deep':
            return 'keep', 'layout -> auto_filter -> filters -> conditions: four object levels the model must fill right'
        if r == 'param-format-hint-missing':
            return 'kill', "a field name whose example mentions a date group ('Months (Date)'), not a date"
        if r == 'response-unbounded':
            return 'keep', 'lists the Excel files of a directory, recursively on request, with no limit'
        if r == 'risky-tool-without-dry-run':
            return 'kill', 'find_cells, its sibling, is the dry run: it lists exactly the cells replace_cells would change'
        if r == 'tool-name-not-verb-object':
            if t == 'goal_seek':
                return 'kill', 'Goal Seek is the name of the Excel command it runs, which the model knows'
            return 'kill', 'transform is a verb the word list lacked'
        if r == 'generic-execute-tool':
            return 'keep', 'writes arbitrary VBA into a macro workbook, which Excel runs once the user enables macros: worth the warning even though editing code is the point'
    if p == 'mcp-clickhouse':
        if r == 'param-description-missing':
            return 'keep', 'the live schema has no description for it; the tool description explains the SQL, not this field'
        if r == 'param-unbounded-string':
            return 'kill', 'an SQL query: its natural size is unbounded, a maxLength would only reject valid input'
        if r == 'param-unbounded-number':
            return 'keep', 'page_size: a page size with a minimum and no maximum, a model can set it huge'
        if r == 'param-name-ambiguous':
            return 'kill', 'params of a query, described in the tool description: the conventional name'
        if r == 'error-returned-as-success':
            return 'keep', 'the failure is returned as a normal result ({"status": "error", ...}) without isError: the client reads it as a result'
        if r == 'error-leaks-internals':
            return 'keep', 'a catch-all Exception: connection and client errors (host, port, credentials) reach the model along with the query errors'
        if r == 'description-no-usage-guidance':
            if t == 'run_chdb_select_query':
                return 'keep', 'two SQL tools (run_query on the ClickHouse server, run_chdb_select_query in-process): the model needs to know which to pick'
            return 'kill', 'no sibling does the same (list databases, list tables): a "use when" sentence adds nothing'
        if r == 'description-no-return-info':
            return 'kill', 'what comes back is evident from the name and description (the database names)'
        if r == 'description-too-short':
            return 'kill', 'short but complete: name plus description say exactly what this simple tool does'
        if r == 'description-too-long':
            return 'keep', 'over 1,500 characters sent on every turn; much of it is usage essay that could be trimmed'
    raise SystemExit(f'no judgment for {r}: {x}')

findings = [x for x in json.load(open(sys.argv[1])) if not x.get('labelled')]
print_label_entries(findings, judge)
