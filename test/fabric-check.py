#!/usr/bin/env python3
"""fabric-check.py TOPOLOGY.CONF JOBS.CSV - every job of a toposim
--jobs-csv lies in one fabric of TOPOLOGY.CONF (a root switch and what
hangs below it).  Prints the jobs that span two and exits 1 if any does;
prints "placed N jobs, spanning S, largest fabric F nodes" on success.
A reader independent of the C model: Slurm's syntax, ranges, no padding
rules beyond what the test topologies use."""
import csv
import re
import sys


def expand(expr):
    """n[1-3,7],m2 -> names (zero padding kept as written)."""
    out = []
    for item in re.findall(r'[^,\[]+(?:\[[^\]]*\])?', expr):
        m = re.fullmatch(r'([^\[]*)\[([^\]]*)\]', item)
        if not m:
            out.append(item)
            continue
        pre, body = m.groups()
        for part in body.split(','):
            lo, _, hi = part.partition('-')
            hi = hi or lo
            w = len(lo) if lo.startswith('0') else 0
            for i in range(int(lo), int(hi) + 1):
                out.append('%s%0*d' % (pre, w, i))
    return out


def fabrics(path):
    kids, leaf_nodes, parent = {}, {}, {}
    for line in open(path):
        line = line.split('#')[0].strip()
        if not line:
            continue
        kv = dict(p.split('=', 1) for p in line.split())
        kv = {k.lower(): v for k, v in kv.items()}
        name = kv['switchname']
        if 'nodes' in kv:
            leaf_nodes[name] = expand(kv['nodes'])
        else:
            kids[name] = expand(kv['switches'])
            for c in kids[name]:
                parent[c] = name
    node_fabric = {}
    for leaf, nodes in leaf_nodes.items():
        root = leaf
        while root in parent:
            root = parent[root]
        for n in nodes:
            node_fabric[n] = root
    return node_fabric


def main():
    node_fabric = fabrics(sys.argv[1])
    sizes = {}
    for f in node_fabric.values():
        sizes[f] = sizes.get(f, 0) + 1
    bad = placed = 0
    with open(sys.argv[2]) as fp:
        for row in csv.DictReader(fp):
            nodes = expand(row['nodelist'])
            if not nodes:
                continue
            placed += 1
            fabs = {node_fabric[n] for n in nodes}
            if len(fabs) > 1:
                bad += 1
                if bad <= 10:
                    print('job %s spans fabrics %s: %s' %
                          (row['id'], ','.join(sorted(fabs)), row['nodelist']))
    print('placed %d jobs, spanning %d, largest fabric %d nodes' %
          (placed, bad, max(sizes.values())))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
