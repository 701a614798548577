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

METRICS = ['iops', 'p50_us', 'irq_io', 'cpu_us_io']


def gmean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v))


def log_sd(v):
    m = math.log(gmean(v))
    return (sum((math.log(x) - m) ** 2 for x in v) / (len(v) - 1)) ** 0.5


def runs_by_round(path):
    """(dev, regime, job) -> round -> mode -> (seq, row)"""
    cells = collections.defaultdict(lambda: collections.defaultdict(dict))
    with open(os.path.join(path, 'results-rounds.csv')) as f:
        for r in csv.DictReader(f):
            if r['kind'] == 'disk':
                cells[(r['dev'], r['regime'], r['job'])][int(r['round'])][r['mode']] = \
                    (int(r['seq']), r)
    return cells


def compare(path, metric):
    near_sd, both_sd, shifts = [], [], []
    for rounds in runs_by_round(path).values():
        for mode in ('on', 'auto'):
            near, both = [], []
            for runs in rounds.values():
                if not {mode, 'off', 'off2'} <= runs.keys():
                    continue
                seq, row = runs[mode]
                val = float(row[metric])
                # nearest by seq, a tie to the earlier run: as pair() does
                b = min(('off', 'off2'), key=lambda m: (abs(runs[m][0] - seq), runs[m][0]))
                near.append(val / float(runs[b][1][metric]))
                both.append(val / math.sqrt(float(runs['off'][1][metric]) *
                                            float(runs['off2'][1][metric])))
            if len(near) < 2:
                continue
            near_sd.append(log_sd(near))
            both_sd.append(log_sd(both))
            shifts.append(abs(math.log(gmean(near) / gmean(both))))
    return (sum(near_sd) / len(near_sd), sum(both_sd) / len(both_sd),
            math.exp(max(shifts)) - 1, len(near_sd))


def main():
    for path in sys.argv[1:]:
        for metric in METRICS:
            near, both, shift, n = compare(path, metric)
            print('%-14s %-10s nearest %.3f  both %.3f  (%d cell modes, largest shift %.1f%%)'
                  % (os.path.basename(os.path.normpath(path)) if path != '.' else 'results',
                     metric, near, both, n, 100 * shift))


if __name__ == '__main__':
    main()
