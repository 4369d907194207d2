#!/usr/bin/env python3
"""torus-h2h-mix.py: the size mixes and topology/torus3d placement lists of
contrib/torus-head-to-head.sh, on its 4x4x4 torus.

  torus-h2h-mix.py sizes TRACE
      The job sizes of an SWF trace (plain or .gz) scaled to the 64-node
      torus, as "SIZE COUNT" lines by size: every job toposim replays (run
      time > 0; requested processors, else allocated ones), its size
      times 64 / the trace's machine (MaxNodes, else MaxProcs, else the
      largest job), rounded up.  SDSC-SP2 (128 nodes): ceil(size / 2).

  torus-h2h-mix.py one SIZE...
      One torus3d placement per size that has a box on 4x4x4: its most
      compact box (least mean pairwise distance, the shape order of
      torus.conf(5)), lengths non-increasing in x, y, z.  One
      "AxBxC" (torus3d's x, y, z) per line; a size with no box has none.

  torus-h2h-mix.py rotations SHAPE...
      Every distinct rotation of each AxBxC: the shape as given, then its
      other rotations in lexicographic order.

  torus-h2h-mix.py shapes SIZE...
      Every box of each size, most compact first, each in every rotation
      (the non-increasing one first).
"""
import gzip
import itertools
import sys
from fractions import Fraction

DIM = 4


def pair_sum(lens):
    """Sum of the plain coordinate distance over ordered pairs of a box."""
    size = 1
    for p in lens:
        size *= p
    return sum((size // p) ** 2 * (p ** 3 - p) // 3 for p in lens), size


def compactness(lens):
    """Mean pairwise distance as an exact fraction (numerator, denominator)."""
    s, size = pair_sum(lens)
    return s, size * (size - 1) if size > 1 else 1


def key(lens):
    num, den = compactness(lens)
    return Fraction(num, den)


def boxes(size):
    """Every box (x, y, z) of `size` nodes on 4x4x4, most compact first;
    equally compact ones with non-increasing lengths grouped together."""
    out = [l for l in itertools.product(range(1, DIM + 1), repeat=3)
           if l[0] * l[1] * l[2] == size]
    return sorted(out, key=lambda l: (key(l), tuple(sorted(l, reverse=True)), l))


def rotations(lens):
    first = tuple(lens)
    return [first] + sorted(set(itertools.permutations(first)) - {first})


def fmt(shapes):
    return "\n".join(f"{x}x{y}x{z}" for x, y, z in shapes)


def parse_shape(text):
    try:
        lens = tuple(int(v) for v in text.split("x"))
    except ValueError:
        lens = ()
    if len(lens) != 3 or not all(1 <= v <= DIM for v in lens):
        sys.exit(f"torus-h2h-mix.py: bad shape '{text}' (AxBxC, 1 to {DIM} each)")
    return lens


def parse_sizes(texts):
    try:
        return [int(s) for s in texts]
    except ValueError:
        sys.exit(f"torus-h2h-mix.py: sizes must be whole numbers: {' '.join(texts)}")


def trace_sizes(path):
    opener = gzip.open if path.endswith(".gz") else open
    jobs, machine = [], 0
    with opener(path, "rt") as fp:
        for ln, line in enumerate(fp, 1):
            if line.startswith(";"):
                f = line[1:].split(":", 1)
                if len(f) == 2 and f[0].strip() in ("MaxNodes", "MaxProcs"):
                    v = int(f[1].split()[0])
                    if f[0].strip() == "MaxNodes" or not machine:
                        machine = v
                continue
            f = line.split()
            if not f:
                continue
            if len(f) < 8:
                sys.exit(f"{path}:{ln}: {len(f)} fields, SWF has 18")
            run, alloc, req = int(f[3]), int(f[4]), int(f[7])
            procs = req if req > 0 else alloc
            if run > 0 and procs > 0:
                jobs.append(procs)
    if not jobs:
        sys.exit(f"{path}: no job with a run time and a size")
    machine = machine or max(jobs)
    count = {}
    for p in jobs:
        s = min(DIM ** 3, -(-p * DIM ** 3 // machine))
        count[s] = count.get(s, 0) + 1
    return sorted(count.items())


def main():
    a = sys.argv[1:]
    if len(a) == 2 and a[0] == "sizes":
        for s, n in trace_sizes(a[1]):
            print(s, n)
    elif len(a) >= 2 and a[0] == "one":
        print(fmt(tuple(sorted(boxes(s)[0], reverse=True))
                  for s in parse_sizes(a[1:]) if boxes(s)))
    elif len(a) >= 2 and a[0] == "rotations":
        print(fmt(r for t in a[1:] for r in rotations(parse_shape(t))))
    elif len(a) >= 2 and a[0] == "shapes":
        out = []
        for s in parse_sizes(a[1:]):
            for b in boxes(s):
                for r in rotations(tuple(sorted(b, reverse=True))):
                    if r not in out:
                        out.append(r)
        print(fmt(out))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(1)
