#!/usr/bin/env python3
"""doc-commands.py - every command of the README and of the man pages'
EXAMPLE(S) sections runs as written, from the repository root, after the
build.

What a command is: the README's ```sh blocks and the .EX/.EE blocks of a
man page's EXAMPLE or EXAMPLES section (.nf/.fi blocks there are file
contents, not commands), cut into commands where bash sees a whole
command (a loop, a pipe or a line continued with a backslash stays one).

Where they run: per document, one bash session (so an `export PATH` or a
variable holds for the commands after it) in a scratch copy of the
repository root: a link to every entry of the source tree, build/dev a
link to the build tree under test ("after the build"), data/ among the
linked entries; the files the commands write stay in the
scratch directory.  Man pages are for installed programs: their
sessions have the build tree's src/sim and src/tools on PATH.

Commands that cannot run here (root, a live Slurm, the network, or the
very test run this is part of) are listed in MARKED below with how each
is verified instead; a MARKED entry that matches no command is itself a
failure (the list follows the documents), an unmarked command that
would install, manage packages or run the tests (UNSAFE) fails unrun,
and no command is left out silently: each prints "ok", "verified" or
"FAILED".

Environment: TOPO_SRCDIR, TOPO_BUILDDIR, TP_SHARED_DATA (make check sets
them).  Ends with "N passed, N failed"."""
import os
import re
import shlex
import subprocess
import sys
import tempfile

SRC = os.path.abspath(os.environ.get('TOPO_SRCDIR', os.path.join(
    os.path.dirname(__file__), '..')))
BUILD = os.path.abspath(os.environ.get('TOPO_BUILDDIR', '.'))
DATA = os.path.abspath(os.environ.get(
    'TP_SHARED_DATA', os.path.join(SRC, 'data')))
SAMPLES = os.path.join(SRC, 'contrib', 'workload', 'sacct-example')

passed = failed = 0


def ok(msg):
    global passed
    passed += 1
    print('ok: ' + msg)


def bad(msg):
    global failed
    failed += 1
    print('FAILED: ' + msg)


def read(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


# ---- extraction -------------------------------------------------------

def readme_blocks(text):
    return re.findall(r'^```sh\n(.*?)^```', text, re.M | re.S)


def unroff(line):
    line = re.sub(r'\\f[BIRP]', '', line)
    for a, b in (('\\-', '-'), ('\\(aq', "'"), ('\\(dq', '"'), ('\\(rs', '\\'),
                 ('\\&', ''), ('\\e', '\\')):
        line = line.replace(a, b)
    return line


def man_blocks(text):
    blocks, section, block = [], None, None
    for line in text.split('\n'):
        if line.startswith('.SH '):
            section = line[4:].strip().strip('"')
            continue
        if section not in ('EXAMPLE', 'EXAMPLES'):
            continue
        if line.startswith('.EX'):
            block = []
        elif line.startswith('.EE'):
            if block is not None:
                blocks.append('\n'.join(block) + '\n')
            block = None
        elif block is not None and not line.startswith('.'):
            block.append(unroff(line))
    return blocks


def whole(text):
    """Does bash see text as complete commands?"""
    p = subprocess.run(['bash', '-n'], input=text.encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode == 0 and not p.stderr


def commands(block):
    out, cur = [], []
    for line in block.split('\n'):
        cur.append(line)
        text = '\n'.join(cur)
        body = [l for l in cur if l.strip() and not l.strip().startswith('#')]
        if not body:
            cur = []
            continue
        if not line.rstrip().endswith('\\') and whole(text + '\n'):
            out.append(text.strip('\n'))
            cur = []
    if [l for l in cur if l.strip() and not l.strip().startswith('#')]:
        out.append('\n'.join(cur).strip('\n') + '   # INCOMPLETE')
    return out


# ---- the commands verified another way ----------------------------------

def grep(path, pattern):
    return re.search(pattern, read(os.path.join(SRC, path)), re.M) is not None


def live_tests_text():
    d = os.path.join(SRC, 'test', 'live')
    return '\n'.join(read(os.path.join(d, f)) for f in sorted(os.listdir(d))
                     if f.endswith('.sh'))


def check_script(path):
    p = subprocess.run(['bash', '-n', os.path.join(SRC, path)],
                       stderr=subprocess.PIPE)
    return p.returncode == 0


def verify_run_main(cmd):
    """Root, packages and live clusters: the script parses, --help works,
    its simulator part runs here (contrib/sim-main.sh, as run-main.sh
    calls it), its live part (contrib/head-to-head.sh) is what
    test/live/t-demo-*.sh run."""
    why = []
    if not check_script('contrib/run-main.sh'):
        why.append('run-main.sh does not parse')
    if subprocess.run([os.path.join(SRC, 'contrib/run-main.sh'), '--help'],
                      stdout=subprocess.DEVNULL).returncode:
        why.append('run-main.sh --help failed')
    if not grep('contrib/run-main.sh', r'^\./contrib/sim-main\.sh build/main'):
        why.append('run-main.sh does not run contrib/sim-main.sh')
    p = subprocess.run([os.path.join(SRC, 'contrib/sim-main.sh'), BUILD, DATA],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode:
        why.append('contrib/sim-main.sh failed: %s' % p.stdout[-300:])
    if not grep('contrib/run-main.sh', r'contrib/head-to-head\.sh') or \
            not grep('test/live/demo.sh', r'head-to-head\.sh') or \
            not os.path.exists(os.path.join(SRC, 'test/live/t-demo-24.11.sh')):
        why.append('no live test runs contrib/head-to-head.sh')
    return why, 'root and live clusters: simulator part run here, live part by test/live/t-demo-*'


def verify_test_all(cmd):
    """CI's own command: .ci/run executes it."""
    why = [] if check_script('contrib/test-all.sh') else ['test-all.sh does not parse']
    if not grep('.ci/run', r'^exec \./contrib/test-all\.sh'):
        why.append('.ci/run does not run it')
    return why, 'CI runs it (.ci/run)'


def verify_install_deps(cmd):
    """Root and apt: test-all.sh and run-main.sh run it first."""
    why = [] if check_script('contrib/install-deps.sh') else ['does not parse']
    for s in ('contrib/test-all.sh', 'contrib/run-main.sh'):
        if not grep(s, r'^\./contrib/install-deps\.sh'):
            why.append('%s does not run it' % s)
    return why, 'root and apt: run by test-all.sh and run-main.sh'


def verify_build_release(cmd):
    """Slurm's headers (downloaded once): test-all.sh builds the same
    release with the same option."""
    m = re.search(r'--with-slurm-version=(\S+)', cmd)
    v = m.group(1) if m else None
    if not v or not grep('contrib/test-all.sh',
                         r'^\./contrib/build\.sh build/\S+ --with-slurm-version=%s'
                         % re.escape(v)):
        return (['test-all.sh does not build --with-slurm-version=%s' % v],
                '')
    return [], 'test-all.sh builds Slurm %s the same way' % v


def verify_check(cmd):
    """The tests of the tree: test-all.sh runs make check in build/test
    and build/sanitize; this checker is one of them."""
    why = []
    if not grep('contrib/test-all.sh', r'make -C build/test check'):
        why.append('test-all.sh does not run make check')
    if 'doc-commands.py' not in read(os.path.join(BUILD, 'Makefile')):
        why.append('doc-commands.py is not in the tree\'s tests')
    return why, 'make check of the tree under test (this test is part of it)'


def verify_topo_cluster(cmd):
    """Root and Slurm daemons: the live tests run every one of these."""
    words = shlex.split(cmd)
    sub = words[1]
    flags = [w for w in words[2:] if w.startswith('--') and w not in ('--', '--dir')]
    text = live_tests_text()
    why = []
    if not re.search(r'(TOPO_CLUSTER"|restart_ctld\(\)) ?[^\n]*' + re.escape(sub), text) and \
            not re.search(r'"\$TOPO_CLUSTER" %s' % re.escape(sub), text):
        why.append('no live test runs topo-cluster %s' % sub)
    for f in flags:
        if f not in text:
            why.append('no live test passes %s' % f)
    return why, 'root and Slurm daemons: the live tests run topo-cluster %s%s' % (
        sub, ''.join(' ' + f for f in flags))


def sacct_standin(cmd):
    """A live Slurm's accounting: the sample of contrib/workload/
    sacct-example whose header is exactly the command's --format list
    stands in for its output (the reader is then run on it by the
    commands that follow, as written)."""
    m = re.search(r'--format=(\S+)', cmd)
    t = re.search(r'>\s*(\S+)\s*$', cmd)
    if not m or not t:
        return None, ['no --format=LIST or no "> FILE"'], ''
    cols = m.group(1).split(',')
    for f in sorted(os.listdir(SAMPLES)):
        path = os.path.join(SAMPLES, f)
        if f.endswith('.sacct') and read(path).split('\n')[0].split('|') == cols:
            return ('cp %s %s' % (shlex.quote(path), t.group(1)), [],
                    'no Slurm here: %s (its header is the --format list) stands in'
                    % os.path.relpath(path, SRC))
    return None, ['no sample in %s has the header %s' % (SAMPLES, '|'.join(cols))], ''


def build_standin(cmd):
    """The release's tree: build/slurm is the tree under test."""
    why, how = verify_build_release(cmd)
    return ('rm -rf build/slurm; ln -s %s build/slurm' % shlex.quote(BUILD),
            why, how + '; here build/slurm is the tree under test')


def install_standin(cmd):
    """make install into a staging directory (DESTDIR), whose bin is then
    on PATH, as an installation's is."""
    mk = read(os.path.join(BUILD, 'Makefile'))
    prefix = re.search(r'^prefix = (.*)$', mk, re.M).group(1).strip()
    m = re.match(r'make -C (\S+) install\s*$', cmd.split('#')[0].strip())
    if not m:
        return None, ['not "make -C DIR install"'], ''
    return ('make -C %s install DESTDIR="$DOC_SCRATCH/inst" && '
            'export PATH="$DOC_SCRATCH/inst%s/bin:$PATH"' % (m.group(1), prefix),
            [], 'installed into a staging directory (DESTDIR), its bin on PATH')


# (pattern on the command, handler): a handler either verifies (returns
# problems and how) or stands in (returns bash text, problems, how).
MARKED = [
    (r'^\./contrib/run-main\.sh\b', verify_run_main),
    (r'^\./contrib/test-all\.sh\b', verify_test_all),
    (r'^\./contrib/install-deps\.sh\b', verify_install_deps),
    (r'^\./contrib/build\.sh build/slurm --with-slurm-version=', build_standin),
    (r'^make -C build/slurm check\b', verify_check),
    (r'^make -C build/slurm install\b', install_standin),
    (r'^topo-cluster ', verify_topo_cluster),
    (r'^(TZ=\S+ )?sacct ', sacct_standin),
]
STANDINS = (sacct_standin, build_standin, install_standin)
# Never run as written, marked or not: they would change this machine
# (install into the system, packages) or run the tests inside the tests.
UNSAFE = r'(^|[;&|]\s*)(sudo|apt-get|apt|dpkg|make\b[^#\n]*\b(install|check|check-live|distcheck)\b)'


# ---- running a document ----------------------------------------------------

def scratch_root(tmp):
    root = os.path.join(tmp, 'root')
    os.makedirs(os.path.join(root, 'build'))
    for e in os.listdir(SRC):
        if e not in ('build', '.git'):
            os.symlink(os.path.join(SRC, e), os.path.join(root, e))
    os.symlink(BUILD, os.path.join(root, 'build', 'dev'))
    return root


def call(handler, cmd):
    """A handler's answer; its own failure (a file it reads is gone) is a
    problem of the command, not a crash of the checker."""
    try:
        return handler(cmd)
    except (OSError, ValueError, AttributeError, IndexError) as e:
        msg = ['%s: %s' % (handler.__name__, e)]
        return (None, msg, '') if handler in STANDINS else (msg, '')


def run_doc(name, cmds, man):
    tmp = tempfile.mkdtemp(prefix='doc-commands-')
    root = scratch_root(tmp)
    lines = ['export DOC_SCRATCH=%s' % shlex.quote(tmp),
             'exec 3>%s' % shlex.quote(os.path.join(tmp, 'results')),
             'cd %s || exit 1' % shlex.quote(root)]
    if man:
        lines.append('export PATH=%s:%s:"$PATH"' % (
            shlex.quote(os.path.join(BUILD, 'src/sim')),
            shlex.quote(os.path.join(BUILD, 'src/tools'))))
    # positional parameters: a command's own variables cannot touch them
    lines.append('__run() { "$2" </dev/null >"$DOC_SCRATCH/log.$1" 2>&1; echo "$1 $?" >&3; }')
    notes = {}
    for i, cmd in enumerate(cmds):
        body = cmd
        handler = next((h for pat, h in MARKED if re.search(pat, cmd)), None)
        if cmd.endswith('# INCOMPLETE'):
            bad('%s: an incomplete command (bash cannot parse it): %s' % (name, cmd))
            continue
        if not handler and re.search(UNSAFE, cmd):
            bad('%s: not run, it would change this machine or run the tests '
                'again: mark it in MARKED with a verification: %s' % (name, cmd))
            continue
        if handler in STANDINS:
            text, why, how = call(handler, cmd)
            if why:
                bad('%s: %s: %s' % (name, cmd, '; '.join(why)))
                continue
            body, notes[i] = text, how
        elif handler:
            why, how = call(handler, cmd)
            if why:
                bad('%s: %s: %s' % (name, cmd, '; '.join(why)))
            else:
                ok('%s: verified (%s): %s' % (name, how, cmd.split('\n')[0]))
            continue
        lines.append('__c%d() {\n%s\n}' % (i, body))
        lines.append('__run %d __c%d' % (i, i))
    script = os.path.join(tmp, 'run.sh')
    with open(script, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    try:
        subprocess.run(['bash', script], timeout=900)
    except subprocess.TimeoutExpired:
        bad('%s: its commands did not end within 900 s' % name)
    results = {}
    if os.path.exists(os.path.join(tmp, 'results')):
        for line in read(os.path.join(tmp, 'results')).split('\n'):
            if line:
                n, rc = line.split()
                results[int(n)] = int(rc)
    for i, cmd in enumerate(cmds):
        handler = next((h for pat, h in MARKED if re.search(pat, cmd)), None)
        if (handler and handler not in STANDINS) or cmd.endswith('# INCOMPLETE') or \
                (not handler and re.search(UNSAFE, cmd)):
            continue
        if handler in STANDINS and i not in notes:
            continue  # refused above
        first = cmd.split('\n')[0]
        if i not in results:
            bad('%s: did not run (an earlier command ended the session?): %s' % (name, first))
        elif results[i]:
            log = read(os.path.join(tmp, 'log.%d' % i))
            bad('%s: exit %d: %s\n  | %s' % (name, results[i], cmd,
                                            log.strip()[-600:].replace('\n', '\n  | ')))
        elif i in notes:
            ok('%s: verified (%s): %s' % (name, notes[i], first))
        else:
            ok('%s: %s' % (name, first))
    subprocess.run(['rm', '-rf', tmp])


def main():
    if not os.path.isdir(DATA):
        bad('no data at %s (TP_SHARED_DATA)' % DATA)
    configure, ac = (os.path.join(SRC, f) for f in ('configure', 'configure.ac'))
    if not os.path.exists(configure) or os.path.getmtime(configure) < os.path.getmtime(ac):
        bad('%s is older than configure.ac: contrib/build.sh would regenerate it '
            'inside the source tree; build first' % configure)
        return 1
    docs = [('README.md', readme_blocks(read(os.path.join(SRC, 'README.md'))), False)]
    d = os.path.join(SRC, 'doc')
    for f in sorted(os.listdir(d)):
        if re.search(r'\.[1-8]$', f):
            docs.append(('doc/' + f, man_blocks(read(os.path.join(d, f))), True))
    used = set()
    total = 0
    for name, blocks, man in docs:
        cmds = [c for b in blocks for c in commands(b)]
        for c in cmds:
            for pat, _ in MARKED:
                if re.search(pat, c):
                    used.add(pat)
        total += len(cmds)
        if cmds:
            run_doc(name, cmds, man)
    for pat, h in MARKED:
        if pat not in used:
            bad('MARKED entry %s (%s) matches no command of the documents' % (pat, h.__name__))
    if total < 40:
        bad('only %d commands found in the documents' % total)
    print('doc-commands: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
