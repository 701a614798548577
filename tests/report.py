#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest's benchmark records into a table, a summary, CSV files and plots.

Usage: report.py RUN_DIR

Reads RUN_DIR/results/*/ (written by window_job() in tests/guest/lib.sh: meta, the
command's JSON, and "before"/"after" samples of /proc/interrupts, /proc/softirqs,
/proc/stat, the work counter and the irq_poll instance counters at the two ends of
the measured window) and writes into RUN_DIR:

  results.txt     the table (also printed): medians over rounds, each ratio to the
                  paired baseline with its 90% bootstrap interval, then the counters
  summary.txt     run info, the A/A noise floor, the targets met or missed
  figures.txt     every figure as "KEY = VALUE", the file quotes are checked against
                  (tests/figures.py); beside the table's, the counters per unit of
                  work (KEY.per_*), reaped per poll, busy_cpus (guest CPU-seconds
                  per second over all vCPUs) and busy_max_vcpu (the busiest vCPU's
                  busy share of the window), medians over rounds
  results.csv     one row per device, regime, job and mode (medians, ratios, intervals)
  results-rounds.csv  every measured run
  sweep-irq.png, sweep-p99.png, sweep-cpu.png, net.png  (gnuplot)

Pairing: within a round and job, each run is compared with the baseline run
("off"/"off2" for disks, "virtio_net"/"virtio_net2" for the network) nearest to it in
the round's order (meta "seq"; a tie goes to the earlier one); "off2" is compared with
"off": the A/A control.  A ratio is the geometric mean of its per-round ratios; its
interval is the 5th-95th percentile of that statistic over 2000 bootstrap resamples of
the rounds (fixed seed, so the same data give the same report); an interval that
contains 1.0 prints as "n.s.".  Under TCG absolute figures mean little: the ratios are
the result.
"""
import csv
import json
import math
import os
import re
import random
import subprocess
import sys

USER_HZ = 100  # /proc/stat unit, fixed by the kernel ABI
BASELINE = {'disk': ('off', 'off2'), 'net': ('virtio_net', 'virtio_net2')}
SEED = 20261204
BOOT_N = 2000
LEVEL = 0.90

# (key, title, format, shown in the main table)
METRICS = {
    'disk': [('iops', 'IOPS', '%.0f', 1), ('p50_us', 'p50 us', '%.0f', 1),
             ('p99_us', 'p99 us', '%.0f', 1), ('irq_io', 'irq/IO', '%.3f', 1),
             ('cpu_us_io', 'CPU us/IO', '%.1f', 1), ('dev_irq_io', 'dev irq/IO', '%.3f', 1),
             ('p999_us', 'p99.9 us', '%.0f', 0)],
    'net': [('gbit_s', 'Gbit/s', '%.3f', 1), ('irq_gb', 'irq/GB', '%.0f', 1),
            ('cpu_ms_gb', 'CPU ms/GB', '%.0f', 1), ('dev_irq_gb', 'dev irq/GB', '%.0f', 1),
            ('lost_pct', 'lost %', '%.2f', 0)],
}
# Counters per unit of work (I/O or GB), medians over rounds, shown below the table.
COUNTERS = [('dev_irq', 'dev'), ('loc', 'LOC'), ('ipi', 'IPI'), ('other_irq', 'other'),
            ('sirq_irq_poll', 'IRQ_POLL'),
            ('sirq_timer', 'TIMER'), ('sirq_hrtimer', 'HRTIMER'), ('hardirq_us', 'hirq us'),
            ('softirq_us', 'sirq us'), ('sys_us', 'sys us'), ('user_us', 'user us'),
            ('polls', 'polls'), ('deferrals', 'defers')]
ORDER = ['ahci', 'mptsas-intx', 'mptsas-msi', 'virtio-net', 'file', 'fast', 'tap',
         'qd32', 'qd16', 'qd8', 'qd4', 'qd2', 'qd1', 'r75', 'r50', 'r25',
         'send', 'receive', 'udp64-receive',
         'off', 'off2', 'virtio_net', 'virtio_net2', 'on', 'auto', 'defer', 'threaded',
         'virtio_net-gro', 'virtio_net-defer', 'sample-on', 'sample-auto', 'sample-defer',
         'sample-threaded']
RANK = {n: i for i, n in enumerate(ORDER)}


def rank(name):
    return (RANK.get(name, len(ORDER)), name)


# --- reading the guest's records ---------------------------------------------------

def read_kv(path):
    """key=value lines of a file."""
    kv = {}
    for line in open(path):
        if '=' in line:
            k, v = line.strip().split('=', 1)
            kv[k] = v
    return kv


def parse_table_cpus(lines):
    """/proc/interrupts or /proc/softirqs lines: {label: [count on each CPU]}."""
    out = {}
    if not lines:
        return out
    ncpu = len([t for t in lines[0].split() if t.startswith('CPU')])
    for line in lines[1:]:
        f = line.split()
        if not f or not f[0].endswith(':'):
            continue
        n = []
        for t in f[1:1 + ncpu]:
            if not t.isdigit():
                break
            n.append(int(t))
        out[f[0][:-1]] = n
    return out


def parse_table(lines):
    """/proc/interrupts or /proc/softirqs lines: {label: total over CPUs}."""
    return {k: sum(v) for k, v in parse_table_cpus(lines).items()}


def other_vcpu_irq(b, a, devs):
    """Local timer and IPI interrupts in the window (per-CPU tables @b before, @a
    after) on the vCPUs that took none of the device lines @devs: with fio on the
    interrupt's CPU, the other vCPU, which no mode keeps busy.  Whatever wakes it
    (the benchmark's own tools, RCU, the scheduler's idle balancing) is a floor
    under every mode's interrupts per I/O."""
    def delta(label):
        return [x - y for x, y in zip(a.get(label, []), b.get(label, []))]
    ncpu = len(a.get('LOC', []))
    dev = [0] * ncpu
    for label in devs:
        for i, n in enumerate(delta(label)[:ncpu]):
            dev[i] += n
    return sum(n for label in ('LOC', 'CAL', 'RES', 'TLB')
               for i, n in enumerate(delta(label)[:ncpu]) if not dev[i])


def parse_snap(path):
    """A sample written by snap() in tests/guest/lib.sh."""
    sec = {}
    cur = None
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('== '):
            cur = line[3:].strip()
            sec[cur] = []
        elif cur is not None:
            sec[cur].append(line)
    cpu = next(l.split() for l in sec['stat'] if l.startswith('cpu '))
    v = [int(x) for x in cpu[1:]]
    # busy ticks of each vCPU (the cpuN lines): user, nice, system, irq, softirq
    vcpu = {}
    for l in sec['stat']:
        f = l.split()
        if re.match(r'cpu\d+$', f[0] if f else ''):
            n = [int(x) for x in f[1:8]]
            vcpu[f[0]] = n[0] + n[1] + n[2] + n[5] + n[6]
    irq_cpu = parse_table_cpus(sec['interrupts'])
    poll = {}
    for line in sec.get('poll', []):
        f = line.split()
        if len(f) == 3:
            poll[f[1]] = poll.get(f[1], 0) + int(f[2])
    return {
        'uptime': float(sec['uptime'][0].split()[0]),
        'work': int(sec['work'][0]),
        'irq': {k: sum(v) for k, v in irq_cpu.items()},
        'irq_cpu': irq_cpu,
        'softirq': parse_table(sec['softirqs']),
        # user nice system idle iowait irq softirq steal ...
        'cpu': {'user': v[0] + v[1], 'sys': v[2], 'hardirq': v[5], 'softirq': v[6]},
        'vcpu': vcpu,
        'poll': poll,
    }


def fio_pct(out):
    rd = out['jobs'][0]['read']
    pct = rd['clat_ns'].get('percentile', {})
    return {'p50_us': pct.get('50.000000', 0) / 1000.0, 'p99_us': pct.get('99.000000', 0) / 1000.0,
            'p999_us': pct.get('99.900000', 0) / 1000.0}


def read_record(d):
    """One measured run: its meta and every metric over the window."""
    meta = read_kv(os.path.join(d, 'meta'))
    b = parse_snap(os.path.join(d, 'before'))
    a = parse_snap(os.path.join(d, 'after'))
    try:
        out = json.load(open(os.path.join(d, 'out.json')))
    except (ValueError, OSError) as e:
        raise ValueError('no JSON result (%s); see %s/err' % (e, d))
    dt = a['uptime'] - b['uptime']
    work = a['work'] - b['work']
    if dt <= 0 or work <= 0:
        raise ValueError('no work in the window (%.2f s, %d)' % (dt, work))

    def irq(label):
        return a['irq'].get(label, 0) - b['irq'].get(label, 0)
    row = dict(meta)
    row['round'] = int(meta.get('round', 1))
    row['seq'] = int(meta.get('seq', 0))
    row['regime'] = meta.get('regime', '-')
    row['window_s'] = dt
    c = {}
    c['dev_irq'] = sum(irq(i) for i in meta.get('irqs', '').split('+') if i)
    c['loc'] = irq('LOC')
    c['ipi'] = irq('CAL') + irq('RES') + irq('TLB')
    c['irq'] = c['dev_irq'] + c['loc'] + c['ipi']
    c['other_irq'] = other_vcpu_irq(b['irq_cpu'], a['irq_cpu'],
                                    [i for i in meta.get('irqs', '').split('+') if i])
    for s in ('IRQ_POLL', 'TIMER', 'HRTIMER', 'NET_RX', 'BLOCK'):
        c['sirq_' + s.lower()] = a['softirq'].get(s, 0) - b['softirq'].get(s, 0)
    for k in ('user', 'sys', 'hardirq', 'softirq'):
        c[k + '_us'] = (a['cpu'][k] - b['cpu'][k]) * 1e6 / USER_HZ
    c['cpu_us'] = sum(c[k + '_us'] for k in ('user', 'sys', 'hardirq', 'softirq'))
    for k in a['poll']:
        c[k] = a['poll'][k] - b['poll'].get(k, 0)
    for k in ('polls', 'reaped', 'deferrals', 'empty_polls', 'parks', 'trials'):
        c.setdefault(k, 0)
    sp = os.path.join(d, 'spurious')
    row['unhandled'] = int(read_kv(sp).get('unhandled', 0)) if os.path.isfile(sp) else 0
    row['raw'] = c
    row['reaped_poll'] = c['reaped'] / float(c['polls']) if c['polls'] else float('nan')
    # CPU-seconds per second over all vCPUs: whether the guest had time to spare
    row['busy_cpus'] = c['cpu_us'] / 1e6 / dt
    # and the busiest vCPU's share of the window: below one, no vCPU was saturated
    # (a vCPU missing from either sample, hot-plugged in between, is left out)
    row['busy_max_vcpu'] = max([(a['vcpu'][k] - b['vcpu'][k]) / float(USER_HZ) / dt
                                for k in a['vcpu'] if k in b['vcpu']] or [float('nan')])
    if meta['kind'] == 'disk':
        unit = float(work)                      # I/Os
        row['iops'] = work / dt
        row.update(fio_pct(out))
        row['irq_io'] = c['irq'] / unit
        row['dev_irq_io'] = c['dev_irq'] / unit
        row['cpu_us_io'] = c['cpu_us'] / unit
    else:
        unit = work / 1e9                       # GB through the interface
        end = out.get('end', {})
        row['lost_pct'] = end.get('sum', {}).get('lost_percent', 0.0) if 'sum_received' not in end else 0.0
        row['gbit_s'] = work * 8 / dt / 1e9
        row['irq_gb'] = c['irq'] / unit
        row['dev_irq_gb'] = c['dev_irq'] / unit
        row['cpu_ms_gb'] = c['cpu_us'] / 1000.0 / unit
    row['per'] = {k: v / unit for k, v in c.items()}
    return row


def read_timer(d):
    """Deferral timer delays (tests/guest/bench/disk.sh): requested vs fired."""
    meta = read_kv(os.path.join(d, 'meta'))
    us = [int(x) for x in open(os.path.join(d, 'delays_us')).read().split()]
    return meta, sorted(us)


# --- statistics ----------------------------------------------------------------------

def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0


def geomean(v):
    if any(x <= 0 or x != x for x in v):
        return float('nan')
    return math.exp(sum(math.log(x) for x in v) / len(v))


def bootstrap(xs, stat, seed=SEED, n=BOOT_N, level=LEVEL):
    """Percentile interval of stat() over n resamples (with replacement) of xs; None
    with fewer than two values.  Deterministic: a fresh generator per call."""
    xs = [x for x in xs if x == x]
    if len(xs) < 2:
        return None
    rng = random.Random(seed)
    k = len(xs)
    s = sorted(stat([xs[rng.randrange(k)] for _ in range(k)]) for _ in range(n))
    tail = (1 - level) / 2
    return s[int(math.floor(tail * n))], s[int(math.ceil((1 - tail) * n)) - 1]


def pair(rows):
    """Attach to each run its baseline run: the nearest (by seq) baseline run of the
    same kind, device, regime, job and round; "off2" pairs with "off"."""
    groups = {}
    for r in rows:
        groups.setdefault((r['kind'], r['dev'], r['regime'], r['job'], r['round']), []).append(r)
    for g in groups.values():
        a, b = BASELINE[g[0]['kind']]
        bases = [r for r in g if r['mode'] in (a, b)]
        for r in g:
            if r['mode'] == a:
                r['ref'] = None
            elif r['mode'] == b:
                r['ref'] = next((x for x in g if x['mode'] == a), None)
            else:
                r['ref'] = min(bases, key=lambda x: (abs(x['seq'] - r['seq']), x['seq'])) \
                    if bases else None
                r['refs'] = bases


def ratio_of(r, key):
    ref = r.get('ref')
    if not ref or not ref.get(key) or r.get(key) is None:
        return float('nan')
    return r[key] / ref[key]


def ratio_both(r, key):
    """r against the geometric mean of both baseline runs of its round (nan unless
    the round has both): a slot bias of one baseline run then weighs on every mode
    alike (docs-dev/benchmarks.md, "Pairing with both baselines")."""
    refs = r.get('refs') or []
    vals = [x.get(key) for x in refs]
    if len(vals) < 2 or r.get(key) is None or any(v is None or not v > 0 for v in vals):
        return float('nan')
    return r[key] / geomean(vals)


def merge(rows):
    """One row per kind, device, regime, job and mode: median values over rounds,
    geometric-mean ratios with bootstrap intervals."""
    groups = {}
    for r in rows:
        groups.setdefault((r['kind'], r['dev'], r['regime'], r['job'], r['mode']), []).append(r)
    out = []
    for (kind, dev, regime, job, mode), g in groups.items():
        g.sort(key=lambda r: r['round'])
        m = {'kind': kind, 'dev': dev, 'regime': regime, 'job': job, 'mode': mode,
             'rounds': len(g), 'is_base': mode == BASELINE[kind][0]}
        for key, _, _, _ in METRICS[kind]:
            vals = [r.get(key, float('nan')) for r in g]
            m[key] = median(vals)
            m[key + '_by_round'] = {r['round']: r.get(key, float('nan')) for r in g}
            m[key + '_ci'] = bootstrap(vals, median)
            if not m['is_base']:
                rat = [ratio_of(r, key) for r in g]
                m[key + '_rounds'] = rat
                m[key + '_ratio'] = geomean(rat)
                m[key + '_ratio_ci'] = bootstrap(rat, geomean)
                if any('refs' in r for r in g):
                    both = [ratio_both(r, key) for r in g]
                    m[key + '_both'] = geomean(both)
                    m[key + '_both_ci'] = bootstrap(both, geomean)
        for k in sorted(set(k for r in g for k in r['per'])):
            m['per_' + k] = median([r['per'].get(k, 0) for r in g])
        m['unhandled'] = median([r['unhandled'] for r in g])
        m['reaped_poll'] = median([r['reaped_poll'] for r in g])
        m['busy_cpus'] = median([r['busy_cpus'] for r in g])
        m['busy_max_vcpu'] = median([r['busy_max_vcpu'] for r in g])
        m['window_s'] = median([r['window_s'] for r in g])
        out.append(m)
    out.sort(key=lambda m: (m['kind'], rank(m['dev']), rank(m['regime']), rank(m['job']),
                            rank(m['mode'])))
    return out


def significant(ci):
    return ci is not None and not (ci[0] <= 1.0 <= ci[1])


def fmt_ratio(m, key, always=False):
    """"0.85x [0.80-0.90]"; "n.s." when the interval contains 1 (unless always)."""
    r, ci = m.get(key + '_ratio'), m.get(key + '_ratio_ci')
    if r is None:
        return ''
    if r != r:
        return 'n/a'
    if ci is None:
        return '%.2fx (1 round)' % r
    if not always and not significant(ci):
        return 'n.s.'
    return '%.2fx [%.2f-%.2f]' % (r, ci[0], ci[1])


def cell(m, key, fmt):
    v = fmt % m[key] if m[key] == m[key] else 'n/a'
    return v if m['is_base'] else '%s %s' % (v, fmt_ratio(m, key))


# --- output ----------------------------------------------------------------------------

def table(merged):
    lines = []
    for kind, unit in (('disk', 'I/O'), ('net', 'GB')):
        kr = [m for m in merged if m['kind'] == kind]
        if not kr:
            continue
        cols = [c for c in METRICS[kind] if c[3]]
        w = [max([len(t)] + [len(cell(m, k, f)) for m in kr]) for k, t, f, _ in cols]
        hdr = '%-12s %-6s %-14s %-16s' % ('device', 'regime', 'job', 'mode') + ''.join(
            '  %-*s' % (wi, t) for wi, (_, t, _, _) in zip(w, cols))
        lines += ['', hdr, '-' * len(hdr)]
        for m in kr:
            lines.append('%-12s %-6s %-14s %-16s' % (m['dev'], m['regime'], m['job'], m['mode']) +
                         ''.join('  %-*s' % (wi, cell(m, k, f)) for wi, (k, _, f, _) in zip(w, cols)))
        a, b = BASELINE[kind]
        lines.append('(medians of %d round(s); ratio: geometric mean of the per-round ratios to '
                     'the nearest "%s" run, [90%% bootstrap interval]; n.s.: the interval '
                     'contains 1; %s: "%s" measured again, the A/A control; irq: device + LOC + '
                     'CAL/RES/TLB interrupts; CPU: user + system + hardirq + softirq time, per %s)'
                     % (max(m['rounds'] for m in kr), a, b, a, unit))
        lines += counters(kr, kind, unit)
    return lines


def counters(kr, kind, unit):
    """Why the figures are what they are: every counter per unit of work."""
    hdr = '%-12s %-6s %-14s %-16s' % ('device', 'regime', 'job', 'mode') + ''.join(
        ' %9s' % t for _, t in COUNTERS) + ' %9s %9s' % ('reap/poll', 'unhandled')
    out = ['', 'counters per %s over the window (medians): interrupts (dev, LOC, IPI = CAL+RES+TLB; '
           'other: the LOC and IPIs among them that hit vCPUs taking none of the device\'s '
           'interrupts), softirqs raised, CPU split, irq_poll polls and deferrals' % unit,
           hdr, '-' * len(hdr)]
    for m in kr:
        s = '%-12s %-6s %-14s %-16s' % (m['dev'], m['regime'], m['job'], m['mode'])
        for k, _ in COUNTERS:
            v = m.get('per_' + k, 0)
            s += ' %9s' % (('%.3f' % v) if abs(v) < 100 else ('%.0f' % v))
        rp = m['reaped_poll']
        s += ' %9s %9.0f' % ('%.2f' % rp if rp == rp else '-', m['unhandled'])
        out.append(s)
    return out


def pct(v, p):
    """p-th percentile of the sorted list v (nearest rank)."""
    return v[min(len(v) - 1, max(0, int(round(p / 100.0 * len(v))) - 1))]


def timer_lines(timers):
    out = []
    for meta, us in timers:
        if not us:
            out.append('%s: deferral timer: no samples' % meta['dev'])
            continue
        out.append('%s: deferral timer asked for %d us, fired after p50 %d us, p90 %d us, '
                   'max %d us (%d samples, QD1, defer mode)' % (
                       meta['dev'], int(meta['requested_ns']) // 1000, pct(us, 50),
                       pct(us, 90), us[-1], len(us)))
    return out


def fig_key(m, key):
    return '%s.%s.%s.%s.%s' % (m['dev'], m['regime'], m['job'], m['mode'], key)


def figures(merged):
    """Every figure as KEY = VALUE: KEY.value (median) and KEY.ratio (with interval)."""
    out = []
    for m in merged:
        for key, _, fmt, _ in METRICS[m['kind']]:
            out.append('%s = %s' % (fig_key(m, key), fmt % m[key] if m[key] == m[key] else 'n/a'))
            if not m['is_base']:
                out.append('%s.ratio = %s' % (fig_key(m, key), fmt_ratio(m, key, always=True)))
        # the counters table, per unit of work: why a figure is what it is
        for key, _ in COUNTERS:
            v = m.get('per_' + key)
            if v is not None:
                out.append('%s = %s' % (fig_key(m, 'per_' + key), per_fmt(v)))
        rp = m.get('reaped_poll', float('nan'))
        if rp == rp:
            out.append('%s = %.2f' % (fig_key(m, 'reaped_poll'), rp))
        out.append('%s = %.2f' % (fig_key(m, 'busy_cpus'), m['busy_cpus']))
        if m['busy_max_vcpu'] == m['busy_max_vcpu']:
            out.append('%s = %.2f' % (fig_key(m, 'busy_max_vcpu'), m['busy_max_vcpu']))
    return out


# Targets of issue 15, judged on the ratios (A/A: on the whole interval).
def targets(merged):
    """Each target: (MET, MISSED or NOT RUN, description, the rows that miss)."""
    res = []
    disk = [m for m in merged if m['kind'] == 'disk']
    net = [m for m in merged if m['kind'] == 'net']

    # the A/A control of each cell, to tell a miss from the noise of its cell
    aas = {(m['kind'], m['dev'], m['regime'], m['job']): m for m in merged
           if m['mode'] == BASELINE[m['kind']][1]}

    def aa_note(m, key):
        a = aas.get((m['kind'], m['dev'], m['regime'], m['job']))
        if a is None or a is m or a.get(key + '_ratio') is None:
            return ''
        return ' (A/A %s)' % fmt_ratio(a, key, always=True)

    def check(desc, rows, conds, use_ci=False, reach=False, why=()):
        """use_ci: the whole interval within [lo, hi] (A/A); reach: "not worse", the
        interval reaches the threshold; otherwise the median within [lo, hi].  why:
        lines that explain a miss, or a function of the rows that missed giving them."""
        bad, det = [], []

        def holds(r, ci, lo, hi):
            vals = (ci if (use_ci and ci) else (r, r))
            if reach and ci:
                vals = (ci[1], ci[0])
            return r == r and vals[0] >= lo and vals[1] <= hi

        for m in rows:
            for key, lo, hi in conds:
                r = m.get(key + '_ratio')
                if r is None:
                    continue
                ok = holds(r, m.get(key + '_ratio_ci'), lo, hi)
                txt = '%s %s %s %s' % (m['dev'], m['regime'], m['job'], m['mode']) + \
                    ' %s %s' % (key, fmt_ratio(m, key, always=True)) + aa_note(m, key)
                b, bci = m.get(key + '_both'), m.get(key + '_both_ci')
                if not ok and b is not None and b == b:
                    txt += ' (both baselines %.2fx%s: %s)' % (
                        b, ' [%.2f-%.2f]' % bci if bci else '',
                        'met' if holds(b, bci, lo, hi) else 'missed')
                if not ok:
                    bad.append(txt)
                    if m not in det:
                        det.append(m)
        res.append((('MET' if not bad else 'MISSED') if rows else 'NOT RUN', desc, bad,
                    list(why(det) if callable(why) else why)))
    aa = [m for m in disk if m['mode'] == BASELINE['disk'][1]]
    check('A/A noise floor (disk): 90% interval of off2/off within +-5% for irq/IO and CPU/IO',
          aa, [('irq_io', 0.95, 1.05), ('cpu_us_io', 0.95, 1.05)], use_ci=True)
    check('A/A noise floor (disk): 90% interval of off2/off within +-10% for IOPS and p50',
          aa, [('iops', 0.90, 1.10), ('p50_us', 0.90, 1.10)], use_ci=True)
    au = [m for m in disk if m['mode'] == 'auto']
    check('auto never worse than off (interval reaches): IOPS >= 0.97x, p50/p99/CPU <= 1.05x, '
          'irq/IO <= 1.0x', au, [('iops', 0.97, 1e9), ('p50_us', 0, 1.05), ('p99_us', 0, 1.05),
                                 ('cpu_us_io', 0, 1.05), ('irq_io', 0, 1.0)], reach=True)
    check('on not worse than off (interval reaches): IOPS >= 0.95x, p50/CPU <= 1.10x',
          [m for m in disk if m['mode'] == 'on'],
          [('iops', 0.95, 1e9), ('p50_us', 0, 1.10), ('cpu_us_io', 0, 1.10)], reach=True,
          why=lambda missed: polled_cost(disk, missed))
    q = [m for m in au if m['dev'].startswith('mptsas') and m['regime'] == 'fast' and m['job'] == 'qd32']
    check('mptsas fast QD32 auto: irq/IO <= 0.3x and CPU/IO <= 0.85x of off (medians)',
          q, [('irq_io', 0, 0.3), ('cpu_us_io', 0, 0.85)], why=irq_floor(disk, q) + batching(q))
    check('mptsas fast QD32 auto: CPU/IO better than off (interval below 1.0)',
          q, [('cpu_us_io', 0, 0.99999)], use_ci=True)
    res.append(static_vs_auto(disk, aa_note) + ([],))
    naa = [m for m in net if m['mode'] == BASELINE['net'][1]]
    check('A/A noise floor (network): 90% interval of virtio_net2/virtio_net within +-10% '
          'for Gbit/s, +-5% for irq/GB', naa, [('gbit_s', 0.9, 1.1), ('irq_gb', 0.95, 1.05)],
          use_ci=True)
    check('network sample-on not worse than virtio_net (interval reaches): throughput >= 0.95x, '
          'irq/GB <= 1.0x', [m for m in net if m['mode'] == 'sample-on'],
          [('gbit_s', 0.95, 1e9), ('irq_gb', 0, 1.0)], reach=True)
    sa = [m for m in net if m['mode'] == 'sample-auto']
    check('network sample-auto not worse than virtio_net (interval reaches): throughput >= 0.95x',
          sa, [('gbit_s', 0.95, 1e9)], reach=True)
    check('network sample-auto: irq/GB <= 0.5x of virtio_net (medians)', sa,
          [('irq_gb', 0, 0.5)], why=batching(sa) + irq_floor(net, sa))
    return res


def baselines(merged):
    """The baseline row (off, virtio_net) of each cell, by (kind, dev, regime, job)."""
    return {(m['kind'], m['dev'], m['regime'], m['job']): m for m in merged
            if m['mode'] == BASELINE[m['kind']][0]}


def irq_floor(merged, rows):
    """Why an interrupt target can be out of reach: the interrupts a row takes that
    are not its device's (local timer, IPIs), per unit of work, against the
    baseline's total.  Polling goes below that ratio only by cutting those too, or by
    doing more work per second to spread the tick over more of it."""
    base = baselines(merged)
    out = []
    for m in rows:
        total, unit = ('irq_io', 'I/O') if m['kind'] == 'disk' else ('irq_gb', 'GB')
        b = base.get((m['kind'], m['dev'], m['regime'], m['job']))
        if not b or not b.get(total):
            continue
        loc, ipi = m.get('per_loc', 0), m.get('per_ipi', 0)
        other = m.get('per_other_irq', 0)
        out.append('floor: %s %s %s %s without any device interrupt: %.2fx of %s '
                   '(LOC %s + IPI %s per %s, %s of them on vCPUs without device '
                   'interrupts; %s: %s)' % (
                       m['dev'], m['regime'], m['job'], m['mode'], (loc + ipi) / b[total],
                       b['mode'], per_fmt(loc), per_fmt(ipi), unit, per_fmt(other), b['mode'],
                       per_fmt(b[total])))
    return out


def polled_cost(merged, rows):
    """Why polling alone can cost more than the driver's own path: each poll is a
    softirq (and a mask and an unmask of the device), and where a poll finds about one
    completion, that cost is paid per I/O.  Per row: completions per poll and the
    hardirq and softirq time per I/O, beside the baseline's."""
    base = baselines(merged)
    out = []
    for m in rows[:12]:
        b = base.get((m['kind'], m['dev'], m['regime'], m['job']))
        rp = m.get('reaped_poll', float('nan'))
        if not b or rp != rp:
            continue
        out.append('cost: %s %s %s %s: %.2f completions per poll; per I/O softirq %.1f us, '
                   'hardirq %.1f us (%s: %.1f, %.1f)' % (
                       m['dev'], m['regime'], m['job'], m['mode'], rp,
                       m.get('per_softirq_us', 0), m.get('per_hardirq_us', 0), b['mode'],
                       b.get('per_softirq_us', 0), b.get('per_hardirq_us', 0)))
    return out


def per_fmt(v):
    """A count per unit of work as the figures print it: 3 decimals below 100."""
    return ('%.3f' % v) if abs(v) < 100 else ('%.0f' % v)


def batching(rows):
    """Why a polled mode saves few interrupts: what its polls found.  A chain of
    windows (and with it the saving of auto) starts only after a poll that found two
    or more, or one whose interrupt found the CPU busy on an instance that cannot
    park (the sample NIC's)."""
    out = []
    for m in rows:
        rp, polls = m.get('reaped_poll', float('nan')), m.get('per_polls') or 0
        if rp != rp or not polls:
            continue
        out.append('polls: %s %s %s %s: %.2f completions per poll, %.3f deferrals per poll '
                   '(a chain of windows starts after a poll that found 2 or more, '
                   'or 1 on a busy CPU where the instance cannot park)' % (
                       m['dev'], m['regime'], m['job'], m['mode'], rp,
                       m.get('per_deferrals', 0) / polls))
    return out


def static_vs_auto(disk, aa_note=lambda m, key: ''):
    """Target: no static setting (off, on, threaded or a fixed deferral) better than
    auto by more than 5% on IOPS or CPU per I/O, at every job of every target.  Per
    round, the static mode's value over auto's in the same round (not through their
    pairings with off, whose own A/A noise would add in); a miss is a geometric mean
    beyond 5% whose interval excludes 1.0."""
    desc = 'no static setting better than auto by more than 5% on IOPS or CPU/IO ' \
        '(static/auto per round; interval excludes 1.0)'
    autos = {(m['dev'], m['regime'], m['job']): m for m in disk if m['mode'] == 'auto'}
    bad, seen = [], False
    for m in disk:
        a = autos.get((m['dev'], m['regime'], m['job']))
        if a is None or m['mode'] in ('auto', BASELINE['disk'][1]):
            continue
        seen = True
        for key, better in (('iops', 1), ('cpu_us_io', -1)):
            sv, av = m.get(key + '_by_round') or {}, a.get(key + '_by_round') or {}
            q = [sv[r] / av[r] for r in sorted(set(sv) & set(av)) if av[r]]
            g, ci = geomean(q) if q else float('nan'), bootstrap(q, geomean)
            if g != g:
                continue
            beyond = g > 1.05 if better > 0 else g < 1 / 1.05
            if beyond and significant(ci):
                bad.append('%s %s %s %s/auto %s %.2fx [%.2f-%.2f]' % (
                    m['dev'], m['regime'], m['job'], m['mode'], key, g, ci[0], ci[1]) +
                    aa_note(m, key))
    return (('MET' if not bad else 'MISSED') if seen else 'NOT RUN', desc, bad)


def aa_beyond(line):
    """A target's miss line: does its ratio lie outside its cell's A/A interval?"""
    m = re.search(r' (\d+\.\d+)x \[[\d.]+-[\d.]+\] \(A/A [\d.]+x \[([\d.]+)-([\d.]+)\]\)', line)
    return bool(m) and not float(m.group(2)) <= float(m.group(1)) <= float(m.group(3))


def summary(run, merged, timers):
    out = ['make run summary (tests/report.py); the figures are in figures.txt', '']
    info = os.path.join(run, 'run-info.txt')
    if os.path.isfile(info):
        out += open(info).read().rstrip('\n').split('\n') + ['']
    aa = [m for m in merged if m['mode'] in (BASELINE['disk'][1], BASELINE['net'][1])]
    if aa:
        out.append('A/A noise floor: ratio of the second baseline run to the first, '
                   '[90% bootstrap interval]:')
        for m in aa:
            keys = [k for k, _, _, s in METRICS[m['kind']] if s]
            out.append('  %-12s %-5s %-8s ' % (m['dev'], m['regime'], m['job']) + '  '.join(
                '%s %s' % (t, fmt_ratio(m, k, always=True)) for k, t, _, s in METRICS[m['kind']] if s))
        out.append('')
    out.append('targets:')
    for verdict, desc, bad, why in targets(merged):
        out.append('  %-7s %s' % (verdict, desc))
        for b in bad[:12]:
            out.append('            %s' % b)
        if len(bad) > 12:
            out.append('            ... and %d more' % (len(bad) - 12))
        beyond = [b for b in bad if aa_beyond(b)]
        if bad and any('(A/A ' in b for b in bad):
            out.append('            %d of %d outside the A/A interval of their cell'
                       % (len(beyond), len(bad)))
        both = [b for b in bad if '(both baselines ' in b]
        if both:
            out.append('            %d of %d met against the mean of both baselines of '
                       'their round' % (sum(b.endswith(': met)') for b in both), len(both)))
        for w in (why if bad else []):
            out.append('            %s' % w)
    out.append('')
    key = [m for m in merged if m['mode'] in ('on', 'auto', 'sample-on', 'sample-auto') and
           m['job'] in ('qd32', 'qd1', 'send', 'receive')]
    if key:
        out.append('key rows (ratio to the paired baseline, [90% interval]):')
        for m in key:
            keys = [k for k, _, _, s in METRICS[m['kind']] if s]
            out.append('  %-12s %-5s %-8s %-12s ' % (m['dev'], m['regime'], m['job'], m['mode']) +
                       '  '.join('%s %s' % (t, fmt_ratio(m, k, always=True))
                                 for k, t, _, s in METRICS[m['kind']] if s))
    out += timer_lines(timers)
    return out


def write_csv(path, rows, keys):
    with open(path, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction='ignore')
        w.writeheader()
        for r in rows:
            w.writerow(r)


def csv_rows(merged):
    out = []
    for m in merged:
        r = {k: m[k] for k in ('kind', 'dev', 'regime', 'job', 'mode', 'rounds')}
        for key, _, _, _ in METRICS[m['kind']]:
            r[key] = m[key]
            ci = m.get(key + '_ci')
            r[key + '_lo'], r[key + '_hi'] = ci if ci else ('', '')
            if not m['is_base']:
                r[key + '_ratio'] = m[key + '_ratio']
                ci = m.get(key + '_ratio_ci')
                r[key + '_ratio_lo'], r[key + '_ratio_hi'] = ci if ci else ('', '')
        for k in m:
            if k.startswith('per_'):
                r[k] = m[k]
        r['reaped_poll'] = m['reaped_poll']
        r['busy_cpus'] = m['busy_cpus']
        r['busy_max_vcpu'] = m['busy_max_vcpu']
        r['unhandled'] = m['unhandled']
        out.append(r)
    return out


def plot(run, merged):
    """Load-sweep plots: one panel per device and regime, one line per mode (the A/A
    control left out), x = IOPS, y = the metric, bars = 90% interval of the median
    over rounds.  Network: Gbit/s against interrupts per GB."""
    pdir = os.path.join(run, 'plot')
    os.makedirs(pdir, exist_ok=True)
    made = []
    disk = [m for m in merged if m['kind'] == 'disk' and m['mode'] != BASELINE['disk'][1]]
    panels = sorted(set((m['dev'], m['regime']) for m in disk), key=lambda p: (rank(p[1]), rank(p[0])))
    modes = sorted(set(m['mode'] for m in disk), key=rank)
    for name, key, title, log in (('sweep-irq', 'irq_io', 'interrupts per I/O (device + LOC + IPI)', 1),
                                  ('sweep-p99', 'p99_us', 'p99 completion latency (us)', 1),
                                  ('sweep-cpu', 'cpu_us_io', 'guest CPU us per I/O', 0)):
        if not panels:
            break
        ncol = min(3, len(panels))
        nrow = (len(panels) + ncol - 1) // ncol
        size = (max(1000, 460 * ncol), 380 * nrow + 50)
        s = [('set terminal pngcairo size %d,%d font ",9"' if has_cairo() else
              'set terminal png size %d,%d') % size, 'set termoption noenhanced',
             'set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05',
             "set output '%s'" % os.path.join(run, name + '.png'),
             'set multiplot layout %d,%d title "%s against IOPS, one line per mode '
             '(median over rounds, bars: 90%% interval)"' % (nrow, ncol, title),
             'set grid', 'set key top left', 'set xlabel "IOPS"', 'set ylabel "%s"' % title.split(' (')[0]]
        if log:
            s.append('set logscale y')
        for dev, regime in panels:
            s.append('set title "%s, %s"' % (dev, regime))
            plots = []
            for i, mode in enumerate(modes):
                pts = sorted([m for m in disk if m['dev'] == dev and m['regime'] == regime and
                              m['mode'] == mode], key=lambda m: m['iops'])
                if not pts:
                    continue
                dat = os.path.join(pdir, '%s-%s-%s-%s.dat' % (name, dev, regime, mode))
                with open(dat, 'w') as f:
                    f.write('# iops %s lo hi job\n' % key)
                    for m in pts:
                        ci = m.get(key + '_ci') or (m[key], m[key])
                        f.write('%.1f %.6g %.6g %.6g %s\n' % (m['iops'], m[key], ci[0], ci[1], m['job']))
                plots.append("'%s' using 1:2:3:4 with yerrorlines lw 2 pt 7 lc %d title '%s'"
                             % (dat, i + 1, mode))
            s.append('plot ' + ', '.join(plots))
        s.append('unset multiplot')
        if gnuplot(s):
            made.append(name + '.png')
    net = [m for m in merged if m['kind'] == 'net' and m['mode'] != BASELINE['net'][1]]
    if net:
        jobs = sorted(set(m['job'] for m in net), key=rank)
        s = [('set terminal pngcairo size %d,440 font ",9"' if has_cairo() else
              'set terminal png size %d,440') % max(1000, 480 * len(jobs)),
             'set termoption noenhanced',
             'set offsets graph 0.1, graph 0.1, graph 0.1, graph 0.1',
             "set output '%s'" % os.path.join(run, 'net.png'),
             'set multiplot layout 1,%d title "virtio-net: throughput against interrupts per GB '
             '(median over rounds, bars: 90%% interval)"' % len(jobs),
             'set grid', 'set key outside bottom center horizontal', 'set xlabel "Gbit/s"',
             'set ylabel "interrupts per GB (device + LOC + IPI)"', 'set logscale y']
        nmodes = sorted(set(m['mode'] for m in net), key=rank)
        for job in jobs:
            s.append('set title "%s"' % job)
            plots = []
            for i, mode in enumerate(nmodes):
                pts = [m for m in net if m['job'] == job and m['mode'] == mode]
                if not pts:
                    continue
                m = pts[0]
                dat = os.path.join(pdir, 'net-%s-%s.dat' % (job, mode))
                gc = m.get('gbit_s_ci') or (m['gbit_s'],) * 2
                ic = m.get('irq_gb_ci') or (m['irq_gb'],) * 2
                with open(dat, 'w') as f:
                    f.write('%.4f %.1f %.4f %.4f %.1f %.1f\n' % (m['gbit_s'], m['irq_gb'], gc[0],
                                                                gc[1], ic[0], ic[1]))
                plots.append("'%s' using 1:2:3:4:5:6 with xyerrorbars pt 7 ps 1.5 lw 2 lc %d "
                             "title '%s'" % (dat, i + 1, mode))
            s.append('plot ' + ', '.join(plots))
        s.append('unset multiplot')
        if gnuplot(s):
            made.append('net.png')
    return made


_CAIRO = None


def has_cairo():
    global _CAIRO
    if _CAIRO is None:
        try:
            p = subprocess.run(['gnuplot', '-e', 'set terminal pngcairo'], capture_output=True,
                               text=True)
            _CAIRO = p.returncode == 0 and 'unknown' not in p.stderr
        except OSError:
            _CAIRO = False
    return _CAIRO


def gnuplot(script):
    try:
        subprocess.run(['gnuplot'], input='\n'.join(script) + '\n', text=True, check=True,
                       capture_output=True)
        return True
    except (OSError, subprocess.CalledProcessError) as e:
        print('plot: gnuplot failed: %s %s' % (e, getattr(e, 'stderr', '')))
        return False


def main(argv):
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    run = argv[0]
    base = os.path.join(run, 'results')
    rows, timers, errors = [], [], []
    for name in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        d = os.path.join(base, name)
        if not os.path.isfile(os.path.join(d, 'meta')):
            continue
        try:
            if read_kv(os.path.join(d, 'meta')).get('kind') == 'timer':
                timers.append(read_timer(d))
            else:
                rows.append(read_record(d))
        except (ValueError, KeyError, IndexError, OSError, StopIteration) as e:
            errors.append('%s: %s' % (d, e))
    if not rows:
        print('report: no benchmark results in %s' % base)
        for e in errors:
            print('report: ' + e)
        return 1
    pair(rows)
    merged = merge(rows)
    lines = table(merged)
    lines += [''] + timer_lines(timers)
    text = '\n'.join(lines)
    print(text)
    open(os.path.join(run, 'results.txt'), 'w').write(text + '\n')
    summ = summary(run, merged, timers)
    open(os.path.join(run, 'summary.txt'), 'w').write('\n'.join(summ) + '\n')
    print('\n'.join(summ[summ.index('targets:'):]))
    open(os.path.join(run, 'figures.txt'), 'w').write(
        '# KEY = VALUE; quoted as {fig:KEY} (tests/figures.py)\n' + '\n'.join(figures(merged)) + '\n')
    cr = csv_rows(merged)
    keys = []
    for r in cr:
        keys += [k for k in r if k not in keys]
    write_csv(os.path.join(run, 'results.csv'), cr, keys)
    rk = ['kind', 'dev', 'regime', 'job', 'mode', 'round', 'seq', 'window_s']
    for kind in ('disk', 'net'):
        rk += [k for k, _, _, _ in METRICS[kind]]
    write_csv(os.path.join(run, 'results-rounds.csv'), rows, rk)
    for p in plot(run, merged):
        print('plot: %s' % os.path.join(run, p))
    for e in errors:
        print('report: ' + e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
