#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Would a mode's ratio be steadier against both baselines of its round?

Usage: pairing.py RESULTS_DIR...   (from results/, e.g. pairing.py . default-0826)

The report (tests/report.py pair()) divides each run by the baseline run nearest
to it in its round.  With the default order "off on auto off2", reversed every
other round, that is always `off` for `on` and always `off2` for `auto`: a
difference between the two baseline slots of a boot lands on one mode only.
This prints, per metric, how far the per-round ratios of `on` and `auto` spread
(the standard deviation of their logs, averaged over cells and modes) when each
is divided by its nearest baseline, and when it is divided by the geometric mean
of the round's `off` and `off2`; and the largest change of a cell's geometric-mean
ratio between the two.  Disk rows only; reads each directory's
results-rounds.csv.  Not part of make run.
"""
import collections
import csv
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests'))
import report  # noqa: E402  (the nearest baseline, as make run's report pairs them)

METRICS = ['iops', 'p50_us', 'irq_io', 'cpu_us_io']


def log_sd(v):
    m = math.log(report.geomean(v))
    return (sum((math.log(x) - m) ** 2 for x in v) / (len(v) - 1)) ** 0.5


def load(path):
    """The disk runs of one boot, paired by report.pair(); (dev, regime, job) ->
    round -> mode -> run."""
    rows = []
    with open(os.path.join(path, 'results-rounds.csv')) as f:
        for r in csv.DictReader(f):
            if r['kind'] != 'disk':
                continue
            r['round'], r['seq'] = int(r['round']), int(r['seq'])
            for m in METRICS:
                r[m] = float(r[m])
            rows.append(r)
    report.pair(rows)
    cells = collections.defaultdict(lambda: collections.defaultdict(dict))
    for r in rows:
        cells[(r['dev'], r['regime'], r['job'])][r['round']][r['mode']] = r
    return cells


def compare(cells, metric):
    near_sd, both_sd, shifts = [], [], []
    for rounds in cells.values():
        for mode in ('on', 'auto'):
            near, both = [], []
            for runs in rounds.values():
                if not {mode, 'off', 'off2'} <= runs.keys():
                    continue
                near.append(report.ratio_of(runs[mode], metric))
                both.append(report.ratio_both(runs[mode], metric))
            if len(near) < 2:
                continue
            near_sd.append(log_sd(near))
            both_sd.append(log_sd(both))
            shifts.append(abs(math.log(report.geomean(near) / report.geomean(both))))
    return (sum(near_sd) / len(near_sd), sum(both_sd) / len(both_sd),
            math.exp(max(shifts)) - 1, len(near_sd))


def main():
    for path in sys.argv[1:]:
        cells = load(path)
        for metric in METRICS:
            near, both, shift, n = compare(cells, metric)
            print('%-14s %-10s nearest %.3f  both %.3f  (%d cell modes, largest shift %.1f%%)'
                  % (os.path.basename(os.path.normpath(path)) if path != '.' else 'results',
                     metric, near, both, n, 100 * shift))


if __name__ == '__main__':
    main()
