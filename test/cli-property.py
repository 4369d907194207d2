#!/usr/bin/env python3
"""cli-property.py - random command lines through toposim, the binary
(its parser is also a libFuzzer target, fuzz/fuzz_toposim_args.c).

Each of N seeded vectors mixes toposim's options with values (tiny files
that exist, paths that do not, "-", numbers, names, words that look like
options) and, for some vectors, one mistake the generator knows is a
usage error: an unknown option, an option given twice, an option whose
value is another option, an operand.  Properties, for every vector:

 1. toposim exits 0, 1 or 2, never by a signal (a crash), within 20 s;
 2. exit 2 (usage error) ends its message with "Try 'toposim --help'.",
    and only a usage error does;
 3. a vector with a known usage error exits 2.

Environment: TOPOSIM (the binary), CLI_PROPERTY_N (default 400),
CLI_PROPERTY_SEED (default 1).  Ends with "N passed, N failed"."""
import os
import random
import subprocess
import sys
import tempfile

TOPOSIM = os.environ.get('TOPOSIM', './src/sim/toposim')
N = int(os.environ.get('CLI_PROPERTY_N', '400'))
SEED = int(os.environ.get('CLI_PROPERTY_SEED', '1'))

VALUED = ['--workload', '-w', '--sacct', '--partition', '--slurm-conf',
          '--scale-sizes', '--load', '--nodes', '--ppn', '--alloc',
          '--topology', '--fattree-conf', '--torus', '--base-shapes',
          '--outside-rule', '--job-requests', '--jobs', '--estimate-field',
          '--windows', '--estimate-error', '--seed', '--jobs-csv',
          '--summary-json', '--frag-csv', '--plot', '--batsim-csv',
          '--swf-out', '--machine', '--het-jobs', '--truth', '--expdb',
          '--runtime-model', '--policy', '-p', '--window', '--window-rule',
          '--njob', '--rbhar-max-ext', '--rbhar-max-time', '--rbhar-factor',
          '--rbhar-requeue', '--het-max-jobs']
FLAGS = ['--lenient', '--check', '--quiet', '--oracle', '--allow-empty']
# values an option takes (drawn more often than any value, so that many
# vectors run)
GOOD = {'--nodes': ['4', '8'], '--ppn': ['1', '2'], '--alloc': ['first-free'],
        '--scale-sizes': ['0.5', '2'], '--load': ['1', '2'],
        '--jobs': ['0:1', '1:1'], '--estimate-field': ['9'],
        '--estimate-error': ['none', 'uniform:1-2'], '--seed': ['3'],
        '--window': ['2'], '--window-rule': ['index'], '--njob': ['2'],
        '--rbhar-max-ext': ['2'], '--rbhar-factor': ['3'],
        '--rbhar-requeue': ['no'], '--het-max-jobs': ['5'],
        '--frag-csv': ['F'], '--batsim-csv': ['B'], '--swf-out': ['S'],
        '--plot': ['P']}
# options that are one option under two names
SAME = {'-w': '--workload', '-p': '--policy'}


def values(tmp):
    swf = os.path.join(tmp, 't.swf')
    return [swf, swf, os.path.join(tmp, 'none.swf'), '-', '/dev/null',
            '0', '1', '4', '16', '-3', '0.5', '1e9', 'easy', 'fcfs',
            'window-ff', 'rb-har', 'pjs', 'fattree', 'first-free',
            'torus-mss', 'spread:0.2', 'none', '3:10:1', '4@0,2', '1:1',
            'yes', 'no', 'index', 'canonical', 'one-node', 'batch', '',
            "it's", 'a b', os.path.join(tmp, 'out.csv'),
            os.path.join(tmp, 'out.json')]


def output(tmp, k):
    return os.path.join(tmp, 'o%d' % k)


def vector(rng, tmp):
    """(argv, known usage error or None)."""
    vals = values(tmp)
    argv, used = [], set()
    base = [('--workload', os.path.join(tmp, 't.swf')),
            ('--policy', rng.choice(['easy', 'fcfs', 'conservative'])),
            ('--jobs-csv', output(tmp, 1)),
            ('--summary-json', output(tmp, 2))]
    for opt, val in base:
        if rng.random() < 0.92:
            argv += [opt, val]
            used.add(opt)
    for _ in range(rng.randrange(0, 5)):
        if rng.random() < 0.2:
            opt = rng.choice(FLAGS)
            if SAME.get(opt, opt) not in used:
                argv.append(opt)
                used.add(SAME.get(opt, opt))
            continue
        opt = rng.choice(VALUED)
        if SAME.get(opt, opt) in used:
            continue
        good = GOOD.get(opt)
        val = rng.choice(good) if good and rng.random() < 0.7 else rng.choice(vals)
        argv += [opt, os.path.join(tmp, val) if val in 'FBSP' and val else val]
        used.add(SAME.get(opt, opt))
    mistake = None
    kind = rng.randrange(8)
    if kind == 0:
        # wherever it goes it is an unknown option, or the value of the
        # option before it (a value that is an option)
        argv.insert(rng.randrange(len(argv) + 1),
                    rng.choice(['--bogus', '--polcy', '-x', '--plott']))
        mistake = 'unknown option'
    elif kind == 1 and used:
        opt = rng.choice(sorted(used))
        argv += [opt] if opt in FLAGS else [opt, rng.choice(vals) or 'x']
        mistake = 'repeat'
    elif kind == 2:
        opt = rng.choice(VALUED)
        if SAME.get(opt, opt) not in used:
            argv += [opt, rng.choice(['--partition', '--quiet', '-p', '--x'])]
            mistake = 'value is an option'
    elif kind == 3:
        argv.append('stray')
        mistake = 'operand'
    return argv, mistake


def main():
    rng = random.Random(SEED)
    passed = failed = 0
    exits = {}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, 't.swf'), 'w') as f:
            f.write('; MaxNodes: 4\n'
                    '1 0 -1 10 3 -1 -1 3 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n'
                    '2 1 -1 5 2 -1 -1 2 5 -1 1 -1 -1 -1 -1 -1 -1 -1\n')
        for i in range(N):
            argv, mistake = vector(rng, tmp)
            try:
                p = subprocess.run([TOPOSIM] + argv, cwd=tmp,
                                   stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, timeout=20)
            except subprocess.TimeoutExpired:
                print('FAILED: %d: no exit within 20 s: %r' % (i, argv))
                failed += 1
                continue
            err = p.stderr.decode(errors='replace')
            exits[p.returncode] = exits.get(p.returncode, 0) + 1
            said_usage = err.rstrip().endswith("Try 'toposim --help'.")
            problems = []
            if p.returncode not in (0, 1, 2):
                problems.append('exit %d (a crash or signal)' % p.returncode)
            if (p.returncode == 2) != said_usage:
                problems.append('exit %d but the usage line %s' % (
                    p.returncode, 'is there' if said_usage else 'is missing'))
            if mistake and p.returncode != 2:
                problems.append('a known usage error (%s), exit %d' % (
                    mistake, p.returncode))
            if problems:
                print('FAILED: %d: %r: %s; stderr: %s' % (
                    i, argv, '; '.join(problems), err.strip()[-300:]))
                failed += 1
            else:
                passed += 1
    print('exit statuses: %s' % ', '.join(
        '%d: %d' % (k, exits[k]) for k in sorted(exits)))
    print('cli-property: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
