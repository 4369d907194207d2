#!/usr/bin/env python3
"""toposim-overlay.py - several schedules on one chart: utilisation over
time and the distribution of waits (CDF), one curve per run.

usage: toposim-overlay.py [--nodes N] [--title T] OUT.svg [LABEL=]JOBS.csv...

Each JOBS.csv is a jobs CSV in Batsim's schema (toposim --batsim-csv, in
either mode, or Batsim's own prefix_jobs.csv): the columns used are
submission_time, starting_time, finish_time and allocated_resources (an
interval set, "0-3 7").  The machine has N nodes (default: the highest
node index in any file, plus one).  The time axis starts at the earliest
submit of all the runs.  Written as SVG directly: no plotting library.
"""
import argparse
import bisect
import csv
import math
import os
import sys
from xml.sax.saxutils import escape

W, PANEL_H, LEFT, RIGHT, TOP, GAP, BOTTOM = 1000, 320, 80, 180, 50, 80, 60
BUCKETS = 400
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]


def interval_count(s, path, line):
    """Nodes in an interval set "0-3 7", and the highest index."""
    n, top = 0, -1
    for item in s.split():
        lo, _, hi = item.partition("-")
        try:
            a, b = int(lo), int(hi or lo)
        except ValueError:
            sys.exit(f"{path}:{line}: allocated_resources: not an interval set '{s}'")
        n += b - a + 1
        top = max(top, b)
    return n, top


def read_run(path):
    """[(submit, start, finish, nodes)], highest node index."""
    jobs, top = [], -1
    with open(path, newline="") as f:
        rows = csv.DictReader(f)
        need = {"submission_time", "starting_time", "finish_time",
                "allocated_resources"}
        if not need <= set(rows.fieldnames or []):
            sys.exit(f"{path}: not a Batsim jobs CSV (needs {', '.join(sorted(need))})")
        for i, r in enumerate(rows, start=2):
            try:
                t = (float(r["submission_time"]), float(r["starting_time"]),
                     float(r["finish_time"]))
            except ValueError:
                sys.exit(f"{path}:{i}: a time is not a number")
            n, hi = interval_count(r["allocated_resources"], path, i)
            jobs.append(t + (n,))
            top = max(top, hi)
    return jobs, top


def utilisation(jobs, t0, t1, nodes):
    """Busy nodes / nodes in each of BUCKETS buckets of [t0, t1)."""
    ev = sorted([(j[1], j[3]) for j in jobs] + [(j[2], -j[3]) for j in jobs])
    width = (t1 - t0) / BUCKETS
    out, busy, area, k, t = [], 0, 0.0, 0, t0
    for b in range(BUCKETS):
        end = t0 + (b + 1) * width
        while k < len(ev) and ev[k][0] <= end:
            at = max(ev[k][0], t)
            area += busy * (at - t)
            t, busy = at, busy + ev[k][1]
            k += 1
        area += busy * (end - t)
        t = end
        out.append(area / (width * nodes))
        area = 0.0
    return width, out


def nice_step(span, ticks=8):
    raw = span / ticks if span > 0 else 1
    p = 10 ** math.floor(math.log10(raw))
    m = raw / p
    return p * (1 if m <= 1 else 2 if m <= 2 else 5 if m <= 5 else 10)


def frame(out, y0, xlabel, ylabel, xticks, yticks):
    """A panel's box, ticks [(x, label)] / [(y, label)] and labels."""
    h = PANEL_H
    out.append(f'<rect x="{LEFT}" y="{y0}" width="{W - LEFT - RIGHT}" height="{h}" '
               'fill="none" stroke="black"/>')
    for x, lab in xticks:
        out.append(f'<line x1="{x:.1f}" y1="{y0 + h}" x2="{x:.1f}" y2="{y0 + h + 5}" '
                   f'stroke="black"/><text x="{x:.1f}" y="{y0 + h + 20}" '
                   f'text-anchor="middle">{lab}</text>')
    for y, lab in yticks:
        out.append(f'<line x1="{LEFT - 5}" y1="{y:.1f}" x2="{LEFT}" y2="{y:.1f}" '
                   f'stroke="black"/><text x="{LEFT - 8}" y="{y + 4:.1f}" '
                   f'text-anchor="end">{lab}</text>')
    out.append(f'<text x="{(LEFT + W - RIGHT) / 2}" y="{y0 + h + 42}" '
               f'text-anchor="middle">{escape(xlabel)}</text>')
    out.append(f'<text transform="translate(22,{y0 + h / 2}) rotate(-90)" '
               f'text-anchor="middle">{escape(ylabel)}</text>')


def fraction_ticks(y0):
    return [(y0 + PANEL_H * (1 - v / 4), f"{v / 4:g}") for v in range(5)]


def util_panel(out, runs, y0, t0, t1, nodes):
    day = 86400 if t1 - t0 > 3 * 86400 else 3600
    unit = "days" if day == 86400 else "hours"
    span = (t1 - t0) / day
    step = nice_step(span)
    px = (W - LEFT - RIGHT) / span
    xt = [(LEFT + v * step * px, f"{v * step:g}")
          for v in range(int(span / step) + 1)]
    frame(out, y0, f"time since the first submit ({unit})",
          "busy nodes / nodes", xt, fraction_ticks(y0))
    for i, (label, jobs) in enumerate(runs):
        width, u = utilisation(jobs, t0, t1, nodes)
        pts = " ".join(f"{LEFT + (b + 0.5) * width / day * px:.1f},"
                       f"{y0 + PANEL_H * (1 - min(v, 1.0)):.1f}"
                       for b, v in enumerate(u))
        out.append(f'<polyline fill="none" stroke="{COLOURS[i % len(COLOURS)]}" '
                   f'stroke-width="1.2" points="{pts}"><title>{escape(label)}</title></polyline>')


def wait_panel(out, runs, y0):
    """CDF of the waits, logarithmic: a wait under 1 s is drawn at 1 s."""
    waits = [sorted(max(j[1] - j[0], 1.0) for j in jobs) for _, jobs in runs]
    top = max(math.ceil(math.log10(max(w[-1] for w in waits if w))), 1)
    px = (W - LEFT - RIGHT) / top
    xt = [(LEFT + d * px, f"1e{d}" if d > 4 else f"{10 ** d:g}") for d in range(top + 1)]
    frame(out, y0, "wait (s, logarithmic; under 1 s drawn at 1 s)",
          "fraction of jobs waiting at most", xt, fraction_ticks(y0))
    for i, w in enumerate(waits):
        n, pts = len(w), []
        # At most ~500 points: the wait at each 1/500 of the jobs.
        for q in range(501):
            k = min(n - 1, int(q / 500 * (n - 1)))
            v = w[k]
            frac = bisect.bisect_right(w, v) / n
            pts.append(f"{LEFT + math.log10(v) * px:.1f},{y0 + PANEL_H * (1 - frac):.1f}")
        out.append(f'<polyline fill="none" stroke="{COLOURS[i % len(COLOURS)]}" '
                   f'stroke-width="1.2" points="{" ".join(pts)}"><title>'
                   f'{escape(runs[i][0])}</title></polyline>')


def legend(out, runs):
    for i, (label, jobs) in enumerate(runs):
        y = TOP + 10 + 20 * i
        x = W - RIGHT + 15
        out.append(f'<line x1="{x}" y1="{y}" x2="{x + 25}" y2="{y}" '
                   f'stroke="{COLOURS[i % len(COLOURS)]}" stroke-width="3"/>'
                   f'<text x="{x + 30}" y="{y + 4}">{escape(label)} ({len(jobs)})</text>')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=0)
    ap.add_argument("--title", default="schedules compared")
    ap.add_argument("out")
    ap.add_argument("csv", nargs="+", help="[LABEL=]JOBS.csv")
    a = ap.parse_args()
    runs, top = [], -1
    for arg in a.csv:
        label, eq, path = arg.partition("=")
        if not eq:
            label, path = os.path.basename(arg), arg
        jobs, hi = read_run(path)
        if not jobs:
            sys.exit(f"{path}: no job")
        runs.append((label, jobs))
        top = max(top, hi)
    nodes = a.nodes or top + 1
    t0 = min(j[0] for _, js in runs for j in js)
    t1 = max(j[2] for _, js in runs for j in js)
    if t1 <= t0:
        t1 = t0 + 1
    height = TOP + 2 * PANEL_H + GAP + BOTTOM
    out = [f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
           f'width="{W}" height="{height}" viewBox="0 0 {W} {height}" '
           'font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{W / 2}" y="25" text-anchor="middle" font-size="15">'
           f'{escape(a.title)}: utilisation of {nodes} nodes and waits</text>']
    util_panel(out, runs, TOP, t0, t1, nodes)
    wait_panel(out, runs, TOP + PANEL_H + GAP)
    legend(out, runs)
    out.append("</svg>\n")
    with open(a.out, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
