#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parse KTAP (Documentation/dev-tools/ktap.rst) into flat results.

Usage: ktap.py [--prefix P] [--kunit] FILE

Prints one line per result, "ok NAME" or "not ok NAME" (NAME is "parent.child" for
subtests, prefixed with P), then "# totals: pass=N fail=N skip=N".  A SKIP directive
counts as skip, TODO as pass; TIMEOUT and ERROR are failures.  A test whose plan
promised more results than it printed gets a synthetic "not ok NAME.<missing>".

--kunit reads a kernel console log: printk timestamps are stripped and only the KUnit
block (from "KTAP version"/"TAP version" onward) is read; suites become the parents of
their cases and only cases are reported, each as "kunit.SUITE.CASE".

Exit status: 0 when everything passed or was skipped, 1 on any failure, 2 when the
input holds no KTAP at all (an empty run is a failure, not a pass).
"""
import re
import sys

PRINTK = re.compile(r'^\[\s*\d+\.\d+\]\s?')
RESULT = re.compile(r'^(\s*)(ok|not ok) (\d+)(?: -)?\s*([^#]*?)\s*(?:#\s*(.*))?$')
PLAN = re.compile(r'^(\s*)1\.\.(\d+)\s*$')
SUBTEST = re.compile(r'^(\s*)# Subtest: (.*)$')
HEADER = re.compile(r'^(\s*)(KTAP|TAP) version \d+')


def parse(lines, kunit=False):
    """Return [(name, status)] for leaf results; status in ok/fail/skip."""
    results = []
    # stack of [indent, name, plan, seen, leaves-before]
    stack = [[-1, '', None, 0]]
    started = False
    pending = {}
    for raw in lines:
        line = raw.rstrip('\r\n')
        if kunit:
            line = PRINTK.sub('', line)
        if HEADER.match(line):
            started = True
            continue
        if not started:
            continue
        m = SUBTEST.match(line)
        if m:
            pending[len(m.group(1))] = m.group(2).strip()
            continue
        m = PLAN.match(line)
        if m:
            ind = len(m.group(1))
            if ind > stack[-1][0]:
                stack.append([ind, pending.pop(ind, ''), int(m.group(2)), 0])
            else:
                stack[-1][2] = int(m.group(2))
            continue
        m = RESULT.match(line)
        if not m:
            continue
        ind = len(m.group(1))
        if ind > stack[-1][0] and stack[-1][0] >= 0 and ind in pending:
            # subtests without a plan (6.1 KUnit's parameterised cases)
            stack.append([ind, pending.pop(ind), None, 0])
        status = 'ok' if m.group(2) == 'ok' else 'fail'
        name = m.group(4).strip() or 'test%s' % m.group(3)
        directive = (m.group(5) or '').upper()
        if directive.startswith('SKIP'):
            status = 'skip'
        elif directive.startswith('TODO'):
            status = 'ok'
        elif directive.startswith(('TIMEOUT', 'ERROR')):
            status = 'fail'
        # close deeper levels: this line is their parent's result
        closed_children = False
        while stack[-1][0] > ind:
            lvl = stack.pop()
            closed_children = True
            if lvl[2] is not None and lvl[3] < lvl[2]:
                results.append(('%s.<missing %d of %d>' % (name, lvl[2] - lvl[3], lvl[2]), 'fail'))
        stack[-1][3] += 1
        prefix = '.'.join(l[1] for l in stack[1:] if l[1])
        full = '%s.%s' % (prefix, name) if prefix else name
        if closed_children:
            # a parent: its children were reported; a failing parent with passing
            # children still fails (suite init/exit errors)
            if status == 'fail' and not any(r[1] == 'fail' and r[0].startswith(full + '.')
                                            for r in results):
                results.append((full, 'fail'))
            continue
        results.append((full, status))
    for lvl in stack[1:]:
        if lvl[2] is not None and lvl[3] < lvl[2]:
            missing = '<missing %d of %d>' % (lvl[2] - lvl[3], lvl[2])
            results.append(('%s.%s' % (lvl[1], missing) if lvl[1] else missing, 'fail'))
    return results, started


def main(argv):
    prefix = ''
    kunit = False
    args = []
    it = iter(argv)
    for a in it:
        if a == '--prefix':
            prefix = next(it)
        elif a == '--kunit':
            kunit = True
        else:
            args.append(a)
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    with open(args[0], errors='replace') as f:
        results, started = parse(f, kunit)
    if not started:
        print('# no KTAP found in %s' % args[0])
        return 2
    counts = {'ok': 0, 'fail': 0, 'skip': 0}
    for name, status in results:
        counts[status] += 1
        if kunit:
            name = 'kunit.' + name
        word = {'ok': 'ok', 'fail': 'not ok', 'skip': 'ok'}[status]
        print('%s %s%s%s' % (word, prefix, name, ' # SKIP' if status == 'skip' else ''))
    print('# totals: pass=%d fail=%d skip=%d' % (counts['ok'], counts['fail'], counts['skip']))
    return 1 if counts['fail'] else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
