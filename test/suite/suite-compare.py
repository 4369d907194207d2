#!/usr/bin/python3
"""suite-compare.py - compare runs of Slurm's testsuite/python test by test.

  suite-compare.py --ids [--known FILE --series S] STOCK.xml OTHER.xml
      print the pytest ids of the tests that passed on STOCK and failed on
      OTHER (one per line), for a second run; with --known, not those
      known as flaky or differing (they are not counted anyway).
  suite-compare.py --known FILE --series S [--mode local|auto] STOCK.xml OTHER.xml...
      a table per cluster; exit 1 when a test that passed on STOCK failed
      on a cluster, also in its second run (OTHER.rerun.xml) if there was
      one.  Failures on stock are listed with their reason from FILE.

  suite-compare.py --skips --series S STOCK.xml...
      print a line "S FILE REASON" for each test file of which every test
      skipped (in every one of the runs given: a file a run did not
      collect counts in the others), REASON being its most frequent skip
      message: the lines of test/suite/skips.

The files are pytest's JUnit XML (--junitxml).  Only the standard library.
"""
import argparse
from collections import Counter
import os
import sys
import xml.etree.ElementTree as ET


def outcomes(path):
    """{pytest id: 'pass'|'fail'|'skip'} of one run."""
    res = {}
    for tc in ET.parse(path).iter('testcase'):
        cls, name = tc.get('classname', ''), tc.get('name', '')
        tid = cls.replace('.', '/') + '.py::' + name
        if tc.find('failure') is not None or tc.find('error') is not None:
            res[tid] = 'fail'
        elif tc.find('skipped') is not None:
            res[tid] = 'skip'
        else:
            res[tid] = 'pass'
    return res


def skipped_files(paths):
    """{test file: Counter of skip messages} of the files of which every
    test skipped in every run of `paths`."""
    msgs, ran = {}, set()
    for path in paths:
        for tc in ET.parse(path).iter('testcase'):
            cls = tc.get('classname', '')
            mod = [p for p in cls.split('.') if not p[:1].isupper()]
            f = '/'.join(mod) + '.py'
            sk = tc.find('skipped')
            if sk is None:
                ran.add(f)
                continue
            m = ' '.join((sk.get('message') or '').split())
            msgs.setdefault(f, Counter())[m] += 1
    return {f: c for f, c in msgs.items() if f not in ran}


def regressions(stock, other):
    return sorted(t for t, o in other.items()
                  if o == 'fail' and stock.get(t) == 'pass')


def read_known(path, series):
    """[(kind, id prefix, clusters, reason)] of FILE's lines for this
    series; clusters: None (all) or a set of cluster names."""
    known = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            parts = line.split(None, 3)
            if len(parts) < 4 or parts[0] not in ('env', 'slow', 'flaky', 'differs', 'ignore'):
                sys.exit(f"{path}:{n}: expected 'env|slow|flaky|differs|ignore ID SERIES[:CLUSTER,...] REASON', got {line!r}")
            kind, tid, ser, reason = parts
            ser, _, names = ser.partition(':')
            if kind == 'differs' and not names:
                sys.exit(f"{path}:{n}: a 'differs' line names its clusters (SERIES:CLUSTER,...)")
            if ser in ('all', series):
                known.append((kind, tid, set(names.split(',')) if names else None, reason))
    return known


def reason_for(known, tid, cluster=None):
    for kind, prefix, names, reason in known:
        if tid.startswith(prefix) and (names is None or cluster in names):
            return f"{kind}: {reason}"
    return None


def counts(res):
    return {k: sum(1 for o in res.values() if o == k)
            for k in ('pass', 'fail', 'skip')}


def name_of(path):
    """The cluster's name in test/suite/combos (FATTREE.auto.xml: fattree)."""
    name = os.path.basename(path)[:-len('.xml')]
    return name[:-len('.auto')] if name.endswith('.auto') else name


def report(args):
    known = read_known(args.known, args.series)
    stock = outcomes(args.stock)
    c = counts(stock)
    print(f"Slurm {args.series}: testsuite/python, {args.mode}-config mode,"
          f" {len(stock)} tests")
    print(f"{'cluster':<14} {'passed':>6} {'failed':>6} {'skipped':>7}"
          f"  vs stock")
    print(f"{'stock':<14} {c['pass']:>6} {c['fail']:>6} {c['skip']:>7}")
    bad = 0
    for path in args.others:
        res = outcomes(path)
        c = counts(res)
        regs = regressions(stock, res)
        name = name_of(path)
        noisy = [t for t in regs
                 if (reason_for(known, t, name) or '').startswith(('flaky', 'differs'))]
        regs = [t for t in regs if t not in noisy]
        again = path[:-len('.xml')] + '.rerun.xml'
        flaky = []
        if regs and os.path.exists(again):
            second = outcomes(again)
            flaky = [t for t in regs if second.get(t) == 'pass']
            regs = [t for t in regs if t not in flaky]
        missing = sorted(t for t in stock if t not in res)
        gained = sorted(t for t, o in res.items()
                        if o == 'pass' and stock.get(t) == 'fail')
        diff = 'same as stock' if not (regs or flaky or gained or missing or noisy) else \
            f"{len(regs)} regressions, {len(noisy)} known (flaky/differs), " \
            f"{len(flaky)} passed on a second run, " \
            f"{len(gained)} pass only here, {len(missing)} not run"
        print(f"{name_of(path):<14} {c['pass']:>6} {c['fail']:>6} "
              f"{c['skip']:>7}  {diff}")
        for t in regs:
            print(f"    REGRESSION {t}")
        for t in flaky:
            print(f"    second run passed: {t}")
        for t in noisy:
            print(f"    not counted ({reason_for(known, t, name)}): {t}")
        for t in gained:
            print(f"    passes only here: {t}")
        for t in missing:
            print(f"    not run here (deselected): {t}")
        bad += len(regs)
    print("failures on stock (not compared):")
    for t, o in sorted(stock.items()):
        if o == 'fail':
            print(f"    {t}: {reason_for(known, t) or 'NOT LISTED in known'}")
    print(f"gate: {'FAIL' if bad else 'pass'} "
          f"({bad} tests pass on stock and fail with our plugins)")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ids', action='store_true')
    ap.add_argument('--skips', action='store_true')
    ap.add_argument('--known')
    ap.add_argument('--series', default='22.05')
    ap.add_argument('--mode', default='local', choices=('local', 'auto'))
    ap.add_argument('stock')
    ap.add_argument('others', nargs='*')
    args = ap.parse_args()
    if args.skips:
        for f, c in sorted(skipped_files([args.stock] + args.others).items()):
            reason = c.most_common(1)[0][0].removeprefix('Skipped: ')
            print(f"{args.series}  {f}  {reason}")
        return 0
    if args.ids:
        known = read_known(args.known, args.series) if args.known else []
        name = name_of(args.others[0])
        for t in regressions(outcomes(args.stock), outcomes(args.others[0])):
            if not (reason_for(known, t, name) or '').startswith(('flaky', 'differs')):
                print(t)
        return 0
    if not args.others:
        ap.error('STOCK.xml and at least one other run are needed')
    if not args.known:
        ap.error('--known FILE is needed for the report')
    return report(args)


if __name__ == '__main__':
    sys.exit(main())
