#!/usr/bin/env python3
"""Compare a regenerated golden file with the committed one, record by record.

    python3 compare_golden.py COMMITTED.json REGENERATED.json

Records are matched by (case, metric, params) and must come in the same order. Every field
must be equal to the last bit (floats are compared as the doubles they parse to, NaN and
infinities as their strings), except `value` on records marked `tie_order_dependent: true`:
that is one machine's order of tied scores (np.argsort in scikit-learn, torch's argsort on rows
over 16 labels), so it is reported but not counted as a difference; their `range` and
`value_if_stable_argsort` are compared. Metadata (environment, notes, generator) is not
compared. Exits 1 when any record differs.
"""
import json
import sys


def key(record):
    return (record["case"], record["metric"], json.dumps(record["params"], sort_keys=True))


def main(committed_path, regenerated_path):
    with open(committed_path) as f:
        committed = json.load(f)["results"]
    with open(regenerated_path) as f:
        regenerated = json.load(f)["results"]
    problems = 0
    if [key(r) for r in committed] != [key(r) for r in regenerated]:
        old, new = {key(r) for r in committed}, {key(r) for r in regenerated}
        print(f"record keys differ: {len(old - new)} only committed, {len(new - old)} only new")
        for k in sorted(old - new)[:10]:
            print("  only committed:", k)
        for k in sorted(new - old)[:10]:
            print("  only regenerated:", k)
        problems += 1
    new_by_key = {key(r): r for r in regenerated}
    machine_order = 0
    for old in committed:
        new = new_by_key.get(key(old))
        if new is None:
            continue
        fields = set(old) | set(new)
        for field in sorted(fields):
            a, b = old.get(field), new.get(field)
            if a == b:
                continue
            if field == "value" and old.get("tie_order_dependent") is True:
                machine_order += 1
                continue
            problems += 1
            print(f"{key(old)} {field}: committed {a!r}, regenerated {b!r}")
    print(
        f"{len(committed)} committed records, {len(regenerated)} regenerated; "
        f"{problems} differences; {machine_order} tie-order-dependent values differ "
        "(one machine's tie order, not compared)"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
