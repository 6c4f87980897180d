# Review aid for the TypeScript registration-form packages of issue 13 (branch tsforms: circleci, antv chart,
# mermaid, datadog, brave-search 2.1.4 and 2.0.62, perplexity, atlassian-jira, eslint, mobile-mcp, z_ai,
# kubernetes, mapbox, playwright-mcp-server 1.0.12 and 1.0.4, draw.io, and what the per-call helper following adds on
# the MCP Apps bundles): judges the findings a dump marks unlabelled,
# with the reasons below (each read in the installed code and the live tools/list), and prints the entries to append
# to labels.json.
# Usage: node --import tsx test/corpus/dump-findings.ts --preset strict > f.json && python3 test/corpus/judge-tsforms.py f.json
import json, sys
from label_entries import print_label_entries

# Names that start with a verb (after a server prefix: mobile_, playwright_, brave_) the rule's word list lacks,
# or use object_verb order throughout the server.
VERB_NAMES = {'rerun_workflow', 'mute_host', 'unmute_host', 'perplexity_reason', 'mobile_allocate_remote_device', 'mobile_release_remote_device',
              'mobile_launch_app', 'mobile_terminate_app', 'mobile_double_tap_on_screen', 'mobile_long_press_on_screen_at_coordinates',
              'mobile_press_button', 'mobile_swipe_on_screen', 'mobile_type_keys', 'mobile_take_screenshot', 'understand_technical_diagram',
              'diagnose_error_screenshot', 'end_codegen_session', 'playwright_iframe_click', 'playwright_iframe_fill', 'playwright_fill',
              'playwright_expect_response', 'playwright_assert_response', 'playwright_go_back', 'playwright_go_forward', 'playwright_drag',
              'playwright_press_key'}
# Read tools whose result is evident from the name and description (a count, a size, the text, an AI analysis).
EVIDENT_RESULT = {'get_active_hosts_count', 'get_rum_grouped_event_count', 'mobile_list_remote_devices', 'mobile_get_foreground_app',
                  'mobile_get_screen_size', 'mobile_get_orientation', 'mobile_list_elements_on_screen', 'mobile_get_crash',
                  'analyze_data_visualization', 'understand_technical_diagram', 'analyze_image', 'ui_diff_check', 'analyze_video',
                  'playwright_console_logs', 'playwright_get_visible_text', 'playwright_get_visible_html', 'open_drawio_csv'}
# Lists bounded by what they are about: the devices plugged into one machine, the elements of one screen, the pages
# of one file (metadata only), a count, a 3D scene (not a list).
BOUNDED_LISTS = {'get_active_hosts_count', 'mobile_list_available_devices', 'mobile_list_elements_on_screen', 'list_pages', 'show_threejs_scene'}


def judge(x):
    r, p, t, line, msg = x['rule'], x['package'], x['tool'] or '', x['line'], x['message']
    if r == 'deprecated-server-tool':
        return 'keep', 'server.tool() is deprecated in the SDK it installs (1.32: registerTool is there)'
    if r == 'param-description-missing':
        if '"params"' in msg:
            return 'keep', '`{ params: tool.inputSchema.optional() }`: the one published parameter, the object holding every input, has no description'
        return 'keep', 'the schema has no description for this parameter and nothing else tells the model its meaning or format'
    if r == 'description-too-long':
        return 'keep', 'over 1,500 characters sent on every turn (usage essays, worked examples, API references; circleci adds a deprecation notice to each)'
    if r == 'annotations-missing':
        if t == 'generate_mermaid_diagram':
            return 'keep', 'with outputType "file" it writes a PNG to disk, and it declares no annotations'
        return 'keep', 'a writing tool (schedules or cancels a downtime, starts/clears a codegen session, rewrites a page) with no annotations'
    if r == 'too-many-tools':
        return 'keep', 'over 20 tools on one server (21 to 33): every contract is sent each turn'
    if r == 'param-too-many':
        return 'keep', '11 to 26 parameters, most of them optional API switches a model rarely needs'
    if r == 'description-placeholder':
        return 'keep', '"Swipe on the screen" only repeats mobile_swipe_on_screen: nothing on direction, distance or when to use it'
    if r == 'generic-execute-tool':
        return 'keep', 'playwright_evaluate runs arbitrary JavaScript in the page: worth a warning even when it is the point of the tool'
    if r == 'param-range-not-in-schema':
        return 'keep', 'the description says "max: 50" and the schema has no maximum'
    if r == 'ts-sdk-v1-import':
        return 'keep', 'opt-in migration hint (strict only): the import is the TypeScript SDK 1.x, v2 is the stable line and the only one serving 2026-07-28'
    if r == 'response-unbounded':
        if t in BOUNDED_LISTS:
            return 'kill', 'bounded by what it is about (the devices on one machine, the elements of one screen, the pages of one file), a count, or not a list at all'
        return 'keep', 'lists CI results, artifacts, projects, metrics, monitors, dashboards, downtimes, apps, crashes or device models that can run into hundreds, with no limit'
    if r == 'description-no-return-info':
        if t in EVIDENT_RESULT:
            return 'kill', 'what comes back is evident from the name and description (a count, the screen size, the page text, the analysis, the listed fields), or it is an action'
        return 'keep', 'a read tool whose output shape (fields, format) is not stated ("Get incidents from Datadog"): the model cannot plan on it'
    if r == 'destructive-tool-without-warning':
        if t == 'mobile_batch_commands':
            return 'keep', 'declares destructiveHint: true (a step may uninstall or terminate an app) and the description only says it runs steps in sequence'
        return 'kill', 'triggers or reruns a CI pipeline: nothing is deleted or overwritten, and the description says it starts a pipeline'
    if r == 'tool-name-not-verb-object':
        if t in VERB_NAMES or t.startswith('brave_'):
            return 'kill', 'the name starts with a verb (after the server prefix) the word list lacked, or the server names object_verb consistently (brave_web_search)'
        return 'keep', 'a noun phrase or class name (MatrixTool, config_helper, mobile_clipboard, playwright_screenshot, ui_to_artifact): the action is not in the name'
    if r == 'param-name-ambiguous':
        if '"value"' in msg and t in ('playwright_post', 'playwright_put', 'playwright_patch'):
            return 'keep', '"value" is the request body ("Data to post in the body"): the name says neither'
        return 'kill', 'the conventional name, described next to it: x/y of a tap, the id of the crash or response, q of a geocoder, the value to fill, the key pressed, the one wrapper object `params`'
    if r == 'param-number-should-be-integer':
        if t == 'DirectionsTool' or 'timeLimit' in msg:
            return 'kill', 'a vehicle size in metres/tonnes or a duration in seconds: legitimately fractional'
        return 'keep', 'a count typed as number: 2.5 passes the schema'
    if r == 'param-unbounded-number':
        if 'pageOffset' in msg or 'maxSize' in msg or 'timeLimit' in msg:
            return 'kill', 'an offset, an image size in pixels or a duration, not a result count: no call floods the context with it'
        return 'keep', 'a result count (limit, count, maxLength) a model can set huge'
    if r == 'param-enum-in-description':
        return 'keep', 'the description lists the closed set the API accepts (asc/desc; motorway, toll, unpaved...): an enum would let clients validate'
    if r == 'param-format-hint-missing':
        if p == '@aashari/mcp-server-atlassian-jira':
            return 'kill', 'a relative API path ("/rest/api/3/...") or a JMESPath filter, not a URL: format: uri would reject every valid value'
        if '_source' in msg:
            return 'kill', '"Local file path or remote URL": format: uri would reject the local paths it takes'
        if '"selector"' in msg:
            return 'kill', 'a CSS selector for a link, not a URL'
        return 'keep', 'a URL or an ISO date-time in a plain string: a format would let clients validate'
    if r == 'param-list-as-string':
        if t == 'search_shapes':
            return 'kill', 'a free-text search query of keywords, not a list of values'
        return 'keep', 'a comma/semicolon-separated list in one string (locales, coordinate indices, excluded road types): an array would spare the model the joining'
    if r == 'error-message-not-actionable':
        return 'kill', '"Error: ${error.message}" relays the cause (mobilecli, the device), which tells the model what failed'
    if r == 'resource-description-missing':
        # Seen since registerAppResource's minified helper G(server, name, uri, meta, cb) is followed per call; re-judged
        # when merged with apps, whose rule spares an MCP App's view (8929210): the finding no longer comes.
        return 'kill', "re-judged after the merge with apps: an MCP App's view (mimeType text/html;profile=mcp-app) is not offered for the user or the model to attach; the host loads it by the tool's _meta.ui.resourceUri, and the rule spares such views (apps 8929210)"
    raise SystemExit(f'no judgment for {r}: {x}')


findings = [x for x in json.load(open(sys.argv[1])) if not x.get('labelled')]
print_label_entries(findings, judge)
