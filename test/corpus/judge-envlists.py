# Review aid for the tools of mcp-server-kubernetes 4.1.7 and @antv/mcp-server-chart 0.9.10, predicted since branch
# envlists reads a low-level list chosen by environment variables (alternatives.ts): judges the findings a dump marks
# unlabelled, each read in the installed code and the live tools/list, and prints the entries to append to
# labels.json. Only the verdicts that are sure are printed; the others are left for review (listed on stderr).
# Usage: node --import tsx test/corpus/dump-findings.ts --preset strict > f.json && python3 test/corpus/judge-envlists.py f.json
import json, sys
from label_entries import print_label_entries

PACKAGES = {'mcp-server-kubernetes', '@antv/mcp-server-chart'}
# Names that start with a verb (after kubectl_) the rule's word list lacks; names with no verb in them.
VERB_NAMES = {'upgrade_helm_chart', 'kubectl_scale', 'kubectl_rollout', 'kubectl_reconnect', 'exec_in_pod', 'cleanup'}
NO_VERB = {'kubectl_context', 'node_management', 'kubectl_generic'}


def judge(x):
    r, p, t = x['rule'], x['package'], x['tool'] or ''
    if r == 'too-many-tools':
        return 'keep', 'over 20 tools on one server (23 and 27): every contract is sent each turn'
    if r == 'param-description-missing':
        return 'keep', 'port_forward and stop_port_forward publish bare {"type": ...} properties: nothing tells the model the meaning or format'
    if r == 'param-too-many':
        return 'keep', '12 and 23 parameters (kubectl_create: one per subcommand option), most of them optional switches a model rarely needs'
    if r == 'generic-execute-tool' and t in ('kubectl_generic', 'exec_in_pod'):
        return 'keep', 'runs any kubectl command / any executable in a pod: worth a warning even when it is the point of the tool'
    if r == 'annotations-missing' and t == 'stop_port_forward':
        return 'keep', 'annotations hold only a title: no hint says it stops a running process, so clients must assume the worst'
    # Not judged: annotation-contradicts-name on the 27 generate_*_chart (readOnlyHint: true). They post the data to a
    # rendering service and return a URL: arguably read-only, but a kill of a recommended rule needs the rule changed.
    if r == 'param-range-not-in-schema':
        return 'keep', 'the description says "between 0 and 1" and the schema has no minimum or maximum'
    if r == 'tool-name-not-verb-object' and t in VERB_NAMES:
        return 'kill', 'the name starts with a verb after the server prefix kubectl_ (scale, rollout, reconnect) or is one the word list lacks (upgrade, exec, cleanup)'
    if r == 'tool-name-not-verb-object' and t in NO_VERB:
        return 'keep', 'no verb at all (context, management, generic): the model has to guess whether it reads, switches or changes'
    # Judged by the lead after the merge, with the live tools/list and the handlers read.
    if r == 'param-nested-too-deep':
        return 'keep', 'a tree of nodes nested 3-4 object levels (data -> children -> children): a flat list of nodes with parent ids is the shape models fill reliably'
    if r == 'generic-execute-tool' and t == 'kubectl_create':
        return 'keep', '`command` is the argv a created Job/CronJob runs in the cluster: any program, run with the cluster\'s rights'
    if r == 'description-no-return-info':
        if t in ('kubectl_logs', 'explain_resource'):
            return 'kill', 'what comes back is evident from the name and description: the log text, the documentation text'
        return 'keep', 'a read tool whose output shape (fields, format) is not stated: the model cannot plan on it'
    if r == 'destructive-tool-without-warning':
        if t == 'install_helm_chart':
            return 'kill', 'installs a new release: nothing is lost; the destructiveHint the server declares is what is off'
        return 'keep', 'declares destructiveHint: true and overwrites or removes what runs (apply/patch/upgrade replace config, scale down and drain evict pods, rollout restarts, exec and generic run anything) with no word of it in the description'
    if r == 'param-enum-in-description':
        if t == 'kubectl_apply':
            return 'kill', '"use either manifest or filename" names the sibling parameter, not values of this one'
        return 'keep', 'a closed list written in the description (deployment, replicaset, statefulset) on a free string: an enum would let clients validate'
    if r == 'param-format-hint-missing':
        return 'keep', 'a Helm repository URL in a plain string: format: uri would let clients validate'
    if r == 'param-name-ambiguous':
        return 'kill', 'the id of the one thing the tool names (the port-forward that port_forward started): the conventional name'
    if r == 'response-unbounded':
        return 'kill', 'bounded by the cluster\'s API: the resource kinds it serves, not an open-ended set'
    if r == 'tool-name-not-verb-object' and t == 'port_forward':
        return 'kill', 'object_verb order (port_forward): the action is in the name, as kubectl names it'
    return None


findings = [x for x in json.load(open(sys.argv[1])) if not x.get('labelled') and x['package'] in PACKAGES]
judged = [x for x in findings if judge(x)]
for x in findings:
    if not judge(x):
        print(f"left for review: {x['package']} [{x['rule']}] {x['tool']}: {x['message'][:100]}", file=sys.stderr)
print_label_entries(judged, judge)
