#!/usr/bin/env python3
"""compare.py - how closely a replay placed a real schedule's jobs in time.

usage: compare.py LIVE.sacct REPLAY.csv [--interval S] [--label NAME]
                  [--errors OUT] [--json OUT]

LIVE.sacct: `sacct -P` output with JobID (or JobIDRaw), Submit, Start
and End (ISO UTC or epoch seconds): Slurm's recorded schedule.
REPLAY.csv: toposim's jobs CSV (--jobs-out) of a replay of that sacct
file: columns id, submit, start (seconds; its times are relative to
the replay's first submission, so both are put on one clock by the
first submission, which the replay keeps).

Per job present in both (jobs that never started are left out and
counted), the start-time error = replay start - Slurm's start.
Printed, one `key value` per line:
  jobs            jobs compared (and `live_only`, `replay_only`)
  within          share of jobs whose |error| <= S (one scheduling
                  interval), also within_0 (exact) and within_2s ... as
                  listed
  err_p50, err_p90, err_p99, err_max: quantiles of |error| (s)
  err_mean        mean signed error (s)
  wait_live, wait_replay: mean waits (start - submit, s)
  wait_err        (wait_replay - wait_live) / wait_live, a fraction
                  (0 when both are 0)
  rank_corr       Spearman's rank correlation of the start order
                  (ties by their mean rank; 1 when every start ties)
  kendall_tau     Kendall's tau-b of the same
  lat_submit_live, lat_end_live (and _replay): Slurm's scheduling
                  latency, which an event-driven replay does not have:
                  the mean of start - submit over the jobs whose nodes
                  were free when they were submitted, and of start - the
                  last end of a job on its nodes over the jobs that
                  waited for their nodes (s; needs End and NodeList /
                  nodelist); _n: how many jobs each mean is over
--errors OUT writes `id error` per job (for the plot); --json OUT the
same numbers as a JSON object.
Only Python's standard library.
"""
import argparse
import csv
import json
import math
import re
import sys

import slurmtime


def fail(msg):
    sys.stderr.write("compare.py: error: %s\n" % msg)
    sys.exit(1)


def epoch(s, where):
    return slurmtime.epoch(s.strip())


def read_sacct(path):
    """{job id: (submit, start, end)} of the jobs that started (end None
    when unknown); skipped count."""
    jobs, skipped = {}, 0
    with open(path) as fp:
        head = fp.readline().rstrip("\n").split("|")
        col = {c: i for i, c in enumerate(head)}
        idcol = "JobIDRaw" if "JobIDRaw" in col else "JobID"
        for need in (idcol, "Submit", "Start"):
            if need not in col:
                fail("%s: no %s column" % (path, need))
        for n, line in enumerate(fp, 2):
            f = line.rstrip("\n").split("|")
            if len(f) != len(head):
                fail("%s:%d: %d fields, the header has %d" % (path, n, len(f), len(head)))
            jid = f[col[idcol]]
            if "." in jid or "." in f[col["JobID"]]:
                continue
            sub = epoch(f[col["Submit"]], (path, n))
            st = epoch(f[col["Start"]], (path, n))
            if sub is None or st is None:
                skipped += 1
                continue
            if not jid.isdigit():
                fail("%s:%d: job id '%s' is not a number" % (path, n, jid))
            en = epoch(f[col["End"]], (path, n)) if "End" in col else None
            nl = f[col["NodeList"]] if "NodeList" in col else ""
            jobs[int(jid)] = (sub, st, en, nl)
    return jobs, skipped


def read_replay(path):
    jobs = {}
    with open(path, newline="") as fp:
        rd = csv.reader(fp)
        head = next(rd, [])
        col = {c: i for i, c in enumerate(head)}
        for need in ("id", "submit", "start"):
            if need not in col:
                fail("%s: no %s column (toposim's jobs CSV?)" % (path, need))
        for n, f in enumerate(rd, 2):
            try:
                en = float(f[col["end"]]) if "end" in col else None
                nl = f[col["nodelist"]] if "nodelist" in col else ""
                jobs[int(f[col["id"]])] = (float(f[col["submit"]]), float(f[col["start"]]), en, nl)
            except (ValueError, IndexError):
                fail("%s:%d: bad line" % (path, n))
    return jobs


def ranks(values):
    """Ranks 1..n, ties get their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    n = len(x)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return 1.0 if sxx == syy else 0.0
    return sxy / math.sqrt(sxx * syy)


def kendall(x, y):
    """Kendall's tau-b (O(n^2): the workloads are hundreds of jobs)."""
    n = len(x)
    conc = disc = tx = ty = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif (dx > 0) == (dy > 0):
                conc += 1
            else:
                disc += 1
    d = math.sqrt((conc + disc + tx) * (conc + disc + ty))
    return (conc - disc) / d if d else 1.0


def quantile(sorted_vals, q):
    """The nearest-rank quantile."""
    if not sorted_vals:
        return 0.0
    k = max(0, math.ceil(q * len(sorted_vals)) - 1)
    return sorted_vals[k]


def compare(live, replay, interval):
    common = sorted(set(live) & set(replay))
    if not common:
        fail("no job in both files (do the replay's ids match sacct's JobIDRaw?)")
    base = min(live[j][0] for j in common)
    rbase = min(replay[j][0] for j in common)
    err, lw, rw, ls, rs = [], [], [], [], []
    for j in common:
        sub, st = live[j][:2]
        rsub, rst = replay[j][:2]
        rst_abs = rst - rbase + base
        err.append(rst_abs - st)
        lw.append(st - sub)
        rw.append(rst - rsub)
        ls.append(st)
        rs.append(rst_abs)
    a = sorted(abs(e) for e in err)
    n = len(common)
    wl, wr = sum(lw) / n, sum(rw) / n
    out = {
        "jobs": n,
        "live_only": len(set(live) - set(replay)),
        "replay_only": len(set(replay) - set(live)),
        "interval": interval,
        "within": sum(1 for e in a if e <= interval) / n,
        "within_0": sum(1 for e in a if e == 0) / n,
        "err_p50": quantile(a, 0.5), "err_p90": quantile(a, 0.9),
        "err_p99": quantile(a, 0.99), "err_max": a[-1],
        "err_mean": sum(err) / n,
        "wait_live": wl, "wait_replay": wr,
        "wait_err": (wr - wl) / wl if wl else (0.0 if wr == 0 else float("inf")),
        "rank_corr": spearman(ls, rs),
        "kendall_tau": kendall(ls, rs),
    }
    for name, jobs in (("live", live), ("replay", replay)):
        lat = latencies(jobs, common)
        if lat:
            for k, v in lat.items():
                out["%s_%s" % (k, name)] = v
    return out, list(zip(common, err))


def expand(hl):
    """Slurm's host list (n[1-3,7],m2) to a set of names."""
    out, i = set(), 0
    for part in re.findall(r"[^,\[]+(?:\[[^\]]*\])?", hl):
        m = re.match(r"^([^\[]*)\[([^\]]*)\]$", part)
        if not m:
            out.add(part)
            continue
        for r in m.group(2).split(","):
            lo, _, hi = r.partition("-")
            w = len(lo)
            for k in range(int(lo), int(hi or lo) + 1):
                out.add("%s%0*d" % (m.group(1), w, k))
    return out


def latencies(jobs, ids):
    """Mean start-after-submit of jobs submitted onto free nodes, mean
    start-after-end of jobs that waited for their nodes."""
    runs = [(j[1], j[2], expand(j[3])) for j in jobs.values()
            if j[2] is not None and len(j) > 3 and j[3]]
    if not runs:
        return None
    sub, end = [], []
    for i in ids:
        j = jobs[i]
        if j[2] is None or len(j) < 4 or not j[3]:
            continue
        nodes = expand(j[3])
        busy_at_submit = any(st <= j[0] < en and nd & nodes
                             for st, en, nd in runs if st < j[1])
        last_end = max((en for st, en, nd in runs
                        if en <= j[1] and st < j[1] and nd & nodes), default=None)
        if not busy_at_submit and (last_end is None or last_end <= j[0]):
            sub.append(j[1] - j[0])
        elif last_end is not None and last_end > j[0]:
            end.append(j[1] - last_end)
    out = {}
    if sub:
        out["lat_submit"] = sum(sub) / len(sub)
        out["lat_submit_n"] = len(sub)
    if end:
        out["lat_end"] = sum(end) / len(end)
        out["lat_end_n"] = len(end)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("live")
    ap.add_argument("replay")
    ap.add_argument("--interval", type=float, default=1.0)
    ap.add_argument("--label", default="")
    ap.add_argument("--errors")
    ap.add_argument("--json")
    a = ap.parse_args()
    if a.interval < 0:
        fail("--interval must not be negative")
    live, skipped = read_sacct(a.live)
    replay = read_replay(a.replay)
    out, errs = compare(live, replay, a.interval)
    out["live_not_started"] = skipped
    if a.label:
        out["label"] = a.label
    for k, v in out.items():
        print("%s %s" % (k, ("%.4f" % v) if isinstance(v, float) else v))
    if a.errors:
        with open(a.errors, "w") as fp:
            for j, e in errs:
                fp.write("%d %g\n" % (j, e))
    if a.json:
        with open(a.json, "w") as fp:
            json.dump(out, fp, indent=1, sort_keys=True)
            fp.write("\n")


if __name__ == "__main__":
    main()
