#!/usr/bin/env python3
"""sprio-compare.py - every pending job's priority as slurmctld showed it
(sprio) against the replay's at the same priority recalculation, factor
by factor.

usage: sprio-compare.py LIVE.sprio REPLAY.csv --live-sacct LIVE.sacct
                        --slurm-conf slurm.conf [--period S]

LIVE.sprio: contrib/fidelity/submit.sh's samples, one line per pending
job: epoch|id|partition|priority|age|fairshare|jobsize|partition|qos
(normalised factors, 7 decimals)|age|fairshare|jobsize|partition|qos
(weighted, rounded as sprio prints them).  REPLAY.csv: toposim
--sprio-out (time, id, priority, tier, age, fairshare, jobsize,
partition, qos, assoc, tres; times after the first submission).

sprio shows the factors of slurmctld's last recalculation; the live
run's first submission came just after one (submit.sh), so a sample
taken at T belongs to the recalculation at the first submission +
floor((T - first) / period) x period, the instant the replay printed
(replay-fidelity.sh asks for it).  Compared: the jobs pending in both
that were submitted before that recalculation (a job submitted after it
shows the priority it got at submission).  A job agrees when its
priority and every weighted factor (the replay's factor times
slurm.conf's weight, rounded as sprio rounds) equal sprio's.

Prints `key value` lines (samples, compared, agree, per factor the
largest difference in weighted points) and each disagreement, and exits
1 when a compared job disagrees (0 when none, 2 when nothing could be
compared).
"""
import argparse
import csv
import sys

import slurmtime

FACTORS = ("age", "fairshare", "jobsize", "partition", "qos")
WEIGHT_KEYS = {"age": "priorityweightage", "fairshare": "priorityweightfairshare",
               "jobsize": "priorityweightjobsize", "partition": "priorityweightpartition",
               "qos": "priorityweightqos"}


def fail(msg):
    sys.stderr.write("sprio-compare.py: error: %s\n" % msg)
    sys.exit(2)


def epoch(s):
    return slurmtime.epoch(s.strip())


def weights(path):
    w = {k: 0 for k in FACTORS}
    with open(path) as fp:
        for n, line in enumerate(fp, 1):
            line = line.split("#", 1)[0].strip()
            for tok in line.split():
                key, eq, val = tok.partition("=")
                for f, k in WEIGHT_KEYS.items():
                    if eq and key.lower() == k:
                        if not val.isdigit():
                            fail("%s:%d: %s=%s is not a whole number" % (path, n, key, val))
                        w[f] = int(val)
    return w


def submits(path):
    out = {}
    with open(path) as fp:
        head = fp.readline().rstrip("\n").split("|")
        col = {c: i for i, c in enumerate(head)}
        idc = "JobIDRaw" if "JobIDRaw" in col else "JobID"
        if idc not in col or "Submit" not in col:
            fail("%s: no JobID or Submit column" % path)
        for line in fp:
            f = line.rstrip("\n").split("|")
            if len(f) == len(head) and f[col[idc]].isdigit():
                t = epoch(f[col["Submit"]])
                if t is not None:
                    out[int(f[col[idc]])] = t
    if not out:
        fail("%s: no job" % path)
    return out


def live_samples(path):
    """{epoch: {id: (priority, {factor: norm}, {factor: weighted})}}"""
    out = {}
    with open(path) as fp:
        for n, line in enumerate(fp, 1):
            f = line.strip().split("|")
            if len(f) < 14:
                if line.strip():
                    fail("%s:%d: %d fields, 14 expected" % (path, n, len(f)))
                continue
            try:
                t, jid, prio = int(f[0]), int(f[1]), int(f[3])
                norm = dict(zip(FACTORS, (float(x) for x in f[4:9])))
                wtd = dict(zip(FACTORS, (int(float(x)) for x in f[9:14])))
            except ValueError:
                fail("%s:%d: not a number where one is expected" % (path, n))
            out.setdefault(t, {})[jid] = (prio, norm, wtd)
    return out


def replay_rows(path):
    """{time: {id: (priority, {factor: norm})}}"""
    out = {}
    with open(path, newline="") as fp:
        rd = csv.DictReader(fp)
        for row in rd:
            try:
                t, jid, prio = int(row["time"]), int(row["id"]), int(row["priority"])
                norm = {f: float(row[f]) for f in FACTORS}
            except (KeyError, ValueError):
                fail("%s: bad line %r" % (path, row))
            out.setdefault(t, {})[jid] = (prio, norm)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("live")
    ap.add_argument("replay")
    ap.add_argument("--live-sacct", required=True)
    ap.add_argument("--slurm-conf", required=True)
    ap.add_argument("--period", type=int, default=60)
    a = ap.parse_args()
    w = weights(a.slurm_conf)
    sub = submits(a.live_sacct)
    base = min(sub.values())
    live = live_samples(a.live)
    rep = replay_rows(a.replay)
    if not live:
        fail("%s: no sample" % a.live)
    compared = agree = 0
    worst = {f: 0 for f in FACTORS}
    worst["priority"] = 0
    bad = []
    for t in sorted(live):
        tick = (t - base) // a.period * a.period
        rt = min((x for x in rep if x >= tick), default=None)
        if rt is None:
            continue
        for jid, (prio, norm, wtd) in sorted(live[t].items()):
            if jid not in rep[rt] or jid not in sub or sub[jid] - base >= tick:
                continue
            rprio, rnorm = rep[rt][jid]
            compared += 1
            diffs = {}
            for f in FACTORS:
                mine = int("%.0f" % (rnorm[f] * w[f]))
                d = mine - wtd[f]
                worst[f] = max(worst[f], abs(d))
                if d:
                    diffs[f] = (wtd[f], mine)
            worst["priority"] = max(worst["priority"], abs(rprio - prio))
            if rprio != prio:
                diffs["priority"] = (prio, rprio)
            if diffs:
                bad.append((t, tick, jid, diffs))
            else:
                agree += 1
    print("samples %d" % len(live))
    print("compared %d" % compared)
    print("agree %d" % agree)
    for f in ("priority",) + FACTORS:
        print("max_diff_%s %d" % (f, worst[f]))
    for t, tick, jid, diffs in bad[:40]:
        print("differs: sample %d (recalculation at +%d s) job %d: %s" % (
            t, tick, jid, ", ".join("%s sprio %s replay %s" % (k, v[0], v[1])
                                    for k, v in sorted(diffs.items()))))
    if not compared:
        sys.exit(2)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
