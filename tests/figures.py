#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Benchmark figures quoted in prose come from a committed results file.

Usage: figures.py expand FILE        print FILE with every {fig:KEY} replaced
       figures.py check [FILE...]    fail if a quote in FILE is not in the results

The results are results/figures.txt (written by tests/report.py into a make run's
directory and copied to results/ by 'make results', with results.txt, summary.txt
and the run's kernel, series and QEMU command in run-info.txt).  FIGURES=path
overrides it.  Each line is "KEY = VALUE", KEY being DEVICE.REGIME.JOB.MODE.METRIC
(e.g. mptsas-intx.fast.qd32.auto.irq_io) for the median and KEY.ratio for the ratio
to the baseline with its 90% interval ("0.28x [0.25-0.31]").  Beside it,
mmio-figures.txt of a BENCH=mmio run (tests/mmio-count.py) adds the register accesses
per I/O, mmio.DEVICE.REGIME.JOB.MODE.mmio_io and its .ratio to off, and
each study committed in a directory of its own (make results RESULTS_SUB=NAME), such
as results/sweep/figures.txt, the full load sweep (make run BENCH=sweep), adds its
figures with the prefix "NAME." (sweep.ahci.fast.qd8.auto.iops.ratio).

How to quote:
  - cover-letter.txt and the commit messages (*/commits/*.txt): write {fig:KEY};
    tests/series.sh gen replaces it with the value ("expand"), so the patches carry
    the number and the sources the key; a paragraph or list item that had any is
    filled again to 72 columns (a figure is never split across lines), so that long
    figures leave no ragged lines.
  - README.md and other text shown as is: write the value followed by an HTML
    comment naming the key, `0.28x [0.25-0.31]`<!-- fig:KEY --> (backquotes
    optional); the value must equal the key's.  A code span containing "fig:" is an
    example of the syntax and is skipped.  A fenced block opened with
    ```results must consist of lines found verbatim in results/results.txt,
    results/summary.txt, results/mmio.txt or a study's NAME/{results,summary}.txt
    (blank lines and "..." excepted).
check (default files: cover-letter.txt, */commits/*.txt, README.md, docs-dev/*.md,
docs-dev/experiments/*.md and */README.md, conversions/*/README.md) prints one line per
bad quote and exits 1 if there is any.
"""
import glob
import os
import re
import sys

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
PLACEHOLDER = re.compile(r'\{fig:([A-Za-z0-9_.+-]+)\}')
INLINE = re.compile(r'`?([^`<>\n]*?)`?<!--\s*fig:([A-Za-z0-9_.+-]+)\s*-->')
# Code spans, paired from the left on each line; one that contains "fig:" shows the
# syntax, it quotes nothing.  (Pairing from the left matters: in "`1.0`<!-- fig:K -->
# in `off`" the text between the second and the third backtick is no span.)
SPAN = re.compile(r'`[^`\n]*`')


def examples(text):
    """The code spans of @text that show the syntax."""
    return [m for m in SPAN.finditer(text) if 'fig:' in m.group(0)]


def strip_examples(text):
    return SPAN.sub(lambda m: '' if 'fig:' in m.group(0) else m.group(0), text)


def results_dir():
    f = os.environ.get('FIGURES')
    return os.path.dirname(f) if f else os.path.join(TOP, 'results')


def studies(rdir):
    """The studies committed in directories of their own: results/NAME/figures.txt."""
    if not os.path.isdir(rdir):
        return []
    return sorted(d for d in os.listdir(rdir)
                  if os.path.isfile(os.path.join(rdir, d, 'figures.txt')))


def load():
    path = os.environ.get('FIGURES') or os.path.join(TOP, 'results', 'figures.txt')
    figs = {}
    rdir = os.path.dirname(path)
    for p, prefix in [(path, ''), (os.path.join(rdir, 'mmio-figures.txt'), '')] + \
            [(os.path.join(rdir, d, 'figures.txt'), d + '.') for d in studies(rdir)]:
        if os.path.isfile(p):
            for line in open(p):
                if ' = ' in line and not line.startswith('#'):
                    k, v = line.rstrip('\n').split(' = ', 1)
                    figs[prefix + k.strip()] = v.strip()
    return path, figs


# A list item's first line in a commit message or the cover letter: " - " or "* ".
ITEM = re.compile(r'^( ?[-*] )')
WIDTH = 72


def fill(lines, width=WIDTH):
    """@lines, one paragraph or list item (the spaces of its figures as NUL, so that
    a figure stays on one line), filled again to @width with the indent of its
    continuation lines; None if its shape is not that simple."""
    m = ITEM.match(lines[0])
    first = m.group(1) if m else ''
    indent = ' ' * len(first)
    if any(not l.startswith(indent) or l[len(indent):len(indent) + 1] == ' '
           for l in lines[1:]) or (not first and lines[0][:1] == ' '):
        return None
    two = any('.  ' in l for l in lines)
    text = lines[0][len(first):].rstrip()
    for l in lines[1:]:
        sep = '  ' if two and re.search(r'[.?!][)"\']?$', text) else ' '
        text += sep + l.strip()
    out, cur = [], first
    for tok in re.findall(r'\S+|\s+', text):
        if tok.isspace():
            if cur.strip():
                cur += tok
            continue
        if len(cur) + len(tok) > width and cur.strip():
            out.append(cur.rstrip())
            cur = indent
        cur += tok
    out.append(cur.rstrip())
    return [l.replace('\0', ' ') for l in out]


def refill(par, figs):
    """Paragraph @par with its placeholders replaced; where it had any and is plain
    prose or list items (no code spans showing the syntax), filled again, so that
    long figures do not leave ragged lines in a commit message."""
    if examples(par):
        # outside the code spans that show the syntax
        out, pos = [], 0
        for m in examples(par):
            out.append(PLACEHOLDER.sub(lambda p: figs[p.group(1)], par[pos:m.start()]))
            out.append(m.group(0))
            pos = m.end()
        return ''.join(out) + PLACEHOLDER.sub(lambda p: figs[p.group(1)], par[pos:])
    if not PLACEHOLDER.search(par):
        return par
    body = par.rstrip('\n')
    tail = par[len(body):]
    lines = PLACEHOLDER.sub(lambda p: figs[p.group(1)].replace(' ', '\0'), body).split('\n')
    items = []
    for l in lines:
        if ITEM.match(l) or not items:
            items.append([l])
        else:
            items[-1].append(l)
    done = [fill(i) for i in items]
    if any(d is None for d in done):
        return '\n'.join(lines).replace('\0', ' ') + tail
    return '\n'.join(l for d in done for l in d) + tail


def expand(path):
    fpath, figs = load()
    text = open(path).read()
    missing = [k for k in PLACEHOLDER.findall(strip_examples(text)) if k not in figs]
    if missing:
        sys.stderr.write('%s: figure(s) not in %s: %s\n' % (path, fpath, ', '.join(missing)))
        return 1
    # paragraph by paragraph; the code spans that show the syntax are left as they are
    pars = re.split(r'(\n[ \t]*\n)', text)
    sys.stdout.write(''.join(p if i % 2 else refill(p, figs) for i, p in enumerate(pars)))
    return 0


def check_file(path, figs, fpath, known_lines):
    bad = []
    text = open(path).read()
    for n, line in enumerate(text.split('\n'), 1):
        line = strip_examples(line)
        for k in PLACEHOLDER.findall(line):
            if k not in figs:
                bad.append('%s:%d: {fig:%s}: no such figure in %s' % (path, n, k, fpath))
        for val, k in INLINE.findall(line):
            if k not in figs:
                bad.append('%s:%d: fig:%s: no such figure in %s' % (path, n, k, fpath))
            elif val.strip() != figs[k]:
                bad.append('%s:%d: fig:%s quotes "%s", the results say "%s"'
                           % (path, n, k, val.strip(), figs[k]))
    inblock = False
    for n, line in enumerate(text.split('\n'), 1):
        if line.startswith('```'):
            inblock = line.strip() == '```results' if not inblock else False
            continue
        if inblock and line.strip() not in ('', '...') and line.rstrip() not in known_lines:
            bad.append('%s:%d: results block line not in the results: %s' % (path, n, line.strip()))
    return bad


def check(files):
    fpath, figs = load()
    rdir = results_dir()
    known = set()
    for name in ['results.txt', 'summary.txt', 'mmio.txt'] + \
            [d + '/' + f for d in studies(rdir) for f in ('results.txt', 'summary.txt')]:
        p = os.path.join(rdir, name)
        if os.path.isfile(p):
            known.update(l.rstrip() for l in open(p))
    if not files:
        files = [os.path.join(TOP, 'cover-letter.txt'), os.path.join(TOP, 'README.md')] + \
            sorted(glob.glob(os.path.join(TOP, 'docs-dev', '*.md'))) + \
            sorted(glob.glob(os.path.join(TOP, 'docs-dev', 'experiments', '*.md'))) + \
            sorted(glob.glob(os.path.join(TOP, 'docs-dev', 'experiments', '*', 'README.md'))) + \
            sorted(glob.glob(os.path.join(TOP, 'conversions', '*', 'README.md'))) + \
            sorted(glob.glob(os.path.join(TOP, '*', 'commits', '*.txt'))) + \
            sorted(glob.glob(os.path.join(TOP, 'conversions', '*', 'commits', '*.txt')))
    bad = []
    for f in files:
        if os.path.isfile(f):
            bad += check_file(f, figs, fpath, known)
    for b in bad:
        print(b)
    return 1 if bad else 0


def main(argv):
    if len(argv) == 2 and argv[0] == 'expand':
        return expand(argv[1])
    if argv and argv[0] == 'check':
        return check(argv[1:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
