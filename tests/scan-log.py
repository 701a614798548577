#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge a guest console log: fail on kernel warnings, oopses, lockdep, KASAN and stall reports.

Usage: scan-log.py CONSOLE_LOG

Prints each finding with its line number and an excerpt (the report's first lines),
and exits 1 if there is any, 0 if the log is clean, 2 if the log is empty or never
reached user space (a kernel that did not boot is not a clean one).
"""
import re
import sys

# What a kernel prints when something went wrong (cf. rcutorture's console-badness.sh).
BAD = [
    (r'WARNING: ', 'kernel warning'),
    # KASAN (the debug kernel): "BUG: KASAN: use-after-free in ...", and the GPF
    # decoration "KASAN: null-ptr-deref in range ..."; before the plain BUG line so the
    # finding says what it is.
    (r'BUG: KASAN: ', 'KASAN report'),
    (r'KASAN: (null-ptr-deref|maybe wild-memory-access|wild-memory-access) in range', 'KASAN report'),
    (r'\bBUG: ', 'kernel BUG'),
    (r'\bOops\b', 'oops'),
    (r'Kernel panic', 'panic'),
    (r'general protection fault', 'general protection fault'),
    (r'Call Trace:', 'call trace'),
    (r'INFO: task .* blocked for more than', 'hung task'),
    (r'soft lockup', 'soft lockup'),
    (r'hard LOCKUP', 'hard lockup'),
    (r'rcu: INFO: .*detected stall', 'RCU stall'),
    (r'INFO: rcu_.* detected stall', 'RCU stall'),
    (r'possible recursive locking detected', 'lockdep'),
    (r'possible circular locking dependency', 'lockdep'),
    (r'inconsistent lock state', 'lockdep'),
    (r'possible irq lock inversion', 'lockdep'),
    (r'suspicious RCU usage', 'lockdep RCU'),
    (r'INFO: trying to register non-static key', 'lockdep'),
    (r'ODEBUG: ', 'debugobjects'),
    (r'UBSAN: ', 'UBSAN'),
    (r'list_(add|del) corruption', 'list corruption'),
    (r'unreferenced object 0x', 'kmemleak'),
]
BAD_RE = [(re.compile(p), what) for p, what in BAD]

# Lines that match a pattern above but are not faults of the kernel under test.
ALLOW = [
    # none yet; each entry needs a reason
]
ALLOW_RE = [re.compile(p) for p in ALLOW]

BOOTED = re.compile(r'Run /init as init process|irqp: ')


def scan(lines):
    findings = []
    skip_until = -1
    for i, line in enumerate(lines):
        if i <= skip_until:
            continue
        for rx, what in BAD_RE:
            if rx.search(line) and not any(a.search(line) for a in ALLOW_RE):
                findings.append((i + 1, what, lines[i:i + 12]))
                skip_until = i + 11  # one report, one finding
                break
    return findings


def main(argv):
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[0], errors='replace') as f:
        lines = [l.rstrip('\r\n') for l in f]
    if not lines or not any(BOOTED.search(l) for l in lines):
        print('%s: the guest never reached user space (empty or truncated log)' % argv[0])
        return 2
    findings = scan(lines)
    for lineno, what, excerpt in findings:
        print('%s:%d: %s' % (argv[0], lineno, what))
        for l in excerpt:
            print('    | ' + l)
    return 1 if findings else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
