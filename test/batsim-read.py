#!/usr/bin/env python3
"""batsim-read.py JOBS.csv NODES [TOPOSIM.csv] - read a jobs CSV as
Batsim's documentation defines it, with no Batsim code: every column
named there, in JobsTracer's order, typed as documented; the schedule's
identities (finish = start + execution, waiting = start - submit,
turnaround = finish - submit, stretch = turnaround / execution);
allocated_resources an interval set in Batsim's string form ("0-3 7")
within the machine's NODES nodes, at least as many as requested.  With
TOPOSIM.csv (toposim's own jobs CSV of the same run): the same runs, each
with the same start, end and node count.  Prints one line of counts;
exit 1 with the first errors.

Columns: https://batsim.readthedocs.io/en/latest/output-jobs.html
Interval sets: https://batsim.readthedocs.io/en/latest/interval-set.html
"""
import csv
import re
import sys

COLUMNS = ["job_id", "workload_name", "profile", "submission_time",
           "requested_number_of_resources", "requested_time", "success",
           "final_state", "starting_time", "execution_time", "finish_time",
           "waiting_time", "turnaround_time", "stretch",
           "allocated_resources", "consumed_energy", "metadata"]
NUMBERS = ["submission_time", "requested_time", "starting_time",
           "execution_time", "finish_time", "waiting_time",
           "turnaround_time", "consumed_energy"]
STATES = {"COMPLETED_SUCCESSFULLY", "COMPLETED_FAILED",
          "COMPLETED_WALLTIME_REACHED", "COMPLETED_KILLED", "REJECTED"}
INTERVAL = re.compile(r"^(\d+)(?:-(\d+))?$")
errors = []


def bad(line, what):
    if len(errors) < 10:
        errors.append(f"line {line}: {what}")


def interval_set(s, line, nodes):
    """The indices of "0-3 7"; each interval a-b with a <= b < nodes."""
    out = set()
    for item in s.split(" "):
        m = INTERVAL.match(item)
        if not m:
            bad(line, f"allocated_resources '{s}': '{item}' is not an interval")
            return out
        a, b = int(m[1]), int(m[2] or m[1])
        if a > b or b >= nodes:
            bad(line, f"allocated_resources '{s}': {item} not within 0-{nodes - 1}")
        out |= set(range(a, b + 1))
    return out


def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def check_row(r, line, nodes):
    v = {}
    for c in NUMBERS:
        try:
            v[c] = float(r[c])
        except ValueError:
            bad(line, f"{c} '{r[c]}' is not a number")
            return None
    try:
        req = int(r["requested_number_of_resources"])
    except ValueError:
        bad(line, f"requested_number_of_resources '{r['requested_number_of_resources']}' is not an integer")
        return None
    if r["success"] not in ("0", "1"):
        bad(line, f"success '{r['success']}' is not 0 or 1")
    if r["final_state"] not in STATES:
        bad(line, f"final_state '{r['final_state']}' is not a documented state")
    if (r["success"] == "1") != (r["final_state"] == "COMPLETED_SUCCESSFULLY"):
        bad(line, f"success {r['success']} with final_state {r['final_state']}")
    if not r["job_id"] or not r["workload_name"]:
        bad(line, "empty job_id or workload_name")
    if not close(v["finish_time"], v["starting_time"] + v["execution_time"]):
        bad(line, "finish_time != starting_time + execution_time")
    if not close(v["waiting_time"], v["starting_time"] - v["submission_time"]):
        bad(line, "waiting_time != starting_time - submission_time")
    if not close(v["turnaround_time"], v["finish_time"] - v["submission_time"]):
        bad(line, "turnaround_time != finish_time - submission_time")
    if v["waiting_time"] < 0 or v["execution_time"] < 0:
        bad(line, "negative waiting or execution time")
    if v["execution_time"] > 0 and not close(
            float(r["stretch"]), v["turnaround_time"] / v["execution_time"]):
        bad(line, f"stretch {r['stretch']} != turnaround / execution")
    res = interval_set(r["allocated_resources"], line, nodes)
    if len(res) < req:
        bad(line, f"{len(res)} nodes allocated, {req} requested")
    v["nodes"] = len(res)
    return v


def read_toposim(path):
    """id[#n] -> (start, end, nodes_alloc) from toposim's jobs CSV."""
    out = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = r["id"] + ("" if r["attempt"] == "1" else f"#{int(r['attempt']) - 1}")
            out[key] = (float(r["start"]), float(r["end"]), int(r["nodes_alloc"]))
    return out


def main():
    path, nodes = sys.argv[1], int(sys.argv[2])
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        if header != COLUMNS:
            print(f"{path}: columns {header}, expected {COLUMNS}")
            return 1
        seen, jobs, killed = {}, 0, 0
        for line, cells in enumerate(rows, start=2):
            if len(cells) != len(COLUMNS):
                bad(line, f"{len(cells)} fields")
                continue
            r = dict(zip(COLUMNS, cells))
            if r["job_id"] in seen:
                bad(line, f"job_id {r['job_id']} again (line {seen[r['job_id']]})")
            seen[r["job_id"]] = line
            v = check_row(r, line, nodes)
            if v is None:
                continue
            jobs += 1
            killed += r["success"] == "0"
            if len(sys.argv) > 3:
                seen[r["job_id"]] = (line, v)
    if len(sys.argv) > 3 and not errors:
        ref = read_toposim(sys.argv[3])
        if set(ref) != set(seen):
            bad(0, f"{len(set(ref) ^ set(seen))} runs in one CSV only")
        for k, (line, v) in seen.items():
            if k in ref and ref[k] != (v["starting_time"], v["finish_time"], v["nodes"]):
                bad(line, f"job {k}: {ref[k]} in toposim's CSV")
    if errors or not jobs:
        print(f"{path}: " + ("; ".join(errors) if errors else "no job"))
        return 1
    print(f"{path}: {jobs} jobs, {killed} killed, every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
