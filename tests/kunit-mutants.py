#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the irq_poll KUnit cases written for defects catch them.

Usage: tests/kunit-mutants.py [-k NAME] [-l] [--from NAME]

Each mutant puts one defect back into lib/irq_poll.c (a literal replacement that
must apply exactly once; --check only verifies that, and that the cases it names
exist, without building: tests/unit/run.sh runs it), builds and runs the suite with tests/kunit.sh, and
passes only if every case named for it fails (or the run never finishes, for
mutants that hang a case).  -k runs the mutants whose name contains NAME, -l lists
them.  Slow (one kernel relink and boot per mutant); not part of make check.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(TOP, 'lib-irqpoll')
BUILD_DIR = os.environ.get('BUILD_DIR', os.path.expanduser('~/.cache/irq-poll'))

# name, what it brings back, old text, new text, cases that must fail
MUTANTS = [
    ('lost-schedule',
     'a schedule that finds the instance owned is dropped (no MISSED)',
     '''			new = old | IRQ_POLL_MISSED;
			if (ops)
				new |= IRQ_POLL_MASKING;
			ret = IRQ_POLL_MISSED_SET;''',
     '''			return IRQ_POLL_REFUSED;''',
     ['irq_poll_test_resched_after_complete',
      'irq_poll_test_sched_during_poll',
      'irq_poll_test_ops_latched_without_pending']),
    ('lost-schedule-not-masked',
     'a lost schedule leaves the device unmasked (level line stays asserted)',
     '''		if (ops) {
			ops->mask(iop);
			/* Pairs with smp_cond_load_acquire() in irq_poll_take_missed(). */''',
     '''		if (ops && !(old & IRQ_POLL_SCHED)) {
			ops->mask(iop);
			/* Pairs with smp_cond_load_acquire() in irq_poll_take_missed(). */''',
     ['irq_poll_test_ops_latched_without_pending']),
    ('inactive-during-last-poll',
     'irq_poll_active()/handoff() say "off" while the last poll still runs',
     '''	return !test_bit(IRQ_POLL_F_DISABLED, &iop->state);
}
EXPORT_SYMBOL_GPL(irq_poll_active);''',
     '''	return !(READ_ONCE(iop->state) &
		 (IRQ_POLL_DISABLED | IRQ_POLL_DISABLE));
}
EXPORT_SYMBOL_GPL(irq_poll_active);''',
     ['irq_poll_test_active_during_last_poll']),
    ('disable-not-nested',
     'a second concurrent irq_poll_disable() waits to own the instance too',
     '''	first = !iop->disable_depth++;''',
     '''	first = true;
	iop->disable_depth++;''',
     ['irq_poll_test_disable_concurrent']),
    ('deferral-without-ops',
     'deferral accepted on an instance without ops',
     '''	if (!ops && (defer || (cfg->flags & IRQ_POLL_CFG_SWITCHABLE)))''',
     '''	if (!ops && (cfg->flags & IRQ_POLL_CFG_SWITCHABLE))''',
     ['irq_poll_test_deferral_needs_ops']),
    ('enable-no-recheck',
     'irq_poll_enable() of an instance with ops does not poll',
     '''	if (!iop->ops) {
		if (!irq_poll_release(iop, false) && irq_poll_take_missed(iop))''',
     '''	if (1) {
		if (!irq_poll_release(iop, false) && irq_poll_take_missed(iop))''',
     ['irq_poll_test_enable_polls_masked']),
    ('mask-with-irqs-on',
     '->mask() called in the caller\'s context, interrupts on',
     '''	local_irq_save(flags);
	ret = irq_poll_sched_irqoff(iop);
	local_irq_restore(flags);''',
     '''	flags = 0;
	ret = irq_poll_sched_irqoff(iop);''',
     ['irq_poll_test_ops_mask_unmask']),
    ('destroy-unmasks',
     'irq_poll_destroy() hands a switchable instance back unmasked',
     '''		__irq_poll_disable(iop, false);''',
     '''		__irq_poll_disable(iop, true);''',
     ['irq_poll_test_destroy_leaves_masked']),
    ('sysfs-any-base',
     'sysfs numbers parsed in any base, weight unbounded, no shortest timer',
     '''	if (kstrtouint(buf, 10, val) || *val < min || *val > max)''',
     '''	if (kstrtouint(buf, 0, val) || *val < min || (max != IRQ_POLL_MAX_WEIGHT && *val > max))''',
     ['irq_poll_test_sysfs_input']),
    ('squeeze-local-only',
     'a squeeze counted only when the local list has work left',
     '''			if (!list_empty(&list) || !list_empty(&pc->list))''',
     '''			if (!list_empty(&list))''',
     ['irq_poll_test_squeeze_counts_new_work']),
    ('rearm-untraced',
     'a re-poll for MISSED counted but not traced',
     '''	irq_poll_stat_add(iop, missed, 1);
	trace_irq_poll_rearm(iop, true);''',
     '''	irq_poll_stat_add(iop, missed, 1);''',
     ['irq_poll_test_tracepoints']),
    ('weight-zero',
     'irq_poll_init() with weight 0 gives a budget of 0',
     '''	iop->weight = weight > 0 ? weight : IRQ_POLL_DEFAULT_WEIGHT;''',
     '''	iop->weight = weight;''',
     ['irq_poll_test_weight_zero_is_default']),
    ('reinit-leaks',
     're-initialising a live named instance leaks its kthread',
     '''	old = irq_poll_find(iop, NULL);''',
     '''	old = NULL;''',
     ['irq_poll_test_reinit_stops_thread']),
    ('warn-once-global',
     'misuse reported once for all instances',
     '''	if (test_and_set_bit(IRQ_POLL_F_WARNED, &iop->state))
		return;''',
     '''	static bool once;

	if (once || test_and_set_bit(IRQ_POLL_F_WARNED, &iop->state))
		return;
	once = true;''',
     ['irq_poll_test_misuse_per_instance']),
    ('auto-defers-single',
     'IRQ_POLL_MODE_AUTO defers after a poll that found one completion',
     '''	if (window && !a->nowin) {
		a->window_ns = window;''',
     '''	if (w >= 1 && !a->nowin) {
		window = window ?: IRQ_POLL_AUTO_NS_MIN;
		a->window_ns = window;''',
     ['irq_poll_test_auto_controller']),
    ('auto-defers-sparse',
     'IRQ_POLL_MODE_AUTO defers where the longest window collects fewer than two',
     '''		if (a->gap_ns && (2ULL * a->gap_ns <= IRQ_POLL_AUTO_NS_MAX ||
				  (busy && a->gap_ns <= IRQ_POLL_AUTO_NS_MAX)))''',
     '''		if (1)''',
     ['irq_poll_test_auto_controller']),
    ('auto-gap-per-poll',
     'IRQ_POLL_MODE_AUTO averages the time between completions per poll',
     '''			a->gap_ns = div_u64((u64)a->span_ns * 256, a->span_x256);''',
     '''			gap = div_u64(gap, w);
			a->gap_ns = a->gap_ns ?
				    a->gap_ns + ((s64)gap - a->gap_ns) / 4 : gap;''',
     ['irq_poll_test_auto_bursty_rate']),
    ('auto-window-never-shrinks',
     'IRQ_POLL_MODE_AUTO keeps a window that outlasts the work in flight',
     '''		else if (3ULL * rate < 2ULL * a->rate ||
			 3ULL * rate < 2ULL * irq_rate)''',
     '''		else if (0)''',
     ['irq_poll_test_auto_controller']),
    ('auto-window-slower-than-irqs',
     'IRQ_POLL_MODE_AUTO keeps a window that delivers slower than interrupts did',
     '''		else if (3ULL * rate < 2ULL * a->rate ||
			 3ULL * rate < 2ULL * irq_rate)''',
     '''		else if (3ULL * rate < 2ULL * a->rate)''',
     ['irq_poll_test_auto_controller']),
    ('auto-window-grows-blind',
     'IRQ_POLL_MODE_AUTO doubles windows whether or not the rate held',
     '''		} else if (w >= 4 && w < 16 && 4ULL * rate >= 3ULL * a->rate &&
			 3ULL * rate >= 2ULL * irq_rate)''',
     '''		} else if (w >= 4 && w < 16)''',
     ['irq_poll_test_auto_controller']),
    ('auto-window-grows-past-16',
     'IRQ_POLL_MODE_AUTO doubles windows that already serve 16 or more',
     '''		} else if (w >= 4 && w < 16 && 4ULL * rate >= 3ULL * a->rate &&''',
     '''		} else if (w >= 4 && 4ULL * rate >= 3ULL * a->rate &&''',
     ['irq_poll_test_auto_controller']),
    ('auto-window-never-grows',
     'IRQ_POLL_MODE_AUTO never lengthens a window',
     '''		} else if (w >= 4 && w < 16 && 4ULL * rate >= 3ULL * a->rate &&''',
     '''		} else if (0 && w < 16 && 4ULL * rate >= 3ULL * a->rate &&''',
     ['irq_poll_test_auto_windows_grow']),
    ('auto-chain-ends-on-one',
     'IRQ_POLL_MODE_AUTO ends a chain of windows at the first that found one',
     '''	if (!w)
		window = 0;''',
     '''	if (w < 2)
		window = 0;''',
     ['irq_poll_test_auto_windows_grow']),
    ('auto-chain-one-not-halved',
     'IRQ_POLL_MODE_AUTO keeps a window that found one at its length',
     '''					 max_t(u32, window / 2,
					       IRQ_POLL_AUTO_NS_MIN) : 0;''',
     '''					 window : 0;''',
     ['irq_poll_test_auto_windows_grow']),
    ('auto-window-against-last',
     'IRQ_POLL_MODE_AUTO compares a window with the last one, not the chain',
     '''		avg = a->rate ? a->rate - a->rate / 4 + rate / 4 : rate;''',
     '''		avg = rate;''',
     ['irq_poll_test_auto_noisy_windows']),
    ('auto-sparse-on-idle-cpu',
     'IRQ_POLL_MODE_AUTO starts windows at gaps over 250 us on an idle CPU too',
     '''				  (busy && a->gap_ns <= IRQ_POLL_AUTO_NS_MAX)))''',
     '''				  (a->gap_ns <= IRQ_POLL_AUTO_NS_MAX)))''',
     ['irq_poll_test_auto_controller', 'irq_poll_test_auto_busy_pairs']),
    ('auto-sparse-never',
     'IRQ_POLL_MODE_AUTO starts no window at gaps over 250 us, busy CPU or not',
     '''				  (busy && a->gap_ns <= IRQ_POLL_AUTO_NS_MAX)))''',
     '''				  (0 && a->gap_ns <= IRQ_POLL_AUTO_NS_MAX)))''',
     ['irq_poll_test_auto_busy_pairs', 'irq_poll_test_auto_windows_hold']),
    ('auto-pair-dropped-at-32',
     'IRQ_POLL_MODE_AUTO drops a trial pair after 32 blocks, before 2000/s can decide',
     '''	if (++a->block >= 8 * IRQ_POLL_AUTO_BLOCKS) {''',
     '''	if (++a->block >= 4 * IRQ_POLL_AUTO_BLOCKS) {''',
     ['irq_poll_test_auto_busy_pairs']),
    ('auto-chain-halved-by-chance',
     'IRQ_POLL_MODE_AUTO halves every window that found one, however many the chain finds',
     '''			if (2ULL * avg * window < 3ULL << 30 || avg < irq_rate)''',
     '''			if (1)''',
     ['irq_poll_test_auto_windows_hold']),
    ('auto-trial-always-short',
     'IRQ_POLL_MODE_AUTO tries a parked instance for 8 polls although windows paid',
     '''	if (resume)
		a->calm = 0;''',
     '''	if (0)
		a->calm = 0;''',
     ['irq_poll_test_auto_long_trial_after_windows']),
    ('auto-trial-always-long',
     'IRQ_POLL_MODE_AUTO tries for 64 polls also where the last trial opened no window',
     '''	bool resume = a->pays && a->batched;''',
     '''	bool resume = a->pays;''',
     ['irq_poll_test_auto_long_trial_after_windows',
      'irq_poll_test_auto_parks_and_trials']),
    ('auto-reset-keeps-trial-count',
     'IRQ_POLL_MODE_AUTO switched off and on keeps the count towards a trial',
     '''{
	irq_poll_auto_relearn(a);
	/* A trial pair at the first window, the arm with windows leading. */''',
     '''{
	u32 irqs = a->irqs;

	irq_poll_auto_relearn(a);
	a->irqs = irqs;
	/* A trial pair at the first window, the arm with windows leading. */''',
     ['irq_poll_test_auto_trial_count_after_switch']),
    ('auto-trial-ticks-any-time',
     'IRQ_POLL_MODE_AUTO counts every trial of a parked instance as an epoch',
     '''	if (a->phase != IRQ_POLL_AUTO_FOLLOW ||
	    now - a->tick_ns < IRQ_POLL_AUTO_EPOCH_NS)
		return;''',
     '''	if (a->phase != IRQ_POLL_AUTO_FOLLOW)
		return;''',
     ['irq_poll_test_auto_parks_where_windows_lose']),
    ('auto-chain-not-held',
     'IRQ_POLL_MODE_AUTO lets a block without windows end a chain for the pair',
     '''	if (w && !window && a->rechain && !a->nowin)
		window = a->held_ns;''',
     '''	if (0 && w && !window && a->rechain && !a->nowin)
		window = a->held_ns;''',
     ['irq_poll_test_auto_pair_without_windows']),
    ('auto-pair-not-interleaved',
     'IRQ_POLL_MODE_AUTO measures the arms of a pair one after the other',
     '''	if (a->block & 1)
		a->nowin = !a->nowin;''',
     '''	if (a->block == IRQ_POLL_AUTO_BLOCKS / 2)
		a->nowin = !a->nowin;''',
     ['irq_poll_test_auto_pair_under_drift']),
    ('auto-pair-nowin-dropped',
     'IRQ_POLL_MODE_AUTO drops a pair whose epoch without windows finds one a poll',
     '''		if (a->nowin || a->quiet < IRQ_POLL_AUTO_CALM)''',
     '''		if (a->quiet < IRQ_POLL_AUTO_CALM)''',
     ['irq_poll_test_auto_pair_without_windows']),
    ('auto-never-parks',
     'IRQ_POLL_MODE_AUTO keeps polling one completion at a time',
     '''	if (!can_park || a->polls < IRQ_POLL_AUTO_WARMUP ||''',
     '''	if (1 || !can_park || a->polls < IRQ_POLL_AUTO_WARMUP ||''',
     ['irq_poll_test_auto_controller', 'irq_poll_test_auto_parks_and_trials']),
    ('auto-parks-between-windows',
     'IRQ_POLL_MODE_AUTO parks a load that batches only while deferred',
     '''	if (!can_park || a->polls < IRQ_POLL_AUTO_WARMUP ||
	    a->calm < IRQ_POLL_AUTO_CALM)''',
     '''	if (!can_park || a->polls < IRQ_POLL_AUTO_WARMUP)''',
     ['irq_poll_test_auto_parks_late_after_trials']),
    ('auto-nowin-keeps-polling',
     'IRQ_POLL_MODE_AUTO polls a batching load at every interrupt where windows do not pay',
     '''	    (a->pays || a->phase >= IRQ_POLL_AUTO_PAIR1))''',
     '''	    (1 || a->pays || a->phase >= IRQ_POLL_AUTO_PAIR1))''',
     ['irq_poll_test_auto_parks_where_windows_lose']),
    ('auto-windows-unmeasured',
     'IRQ_POLL_MODE_AUTO opens windows whatever they cost the device',
     '''	if (window && !a->nowin) {''',
     '''	if (window) {''',
     ['irq_poll_test_auto_measures_pay']),
    ('auto-windows-for-interrupts-alone',
     'IRQ_POLL_MODE_AUTO opens windows that buy no throughput, only interrupts',
     '''#define IRQ_POLL_AUTO_PAY_X1024		1065''',
     '''#define IRQ_POLL_AUTO_PAY_X1024		992''',
     ['irq_poll_test_auto_measures_pay',
      'irq_poll_test_auto_parks_where_windows_lose']),
    ('auto-windows-never-pay',
     'IRQ_POLL_MODE_AUTO finds windows that buy a sixth more throughput not worth it',
     '''#define IRQ_POLL_AUTO_PAY_X1024		1065''',
     '''#define IRQ_POLL_AUTO_PAY_X1024		1200''',
     ['irq_poll_test_auto_windows_that_pay',
      'irq_poll_test_auto_parks_late_after_trials']),
    ('auto-pair-never-parks',
     'IRQ_POLL_MODE_AUTO sees a trial pair through after the load stopped batching',
     '''		if (a->nowin || a->quiet < IRQ_POLL_AUTO_CALM)''',
     '''		if (1)''',
     ['irq_poll_test_auto_windows_grow']),
    ('auto-nowin-retried-soon',
     'IRQ_POLL_MODE_AUTO tests a verdict against windows again after 2 epochs',
     '''		a->stretch = IRQ_POLL_AUTO_STRETCH_NOWIN;''',
     '''		a->stretch = IRQ_POLL_AUTO_STRETCH_MIN;''',
     ['irq_poll_test_auto_few_trials_after_switch']),
    ('auto-lone-never-starts',
     'IRQ_POLL_MODE_AUTO opens no window for one completion on a busy CPU',
     '''	} else if (w >= 2 || (w == 1 && busy && !can_park)) {''',
     '''	} else if (w >= 2) {''',
     ['irq_poll_test_auto_controller',
      'irq_poll_test_auto_lone_windows_that_pay']),
    ('auto-lone-on-idle-cpu',
     'IRQ_POLL_MODE_AUTO opens a window for one completion on an idle CPU',
     '''	} else if (w >= 2 || (w == 1 && busy && !can_park)) {''',
     '''	} else if (w >= 2 || (w == 1 && !can_park)) {''',
     ['irq_poll_test_auto_controller',
      'irq_poll_test_auto_lone_windows_that_pay']),
    ('auto-lone-where-it-parks',
     'IRQ_POLL_MODE_AUTO opens a window for one completion on a switchable instance',
     '''	} else if (w >= 2 || (w == 1 && busy && !can_park)) {''',
     '''	} else if (w >= 2 || (w == 1 && busy)) {''',
     ['irq_poll_test_auto_controller',
      'irq_poll_test_auto_lone_windows_that_pay']),
    ('no-sysfs-fails',
     'a missing /sys/kernel/irq_poll fails irq_poll_init_named()',
     '''	if (!cfg || !irq_poll_config_valid(cfg))
		return -EINVAL;''',
     '''	if (!cfg || !irq_poll_config_valid(cfg))
		return -EINVAL;
	if (!irq_poll_kset)
		return -ENOMEM;''',
     ['irq_poll_test_works_without_sysfs']),
]


def failed_cases(log):
    """Names of top-level cases reported 'not ok' in a KTAP log."""
    bad = set()
    for line in log.splitlines():
        m = re.match(r'^    not ok \d+ (\S+)', line)
        if m:
            bad.add(m.group(1))
    return bad


def first_failure(log, case):
    """The first failed expectation of @case in a KTAP log, on one line."""
    lines = log.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r'^\s*# (\S+): (EXPECTATION|ASSERTION) FAILED at (\S+)', line)
        if m and m.group(1) == case:
            more = []
            for nxt in lines[i + 1:i + 6]:
                if re.match(r'^\s*(# |ok |not ok )', nxt):
                    break
                more.append(nxt.strip())
            return '%s: %s' % (m.group(3), ' '.join(more))
    return 'no expectation message (crashed or timed out)'


def run(mutant):
    name, what, old, new, expect = mutant
    src = os.path.join(LIB, 'lib', 'irq_poll.c')
    text = open(src).read()
    if text.count(old) != 1:
        return False, 'mutation does not apply (%d matches)' % text.count(old)
    tmp = tempfile.mkdtemp(prefix='irqp-mutant.')
    try:
        shutil.copytree(os.path.join(LIB, 'lib'), os.path.join(tmp, 'lib'))
        shutil.copytree(os.path.join(LIB, 'include'), os.path.join(tmp, 'include'))
        with open(os.path.join(tmp, 'lib', 'irq_poll.c'), 'w') as f:
            f.write(text.replace(old, new))
        try:
            # One expected case: run it alone (much faster); else the suite.
            glob = 'irq_poll.' + expect[0] if len(expect) == 1 else 'irq_poll.*'
            p = subprocess.run([os.path.join(TOP, 'tests', 'kunit.sh'), '-o', tmp,
                                '-f', glob],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=1800,
                               env=dict(os.environ, KUNIT_TIMEOUT='300'))
            out = p.stdout
        except subprocess.TimeoutExpired:
            return True, 'hung (counts as caught)'
        if 'ERROR' in out and 'Testing complete' not in out and 'error:' in out:
            return False, 'did not build: ' + ' | '.join(
                l for l in out.splitlines() if 'error:' in l)[:300]
        log = open(os.path.join(BUILD_DIR, 'out', 'kunit', 'test.log')).read()
    finally:
        shutil.rmtree(tmp)
    bad = failed_cases(log)
    missing = [c for c in expect if c not in bad]
    if not re.search(r'^(not )?ok \d+ irq_poll$', log, re.M):
        done = re.findall(r'^    (?:not )?ok \d+ (\S+)', log, re.M)
        oops = re.search(r'^.*(BUG:|soft lockup|hung_task|Kernel panic).*$', log, re.M)
        return True, 'run did not finish, caught: %s%s' % (
            'hung after ' + done[-1] if done else 'hung in its first case',
            '; console: ' + oops.group(0).strip() if oops else '')
    if missing:
        return False, 'not caught by ' + ', '.join(missing)
    return True, 'caught by ' + '; '.join(
        '%s [%s]' % (c, first_failure(log, c)) for c in expect)


def check(sel):
    """ok/not ok per mutant: its text occurs once, its cases exist."""
    with open(os.path.join(LIB, 'lib', 'irq_poll.c')) as f:
        src = f.read()
    with open(os.path.join(LIB, 'lib', 'irq_poll_kunit.c')) as f:
        suite = f.read()
    bad = 0
    for i, m in enumerate(sel, 1):
        n = src.count(m[2])
        gone = [c for c in m[4] if 'static void %s(' % c not in suite]
        ok = n == 1 and not gone
        bad += not ok
        why = '' if ok else ' # text found %d times%s' % (
            n, ', no case ' + ', '.join(gone) if gone else '')
        print('%s %d mutant-applies.%s%s' % ('ok' if ok else 'not ok', i, m[0], why))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('-k', default='')
    ap.add_argument('-l', action='store_true')
    ap.add_argument('--check', action='store_true',
                    help='check that every mutant applies once; no build')
    ap.add_argument('--from', dest='start', default='',
                    help='start at the mutant named START')
    a = ap.parse_args()
    sel = [m for m in MUTANTS if a.k in m[0]]
    if a.start:
        names = [m[0] for m in sel]
        sel = sel[names.index(a.start):]
    if a.check:
        return check(sel)
    if a.l:
        for m in sel:
            print('%-26s %s' % (m[0], m[1]))
        return 0
    fails = 0
    for m in sel:
        ok, why = run(m)
        fails += not ok
        print('%s mutant.%s # %s: %s' % ('ok' if ok else 'not ok', m[0], m[1], why),
              flush=True)
    print('%d caught, %d missed' % (len(sel) - fails, fails))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
