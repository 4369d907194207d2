#!/usr/bin/env python3
"""include-layers.py SRCDIR - the include structure the architecture
promises, checked on the source tree (doc/architecture.md):

 1. src/core (the decision library) is layered by folder: no cycle
    between its folders, and no include of a replay folder;
 2. src/replay (the simulator's library) likewise, on top of src/core;
 3. plugins/: no include cycle between plugin modules (a module is a
    .c file with its .h), within a plugin type or across types.

Prints each violation (the cycle with the files that make each edge) and
ends with "N passed, N failed"; exits 1 on any violation."""
import os
import re
import sys

INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def includes(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return INC.findall(f.read())


def sources(root):
    for d, _, fs in os.walk(root):
        for f in sorted(fs):
            if f.endswith(('.c', '.h')):
                yield os.path.join(d, f)


def cycles(graph):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def folder_graph(root, folders_of_other=()):
    """Folder -> folders it includes, with the file that makes each edge."""
    graph, why, bad = {}, {}, []
    for path in sources(root):
        own = os.path.relpath(path, root).split(os.sep)[0]
        graph.setdefault(own, set())
        for inc in includes(path):
            if '/' not in inc:
                continue
            top = inc.split('/')[0]
            if top in folders_of_other:
                bad.append(f'{path} includes "{inc}" (a replay folder)')
            if top == own or not os.path.isdir(os.path.join(root, top)):
                continue
            graph[own].add(top)
            why.setdefault((own, top), f'{path}: "{inc}"')
    return graph, why, bad


def module_graph(root):
    """Plugin modules (path without extension) -> modules they include."""
    by_name = {}
    for path in sources(root):
        by_name.setdefault(os.path.basename(path), []).append(path)
    graph, why = {}, {}
    for path in sources(root):
        mod = os.path.splitext(path)[0]
        graph.setdefault(mod, set())
        for inc in includes(path):
            cands = [p for p in by_name.get(os.path.basename(inc), [])
                     if p.endswith(inc)]
            # the one in the same folder first, as the compiler finds it
            same = [p for p in cands if os.path.dirname(p) == os.path.dirname(path)]
            target = (same or cands or [None])[0]
            if not target:
                continue
            tmod = os.path.splitext(target)[0]
            if tmod != mod:
                graph[mod].add(tmod)
                why.setdefault((mod, tmod), f'{path}: "{inc}"')
    return graph, why


def report(name, graph, why, bad=()):
    comps = cycles(graph)
    for b in bad:
        print(f'FAIL: {name}: {b}')
    for comp in comps:
        edges = [why[(a, b)] for a in comp for b in comp if (a, b) in why]
        print(f'FAIL: {name}: include cycle among {", ".join(comp)}')
        for e in edges:
            print(f'      {e}')
    ok = not comps and not bad
    print(f'{"PASS" if ok else "FAIL"}: {name} ({len(graph)} nodes, '
          f'{sum(len(v) for v in graph.values())} edges)')
    return ok


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TOPO_SRCDIR", ".")
    core, replay = os.path.join(src, 'src/core'), os.path.join(src, 'src/replay')
    replay_folders = {d for d in os.listdir(replay)
                      if os.path.isdir(os.path.join(replay, d))}
    results = [
        report('src/core folders', *folder_graph(core, replay_folders)),
        report('src/replay folders', *folder_graph(replay)),
        report('plugins modules', *module_graph(os.path.join(src, 'plugins'))),
    ]
    # The checker itself must be able to fail: a made-up cycle is found.
    probe = cycles({'a': {'b'}, 'b': {'a'}, 'c': {'a'}})
    results.append(probe == [['a', 'b']])
    print(f'{"PASS" if results[-1] else "FAIL"}: the cycle finder finds a two-folder cycle')
    print(f'{sum(results)} passed, {len(results) - sum(results)} failed')
    return 0 if all(results) else 1


if __name__ == '__main__':
    sys.exit(main())
