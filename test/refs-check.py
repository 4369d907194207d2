#!/usr/bin/env python3
"""refs-check.py [SRCDIR] - every path of this repository that a comment
or a document names exists.

Scanned: the comments of C, shell, Python, automake, m4 and gnuplot
files and the whole text of Markdown documents and manual pages, in the
source tree's folders (src, plugins, test, doc, contrib, m4, bench, fuzz,
data) and its top-level README.md, configure.ac and Makefile.am.  Three
kinds of names are checked:

 1. a path from the top of the tree (src/..., doc/..., test/..., ...);
    a program or library the build makes counts when a Makemodule.am
    declares it or its source (PATH.c, PATH.sh, PATH.py) exists;
 2. an include-style path of the libraries (alloc/place.h,
    hetsim/het_conf.h, topology/common/tpt_eval.c): its first folder
    must be a folder of src/core, src/replay or plugins, and the file
    must be in it;
 3. a bare script or build file name (NAME.sh, .py, .am, .m4, .md, .gp)
    must be some file's name in the tree.

Names that are not this repository's are left alone: Slurm's source tree
(src/common/..., src/slurmctld/..., slurm/slurm_version.h,
doc/html/...), files the build or libtool makes (.libs, fuzz/work,
ltmain.sh), and placeholders written in capitals or <angle brackets>
(plugins/compat/tpl_compat_RRMM.h, st_slurm_RRMM.c,
test/check_<module>.c), which match any name.  Braces and globs ({a,b}, *, [ch]) must each match.

Prints every stale name as FILE:LINE: NAME (why), then "N passed, N
failed"; exits 1 when a name is stale or when the self-test (a scratch
tree with planted stale names, each of which must be found at its line,
and fresh ones, none of which may be) fails."""
import fnmatch
import glob
import os
import re
import sys
import tempfile

TOP = ('src', 'plugins', 'test', 'doc', 'contrib', 'm4', 'bench', 'fuzz',
       'data')
TOP_FILES = ('README.md', 'configure.ac', 'Makefile.am')
# Slurm's own source tree, which comments cite as Slurm lays it out.
SLURM_SRC = {
    'api', 'bcast', 'common', 'conmgr', 'curl', 'database', 'interfaces',
    'lua', 'plugins', 'sackd', 'sacct', 'sacctmgr', 'salloc', 'sattach',
    'sbatch', 'sbcast', 'scancel', 'scontrol', 'scrontab', 'scrun', 'sdiag',
    'sinfo', 'slurmctld', 'slurmd', 'slurmdbd', 'slurmrestd', 'spank',
    'sprio', 'squeue', 'sreport', 'sshare', 'sstat', 'stepmgr', 'strigger',
    'sview'}
SLURM_DOC = ('doc/html/', 'doc/man/')
EXTERNAL_FIRST = {'slurm'}          # slurm/slurm_version.h and the like
BUILD_ONLY = ('fuzz/work',)         # made by `make fuzz` in the build tree
EXTERNAL_BARE = {'ltmain.sh', 'lt~obsolete.m4', 'libtool.m4',
                 'ltoptions.m4', 'ltsugar.m4', 'ltversion.m4'}
GENERATED = {'Makefile.in', 'configure', 'aclocal.m4', 'config.status',
             'libtool'} | EXTERNAL_BARE
MAN = re.compile(r'\.[1-8]$')
CODE_EXT = ('.c', '.h', '.sh', '.py', '.am', '.m4', '.gp', '.ac')
BUILT_EXT = ('.so', '.la', '.lo', '.o', '.a')

PATH = re.compile(
    r'(?<![\w./$~-])(?:\./)?([\w+~][\w.+~-]*(?:/[\w.+*{},\[\]<>~-]+)+/?)')
BARE = re.compile(
    r'(?<![\w./$~<-])([\w+~<][\w.+~<>-]*\.(?:sh|py|am|m4|md|gp))(?![\w/.-])')
PLACEHOLDER = re.compile(r'(?<![A-Za-z])[A-Z][A-Z0-9_]*(?![a-z])|<[^<>/]*>')


# ---- what the tree holds ---------------------------------------------

def tree_files(root):
    out = [f for f in TOP_FILES if os.path.isfile(os.path.join(root, f))]
    for top in TOP:
        for d, ds, fs in os.walk(os.path.join(root, top)):
            ds[:] = sorted(x for x in ds
                           if x not in ('.libs', '.deps', 'autom4te.cache'))
            out += [os.path.relpath(os.path.join(d, f), root)
                    for f in sorted(fs)]
    return out


def built_names(root, files):
    """Programs and libraries the Makemodule.am files declare."""
    names = set()
    decl = re.compile(r'^[A-Za-z_]*(PROGRAMS|LTLIBRARIES|LIBRARIES|BENCHES|'
                      r'FUZZERS|SCRIPTS)\s*\+?=\s*((?:.*\\\n)*.*)$', re.M)
    for f in files:
        if os.path.basename(f) not in ('Makemodule.am', 'Makefile.am'):
            continue
        for m in decl.finditer(read(root, f)):
            for w in m.group(2).replace('\\\n', ' ').split():
                if '/' in w and '$' not in w:
                    names.add(w)
                    names.add(os.path.splitext(w)[0])
    return names


def layers(root):
    """Include-style first folders -> the folders they are relative to."""
    bases = {}
    roots = ['src/core', 'src/replay', 'plugins']
    roots += [os.path.join('plugins', d)
              for d in sorted(os.listdir(os.path.join(root, 'plugins')))
              if os.path.isdir(os.path.join(root, 'plugins', d))]
    for base in roots:
        for d in sorted(os.listdir(os.path.join(root, base))):
            if os.path.isdir(os.path.join(root, base, d)):
                bases.setdefault(d, []).append(base)
    return bases


def read(root, f):
    with open(os.path.join(root, f), encoding='utf-8', errors='replace') as fp:
        return fp.read()


# ---- the text that is comment or document -----------------------------

def scanned(root, f):
    """Is f a file whose comments (or whole text) are read?"""
    base = os.path.basename(f)
    if base in GENERATED:
        return False
    if f.endswith('.md') or MAN.search(f) or f.endswith(CODE_EXT):
        return True
    try:
        with open(os.path.join(root, f), 'rb') as fp:
            return fp.read(2) == b'#!'
    except OSError:
        return False


def c_comments(text):
    """(line, text) of every comment of a C file."""
    i, n, line = 0, len(text), 1
    while i < n:
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j
            for k, part in enumerate(text[i + 2:j].split('\n')):
                yield line + k, part
            line += text.count('\n', i, j)
            i = j + 2
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            yield line, text[i + 2:j]
            i = j
        elif text[i] in '"\'':
            q, i = text[i], i + 1
            while i < n and text[i] != q and text[i] != '\n':
                i += 2 if text[i] == '\\' else 1
            i += 1
        else:
            if text[i] == '\n':
                line += 1
            i += 1


HASH = re.compile(r'(?:^|\s)(?:#|dnl\b)(.*)')


def line_comments(text, docstring):
    if docstring:
        m = re.match(r'(?:#.*\n)*\s*("""|\'\'\')(.*?)\1', text, re.S)
        if m:
            first = text.count('\n', 0, m.start(2)) + 1
            for k, part in enumerate(m.group(2).split('\n')):
                yield first + k, part
    for k, part in enumerate(text.split('\n'), 1):
        m = HASH.search(part)
        if m:
            yield k, m.group(1)


def unroff(s):
    s = re.sub(r'\\f(?:\[[^]]*\]|\(..|.)', '', s)
    s = s.replace('\\-', '-').replace('\\&', '').replace('\\(en', '-')
    return s.replace('\\(em', '-').replace('\\e', '\\')


def commentary(root, f):
    text = read(root, f)
    if f.endswith('.md'):
        return enumerate(text.split('\n'), 1)
    if MAN.search(f):
        return ((k, unroff(s)) for k, s in enumerate(text.split('\n'), 1))
    if f.endswith(('.c', '.h')):
        return c_comments(text)
    return line_comments(text, f.endswith('.py'))


# ---- checking one name --------------------------------------------------

def trim(name):
    name = name.rstrip('.,:;')
    for o, c in ('()', '[]', '{}', '<>'):
        while name.endswith(c) and name.count(c) > name.count(o):
            name = name[:-1].rstrip('.,:;')
    return name


def matches(root, rel):
    """Does rel (braces, globs and placeholders allowed) name something?"""
    m = re.search(r'\{([^{}]*)\}', rel)
    if m:
        return all(matches(root, rel[:m.start()] + alt + rel[m.end():])
                   for alt in m.group(1).split(','))
    return bool(glob.glob(os.path.join(root, PLACEHOLDER.sub('*', rel))))


class Tree:
    def __init__(self, root):
        self.root = root
        self.files = tree_files(root)
        self.names = {os.path.basename(f) for f in self.files}
        self.built = built_names(root, self.files)
        self.layers = layers(root)

    def elsewhere(self, name):
        base = os.path.basename(name.rstrip('/'))
        hits = [f for f in self.files if os.path.basename(f) == base]
        return f'; {base} is {", ".join(hits[:3])}' if hits else ''

    def top_path(self, name):
        """Why a path from the top is stale, or None."""
        parts = name.split('/')
        if parts[0] == 'src' and len(parts) > 1 and parts[1] in SLURM_SRC:
            return None
        if name.startswith(SLURM_DOC + BUILD_ONLY) or '.libs' in parts:
            return None
        if matches(self.root, name) or name.rstrip('/') in self.built:
            return None
        stem, ext = os.path.splitext(name)
        if ext in BUILT_EXT and matches(self.root, stem + '.c'):
            return None
        if not ext and any(matches(self.root, name + e)
                           for e in ('.c', '.sh', '.py')):
            return None
        return 'no such file or folder' + self.elsewhere(name)

    def include_path(self, name):
        """Why an include-style path is stale, or None."""
        first = name.split('/')[0]
        if first in EXTERNAL_FIRST or PLACEHOLDER.fullmatch(first):
            return None
        bases = self.layers.get(first)
        if not bases:
            return (f'{first}/ is no folder of src/core, src/replay or '
                    f'plugins' + self.elsewhere(name))
        if any(matches(self.root, f'{b}/{name}') for b in bases):
            return None
        return (f'not in {" or ".join(b + "/" + first for b in bases)}'
                + self.elsewhere(name))

    def bare(self, name):
        if name in EXTERNAL_BARE:
            return None
        pat = PLACEHOLDER.sub('*', name)
        if any(fnmatch.fnmatchcase(n, pat) for n in self.names):
            return None
        return 'no file of that name in the tree'

    def check_line(self, text):
        """(name, why) of each stale name in one line of commentary."""
        for m in PATH.finditer(text):
            name = trim(m.group(1))
            first = name.split('/')[0]
            if first in TOP:
                why = self.top_path(name)
            elif name.endswith(('.c', '.h')):
                why = self.include_path(name)
            else:
                why = None
            if why:
                yield name, why
        for m in BARE.finditer(text):
            why = self.bare(m.group(1))
            if why:
                yield m.group(1), why

    def stale(self):
        out = []
        for f in self.files:
            if not scanned(self.root, f):
                continue
            for line, text in commentary(self.root, f):
                for name, why in self.check_line(text):
                    out.append((f, line, name, why))
        return out


# ---- the self-test: a scratch tree with planted names ----------------

def write(root, rel, text=''):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as fp:
        fp.write(text)


def self_test():
    """Planted stale names are each found at their line; fresh ones and
    the names of other trees are not."""
    d = tempfile.mkdtemp()
    try:
        for rel in ('src/core/alloc/place.h', 'src/core/base/bitops.h',
                    'src/replay/hetsim/het_conf.h', 'test/include-layers.py',
                    'plugins/topology/common/tpt_eval.c',
                    'plugins/compat/tpl_compat_2605.h', 'doc/methods.md',
                    'test/check_place.c', 'bench/bench_x.c'):
            write(d, rel)
        write(d, 'bench/Makemodule.am', 'BENCHES += bench/x_smoke\n')
        stale_names = [                       # line: name
            (3, 'test/include-layers' + '.sh'),
            (4, 'model' + '/bitops.h'),
            (5, 'io' + '/conffile.h'),
            (6, 'doc/algorithms' + '.md'),
            (7, 'contrib/no-such' + '.sh'),
            (8, 'gone-script' + '.py'),
            (9, 'src/core/alloc/plac' + 'ed.c'),
        ]
        fresh = ['alloc/place.h', 'hetsim/het_conf.h', 'base/bitops.h',
                 'test/include-layers.py', 'topology/common/tpt_eval.c',
                 'plugins/compat/tpl_compat_RRMM.h', 'test/check_<module>.c',
                 'test/check_place', 'bench/x_smoke', 'bench/bench_x',
                 'src/common/select.c', 'slurm/slurm_version.h',
                 'src/core/{alloc,base}/', 'doc/methods.md B',
                 'topology/tree', 'build/dev/src/sim/toposim',
                 'include-layers.py', 'src/core/alloc/place.[ch]']
        body = ['/*', ' * Fresh: ' + ', '.join(fresh[:9]) + '.']
        body += [f' * {n}' for _, n in stale_names]
        body += [' * Fresh again: ' + ', '.join(fresh[9:]) + '.', ' */',
                 'static const char *s = "string, not comment: ' +
                 'no' + '/such.h";']
        write(d, 'src/core/alloc/place.c', '\n'.join(body) + '\n')
        write(d, 'doc/x.1', '.B src/core/alloc/plac\\-e.h\n')
        got = sorted((f, line, name) for f, line, name, _ in Tree(d).stale())
        want = sorted([('src/core/alloc/place.c', n, name)
                       for n, name in stale_names]
                      + [('doc/x.1', 1, 'src/core/alloc/plac-e.h')])
        ok = got == want
        print(f'{"PASS" if ok else "FAIL"}: the self-test finds each of '
              f'{len(want)} planted stale names at its line and none of '
              f'{len(fresh)} fresh ones')
        if not ok:
            print(f'      wanted {want}\n      got    {got}')
        return ok
    finally:
        for dp, ds, fs in os.walk(d, topdown=False):
            for f in fs:
                os.unlink(os.path.join(dp, f))
            os.rmdir(dp)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.environ.get('TOPO_SRCDIR', '.')
    if not os.path.isdir(os.path.join(root, 'src/core')):
        print(f'FAIL: {root} is not the source tree (no src/core)')
        return 1
    stale = Tree(root).stale()
    for f, line, name, why in stale:
        print(f'{f}:{line}: {name} ({why})')
    results = [not stale]
    print(f'{"PASS" if not stale else "FAIL"}: every path named in '
          f'comments and documents exists ({len(stale)} stale)')
    results.append(self_test())
    print(f'{sum(results)} passed, {len(results) - sum(results)} failed')
    return 0 if all(results) else 1


if __name__ == '__main__':
    sys.exit(main())
