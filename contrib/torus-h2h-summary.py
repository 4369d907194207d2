#!/usr/bin/env python3
"""torus-h2h-summary.py RECORDS: the tables of contrib/torus-head-to-head.sh.

RECORDS has one line per job: plugin seed load mix job nodes sleep submit
start end state nodelist dist box nodes (times in whole seconds since the
epoch, nodes as comma-separated node numbers 1..64 of the 4x4x4 torus,
node k at x=(k-1)%4, y=((k-1)/4)%4, z=(k-1)/16).  One run = one plugin on
one (seed, load, mix) stream.  A job the plugin refused at submission has
state REFUSED, start and end "-": it takes part in no metric but
`refused`.

Metrics (the script's header defines them in words; this is the code):
  dist     mean pairwise wrap-around Manhattan distance of a multi-node
           job's nodes, averaged over multi-node jobs.
  box      multi-node jobs whose nodes are a box (a sub-torus, possibly
           wrapping), out of all multi-node jobs.
  frag     free-box fragmentation: for each job, at its start second t
           (after every job starting in that second is placed; a job
           holds its nodes for start <= t < end), f = free nodes and
           L = nodes of the largest free box (any a x b x c, 1 <= a,b,c
           <= 4, any anchor, with wraparound); the sample is 1 - L / f.
           Samples with f = 0 are left out.  Mean over the samples.
  bwf      blocked while free: the job-seconds s (submit < s < start)
           in which a job waited although the free node count was at least
           its size in second s and in second s - 1 (one second of grace
           for whole-second times and the next scheduling pass), as a
           share of all waited job-seconds (start - submit summed).  It
           counts waits for shape (no free box of the size) and waits for
           order (backfill keeping nodes for an earlier, larger job).
  nobox    the part of bwf in which, in addition, no box of exactly the
           job's size (any a x b x c = size, any anchor, wraparound) was
           free: the shape part; as a share of all waited job-seconds.
  wait     mean start - submit over all jobs the plugin ran.
  common   mean start - submit over the jobs that every plugin of the
           stream ran (shown when some plugin refused jobs).
  makespan last end - first submit, over the jobs the plugin ran.
  refused  jobs refused at submission.
"""
import sys
from collections import defaultdict

N = 4


def coord(k):
    v = k - 1
    return v % N, (v // N) % N, v // (N * N)


def node(x, y, z):
    return 1 + x + N * y + N * N * z


def box_masks():
    """(volume, mask) of every box with wraparound, largest first."""
    out = []
    for a in range(1, N + 1):
        for b in range(1, N + 1):
            for c in range(1, N + 1):
                masks = set()
                for x0 in range(N):
                    for y0 in range(N):
                        for z0 in range(N):
                            m = 0
                            for i in range(a):
                                for j in range(b):
                                    for k in range(c):
                                        m |= 1 << node((x0 + i) % N, (y0 + j) % N, (z0 + k) % N)
                            masks.add(m)
                out.append((a * b * c, sorted(masks)))
    out.sort(key=lambda t: -t[0])
    return out


BOXES = box_masks()


def largest_free_box(busy):
    for vol, masks in BOXES:
        for m in masks:
            if not m & busy:
                return vol
    return 0


def free_box_of(busy, n):
    """Is some box of exactly n nodes free?"""
    return any(not m & busy for vol, masks in BOXES if vol == n for m in masks)


def busy_at(ran, s):
    m = 0
    for o in ran:
        if o["start"] <= s < o["end"]:
            m |= o["mask"]
    return m


def free_at(ran, s):
    return N ** 3 - sum(o["n"] for o in ran if o["start"] <= s < o["end"])


def mask_of(nodes):
    m = 0
    for k in nodes:
        m |= 1 << k
    return m


def run_metrics(all_jobs, common):
    """all_jobs: list of dicts of one run; common: the job indices every
    plugin of the stream ran -> dict of metrics."""
    r = {}
    jobs = [j for j in all_jobs if j["state"] != "REFUSED"]
    r["refused"] = len(all_jobs) - len(jobs)
    r["nc"] = sum(j["job"] in common for j in jobs)
    r["commonsum"] = sum(j["start"] - j["submit"] for j in jobs if j["job"] in common)
    multi = [j for j in jobs if j["n"] > 1]
    r["n"] = len(jobs)
    r["nm"] = len(multi)
    r["dsum"] = sum(j["dist"] for j in multi)
    r["box"] = sum(j["box"] for j in multi)
    r["waitsum"] = sum(j["start"] - j["submit"] for j in jobs)
    r["makespan"] = max(j["end"] for j in jobs) - min(j["submit"] for j in jobs)
    r["bad"] = sum(j["state"] != "COMPLETED" for j in jobs)
    ran = [j for j in jobs if j["state"] == "COMPLETED"]
    fr = []
    for j in ran:
        t = j["start"]
        busy = 0
        used = 0
        for o in ran:
            if o["start"] <= t < o["end"]:
                busy |= o["mask"]
                used += o["n"]
        free = N ** 3 - used
        if free > 0:
            fr.append(1 - largest_free_box(busy) / free)
    r["frag"] = sum(fr) / len(fr) if fr else 0.0
    blocked = 0
    nobox = 0
    for j in ran:
        # the second before s must be waited too: one second of grace
        # for the whole-second times and the next scheduling pass
        for s in range(j["submit"] + 1, j["start"]):
            if free_at(ran, s - 1) >= j["n"] and free_at(ran, s) >= j["n"]:
                blocked += 1
                if not free_box_of(busy_at(ran, s), j["n"]):
                    nobox += 1
    r["blocked"] = blocked
    r["nobox"] = nobox
    return r


def read(path):
    runs = defaultdict(list)
    with open(path) as fp:
        for ln, line in enumerate(fp, 1):
            f = line.split()
            if len(f) != 15:
                sys.exit(f"{path}:{ln}: {len(f)} fields, 15 expected")
            nodes = [int(k) for k in f[14].split(",")] if f[14] != "-" else []
            refused = f[10] == "REFUSED"
            runs[(f[3], f[2], f[1], f[0])].append({
                "job": int(f[4]), "n": int(f[5]), "submit": int(f[7]),
                "start": 0 if refused else int(f[8]),
                "end": 0 if refused else int(f[9]), "state": f[10],
                "dist": float(f[12]), "box": int(f[13]), "mask": mask_of(nodes)})
    return runs


def common_jobs(runs):
    """(mix, load, seed) -> the job indices every plugin of it ran."""
    out = {}
    for (mix, load, seed, _), jobs in runs.items():
        ran = {j["job"] for j in jobs if j["state"] != "REFUSED"}
        k = (mix, load, seed)
        out[k] = ran if k not in out else out[k] & ran
    return out


def name(p):
    """torus3d-LIST: Slurm's plugin on placement list LIST; anchor-LIST:
    ours (Method=anchor) on it; else our Method=p."""
    if p.startswith("torus3d"):
        return "Slurm torus3d" + (f", {p[8:]} list" if p != "torus3d" else "")
    if p.startswith("anchor-"):
        return f"torus anchor, {p[7:]} list"
    return "torus " + p


def ordered(keys, idx):
    seen = []
    for k in keys:
        if k[idx] not in seen:
            seen.append(k[idx])
    return seen


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: torus-h2h-summary.py RECORDS")
    runs = read(sys.argv[1])
    common = common_jobs(runs)
    met = {k: run_metrics(v, common[k[:3]]) for k, v in runs.items()}
    keys = list(met)
    mixes, loads, seeds, plugins = (ordered(keys, i) for i in range(4))
    print("Means over seeds (distance, box, wait and blocked-while-free pooled "
          "over the seeds' jobs; fragmentation and makespan averaged over runs)")
    for mix in mixes:
        for load in loads:
            rs = [s for s in seeds if any((mix, load, s, p) in met for p in plugins)]
            if not rs:
                continue
            cell = [met[(mix, load, s, p)] for s in rs for p in plugins if (mix, load, s, p) in met]
            total = len(runs[next((mix, load, s, p) for s in rs for p in plugins
                                  if (mix, load, s, p) in met)]) * len(rs)
            refusals = any(m["refused"] for m in cell)
            ncommon = sum(len(common[(mix, load, s)]) for s in rs)
            print(f"\n{mix} sizes, {load} load ({len(rs)} seeds, {total} jobs per plugin"
                  + (f", {ncommon} run by every plugin" if refusals else "") + ")\n")
            print("| plugin | mean pairwise distance | box share | fragmentation | "
                  "blocked while free | of it no box free | mean wait (s) | "
                  + ("mean wait, jobs every plugin ran (s) | " if refusals else "")
                  + "mean makespan (s) | not completed | refused |")
            print("|---|" + "---:|" * (10 if refusals else 9))
            for p in plugins:
                ms = [met[(mix, load, s, p)] for s in rs if (mix, load, s, p) in met]
                if not ms:
                    continue
                nm = sum(m["nm"] for m in ms)
                ws = sum(m["waitsum"] for m in ms)
                nc = sum(m["nc"] for m in ms)
                print(f"| {name(p)} | {(sum(m['dsum'] for m in ms) / nm if nm else 0):.3f} | "
                      f"{sum(m['box'] for m in ms)}/{nm} | "
                      f"{sum(m['frag'] for m in ms) / len(ms):.3f} | "
                      f"{(sum(m['blocked'] for m in ms) / ws if ws else 0):.2f} | "
                      f"{(sum(m['nobox'] for m in ms) / ws if ws else 0):.2f} | "
                      f"{ws / sum(m['n'] for m in ms):.2f} | "
                      + (f"{(sum(m['commonsum'] for m in ms) / nc if nc else 0):.2f} | " if refusals else "")
                      + f"{sum(m['makespan'] for m in ms) / len(ms):.1f} | "
                      f"{sum(m['bad'] for m in ms)} | {sum(m['refused'] for m in ms)} |")
    print("\nPer run\n")
    print("| sizes | load | seed | plugin | distance | box | fragmentation | "
          "blocked while free | of it no box free | mean wait (s) | makespan (s) | not completed | refused |")
    print("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for mix in mixes:
        for load in loads:
            for s in seeds:
                for p in plugins:
                    m = met.get((mix, load, s, p))
                    if not m:
                        continue
                    print(f"| {mix} | {load} | {s} | {name(p)} | "
                          f"{(m['dsum'] / m['nm'] if m['nm'] else 0):.3f} | {m['box']}/{m['nm']} | "
                          f"{m['frag']:.3f} | "
                          f"{(m['blocked'] / m['waitsum'] if m['waitsum'] else 0):.2f} | "
                          f"{(m['nobox'] / m['waitsum'] if m['waitsum'] else 0):.2f} | "
                          f"{m['waitsum'] / m['n']:.2f} | {m['makespan']} | {m['bad']} | "
                          f"{m['refused']} |")


if __name__ == "__main__":
    main()
