#!/usr/bin/env python3
"""stream.py - a real trace as a stream of sbatch jobs for the fidelity test
bed (contrib/replay-fidelity.sh): COUNT consecutive jobs of an SWF trace
(.swf or .swf.gz) or of `sacct -P` output, their time compressed so that
their submissions span SPAN seconds, their sizes moved to the bed's nodes
and cores, their users mapped onto the bed's users.

usage: stream.py WORKLOAD [--first N] [--count N] [--span S]
                 [--mode whole|shared] [--nodes N] [--cores C]
                 [--users U1:ACCT,U2:ACCT,...] > STREAM

Output: a header line, then one tab-separated line per job, in
submission order:
  idx offset user account partition qos nodes cores mem exclusive limit run
idx: 0.. (the job's name is fid-IDX); offset: seconds after the first
submission (0.1 s resolution); nodes: -N (0: Slurm chooses: a shared
job); cores: -n; mem: MB per CPU (0: the whole node's, exclusive);
exclusive: 1 or 0; limit: minutes (Slurm's unit); run: seconds the job
sleeps.

The mapping (all of it deterministic):
- time: compressed by F = (last - first submission) / SPAN; a job runs
  max(1, round(run time / F)) s; its limit is the requested time / F
  (the run time when none), plus 5 s, in whole minutes, at least 1;
- size: the trace's processors over its machine (SWF MaxProcs, else the
  largest job; sacct: NCPUS over the largest NCPUS) times the bed's
  cores.  whole: every job gets ceil(cores / C) whole nodes, exclusive;
  shared: jobs of up to 2 nodes' cores share nodes (-n cores, 900 MB per
  CPU, every 7th 1900 MB), larger ones get whole nodes, exclusive;
- users: the trace's users ranked by their number of jobs in the slice,
  the r-th onto the bed's user r mod len(USERS), with that user's
  account;
- partition: `prio` (the smaller partition of higher PriorityJobFactor)
  for jobs of at most half the nodes whose trace queue or partition is
  odd-numbered (SWF field 15; sacct: the partition's rank), else `batch`;
- QOS: `high` for every 5th job of the busiest user, else `normal`.
"""
import argparse
import gzip
import math
import sys

import slurmtime

DEFAULT_USERS = "pa1:pa,pa2:pa,pa3:pa,pb1:pb,pb2:pb,pc1:pc"


class Job:
    __slots__ = ("submit", "run", "req", "procs", "user", "queue")

    def __init__(self, submit, run, req, procs, user, queue):
        self.submit, self.run, self.req = submit, run, req
        self.procs, self.user, self.queue = procs, user, queue


def fail(msg):
    sys.stderr.write("stream.py: error: %s\n" % msg)
    sys.exit(1)


def opener(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rt", errors="replace")
    return open(path, errors="replace")


def read_swf(path):
    """Jobs with a run time above 0 and a processor count; MaxProcs."""
    jobs, maxprocs = [], 0
    with opener(path) as fp:
        for n, line in enumerate(fp, 1):
            s = line.strip()
            if not s:
                continue
            if s.startswith(";"):
                key, _, val = s[1:].partition(":")
                if key.strip() in ("MaxProcs", "MaxNodes") and val.strip().isdigit():
                    maxprocs = max(maxprocs, int(val.strip()))
                continue
            f = s.split()
            if len(f) < 18:
                fail("%s:%d: %d fields, SWF has 18" % (path, n, len(f)))
            try:
                v = [float(x) for x in f[:18]]
            except ValueError:
                fail("%s:%d: a field is not a number" % (path, n))
            procs = v[4] if v[4] > 0 else v[7]
            if v[3] <= 0 or procs <= 0 or v[1] < 0:
                continue
            jobs.append(Job(v[1], v[3], v[8] if v[8] > 0 else v[3], procs,
                            int(v[11]), int(v[14])))
    return jobs, maxprocs


def parse_time(s):
    return slurmtime.epoch(s)


def parse_limit(s):
    """Slurm's time forms to seconds; None when unknown."""
    if not s or not s[0].isdigit():
        return None
    days = 0
    if "-" in s:
        d, s = s.split("-", 1)
        days = int(d)
        parts = [int(x) for x in s.split(":")]
        while len(parts) < 3:
            parts.append(0)
    else:
        parts = [int(x) for x in s.split(":")]
        if len(parts) == 1:
            parts = [0, parts[0], 0]
        elif len(parts) == 2:
            parts = [0] + parts
    return days * 86400 + parts[0] * 3600 + parts[1] * 60 + parts[2]


def read_sacct(path):
    jobs, parts = [], {}
    with opener(path) as fp:
        head = fp.readline().rstrip("\n").split("|")
        col = {name: i for i, name in enumerate(head)}
        for need in ("JobID", "Submit", "Start", "End"):
            if need not in col:
                fail("%s: no %s column (sacct -P output with its header?)" % (path, need))
        users = {}
        for n, line in enumerate(fp, 2):
            f = line.rstrip("\n").split("|")
            if len(f) != len(head):
                fail("%s:%d: %d fields, the header has %d" % (path, n, len(f), len(head)))
            get = lambda k: f[col[k]] if k in col else ""
            if "." in get("JobID"):
                continue
            sub, st, en = parse_time(get("Submit")), parse_time(get("Start")), parse_time(get("End"))
            if sub is None or st is None or en is None or en <= st:
                continue
            procs = int(get("NCPUS") or 0) or int(get("NNodes") or 0)
            if procs <= 0:
                continue
            lim = parse_limit(get("Timelimit")) or (en - st)
            user = users.setdefault(get("User"), len(users))
            part = parts.setdefault(get("Partition"), len(parts))
            jobs.append(Job(sub, en - st, lim, procs, user, part))
    jobs.sort(key=lambda j: j.submit)
    return jobs, 0


def read(path):
    with opener(path) as fp:
        first = ""
        for line in fp:
            if line.strip():
                first = line
                break
    if "|" in first:
        return read_sacct(path)
    return read_swf(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workload")
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--span", type=float, default=180.0)
    ap.add_argument("--mode", choices=("whole", "shared"), default="whole")
    ap.add_argument("--nodes", type=int, default=16)
    ap.add_argument("--cores", type=int, default=4)
    ap.add_argument("--users", default=DEFAULT_USERS)
    a = ap.parse_args()
    if a.count < 1 or a.first < 0 or a.span <= 0 or a.nodes < 2 or a.cores < 1:
        fail("--count, --nodes, --cores and --span must be positive, --first not negative")
    users = []
    for u in a.users.split(","):
        name, _, acct = u.partition(":")
        if not name or not acct:
            fail("--users: '%s' is not USER:ACCOUNT" % u)
        users.append((name, acct))
    jobs, maxprocs = read(a.workload)
    if len(jobs) < a.first + a.count:
        fail("%s: %d usable jobs, --first %d --count %d needs %d" %
             (a.workload, len(jobs), a.first, a.count, a.first + a.count))
    sl = jobs[a.first:a.first + a.count]
    maxprocs = maxprocs or max(j.procs for j in jobs)
    t0 = sl[0].submit
    span = sl[-1].submit - t0
    F = span / a.span if span > 0 else 1.0
    rank = {}
    for j in sl:
        rank[j.user] = rank.get(j.user, 0) + 1
    order = sorted(rank, key=lambda u: (-rank[u], u))
    urank = {u: r for r, u in enumerate(order)}
    total = a.nodes * a.cores
    print("idx\toffset\tuser\taccount\tpartition\tqos\tnodes\tcores\tmem\texclusive\tlimit\trun")
    busiest = 0
    for i, j in enumerate(sl):
        cores = max(1, min(total, math.ceil(j.procs * total / maxprocs)))
        nodes = math.ceil(cores / a.cores)
        shared = a.mode == "shared" and cores <= 2 * a.cores
        run = max(1, round(j.run / F))
        limit = max(1, math.ceil((max(j.req, j.run) / F + 5) / 60))
        r = urank[j.user]
        user, acct = users[r % len(users)]
        part = "prio" if nodes <= a.nodes // 2 and j.queue % 2 == 1 else "batch"
        qos = "normal"
        if r == 0:
            busiest += 1
            if busiest % 5 == 0:
                qos = "high"
        if shared:
            mem = 1900 if i % 7 == 3 else 900
            row = (0, cores, mem, 0)
        else:
            row = (nodes, nodes * a.cores, 0, 1)
        print("%d\t%.1f\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d" %
              ((i, (j.submit - t0) / F, user, acct, part, qos) + row + (limit, run)))
    sys.stderr.write("stream.py: %d jobs from %s (first %d), time / %.1f: "
                     "submissions over %.0f s\n" % (len(sl), a.workload, a.first, F, a.span))


if __name__ == "__main__":
    main()
