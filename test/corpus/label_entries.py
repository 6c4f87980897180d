# The label entries a judge script prints for labels.json: one entry per anchor and verdict (package, file, rule,
# tool, line), counting the findings that share it. Shared by judge.py, judge-recall.py and judge-pycorpus.py.
import collections, json


def print_label_entries(findings, judge):
    groups = collections.OrderedDict()
    for x in findings:
        v, why = judge(x)
        k = (x['package'], x['file'], x['rule'], x['tool'], x['line'], v)
        if k in groups:
            groups[k]['count'] += 1
        else:
            groups[k] = {'package': x['package'], 'file': x['file'], 'rule': x['rule'], 'tool': x['tool'], 'line': x['line'], 'verdict': v, 'count': 1, 'message': x['message'][:200], 'reason': why}
    print(json.dumps(list(groups.values()), indent=1, ensure_ascii=False))
