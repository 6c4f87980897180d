# Review aid for the four packages added for the Python registration forms (issue 13, branch pyforms):
# jnpr-pathfinder-mcp 0.2.0 and axians-mcp 1.2.2 (sub-servers mounted with a prefix), mcp-atlassian 0.23.1 (two
# sub-servers mounted with a namespace by a FastMCP subclass) and mcp-server-sqlite 2025.4.25 (the low-level Server).
# Judges the findings a dump marks unlabelled, with the reasons below (each read in the installed code and in the
# live tools/list), and prints the label entries to append to labels.json.
# Usage: node --import tsx test/corpus/dump-findings.ts --preset strict > f.json && python3 test/corpus/judge-pyforms.py f.json
import json, re, sys
from label_entries import print_label_entries


def param(msg):
    m = re.search(r'"([^"]+)" of "([^"]+)"', msg)
    return m.group(1) if m else ''


def judge(x):
    r, p, t, line, msg = x['rule'], x['package'], x['tool'] or '', x['line'], x['message']
    jn, ax, atl, sq = p == 'jnpr-pathfinder-mcp', p == 'axians-mcp', p == 'mcp-atlassian', p == 'mcp-server-sqlite'
    name = param(msg)
    if r == 'annotations-missing' and jn:
        return 'keep', 'a read of the public Pathfinder API (a POST query) with no annotations: clients assume destructive and ask each time; readOnlyHint would spare that (the POST is a query, not a change)'
    if r == 'annotations-missing':
        return 'keep', 'a writing tool with no annotations: clients assume destructive and open-world'
    if r == 'param-description-missing':
        return 'keep', 'the live schema has no description for it: the model sees only the name and type'
    if r == 'param-unbounded-number':
        if name == 'text_selection_match_count':
            return 'kill', 'the number of times the selected text occurs on the page, not a result count: no call can flood anything with it'
        return 'keep', 'a result count (limit, page_size, return_limit) with no maximum in the schema: a model can ask for 100000'
    if r == 'tool-name-not-portable':
        return 'keep', 'the mount prefix makes it 65 characters: model APIs taking ^[a-zA-Z0-9_-]{1,64}$ refuse or rewrite it'
    if r == 'tool-name-not-verb-object':
        if t == 'jira_transition_issue':
            return 'kill', "transition is Jira's verb for a status change: the action is in the name"
        if jn:
            return 'kill', 're-judged with the namespaced-noun standard of the other servers (maps_elevation, git_status, airbnb_listing_details): the juniper_<explorer>_ prefix is the mounted server\'s namespace and the noun after it names what the read returns, which the description opens with ("Get ..."); the model reads it as the explorer\'s endpoint'
        return 'keep', 'a noun phrase after the server prefix (topic_hierarchy, platform_information...): the action (get, list) is not in the name'
    if r == 'description-no-return-info':
        if atl:
            return 'keep', 'a read tool: its docstring says what comes back under Returns:, which FastMCP 3.x cuts from the published description, so the model never sees it'
        return 'keep', 'a read tool whose output shape (fields, format) is not stated: the model cannot plan on it'
    if r == 'param-enum-in-description':
        if ax:
            return 'keep', 'a closed list written in the description (north/south/east/west, the four seasons, camping/hotel/hostel) on a free string: Literal would let clients validate'
        if name in ('page_width', 'state', 'metrics'):
            return 'keep', "a closed set written in prose ('full-width' / 'default', future|active|closed, the six SLA metrics) on a free string: the schema could carry it"
        return 'kill', 'examples or common values ("Examples:", "Common values", "e.g."), a sibling parameter or a format name, not a closed list of this parameter'
    if r == 'response-unbounded':
        if sq:
            return 'kill', 'bounded by the database asked about (its tables) or not a list at all (write_query returns the affected row count)'
        if t == 'jira_get_alerts' or t == 'weather_get_alerts':
            return 'keep', "every active alert of a US state, each several paragraphs: a storm day returns dozens, with no limit"
        if t in ('confluence_download_content_attachments', 'confluence_get_page_images', 'jira_download_attachments', 'jira_get_issue_images'):
            return 'keep', 'every attachment or image of the page or issue, with its content: a large page returns megabytes, with no limit'
        if t in ('jira_get_all_projects', 'jira_get_create_fields', 'jira_get_project_fields', 'jira_get_project_versions'):
            return 'keep', 'all projects / fields / versions of an instance or project: hundreds on a large Jira, with no limit'
        return 'kill', 'bounded by the one issue, request type or project asked about (its watchers, dates, forms, transitions, components, issue types) or by the keys the caller passes'
    if r == 'param-format-hint-missing':
        if name in ('started', 'start_date', 'end_date', 'release_date', 'form_id', 'url', 'icon_url'):
            return 'keep', 'a date, timestamp, UUID or URL in a plain string: the format would let clients validate'
        return 'kill', 'an ID, name, free text or JSON string whose description mentions a URL, an e-mail or a date as an example or as where to find it: not a value of that format'
    if r == 'param-list-as-string':
        return 'keep', 'a comma-separated list in one string (issue keys, file paths, components, metrics): the model joins by hand and no client can check the items'
    if r == 'description-no-usage-guidance':
        if t in ('confluence_create_page', 'confluence_create_page_from_template'):
            return 'keep', 'both create a page and neither says when to use the template one (Cloud only, a template id) rather than the plain one'
        return 'kill', 'the descriptions tell them apart (one issue vs several; another project vs the backlog): a "use when" sentence adds nothing'
    if r == 'description-placeholder':
        return 'keep', '"Update jira sprint." / "Add issues to a Jira sprint." only repeat the tool name: nothing on what changes or what it needs'
    if r == 'description-too-long':
        return 'keep', 'over 1,500 characters sent on every turn; much of it is a field-by-field format guide that could move to the parameter'
    if r == 'destructive-tool-without-warning':
        if t in ('confluence_update_page', 'jira_update_issue', 'jira_update_sprint'):
            return 'keep', 'overwrites what is there (the page body, the fields given; state=closed closes the sprint, which Jira does not reopen) and the description only says "update"'
        return 'kill', 'adds, copies, uploads a new version, links or transitions: nothing is lost; the destructiveHint the server declares is what is off'
    if r == 'error-leaks-internals':
        if re.search(r'Invalid base64|Invalid input for|not valid JSON', line):
            return 'kill', "the decoder's message on the model's own argument (bad JSON, bad base64): the feedback it needs, nothing internal"
        return 'keep', 'a raw exception of the Atlassian HTTP client (URL, host, response body) reaches the model'
    if r == 'error-message-not-actionable':
        return 'kill', 'the "message" quoted is a key whose value is the exception text or a built message (str(e), error_message), not an empty one'
    if r == 'error-returned-as-success':
        return 'keep', 'the failure is returned as a normal JSON result with an "error" key, without isError: the client and the model read it as a result'
    if r == 'param-range-not-in-schema':
        return 'keep', 'the description says 1-50 and the schema has no bound: clients cannot validate and a model asking for 100 gets an API error'
    if r == 'param-too-many':
        return 'keep', '12 and 13 parameters, most of them optional switches (format, width, emoji, parent): every call makes that many choices'
    if r == 'too-many-tools':
        return 'keep', '98 tools on one server (the finding counts each mounted module apart: 63 Jira, 35 Confluence): every contract is sent each turn'
    raise SystemExit(f'no judgment for {r}: {x}')


findings = [x for x in json.load(open(sys.argv[1])) if not x.get('labelled')]
print_label_entries(findings, judge)
