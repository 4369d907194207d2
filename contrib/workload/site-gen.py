#!/usr/bin/env python3
"""site-gen.py - a small Slurm site's history, made up but self-consistent:
slurm.conf (three partitions, two of them on the same nodes, one shared by
CPUs, one of whole nodes, one of GPU nodes) and `sacct -P` output of the
jobs that ran there, as a scheduler that packs CPUs on nodes (the way
select/cons_tres does) ran them: shared-partition jobs side by side on one
node, whole-node jobs alone.  Every record kind sacct prints is there: job
steps, array tasks (N_I) and a pending array (N_[a-b]), heterogeneous
components (N+K), jobs pending, running, cancelled before they started,
and every end state.  With --contradictions it adds records that
contradict themselves (NNodes unlike the NodeList, Elapsed unlike End -
Start, a job id twice, UNLIMITED limits) in known numbers, printed to
standard error.

usage: site-gen.py --out DIR [--jobs N] [--nodes N] [--seed S] [--interarrival S]
                   [--contradictions] [--no-schedule] [--multifactor]

--no-schedule writes Start = Submit (no scheduling: for timing replays of
a large history, where the recorded schedule is not read).  Files:
DIR/slurm.conf, DIR/jobs.sacct, DIR/sacctmgr.txt (the accounts and users,
as `sacctmgr show assoc -P` prints them).
"""
import argparse
import heapq
import os
import random
import sys

EPOCH = 1767225600  # 2026-01-01T00:00:00Z

COLUMNS = ("JobID|JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|"
           "ReqCPUS|ReqMem|ReqTRES|AllocTRES|Partition|QOS|Account|User|"
           "Priority|State|NodeList")

ACCOUNTS = {"phys": ["alice", "bob", "carol"], "chem": ["dave", "erin"],
            "bio": ["frank"]}


def iso(t):
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t))


def hms(s):
    d, s = divmod(int(s), 86400)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    return ("%d-" % d if d else "") + "%02d:%02d:%02d" % (h, m, s)


def hostlist(names):
    """n1,n2,n3,n7 -> n[1-3,7] (one prefix, as the site's names are)."""
    if len(names) == 1:
        return names[0]
    prefix = names[0].rstrip("0123456789")
    nums = sorted(int(n[len(prefix):]) for n in names)
    parts, lo = [], nums[0]
    for a, b in zip(nums, nums[1:] + [None]):
        if b != a + 1:
            parts.append(str(lo) if lo == a else "%d-%d" % (lo, a))
            lo = b
    return "%s[%s]" % (prefix, ",".join(parts))


class Site:
    def __init__(self, nodes):
        ngpu = max(1, nodes // 8)
        nb = nodes - ngpu
        self.cpus = {}
        self.batch = ["b%d" % i for i in range(1, nb + 1)]
        self.gpu = ["g%d" % i for i in range(1, ngpu + 1)]
        for n in self.batch + self.gpu:
            self.cpus[n] = 32
        # shared overlaps batch on its second half
        self.parts = {"batch": self.batch, "shared": self.batch[nb // 2:],
                      "gpu": self.gpu}

    def conf(self, multifactor):
        b, g = self.batch, self.gpu
        prio = [
            "PriorityType=priority/multifactor\n",
            "PriorityWeightAge=1000\n",
            "PriorityWeightFairshare=10000\n",
            "PriorityWeightJobSize=500\n",
            "PriorityWeightPartition=1000\n",
            "PriorityMaxAge=1-0\n",
            "PriorityDecayHalfLife=1-0\n",
            "PriorityCalcPeriod=5\n",
        ] if multifactor else []
        return "".join(["ClusterName=gen\n"] + prio + [
            "NodeName=DEFAULT CPUs=32 RealMemory=128000\n",
            "NodeName=%s\n" % hostlist(b),
            "NodeName=%s Gres=gpu:4\n" % hostlist(g),
            "PartitionName=DEFAULT MaxTime=2-00:00:00 State=UP\n",
            "PartitionName=batch Nodes=%s Default=YES OverSubscribe=EXCLUSIVE PriorityJobFactor=1\n" % hostlist(b),
            "PartitionName=shared Nodes=%s MaxTime=12:00:00 PriorityJobFactor=2\n" % hostlist(self.parts["shared"]),
            "PartitionName=gpu Nodes=%s MaxTime=1-00:00:00 PriorityTier=2\n" % hostlist(g),
        ])


def make_jobs(rng, n, site, interarrival):
    """Requests in submit order: (submit, part, nodes, cpus_per_node, run,
    limit, account, user, qos)."""
    jobs, t = [], 0
    for _ in range(n):
        t += int(rng.expovariate(1 / interarrival))
        part = rng.choices(["batch", "shared", "gpu"], [4, 5, 1])[0]
        if part == "batch":
            nodes = rng.choice([1, 1, 2, 4, 8])
            nodes = min(nodes, len(site.parts[part]))
            cpn = 32
        elif part == "shared":
            nodes, cpn = 1, rng.choice([1, 2, 4, 8, 8, 16])
        else:
            nodes, cpn = 1, rng.choice([8, 16, 32])
        limit = rng.choice([600, 1800, 3600, 7200, 14400])
        run = max(1, int(limit * rng.uniform(0.05, 1.0)))
        acct = rng.choice(sorted(ACCOUNTS))
        user = rng.choice(ACCOUNTS[acct])
        qos = rng.choices(["normal", "high"], [9, 1])[0]
        jobs.append([t, part, nodes, cpn, run, limit, acct, user, qos])
    return jobs


def schedule(jobs, site, no_schedule):
    """Start times and nodes: FCFS per submit order with every later job
    that fits started (CPUs packed on the lowest nodes that have them);
    whole-node partitions take idle nodes only."""
    free = dict(site.cpus)
    ends, queue, out = [], [], [None] * len(jobs)
    if no_schedule:  # nodes spread over the partition, times as submitted
        for i, j in enumerate(jobs):
            p = site.parts[j[1]]
            k = (i * 7) % max(1, len(p) - j[2] + 1)
            out[i] = (j[0], p[k:k + j[2]])
        return out

    def fits(j):
        whole = j[1] == "batch"
        got = []
        for n in site.parts[j[1]]:
            if (free[n] == site.cpus[n]) if whole else (free[n] >= j[3]):
                got.append(n)
                if len(got) == j[2]:
                    return got
        return None

    def start(i, now):
        j = jobs[i]
        names = fits(j)
        if not names:
            return False
        for n in names:
            free[n] -= site.cpus[n] if j[1] == "batch" else j[3]
        heapq.heappush(ends, (now + j[4], i, names))
        out[i] = (now, names)
        return True

    k = 0
    while k < len(jobs) or ends:
        nxt = jobs[k][0] if k < len(jobs) else None
        if ends and (nxt is None or ends[0][0] <= nxt):
            now, i, names = heapq.heappop(ends)
            for n in names:
                free[n] += site.cpus[n] if jobs[i][1] == "batch" else jobs[i][3]
        else:
            now = nxt
            queue.append(k)
            k += 1
        queue = [i for i in queue if not start(i, now)]
    return out


def record(j, jid, raw, start, names, state, end=None, limit_word=None):
    t, part, nodes, cpn, run, limit, acct, user, qos = j
    end = start + run if end is None else end
    cpus = cpn * len(names)
    mem = "%dG" % (2 * cpus)
    req = "cpu=%d,mem=%s,node=%d" % (cpus, mem, nodes)
    alloc = req + (",gres/gpu=%d" % (cpn // 8) if part == "gpu" else "")
    if part == "gpu":
        req += ",gres/gpu=%d" % (cpn // 8)
    prio = 1000 + (100 if qos == "high" else 0)
    return "|".join([jid, str(raw), iso(EPOCH + t), iso(EPOCH + start),
                     iso(EPOCH + end), hms(end - start),
                     limit_word or hms(limit), str(nodes), str(cpus),
                     str(cpus), mem, req, alloc, part, qos, acct, user,
                     str(prio), state, hostlist(names)])


def write_sacct(fp, jobs, sched, rng, contradictions):
    states = ["COMPLETED"] * 12 + ["FAILED", "TIMEOUT", "OUT_OF_MEMORY",
                                   "NODE_FAIL", "PREEMPTED",
                                   "CANCELLED by 1000"]
    fp.write(COLUMNS + "\n")
    count = {"nnodes": 0, "elapsed": 0, "duplicate": 0, "unlimited": 0}
    raw = 1000
    for i, (j, (start, names)) in enumerate(zip(jobs, sched)):
        raw += 1
        kind = i % 23
        if kind == 5:    # an array task, its siblings below
            jid = "%d_%d" % (raw, 1)
        elif kind == 6:  # a heterogeneous job's second component
            jid = "%d+1" % (raw - 1)
        else:
            jid = str(raw)
        state = rng.choice(states)
        if state == "TIMEOUT":
            end = start + j[5]
        else:
            end = None
        word = None
        if contradictions and i % 37 == 3:
            word = "UNLIMITED"
            count["unlimited"] += 1
        line = record(j, jid, raw, start, names, state, end, word)
        if contradictions and i % 41 == 7 and j[2] == len(names):
            f = line.split("|")
            f[7] = str(len(names) + 3)      # NNodes unlike the NodeList
            line = "|".join(f)
            count["nnodes"] += 1
        if contradictions and i % 43 == 9:
            f = line.split("|")
            f[5] = "5-00:00:00"             # Elapsed unlike End - Start
            line = "|".join(f)
            count["elapsed"] += 1
        fp.write(line + "\n")
        if i % 4 == 0:                      # its steps
            f = line.split("|")
            f[0] = jid + ".batch"
            f[1] = str(raw) + ".batch"
            fp.write("|".join(f) + "\n")
        if contradictions and i % 53 == 11:
            fp.write(line + "\n")            # the same record again
            count["duplicate"] += 1
    # what never ran: pending (an array's rest too), cancelled before it
    # started, still running
    t = jobs[-1][0] if jobs else 0
    tail = [
        "%d_[2-9]|%d|%s|Unknown|Unknown|00:00:00|01:00:00|1|8|8|16G|cpu=8,mem=16G,node=1||shared|normal|phys|alice|900|PENDING|None assigned"
        % (raw + 1, raw + 1, iso(EPOCH + t)),
        "%d|%d|%s|None|%s|00:00:00|01:00:00|2|64|64|128G|cpu=64,mem=128G,node=2||batch|normal|chem|dave|900|CANCELLED by 1001|None assigned"
        % (raw + 2, raw + 2, iso(EPOCH + t), iso(EPOCH + t + 60)),
        "%d|%d|%s|%s|Unknown|00:10:00|01:00:00|1|4|4|8G|cpu=4,mem=8G,node=1|cpu=4,mem=8G,node=1|shared|normal|bio|frank|900|RUNNING|%s"
        % (raw + 3, raw + 3, iso(EPOCH + t), iso(EPOCH + t + 1), "b%d" % 1),
    ]
    for line in tail:
        fp.write(line + "\n")
    return count


def write_assoc(fp):
    cols = ["Cluster", "Account", "User", "Partition", "Share", "Priority",
            "GrpJobs", "GrpTRES", "MaxJobs", "MaxTRES", "MaxSubmit", "QOS",
            "Def QOS", "Par Name"]

    def row(acct, user, share, parent):
        v = dict.fromkeys(cols, "")
        v.update({"Cluster": "gen", "Account": acct, "User": user,
                  "Share": str(share), "QOS": "normal,high",
                  "Par Name": parent})
        fp.write("|".join(v[c] for c in cols) + "\n")
    fp.write("|".join(cols) + "\n")
    row("root", "", 1, "")
    shares = {"phys": 50, "chem": 30, "bio": 20}
    for acct in sorted(ACCOUNTS):
        row(acct, "", shares[acct], "root")
        for u in ACCOUNTS[acct]:
            row(acct, u, 1, "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=300)
    ap.add_argument("--nodes", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--interarrival", type=float, default=120.0,
                    help="mean seconds between submissions (120)")
    ap.add_argument("--contradictions", action="store_true")
    ap.add_argument("--no-schedule", action="store_true")
    ap.add_argument("--multifactor", action="store_true",
                    help="slurm.conf with priority/multifactor (fairshare, age, size, partition)")
    a = ap.parse_args()
    if a.jobs < 1 or a.nodes < 4:
        ap.error("--jobs >= 1 and --nodes >= 4")
    rng = random.Random(a.seed)
    site = Site(a.nodes)
    jobs = make_jobs(rng, a.jobs, site, a.interarrival)
    sched = schedule(jobs, site, a.no_schedule)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "slurm.conf"), "w") as fp:
        fp.write(site.conf(a.multifactor))
    with open(os.path.join(a.out, "jobs.sacct"), "w") as fp:
        count = write_sacct(fp, jobs, sched, rng, a.contradictions)
    with open(os.path.join(a.out, "sacctmgr.txt"), "w") as fp:
        write_assoc(fp)
    if a.contradictions:
        sys.stderr.write(" ".join("%s=%d" % kv for kv in sorted(count.items())) + "\n")


if __name__ == "__main__":
    main()
