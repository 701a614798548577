// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for lib/irq_poll.c
 *
 * Each case drives a fake device ("ipt"): an atomic count of queued
 * completions that the poll function reaps up to its budget, a mask bit
 * set and cleared by the ops (which also check the context they are
 * called in), and knobs to make a poll report a full budget, spin, let a
 * completion slip in between its last look and the unmask, reschedule
 * after completing, or raise an "interrupt" when unmasked with work
 * queued (a device that latches while masked).  A "handler" adds
 * completions and, for switchable instances, reaps them itself when
 * irq_poll_handoff() says so, which lets cases check that the two paths
 * never overlap.  Schedules are issued inside local_bh_disable() /
 * local_bh_enable() so the softirq usually runs right there (not while
 * ksoftirqd is runnable: 6.1 then leaves the work to it); everything that
 * may run elsewhere (ksoftirqd, timers, kthreads, other CPUs) is awaited
 * with a bounded wait.  Misuse is reported with pr_err(), not WARN, so
 * none of these cases leaves a splat in the log.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hardirq.h>
#include <linux/interrupt.h>
#include <linux/irq_poll.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <trace/events/irq_poll.h>

#include "irq_poll_internal.h"

/*
 * Upper bound for anything we wait for.  Softirqs, pinned hrtimers and
 * kthread wake-ups take micro- to milliseconds even under QEMU TCG with
 * lockdep and KASAN; 2 s is several hundred times that and still keeps a
 * failing case short.
 */
#define IPT_TIMEOUT_MS		2000

/* Deferral timer period used by the tests: 1 ms, so 3 rounds take ~3 ms. */
#define IPT_FLUSH_NS		"1000000"

/* Evaluate @cond until true or IPT_TIMEOUT_MS passed; yields in between. */
#define ipt_wait_for(cond)						\
({									\
	unsigned long __end = jiffies + msecs_to_jiffies(IPT_TIMEOUT_MS); \
	bool __ok;							\
									\
	while (!(__ok = (cond)) && time_before(jiffies, __end))	\
		usleep_range(200, 500);					\
	__ok;								\
})

struct ipt {
	struct irq_poll iop;
	atomic_t queued;	/* completions waiting on the fake device */
	atomic_t produced;	/* completions ever queued */
	atomic_t reaped;	/* by ->poll() or the classic path */
	atomic_t polls;
	atomic_t in_poll;
	atomic_t overlaps;	/* ->poll() ran twice at once */
	atomic_t busy;		/* polls left that claim the whole budget */
	atomic_t inject;	/* completions to slip in before completing */
	atomic_t resched;	/* polls left that reschedule after completing */
	atomic_t resched_won;	/* ... and whose irq_poll_sched() returned true */
	atomic_t masks;
	atomic_t unmasks;
	atomic_t masked;	/* the device's mask bit */
	atomic_t bad_ctx;	/* an op called outside its documented context */
	atomic_t reraise;	/* unmask with work queued raises an "interrupt" */
	atomic_t done_true;
	atomic_t done_false;
	atomic_t softirq_polls;
	atomic_t thread_polls;
	atomic_t bad_budget;
	atomic_t classic;	/* completions reaped by the "handler" */
	atomic_t in_classic;
	atomic_t mixed;		/* ->poll() and the handler reaped at once */
	atomic_t ended;
	atomic_t unmasked_polls;	/* with ops, ->poll() ran unmasked */
	int expect_budget;
	int spin_ms;
	int last_cpu;
	bool legacy_complete;
};

#define IPT_MAX	4

struct ipt_ctx {
	struct ipt *ipt[IPT_MAX];
	int n;
};

static atomic_t ipt_names = ATOMIC_INIT(0);

static int ipt_reap(struct ipt *t, int budget)
{
	int avail = atomic_read(&t->queued);
	int n;

	do {
		n = min(avail, budget);
	} while (n && !atomic_try_cmpxchg(&t->queued, &avail, avail - n));
	atomic_add(n, &t->reaped);
	return n;
}

static void ipt_add(struct ipt *t, int n)
{
	atomic_add(n, &t->produced);
	atomic_add(n, &t->queued);
}

static int ipt_poll(struct irq_poll *iop, int budget)
{
	struct ipt *t = container_of(iop, struct ipt, iop);
	int n;

	if (atomic_inc_return(&t->in_poll) > 1)
		atomic_inc(&t->overlaps);
	if (atomic_read(&t->in_classic))
		atomic_inc(&t->mixed);
	atomic_inc(&t->polls);
	if (iop->ops && !atomic_read(&t->masked))
		atomic_inc(&t->unmasked_polls);
	WRITE_ONCE(t->last_cpu, smp_processor_id());
	if (in_serving_softirq())
		atomic_inc(&t->softirq_polls);
	else
		atomic_inc(&t->thread_polls);
	if (t->expect_budget && budget != t->expect_budget)
		atomic_inc(&t->bad_budget);
	if (t->spin_ms)
		mdelay(t->spin_ms);

	if (atomic_add_unless(&t->busy, -1, 0)) {
		n = budget;
		goto out;
	}

	n = ipt_reap(t, budget);
	if (n < budget) {
		/* A completion lands after the last look: the re-arm race. */
		if (atomic_add_unless(&t->inject, -1, 0))
			ipt_add(t, 1);
		if (t->legacy_complete)
			irq_poll_complete(iop);
		else if (irq_poll_complete_done(iop, n))
			atomic_inc(&t->done_true);
		else
			atomic_inc(&t->done_false);
		/* ib_poll_handler(): complete, then reschedule for more. */
		if (atomic_add_unless(&t->resched, -1, 0)) {
			ipt_add(t, 1);
			if (irq_poll_sched(iop))
				atomic_inc(&t->resched_won);
		}
	}
out:
	atomic_dec(&t->in_poll);
	atomic_set(&t->ended, 1);
	return n;
}

/* ->mask: called with local interrupts off (irq_poll.h). */
static void ipt_mask(struct irq_poll *iop)
{
	struct ipt *t = container_of(iop, struct ipt, iop);

	if (!irqs_disabled())
		atomic_inc(&t->bad_ctx);
	atomic_inc(&t->masks);
	atomic_set(&t->masked, 1);
}

/* ->unmask and ->pending: BH disabled, never from hard IRQ. */
static void ipt_check_bh(struct ipt *t)
{
	if (!in_softirq() || in_hardirq())
		atomic_inc(&t->bad_ctx);
}

static void ipt_unmask(struct irq_poll *iop)
{
	struct ipt *t = container_of(iop, struct ipt, iop);

	ipt_check_bh(t);
	atomic_inc(&t->unmasks);
	atomic_set(&t->masked, 0);
	/* A latching device interrupts now for what came while masked. */
	if (atomic_read(&t->reraise) && atomic_read(&t->queued))
		irq_poll_sched(iop);
}

static bool ipt_pending(struct irq_poll *iop)
{
	struct ipt *t = container_of(iop, struct ipt, iop);

	ipt_check_bh(t);
	return atomic_read(&t->queued) > 0;
}

static const struct irq_poll_ops ipt_ops = {
	.mask		= ipt_mask,
	.unmask		= ipt_unmask,
	.pending	= ipt_pending,
};

static const struct irq_poll_ops ipt_ops_nopending = {
	.mask		= ipt_mask,
	.unmask		= ipt_unmask,
};

static struct ipt *ipt_alloc(struct kunit *test)
{
	struct ipt_ctx *ctx = test->priv;
	struct ipt *t;

	KUNIT_ASSERT_LT(test, ctx->n, IPT_MAX);
	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	ctx->ipt[ctx->n++] = t;
	return t;
}

/* An unnamed, 6.1-style instance. */
static struct ipt *ipt_new_legacy(struct kunit *test, int weight)
{
	struct ipt *t = ipt_alloc(test);

	irq_poll_init(&t->iop, weight, ipt_poll);
	return t;
}

/* A named instance, polled from the softirq (switched on if switchable). */
static struct ipt *ipt_new(struct kunit *test, int weight,
			   const struct irq_poll_ops *ops, unsigned int flags)
{
	struct irq_poll_config cfg = {
		.weight = weight,
		.ops = ops,
		.flags = flags,
	};
	struct ipt *t = ipt_alloc(test);
	char name[32];

	snprintf(name, sizeof(name), "kunit%d", atomic_inc_return(&ipt_names));
	cfg.name = name;
	KUNIT_ASSERT_EQ(test, irq_poll_init_named(&t->iop, &cfg, ipt_poll), 0);
	KUNIT_ASSERT_EQ(test, irq_poll_set_mode(&t->iop, IRQ_POLL_MODE_SOFTIRQ),
			0);
	return t;
}

/* Schedule and let the softirq run right here, on this CPU. */
static bool ipt_sched_sync(struct ipt *t)
{
	bool ret;

	local_bh_disable();
	ret = irq_poll_sched(&t->iop);
	local_bh_enable();
	return ret;
}

/*
 * The interrupt handler of a switchable driver: @n completions arrive;
 * polling takes them, or the handler reaps them as it did before the
 * conversion.  The read-side section stands for hard-IRQ context.
 */
static void ipt_irq(struct ipt *t, int n)
{
	ipt_add(t, n);
	rcu_read_lock();
	local_bh_disable();
	if (!irq_poll_handoff(&t->iop)) {
		atomic_inc(&t->in_classic);
		if (atomic_read(&t->in_poll))
			atomic_inc(&t->mixed);
		atomic_add(ipt_reap(t, INT_MAX), &t->classic);
		atomic_dec(&t->in_classic);
	}
	local_bh_enable();
	rcu_read_unlock();
}

static int ipt_store(struct ipt *t, const char *file, const char *val)
{
	return irq_poll_attr_store(&t->iop, file, val);
}

/* sysfs_emit() wants a page-aligned buffer, as sysfs provides. */
static char *ipt_show(struct kunit *test, struct ipt *t, const char *file)
{
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	ssize_t len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	len = irq_poll_attr_show(&t->iop, file, buf);
	KUNIT_ASSERT_GT_MSG(test, len, 0L, "show(%s)", file);
	return buf;
}

static long ipt_stat(struct kunit *test, struct ipt *t, const char *file)
{
	long val;

	KUNIT_EXPECT_EQ(test, kstrtol(ipt_show(test, t, file), 10, &val), 0);
	return val;
}

#define STAT(t, f)	ipt_stat(test, t, #f)

static bool ipt_idle(struct ipt *t)
{
	return !test_bit(IRQ_POLL_F_SCHED, &t->iop.state);
}

/* Idle, device unmasked, nothing left on it. */
static bool ipt_settled(struct ipt *t)
{
	return ipt_idle(t) && !atomic_read(&t->masked) &&
	       !atomic_read(&t->queued);
}

static int ipt_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct ipt_ctx), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

static void ipt_exit(struct kunit *test)
{
	struct ipt_ctx *ctx = test->priv;
	int i;

	for (i = 0; i < ctx->n; i++) {
		atomic_set(&ctx->ipt[i]->busy, 0);
		irq_poll_destroy(&ctx->ipt[i]->iop);
	}
}

/* Runs on another CPU: schedules @t there so its softirq polls it. */
static int ipt_sched_thread(void *data)
{
	struct ipt *t = data;

	ipt_sched_sync(t);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static int ipt_other_cpu(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 online CPUs, have %u",
			   num_online_cpus());
	return cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
}

static struct task_struct *ipt_sched_on(struct kunit *test, struct ipt *t,
					int cpu)
{
	struct task_struct *k;

	k = kthread_create(ipt_sched_thread, t, "ipt_sched/%d", cpu);
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	kthread_bind(k, cpu);
	wake_up_process(k);
	return k;
}

/* --- the 6.1 contract --------------------------------------------------- */

static void irq_poll_test_init_legacy(struct kunit *test)
{
	struct ipt *t = ipt_new_legacy(test, 16);

	/* Enabled and idle, weight kept, no extension, one cache line. */
	KUNIT_EXPECT_EQ(test, t->iop.state, 0UL);
	KUNIT_EXPECT_TRUE(test, irq_poll_active(&t->iop));
	KUNIT_EXPECT_EQ(test, t->iop.weight, 16);
	KUNIT_EXPECT_NULL(test, t->iop.ext);
	KUNIT_EXPECT_LE(test, sizeof(struct irq_poll), (size_t)64);
}

static void irq_poll_test_weight_zero_is_default(struct kunit *test)
{
	struct ipt *t = ipt_new_legacy(test, 0);

	/* Weight 0 used to mean "budget 0": a poll that never completes. */
	KUNIT_EXPECT_EQ(test, t->iop.weight, IRQ_POLL_DEFAULT_WEIGHT);
	ipt_add(t, 5);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 5);
}

static void irq_poll_test_sched_polls_once(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, NULL, 0);

	ipt_add(t, 5);
	/* From idle: this call schedules. */
	KUNIT_EXPECT_TRUE(test, ipt_sched_sync(t));
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	/* One poll reaped all 5, completed, and the instance is idle. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 5);
	KUNIT_EXPECT_EQ(test, STAT(t, scheduled), 1L);
	KUNIT_EXPECT_EQ(test, STAT(t, polls), 1L);
	KUNIT_EXPECT_EQ(test, STAT(t, reaped), 5L);
	KUNIT_EXPECT_EQ(test, STAT(t, empty_polls), 0L);
	KUNIT_EXPECT_EQ(test, STAT(t, budget_exhausted), 0L);
	KUNIT_EXPECT_EQ(test, STAT(t, missed), 0L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->softirq_polls), 1);
}

static void irq_poll_test_budget_honoured(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 8, NULL, 0);

	t->expect_budget = 8;
	ipt_add(t, 20);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	/* 20 at weight 8: polls reap 8, 8, 4; the first two keep polling. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->bad_budget), 0);
	KUNIT_EXPECT_EQ(test, STAT(t, budget_exhausted), 2L);
	KUNIT_EXPECT_EQ(test, STAT(t, reaped), 20L);
	KUNIT_EXPECT_EQ(test, STAT(t, scheduled), 1L);
}

static void irq_poll_test_full_budget_repolls(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 4, NULL, 0);

	/* Contract: a poll that uses its budget does not complete. */
	atomic_set(&t->busy, 5);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	/* 5 full-budget polls, then one empty poll that completes. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 6);
	KUNIT_EXPECT_EQ(test, STAT(t, budget_exhausted), 5L);
	KUNIT_EXPECT_EQ(test, STAT(t, empty_polls), 1L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->done_true), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->overlaps), 0);
}

static void irq_poll_test_sched_twice_is_once(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, NULL, 0);
	bool first, second;

	local_bh_disable();
	first = irq_poll_sched(&t->iop);
	second = irq_poll_sched(&t->iop);
	local_bh_enable();
	/*
	 * The second call found it scheduled, not yet polled: it did not
	 * schedule, and its MISSED costs one extra (empty) poll.
	 */
	KUNIT_EXPECT_TRUE(test, first);
	KUNIT_EXPECT_FALSE(test, second);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	KUNIT_EXPECT_EQ(test, STAT(t, scheduled), 1L);
	KUNIT_EXPECT_EQ(test, STAT(t, missed), 1L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 2);
}

/* --- MISSED: no schedule is lost ---------------------------------------- */

static void irq_poll_test_resched_after_complete(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, NULL, 0);

	/*
	 * ib_poll_handler(): complete, find more, reschedule, inside the
	 * poll function.  The instance is still owned, so the schedule
	 * does not win, but the library polls again for it.
	 */
	atomic_set(&t->resched, 1);
	ipt_add(t, 2);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->resched_won), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->queued), 0);
	KUNIT_EXPECT_EQ(test, STAT(t, missed), 1L);
	KUNIT_EXPECT_EQ(test, STAT(t, scheduled), 1L);
}

static void irq_poll_test_sched_during_poll(struct kunit *test)
{
	struct task_struct *k;
	struct ipt *t;
	int cpu = ipt_other_cpu(test);

	t = ipt_new(test, 16, NULL, 0);
	/* The poll on @cpu spins 50 ms; an interrupt comes in meanwhile. */
	t->spin_ms = 50;
	k = ipt_sched_on(test, t, cpu);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(atomic_read(&t->in_poll)));
	ipt_add(t, 1);
	KUNIT_EXPECT_FALSE(test, irq_poll_sched(&t->iop));
	t->spin_ms = 0;
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	kthread_stop(k);
	/* Its completion was reaped by a second poll, not left behind. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->queued), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 2);
	KUNIT_EXPECT_EQ(test, STAT(t, missed), 1L);
}

/* --- device masking ------------------------------------------------------ */

static void irq_poll_test_ops_mask_unmask(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, &ipt_ops, 0);
	int i;

	for (i = 0; i < 10; i++) {
		ipt_add(t, 3);
		/* From task context with BH on: ->mask still gets IRQs off. */
		irq_poll_sched(&t->iop);
		KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	}
	/* Ten rounds: masked on each schedule, unmasked on each completion. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masks), 10);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->unmasks), 10);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->bad_ctx), 0);
	KUNIT_EXPECT_EQ(test, STAT(t, rearm_races), 0L);
}

static void irq_poll_test_ops_rearm_pending(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, &ipt_ops, 0);

	ipt_add(t, 2);
	atomic_set(&t->inject, 1);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	/*
	 * The completion injected after the last look was found by
	 * ->pending() after unmask: polled again at once, all reaped.
	 */
	KUNIT_EXPECT_EQ(test, STAT(t, rearm_races), 1L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->bad_ctx), 0);
}

static void irq_poll_test_ops_latched_without_pending(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, &ipt_ops_nopending, 0);

	/*
	 * No ->pending(): a device that latches while masked interrupts as
	 * soon as it is unmasked, while the library still owns the
	 * instance.  That schedule must not be dropped.
	 */
	atomic_set(&t->reraise, 1);
	ipt_add(t, 2);
	atomic_set(&t->inject, 1);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->queued), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masked), 0);
	KUNIT_EXPECT_EQ(test, STAT(t, missed), 1L);
	/* The lost schedule masked again: the second poll ran masked. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->unmasked_polls), 0);
}

/*
 * A level-triggered line, modelled: it is asserted while completions
 * wait and the device is unmasked.  The "handler" runs on another CPU
 * whenever the line is asserted, calls irq_poll_sched() and returns; it
 * must never return with the line still asserted, whether its schedule
 * won or not, or the line fires again and again.
 */
struct ipt_line {
	struct ipt *t;
	atomic_t handled;
	atomic_t still_asserted;
};

static bool ipt_asserted(struct ipt *t)
{
	return atomic_read(&t->queued) && !atomic_read(&t->masked);
}

static int ipt_line_thread(void *data)
{
	struct ipt_line *l = data;

	while (!kthread_should_stop()) {
		if (!ipt_asserted(l->t)) {
			cpu_relax();
			continue;
		}
		local_irq_disable();
		irq_poll_sched(&l->t->iop);
		/* The device may drain meanwhile; only a masked-out miss counts. */
		if (ipt_asserted(l->t) && test_bit(IRQ_POLL_F_SCHED,
						   &l->t->iop.state))
			atomic_inc(&l->still_asserted);
		local_irq_enable();
		atomic_inc(&l->handled);
		cond_resched();
	}
	return 0;
}

static void irq_poll_test_level_line_quiesced(struct kunit *test)
{
	struct ipt_line *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	struct task_struct *k;
	int i, cpu = ipt_other_cpu(test);

	KUNIT_ASSERT_NOT_NULL(test, l);
	l->t = ipt_new(test, 4, &ipt_ops_nopending, 0);
	k = kthread_create(ipt_line_thread, l, "ipt_line");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	kthread_bind(k, cpu);
	wake_up_process(k);
	for (i = 0; i < 200; i++) {
		/* Completions slip in after each poll's last look. */
		atomic_set(&l->t->inject, 1);
		ipt_add(l->t, 1 + i % 7);
		KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(l->t)));
	}
	kthread_stop(k);
	kunit_info(test, "%d handler runs\n", atomic_read(&l->handled));
	KUNIT_EXPECT_EQ(test, atomic_read(&l->still_asserted), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->t->reaped),
			atomic_read(&l->t->produced));
	KUNIT_EXPECT_EQ(test, atomic_read(&l->t->overlaps), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&l->t->unmasked_polls), 0);
}

/* --- disable and enable ------------------------------------------------- */

static void irq_poll_test_disable_waits_for_poll(struct kunit *test)
{
	struct task_struct *k;
	struct ipt *t;
	int cpu = ipt_other_cpu(test);

	t = ipt_new_legacy(test, 16);
	/* The poll spins 100 ms, long enough for disable to arrive. */
	t->spin_ms = 100;
	k = ipt_sched_on(test, t, cpu);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(atomic_read(&t->polls) > 0));
	irq_poll_disable(&t->iop);
	/* disable() returned, so the poll function has returned too. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->ended), 1);
	KUNIT_EXPECT_FALSE(test, irq_poll_active(&t->iop));
	kthread_stop(k);
}

static void irq_poll_test_disable_nests(struct kunit *test)
{
	struct ipt *t = ipt_new_legacy(test, 16);

	irq_poll_disable(&t->iop);
	irq_poll_disable(&t->iop);
	KUNIT_EXPECT_FALSE(test, irq_poll_active(&t->iop));
	/* Disabled: a schedule does nothing (6.1, no ops). */
	ipt_add(t, 1);
	KUNIT_EXPECT_FALSE(test, ipt_sched_sync(t));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 0);
	/* One enable of two: still disabled. */
	irq_poll_enable(&t->iop);
	KUNIT_EXPECT_FALSE(test, irq_poll_active(&t->iop));
	KUNIT_EXPECT_FALSE(test, ipt_sched_sync(t));
	irq_poll_enable(&t->iop);
	KUNIT_EXPECT_TRUE(test, irq_poll_active(&t->iop));
	KUNIT_EXPECT_TRUE(test, ipt_sched_sync(t));
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 1);
	/* One enable too many: reported, nothing else. */
	irq_poll_enable(&t->iop);
	KUNIT_EXPECT_TRUE(test, irq_poll_misuse_reported(&t->iop));
	KUNIT_EXPECT_TRUE(test, irq_poll_active(&t->iop));
}

struct ipt_disabler {
	struct ipt *t;
	struct completion done;
};

static int ipt_disable_thread(void *data)
{
	struct ipt_disabler *d = data;

	irq_poll_disable(&d->t->iop);
	complete(&d->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static bool ipt_wait_done(struct completion *done)
{
	return wait_for_completion_timeout(done,
					   msecs_to_jiffies(IPT_TIMEOUT_MS));
}

static struct task_struct *ipt_disable_async(struct kunit *test,
					     struct ipt_disabler *d)
{
	struct task_struct *k;

	init_completion(&d->done);
	k = kthread_run(ipt_disable_thread, d, "ipt_disable");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	return k;
}

static void irq_poll_test_disable_concurrent(struct kunit *test)
{
	struct ipt_disabler *d = kunit_kcalloc(test, 2, sizeof(*d), GFP_KERNEL);
	struct task_struct *k[2], *s;
	struct ipt *t;
	int i, cpu = ipt_other_cpu(test);

	KUNIT_ASSERT_NOT_NULL(test, d);
	t = ipt_new_legacy(test, 16);
	/* Both disables arrive while a poll spins, and wait together. */
	t->spin_ms = 100;
	s = ipt_sched_on(test, t, cpu);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(atomic_read(&t->in_poll)));
	for (i = 0; i < 2; i++) {
		d[i].t = t;
		k[i] = ipt_disable_async(test, &d[i]);
	}
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_TRUE(test, ipt_wait_done(&d[i].done));
	kthread_stop(s);
	KUNIT_EXPECT_FALSE(test, irq_poll_active(&t->iop));
	irq_poll_enable(&t->iop);
	KUNIT_EXPECT_FALSE(test, irq_poll_active(&t->iop));
	irq_poll_enable(&t->iop);
	KUNIT_EXPECT_TRUE(test, irq_poll_active(&t->iop));
	for (i = 0; i < 2; i++)
		kthread_stop(k[i]);
}

static void irq_poll_test_disable_polls_scheduled(struct kunit *test)
{
	struct ipt *t = ipt_new_legacy(test, 16);

	ipt_add(t, 3);
	/* From task context: the softirq runs later, in ksoftirqd. */
	irq_poll_sched(&t->iop);
	irq_poll_disable(&t->iop);
	/* A scheduled instance is polled once before disable returns. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->overlaps), 0);
}

static void irq_poll_test_enable_polls_masked(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, &ipt_ops, 0);

	irq_poll_disable(&t->iop);
	/*
	 * Interrupts while disabled: the device is masked (its line must
	 * go quiet), nothing is polled, and the completions wait.
	 */
	ipt_add(t, 4);
	KUNIT_EXPECT_FALSE(test, ipt_sched_sync(t));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masked), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 0);
	/* Enable re-checks with a poll: reaped, unmasked. */
	irq_poll_enable(&t->iop);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 4);
	/*
	 * Completions that raised no interrupt while disabled (the drain's
	 * ->pending() saw them, or a latch fired into the masked window):
	 * enable polls anyway, as nothing else would.
	 */
	irq_poll_disable(&t->iop);
	ipt_add(t, 2);
	irq_poll_enable(&t->iop);
	KUNIT_EXPECT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 6);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->bad_ctx), 0);
}

static void irq_poll_test_active_during_last_poll(struct kunit *test)
{
	struct ipt_disabler *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct task_struct *k, *s;
	bool active, handoff;
	struct ipt *t;
	int cpu = ipt_other_cpu(test);

	KUNIT_ASSERT_NOT_NULL(test, d);
	t = ipt_new(test, 16, &ipt_ops, IRQ_POLL_CFG_SWITCHABLE);
	t->spin_ms = 100;
	s = ipt_sched_on(test, t, cpu);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(atomic_read(&t->in_poll)));
	d->t = t;
	k = ipt_disable_async(test, d);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(test_bit(IRQ_POLL_F_DISABLE,
						      &t->iop.state)));
	/*
	 * The disable waits for the poll, which still owns the completions:
	 * a handler must not reap them beside it.
	 */
	active = irq_poll_active(&t->iop);
	ipt_add(t, 1);
	local_bh_disable();
	handoff = irq_poll_handoff(&t->iop);
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, active);
	KUNIT_EXPECT_TRUE(test, handoff);
	t->spin_ms = 0;
	KUNIT_EXPECT_TRUE(test, ipt_wait_done(&d->done));
	/* The disable drained it: reaped by polling, handed back unmasked. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->queued), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masked), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mixed), 0);
	KUNIT_EXPECT_FALSE(test, irq_poll_active(&t->iop));
	kthread_stop(s);
	kthread_stop(k);
	irq_poll_enable(&t->iop);
}

static void irq_poll_test_destroy_leaves_masked(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 4, &ipt_ops, IRQ_POLL_CFG_SWITCHABLE);
	int unmasks;

	/*
	 * Busy: masked and polling when the driver tears down.  A disable
	 * would hand a switchable instance back unmasked; destroy must not.
	 */
	atomic_set(&t->busy, INT_MAX);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(atomic_read(&t->polls) > 3));
	unmasks = atomic_read(&t->unmasks);
	irq_poll_destroy(&t->iop);
	/* After free_irq(): an unmasked device would interrupt nobody. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masked), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->unmasks), unmasks);
	KUNIT_EXPECT_NULL(test, t->iop.ext);
	KUNIT_EXPECT_FALSE(test, irq_poll_registered(&t->iop));
}

static void irq_poll_test_disable_then_free(struct kunit *test)
{
	int i, cpu = ipt_other_cpu(test);

	/*
	 * Free the instance as soon as disable returns, with polls running
	 * on another CPU up to that moment: nothing of the library may
	 * touch it afterwards (KASAN reports it if it does).
	 */
	for (i = 0; i < 20; i++) {
		struct ipt *t = kzalloc(sizeof(*t), GFP_KERNEL);
		struct task_struct *k;

		KUNIT_ASSERT_NOT_NULL(test, t);
		irq_poll_init(&t->iop, 4, ipt_poll);
		atomic_set(&t->busy, 1000 + i);
		k = ipt_sched_on(test, t, cpu);
		KUNIT_ASSERT_TRUE(test, ipt_wait_for(atomic_read(&t->polls)));
		kthread_stop(k);
		irq_poll_disable(&t->iop);
		kfree(t);
	}
}

/* --- one switch per instance ----------------------------------------- */

static void irq_poll_test_switchable_starts_off(struct kunit *test)
{
	struct irq_poll_config cfg = {
		.name = "kunit_sw_off",
		.ops = &ipt_ops,
		.flags = IRQ_POLL_CFG_SWITCHABLE,
	};
	struct ipt *t = ipt_alloc(test);

	/* kernel.irq_poll is 0 by default: converted drivers start off. */
	KUNIT_ASSERT_EQ(test, irq_poll_init_named(&t->iop, &cfg, ipt_poll), 0);
	KUNIT_EXPECT_STREQ(test, ipt_show(test, t, "mode"), "off\n");
	ipt_irq(t, 3);
	/* Off: the handler reaped, nothing was polled or masked. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->classic), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masks), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 0);
	/* A non-switchable instance cannot be switched off. */
	KUNIT_EXPECT_EQ(test, irq_poll_set_mode(&ipt_new(test, 8, &ipt_ops, 0)->iop,
						IRQ_POLL_MODE_OFF), -EINVAL);
}

struct ipt_hammer {
	struct ipt *t;
	int iterations;
	bool handler;		/* ipt_irq() rather than irq_poll_sched() */
};

static int ipt_hammer_thread(void *data)
{
	struct ipt_hammer *h = data;
	int i;

	/* Keep the load up until stopped; the cap only bounds a runaway. */
	for (i = 0; i < h->iterations && !kthread_should_stop(); i++) {
		if (h->handler) {
			ipt_irq(h->t, 1);
		} else {
			ipt_add(h->t, 1);
			ipt_sched_sync(h->t);
		}
		if (!(i % 32))
			usleep_range(20, 50);
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* Up to 4 scheduler threads, one per online CPU ("threads=N"). */
static int ipt_start_hammers(struct kunit *test, struct ipt_hammer *h,
			     struct task_struct **k, int iterations)
{
	int n = clamp_t(int, num_online_cpus(), 1, 4);
	int i;

	kunit_info(test, "threads=%d\n", n);
	h->iterations = iterations;
	for (i = 0; i < n; i++) {
		k[i] = kthread_run(ipt_hammer_thread, h, "ipt_hammer/%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(k[i]));
	}
	return n;
}

static void irq_poll_test_enable_disable_sched_race(struct kunit *test)
{
	struct ipt *t = ipt_new_legacy(test, 4);
	struct ipt_hammer h = { .t = t };
	struct task_struct *k[4];
	int i, n;

	n = ipt_start_hammers(test, &h, k, 1000000);
	for (i = 0; i < 50; i++) {
		irq_poll_disable(&t->iop);
		usleep_range(100, 300);
		irq_poll_enable(&t->iop);
		usleep_range(100, 300);
	}
	for (i = 0; i < n; i++)
		kthread_stop(k[i]);
	/* Without ops a late completion waits for the next schedule. */
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t) &&
					     !atomic_read(&t->queued)));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->overlaps), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped),
			atomic_read(&t->produced));
}

static const char * const ipt_modes[] = { "softirq", "threaded", "off" };

static void irq_poll_test_mode_switch_under_load(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 4, &ipt_ops, IRQ_POLL_CFG_SWITCHABLE);
	struct ipt_hammer h = { .t = t, .handler = true };
	struct task_struct *k[4];
	int i, n;

	n = ipt_start_hammers(test, &h, k, 1000000);
	/* 31 switches: ends in softirq mode. */
	for (i = 0; i < 31; i++) {
		const char *m = ipt_modes[i % ARRAY_SIZE(ipt_modes)];

		KUNIT_ASSERT_EQ(test, ipt_store(t, "mode", m), (int)strlen(m));
		usleep_range(1000, 2000);
	}
	for (i = 0; i < n; i++)
		kthread_stop(k[i]);
	/*
	 * Every completion reaped once, by a poll or by the handler, never
	 * by both at once, and none left behind in any mode.
	 */
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped),
			atomic_read(&t->produced));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->overlaps), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mixed), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->bad_ctx), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&t->thread_polls), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&t->softirq_polls), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&t->classic), 0);
}

static void irq_poll_test_threaded_polls_in_kthread(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, NULL, 0);

	KUNIT_ASSERT_EQ(test, irq_poll_set_mode(&t->iop,
						IRQ_POLL_MODE_THREADED), 0);
	KUNIT_EXPECT_STREQ(test, ipt_show(test, t, "mode"), "threaded\n");
	ipt_add(t, 5);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t) &&
					     atomic_read(&t->polls)));
	/* Polled by the kthread (BH disabled), not by the softirq. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->thread_polls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->softirq_polls), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 5);
}

static void irq_poll_test_reinit_stops_thread(struct kunit *test)
{
	struct irq_poll_config cfg = { .name = "kunit_reinit" };
	struct ipt *t = ipt_alloc(test);
	struct task_struct *old;

	KUNIT_ASSERT_EQ(test, irq_poll_init_named(&t->iop, &cfg, ipt_poll), 0);
	KUNIT_ASSERT_EQ(test, irq_poll_set_mode(&t->iop,
						IRQ_POLL_MODE_THREADED), 0);
	old = irq_poll_thread_of(&t->iop);
	KUNIT_ASSERT_NOT_NULL(test, old);
	get_task_struct(old);
	irq_poll_disable(&t->iop);
	/* A driver that re-initialises without irq_poll_destroy(). */
	cfg.name = "kunit_reinit2";
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&t->iop, &cfg, ipt_poll), 0);
	/* The old kthread was stopped, not leaked; the old name is free. */
	KUNIT_EXPECT_TRUE(test, ipt_wait_for(READ_ONCE(old->exit_state)));
	put_task_struct(old);
	KUNIT_EXPECT_NULL(test, irq_poll_thread_of(&t->iop));
	cfg.name = "kunit_reinit";
	{
		struct ipt *u = ipt_alloc(test);

		KUNIT_EXPECT_EQ(test, irq_poll_init_named(&u->iop, &cfg,
							  ipt_poll), 0);
	}
}

/* --- deferral ------------------------------------------------------------ */

static void ipt_set_defer(struct kunit *test, struct ipt *t, const char *n,
			  const char *ns)
{
	KUNIT_ASSERT_EQ(test, ipt_store(t, "defer_hard_irqs", n), (int)strlen(n));
	KUNIT_ASSERT_EQ(test, ipt_store(t, "flush_timeout_ns", ns),
			(int)strlen(ns));
}

static void irq_poll_test_deferral_fires_and_ends(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, &ipt_ops, 0);

	ipt_set_defer(test, t, "2", IPT_FLUSH_NS);
	ipt_add(t, 3);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t) &&
					     atomic_read(&t->done_true)));
	/*
	 * defer_hard_irqs=2: the poll with work defers, the first empty
	 * poll defers, the second empty poll unmasks.
	 */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 3);
	KUNIT_EXPECT_EQ(test, STAT(t, empty_polls), 2L);
	KUNIT_EXPECT_EQ(test, STAT(t, deferrals), 2L);
	KUNIT_EXPECT_EQ(test, STAT(t, scheduled), 3L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->done_false), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masks), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->unmasks), 1);
}

static void irq_poll_test_deferral_sched_overtakes(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, &ipt_ops, 0);

	/* 100 ms: far beyond the poll that follows. */
	ipt_set_defer(test, t, "1", "100000000");
	ipt_add(t, 1);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(atomic_read(&t->done_false)));
	KUNIT_EXPECT_FALSE(test, ipt_idle(t));
	/* An explicit schedule takes it from the timer and polls now. */
	KUNIT_EXPECT_TRUE(test, ipt_sched_sync(t));
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masks), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->unmasks), 1);
	/* And the timer, when it fires, finds nothing to do. */
	msleep(120);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 2);
}

static void irq_poll_test_deferral_disable(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, &ipt_ops, 0);

	ipt_set_defer(test, t, "1", "100000000");
	ipt_add(t, 1);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(atomic_read(&t->done_false)));
	/* Disable takes the instance from the timer, which never polls. */
	irq_poll_disable(&t->iop);
	msleep(120);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masked), 1);
	irq_poll_enable(&t->iop);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
}

static void irq_poll_test_deferral_short_timer(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, &ipt_ops, 0);
	int i;

	/*
	 * The shortest timer allowed expires, under emulation, while the
	 * poll that armed it is still on its way out.  Each round must
	 * still end polled, idle and unmasked.
	 */
	ipt_set_defer(test, t, "1", "10000");
	for (i = 0; i < 300; i++) {
		ipt_add(t, 1);
		ipt_sched_sync(t);
		if (!ipt_wait_for(ipt_settled(t) &&
				  atomic_read(&t->reaped) == i + 1)) {
			KUNIT_FAIL(test, "round %d: %d polls, state %#lx, masked %d",
				   i, atomic_read(&t->polls), t->iop.state,
				   atomic_read(&t->masked));
			break;
		}
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 300);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->overlaps), 0);
}

static void irq_poll_test_legacy_complete_no_deferral(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, &ipt_ops, 0);

	t->legacy_complete = true;
	ipt_set_defer(test, t, "5", IPT_FLUSH_NS);
	ipt_add(t, 3);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	/* irq_poll_complete() never defers: one poll, unmasked. */
	KUNIT_EXPECT_EQ(test, STAT(t, deferrals), 0L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->unmasks), 1);
}

/* --- adaptive mode ------------------------------------------------------ */

/*
 * The controller alone, against a fake device, in virtual time.  Either
 * completions arrive every @arrival_ns whatever the host does (a stream),
 * or @depth commands are in flight and each completes @service_ns after
 * the poll that reaped the one before it resubmitted it (a closed loop,
 * as a disk at a fixed queue depth).  After an unmask the next interrupt
 * comes with the next completion and the poll @turn_ns later; after a
 * deferral the timer polls when asked.  Each poll takes what arrived.
 * @busy: each interrupt takes the CPU from a task (the load is on the
 * CPU); otherwise the CPU idles between completions.
 */
struct ipt_rate {
	const char *desc;
	u64 arrival_ns;
	unsigned int depth;
	u64 service_ns;
	u64 turn_ns;
	bool can_park;
	bool defers;		/* must defer at least once */
	bool parks;		/* must end parked */
	u64 window_max_ns;	/* no deferral window longer than this */
	u64 window_mean_ns;	/* nor longer than this on average */
	bool busy;		/* each interrupt takes the CPU from a task */
};

static const struct ipt_rate ipt_rates[] = {
	{ "qd1-slow",	   200000, 0, 0,      20000, true,  false, true,  0, 0 },
	{ "qd1-slow-noswitch", 200000, 0, 0,  20000, false, false, false, 0, 0 },
	/*
	 * Streams: windows grow until they serve 16 per wake-up, not longer.
	 * At a fixed pace windows buy no throughput, so once the first trial
	 * pair found that, a switchable instance would park: these are not
	 * switchable (irq_poll_test_auto_parks_where_windows_lose parks one).
	 */
	{ "fast-burst",	   5000,   0, 0,      20000, false, true,  false,
	  80000, 80000 },
	{ "medium",	   12000,  0, 0,      20000, false, true,  false,
	  400000, 400000 },
	{ "just-below-turn", 25000, 0, 0,     20000, true,  false, true,  0, 0 },
	/*
	 * Closed loops: no window longer than about two turns of the loop,
	 * and on average about one and a half.  Windows cost the slow loop
	 * throughput and buy the deep one none, so on a switchable instance
	 * either parks once trial pairs found that
	 * (irq_poll_test_auto_parks_where_windows_lose): here they are not
	 * switchable.
	 */
	{ "depth1",	   0,	   1, 20000,  20000, true,  false, true,  0, 0 },
	{ "depth2",	   0,	   2, 20000,  20000, true,  true,  false,
	  100000, 60000 },
	{ "depth4-slow",   0,	   4, 200000, 20000, false, true,  false,
	  450000, 400000 },
	{ "depth32",	   0,	   32, 20000, 20000, false, true,  false,
	  20000, 20000 },
	/*
	 * Pairs, 410 us apart per completion: even the longest window would
	 * find nothing, so no deferral, and two per poll is no reason to park.
	 */
	{ "depth2-sparse", 0,	   2, 800000, 20000, true,  false, false, 0, 0 },
	/*
	 * One completion per interrupt, each taking the CPU from a task: on
	 * an instance that cannot park, windows are tried (and, at a fixed
	 * pace, found not to pay); a switchable one parks instead, and an
	 * idle CPU between completions (low load) never defers one.
	 */
	{ "lone-busy-noswitch", 150000, 0, 0, 20000, false, true, false,
	  500000, 500000, true },
	{ "lone-busy",	   150000, 0, 0,      20000, true,  false, true,  0, 0,
	  true },
	{ "lone-idle-noswitch", 150000, 0, 0, 20000, false, false, false, 0, 0,
	  false },
};

static void ipt_rate_desc(const struct ipt_rate *r, char *desc)
{
	if (r->depth)
		snprintf(desc, KUNIT_PARAM_DESC_SIZE,
			 "%s: %u in flight, each %llu us, poll %llu us after an IRQ%s",
			 r->desc, r->depth, r->service_ns / 1000,
			 r->turn_ns / 1000, r->busy ? ", CPU busy" : "");
	else
		snprintf(desc, KUNIT_PARAM_DESC_SIZE,
			 "%s: a completion every %llu us, poll %llu us after an IRQ%s",
			 r->desc, r->arrival_ns / 1000, r->turn_ns / 1000,
			 r->busy ? ", CPU busy" : "");
}

KUNIT_ARRAY_PARAM(ipt_rate, ipt_rates, ipt_rate_desc);

#define IPT_DEPTH_MAX	32

/* The fake device of ipt_rates: when does the next completion come? */
static u64 ipt_rate_next(const struct ipt_rate *r, const u64 *done_at, u64 now)
{
	u64 next = U64_MAX;
	unsigned int i;

	if (!r->depth)
		return (div64_u64(now, r->arrival_ns) + 1) * r->arrival_ns;
	for (i = 0; i < r->depth; i++)
		next = min(next, done_at[i]);
	return max(next, now);
}

/* Reap what completed by @now; in a closed loop, resubmit it. */
static int ipt_rate_reap(const struct ipt_rate *r, u64 *done_at, u64 now,
			 u64 *reaped)
{
	unsigned int i;
	u64 arrived;
	int work = 0;

	if (!r->depth) {
		arrived = div64_u64(now, r->arrival_ns);
		work = arrived - *reaped;
		*reaped = arrived;
		return work;
	}
	for (i = 0; i < r->depth; i++) {
		if (done_at[i] <= now) {
			done_at[i] = now + r->service_ns;
			work++;
		}
	}
	return work;
}

/*
 * The fake device's next poll after verdict @v: at the end of the window
 * if @v deferred, else after the next interrupt.  Advances @now; returns
 * what the poll reaps.
 */
static int ipt_rate_poll(const struct ipt_rate *r, u64 *done_at, u64 *now,
			 u64 *reaped, enum irq_poll_auto_verdict v, u32 timeout)
{
	if (v == IRQ_POLL_AUTO_DEFER)
		*now += timeout;
	else	/* Unmasked (or parked): the next completion interrupts. */
		*now = ipt_rate_next(r, done_at, *now) + r->turn_ns;
	return ipt_rate_reap(r, done_at, *now, reaped);
}

static void irq_poll_test_auto_controller(struct kunit *test)
{
	const struct ipt_rate *r = test->param_value;
	struct irq_poll_auto a = {};
	enum irq_poll_auto_verdict v = IRQ_POLL_AUTO_IDLE;
	u64 done_at[IPT_DEPTH_MAX];
	u64 now = 0, reaped = 0, windows = 0;
	int i, defers = 0, bad_single = 0, bad_timeout = 0;
	bool deferred = false;
	u32 timeout = 0, longest = 0;

	KUNIT_ASSERT_LE(test, r->depth, IPT_DEPTH_MAX);
	for (i = 0; i < r->depth; i++)
		done_at[i] = r->service_ns;
	irq_poll_auto_reset(&a);
	for (i = 0; i < 400; i++) {
		int work = ipt_rate_poll(r, done_at, &now, &reaped, v, timeout);

		v = irq_poll_auto_step(&a, now, work, r->can_park, r->busy,
				       &timeout);
		if (v == IRQ_POLL_AUTO_DEFER) {
			defers++;
			longest = max(longest, timeout);
			windows += timeout;
			/*
			 * One completion goes on with a chain, and starts one
			 * only on a busy CPU where the instance cannot park.
			 */
			if (!work || (work == 1 && !deferred &&
				      (r->can_park || !r->busy)))
				bad_single++;
			if (timeout < 10000 || timeout > 500000)
				bad_timeout++;
		}
		deferred = v == IRQ_POLL_AUTO_DEFER;
		/* A parked instance stays parked in this model. */
		if (v == IRQ_POLL_AUTO_PARK)
			break;
	}
	/*
	 * Never defers for a poll that found none, nor for one that found one
	 * unless it ended a window or the CPU was busy (see above).
	 */
	KUNIT_EXPECT_EQ(test, bad_single, 0);
	KUNIT_EXPECT_EQ(test, bad_timeout, 0);
	KUNIT_EXPECT_EQ_MSG(test, defers > 0, r->defers, "%d deferrals", defers);
	if (r->defers && defers) {
		KUNIT_EXPECT_LE(test, (u64)longest, r->window_max_ns);
		KUNIT_EXPECT_LE(test, div_u64(windows, defers), r->window_mean_ns);
	}
	KUNIT_EXPECT_EQ_MSG(test, v == IRQ_POLL_AUTO_PARK, r->parks,
			    "last verdict %d after %d polls", v, i);
	if (r->parks)
		/* Parks once warm, not before: 8 polls of one completion. */
		KUNIT_EXPECT_EQ(test, i, 7);
}

/*
 * A steady stream that polls find one or two of at a time, as under QEMU's
 * TCG: windows grow while they fill, up to the longest, and then serve
 * four or more completions per wake-up.  When the stream thins out, the
 * windows shorten until they end, and the instance parks, but only some
 * time after its last deferral.  The rules for windows, under a verdict
 * for them.
 */
static void irq_poll_test_auto_windows_grow(struct kunit *test)
{
	struct irq_poll_auto a = {};
	enum irq_poll_auto_verdict v;
	u64 now = 0, reaped = 0, arrived;
	u32 timeout = 0;
	int i, work, wakes = 0, total = 0;

	irq_poll_auto_reset(&a);
	/* Windows pay here: no trial pair cuts the chain short. */
	irq_poll_auto_follow(&a, true);
	/* A completion every 100 us, polled 20 us after its interrupt... */
	for (i = 1; i <= 4; i++) {
		now = i * 100000ULL + 20000;
		v = irq_poll_auto_step(&a, now, 1, false, false, &timeout);
		KUNIT_ASSERT_EQ(test, v, IRQ_POLL_AUTO_IDLE);
	}
	/* ...until a poll finds two: the first window, 4 x 100 us. */
	now = 6 * 100000ULL + 20000;
	reaped = 6;
	v = irq_poll_auto_step(&a, now, 2, false, false, &timeout);
	KUNIT_ASSERT_EQ(test, v, IRQ_POLL_AUTO_DEFER);
	KUNIT_EXPECT_GE(test, timeout, 300000U);
	for (i = 0; i < 50 && v == IRQ_POLL_AUTO_DEFER; i++) {
		now += timeout;
		arrived = div64_u64(now, 100000);
		work = arrived - reaped;
		reaped = arrived;
		v = irq_poll_auto_step(&a, now, work, false, false, &timeout);
		if (i >= 10) {
			wakes++;
			total += work;
		}
	}
	KUNIT_EXPECT_EQ(test, v, IRQ_POLL_AUTO_DEFER);
	KUNIT_EXPECT_EQ(test, timeout, 500000U);
	KUNIT_EXPECT_GE_MSG(test, total, 4 * wakes, "%d completions, %d wake-ups",
			    total, wakes);

	/*
	 * The stream thins out to one completion per window: the chain goes
	 * on, each window half as long as the one before, down to 10 us; a
	 * window of 10 us that finds one ends it.
	 */
	for (i = 0; i < 10 && v == IRQ_POLL_AUTO_DEFER; i++) {
		u32 last = timeout;

		now += timeout;
		v = irq_poll_auto_step(&a, now, 1, false, false, &timeout);
		if (v == IRQ_POLL_AUTO_DEFER)
			KUNIT_EXPECT_EQ(test, timeout, max(last / 2, 10000U));
	}
	KUNIT_EXPECT_EQ(test, v, IRQ_POLL_AUTO_IDLE);
	/* 500, 250, 125, 62.5, 31.25, 15.625 and 10 us */
	KUNIT_EXPECT_EQ(test, i, 7);

	/*
	 * Then one completion per interrupt: a switchable instance is not
	 * parked within 64 polls of its last deferral (the poll that ended
	 * the chain was the first), and then it is.
	 */
	for (i = 2; i <= 64; i++) {
		now += 100000;
		v = irq_poll_auto_step(&a, now, 1, true, false, &timeout);
		if (v != IRQ_POLL_AUTO_IDLE)
			break;
	}
	KUNIT_EXPECT_EQ(test, v, IRQ_POLL_AUTO_PARK);
	KUNIT_EXPECT_EQ(test, i, 64);
}

/*
 * Reset @a and start a chain of windows: four polls that find one
 * completion each, @gap_ns apart, then one that finds two after twice
 * that.  Its verdict must be a window.
 */
static void ipt_auto_open_chain(struct kunit *test, struct irq_poll_auto *a,
				u64 *now, u64 gap_ns, bool can_park,
				u32 *timeout)
{
	enum irq_poll_auto_verdict v;
	int i;

	irq_poll_auto_reset(a);
	for (i = 0; i < 4; i++) {
		*now += gap_ns;
		irq_poll_auto_step(a, *now, 1, can_park, false, timeout);
	}
	*now += 2 * gap_ns;
	v = irq_poll_auto_step(a, *now, 2, can_park, false, timeout);
	KUNIT_ASSERT_EQ(test, v, IRQ_POLL_AUTO_DEFER);
}

/*
 * Windows that find 14 and 8 completions in turn, as chance has it under
 * a steady load of about one completion every 50 us: the chain's average
 * rate holds, so the windows keep their length (against the last window
 * alone, each that found 8 would look slow and be halved).
 */
static void irq_poll_test_auto_noisy_windows(struct kunit *test)
{
	struct irq_poll_auto a = {};
	enum irq_poll_auto_verdict v;
	u32 timeout = 0;
	u64 now = 0;
	int i, work;

	ipt_auto_open_chain(test, &a, &now, 50000, false, &timeout);
	/* Windows pay here: no trial pair cuts the chain short. */
	irq_poll_auto_follow(&a, true);
	/* Windows fill at that rate and grow to 500 us... */
	for (i = 0; i < 4; i++) {
		now += timeout;
		v = irq_poll_auto_step(&a, now, timeout / 50000, false, false,
				       &timeout);
		KUNIT_ASSERT_EQ(test, v, IRQ_POLL_AUTO_DEFER);
	}
	KUNIT_ASSERT_EQ(test, timeout, 500000U);
	/* ...and keep that length while they find 14 and 8 in turn. */
	for (i = 0; i < 30; i++) {
		work = i % 2 ? 8 : 14;
		now += timeout;
		v = irq_poll_auto_step(&a, now, work, false, false, &timeout);
		KUNIT_EXPECT_EQ(test, v, IRQ_POLL_AUTO_DEFER);
		KUNIT_EXPECT_EQ_MSG(test, timeout, 500000U, "window %d", i);
	}
}

/*
 * Completions in bursts: a long wait for one, then five at once.  Per
 * completion they come about 110 us apart, often enough for a window to
 * pay; the time between polls, averaged per poll, would say about 260 us,
 * too far apart.  The instance must defer.
 */
static void irq_poll_test_auto_bursty_rate(struct kunit *test)
{
	struct irq_poll_auto a = {};
	enum irq_poll_auto_verdict v = IRQ_POLL_AUTO_IDLE;
	u32 timeout = 0;
	u64 now = 0;
	int i;

	irq_poll_auto_reset(&a);
	/* One at a time, 600 us apart: too sparse to defer. */
	for (i = 0; i < 4; i++) {
		now += 600000;
		v = irq_poll_auto_step(&a, now, 1, false, false, &timeout);
		KUNIT_ASSERT_EQ(test, v, IRQ_POLL_AUTO_IDLE);
	}
	/* Then one after 600 us and five 40 us later, over and over. */
	for (i = 0; i < 20 && v != IRQ_POLL_AUTO_DEFER; i++) {
		now += 600000;
		v = irq_poll_auto_step(&a, now, 1, false, false, &timeout);
		KUNIT_ASSERT_EQ(test, v, IRQ_POLL_AUTO_IDLE);
		now += 40000;
		v = irq_poll_auto_step(&a, now, 5, false, false, &timeout);
	}
	KUNIT_EXPECT_EQ_MSG(test, v, IRQ_POLL_AUTO_DEFER, "after %d bursts", i);
}

/*
 * Whether windows pay is measured, not guessed, and they must buy
 * throughput.  Four commands of 200 us in flight: a window as long as the
 * gaps suggest holds back a whole command's time, and the disk idles
 * meanwhile, so the mode must stop opening windows and then keep up with
 * polling on every interrupt.  A stream at a fixed rate is neither slowed
 * down nor sped up by windows: they would only hold its completions back,
 * so they do not open either (but see irq_poll_test_auto_windows_that_pay).
 */
static const struct ipt_rate ipt_pay_rates[] = {
	{ "closed-loop", 0, 4, 200000, 20000, false, false, false, 0, 0 },
	{ "stream",	 12000, 0, 0,  20000, false, false, false, 0, 0 },
};

KUNIT_ARRAY_PARAM(ipt_pay_rate, ipt_pay_rates, ipt_rate_desc);

/*
 * The fake device of ipt_rates on a parked instance: its driver reaps at
 * every interrupt, up to the 256th, which is polled on trial.  Advances
 * @now; returns what the driver reaped.
 */
static int ipt_rate_parked(struct irq_poll_auto *a, const struct ipt_rate *r,
			   u64 *done_at, u64 *now, u64 *reaped)
{
	int i, work = 0;

	for (i = 1; i < 256; i++) {
		*now = ipt_rate_next(r, done_at, *now) + r->turn_ns;
		work += ipt_rate_reap(r, done_at, *now, reaped);
	}
	irq_poll_auto_trial(a);
	return work;
}

/* What ipt_pay_run() counted */
struct ipt_pay_count {
	u64 span_ns;	/* the virtual time counted */
	int done;	/* completions, polled or reaped by the parked driver */
	int polls;
	int defers;
	int parks;
};

/*
 * The controller against a load of ipt_pay_rates for 8000 polls, the
 * second half counted into @c: the verdict is in by then.  A parked
 * instance is modelled by ipt_rate_parked(); only one that @can_park may
 * park.
 */
static void ipt_pay_run(struct kunit *test, const struct ipt_rate *r,
			bool can_park, struct ipt_pay_count *c)
{
	struct irq_poll_auto a = {};
	enum irq_poll_auto_verdict v = IRQ_POLL_AUTO_IDLE;
	u64 done_at[IPT_DEPTH_MAX];
	u64 now = 0, reaped = 0, start = 0;
	u32 timeout = 0;
	int i, work;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < r->depth; i++)
		done_at[i] = r->service_ns;
	irq_poll_auto_reset(&a);
	for (i = 0; i < 8000; i++) {
		if (v == IRQ_POLL_AUTO_PARK) {
			KUNIT_ASSERT_TRUE(test, can_park);
			c->parks++;
			c->done += ipt_rate_parked(&a, r, done_at, &now,
						   &reaped);
		}
		work = ipt_rate_poll(r, done_at, &now, &reaped, v, timeout);
		v = irq_poll_auto_step(&a, now, work, can_park, r->busy,
				       &timeout);
		c->done += work;
		c->polls++;
		if (v == IRQ_POLL_AUTO_DEFER)
			c->defers++;
		if (i == 4000) {
			start = now;
			memset(c, 0, sizeof(*c));
		}
	}
	c->span_ns = now - start;
	KUNIT_ASSERT_GT(test, c->done, 0);
}

/*
 * Reaped at every interrupt (polled or parked), the closed loop completes
 * depth commands per service and turn time: true if @c kept at least 95%
 * of that.
 */
static bool ipt_pay_kept_pace(const struct ipt_rate *r,
			      const struct ipt_pay_count *c)
{
	return 100ULL * c->done * (r->service_ns + r->turn_ns) >=
	       95ULL * r->depth * c->span_ns;
}

static void irq_poll_test_auto_measures_pay(struct kunit *test)
{
	const struct ipt_rate *r = test->param_value;
	struct ipt_pay_count c;

	ipt_pay_run(test, r, false, &c);
	/* Trial pairs cost the last 5% (windows: 67% of the loop's pace). */
	KUNIT_EXPECT_TRUE_MSG(test, ipt_pay_kept_pace(r, &c),
			      "%d completions in %llu ns", c.done, c.span_ns);
	/* Windows only in trial epochs: one poll in eight or fewer defers. */
	KUNIT_EXPECT_LE_MSG(test, 8 * c.defers, c.polls,
			    "%d deferrals in %d polls", c.defers, c.polls);
	KUNIT_EXPECT_LE_MSG(test, 16 * c.defers, c.done,
			    "%d deferrals for %d completions", c.defers, c.done);
}

/*
 * The loads of irq_poll_test_auto_measures_pay on a switchable instance.
 * The closed loop's polls find four completions each, but once trial
 * pairs found that windows cost it throughput, it is parked: its driver's
 * handler reaps the four as well, without masking, a softirq and
 * unmasking.  After a trial it parks again, unless a trial pair is due.
 * So is the stream, which windows do not speed up.
 */
static void irq_poll_test_auto_parks_where_windows_lose(struct kunit *test)
{
	const struct ipt_rate *r = test->param_value;
	struct ipt_pay_count c;

	ipt_pay_run(test, r, true, &c);
	kunit_info(test, "%d completions, %d polls, %d parks\n", c.done,
		   c.polls, c.parks);
	KUNIT_EXPECT_GT(test, c.parks, 0);
	KUNIT_EXPECT_LE_MSG(test, 16 * c.polls, c.done,
			    "%d polls for %d completions", c.polls, c.done);
	KUNIT_EXPECT_TRUE_MSG(test, ipt_pay_kept_pace(r, &c),
			      "%d completions in %llu ns", c.done, c.span_ns);
}

/*
 * A stream the CPU sets the pace of: the wake-ups a window saves go to the
 * load, which completes one every @windowed_ns while windows are open and
 * every @polled_ns while each completion interrupts.
 */
struct ipt_cpu_pace {
	u64 polled_ns;
	u64 windowed_ns;
};

/*
 * A deep queue that the device serves faster than the CPU reaps and
 * resubmits: a command every 12 us with windows, every 14 us without.
 */
static const struct ipt_cpu_pace ipt_cpu_deep = { 14000, 12000 };

/*
 * The next poll after verdict @v on a stream at @pace, at the end of the
 * window or 20 us after the next completion (@next) interrupts.  Advances
 * @now and @next; returns what the poll reaps.
 */
static int ipt_cpu_poll(const struct ipt_cpu_pace *pace, u64 *next, u64 *now,
			enum irq_poll_auto_verdict v, u32 timeout)
{
	u64 each = pace->polled_ns;
	int work = 0;

	if (v == IRQ_POLL_AUTO_DEFER) {
		*now += timeout;
		each = pace->windowed_ns;
	} else {
		*now = max(*now, *next) + 20000;
	}
	for (; *next <= *now; *next += each)
		work++;
	return work;
}

/*
 * Windows that buy throughput stay: past the first trial pairs, the
 * stream of ipt_cpu_poll() is served by windows in all but the trial
 * epochs without, and a switchable instance is never parked.
 */
static void irq_poll_test_auto_windows_that_pay(struct kunit *test)
{
	struct irq_poll_auto a = {};
	enum irq_poll_auto_verdict v = IRQ_POLL_AUTO_IDLE;
	u64 now = 0, next = ipt_cpu_deep.polled_ns;
	int i, work, done = 0, polls = 0, defers = 0;
	u32 timeout = 0;

	irq_poll_auto_reset(&a);
	for (i = 0; i < 8000; i++) {
		work = ipt_cpu_poll(&ipt_cpu_deep, &next, &now, v, timeout);
		v = irq_poll_auto_step(&a, now, work, true, false, &timeout);
		KUNIT_ASSERT_NE(test, v, IRQ_POLL_AUTO_PARK);
		if (i < 4000)
			continue;
		done += work;
		polls++;
		if (v == IRQ_POLL_AUTO_DEFER)
			defers++;
	}
	KUNIT_EXPECT_GT(test, defers, 0);
	KUNIT_EXPECT_LE_MSG(test, 8 * polls, done,
			    "%d wake-ups for %d completions", polls, done);
}

/*
 * A stream that interrupts once per completion, each taking the CPU from
 * the load, such as a NIC receiving TCP segments under QEMU: one every
 * 150 us while each interrupts, every 110 us while windows batch them.
 * Run @polls polls from a reset, or until the instance parks; count the
 * second half into @done and @wakes (polls).  Returns all deferrals.
 */
static const struct ipt_cpu_pace ipt_cpu_lone = { 150000, 110000 };

static int ipt_lone_run(struct kunit *test, bool can_park, bool busy,
			int polls, int *done, int *wakes)
{
	struct irq_poll_auto a = {};
	enum irq_poll_auto_verdict v = IRQ_POLL_AUTO_IDLE;
	u64 now = 0, next = ipt_cpu_lone.polled_ns;
	int i, work, defers = 0;
	u32 timeout = 0;

	*done = 0;
	*wakes = 0;
	irq_poll_auto_reset(&a);
	for (i = 0; i < polls; i++) {
		work = ipt_cpu_poll(&ipt_cpu_lone, &next, &now, v, timeout);
		v = irq_poll_auto_step(&a, now, work, can_park, busy, &timeout);
		if (!can_park)
			KUNIT_ASSERT_NE(test, v, IRQ_POLL_AUTO_PARK);
		/* A parked instance stays parked in this model. */
		if (v == IRQ_POLL_AUTO_PARK)
			break;
		if (v == IRQ_POLL_AUTO_DEFER)
			defers++;
		if (i < polls / 2)
			continue;
		*done += work;
		(*wakes)++;
	}
	return defers;
}

/*
 * There windows pay though every poll after an interrupt finds one: on an
 * instance that cannot park, past the first trial pairs, windows serve
 * three or more completions per wake-up.  Not on an idle CPU, though, nor
 * on a switchable instance, which parks instead.
 */
static void irq_poll_test_auto_lone_windows_that_pay(struct kunit *test)
{
	int done, wakes, defers;

	defers = ipt_lone_run(test, false, true, 4000, &done, &wakes);
	KUNIT_EXPECT_GT(test, defers, 0);
	KUNIT_EXPECT_LE_MSG(test, 3 * wakes, done,
			    "%d wake-ups for %d completions", wakes, done);

	defers = ipt_lone_run(test, false, false, 4000, &done, &wakes);
	KUNIT_EXPECT_EQ(test, defers, 0);
	KUNIT_EXPECT_EQ(test, done, wakes);

	defers = ipt_lone_run(test, true, true, 4000, &done, &wakes);
	KUNIT_EXPECT_EQ(test, defers, 0);
}

/*
 * A few commands in flight on a busy CPU, as mptsas at a depth of 4 under
 * QEMU: the CPU takes their interrupts late, so polls find two at a time,
 * and the load's pace is the CPU's.  A pair completes every @polled_ns
 * while each interrupts and every @windowed_ns while windows hold the
 * device masked.  Per completion the pairs come 400 and 480 us apart
 * without windows, too sparse for the rule of two per window, yet windows
 * double the pace.
 */
static const struct ipt_cpu_pace ipt_cpu_pairs[] = {
	{ 800000, 400000 },
	{ 960000, 480000 },
};

/*
 * The next poll of the loop of ipt_cpu_pairs after verdict @v: at the end
 * of the window if @v deferred, else 20 us after the next pair
 * interrupts.  @progress counts the loop's work in time at the pace
 * without windows; it runs faster while the device is masked.  Advances
 * @now; returns what the poll reaps.
 */
static int ipt_pairs_poll(const struct ipt_cpu_pace *pace, u64 *progress,
			  u64 *now, enum irq_poll_auto_verdict v, u32 timeout)
{
	u64 before = div64_u64(*progress, pace->polled_ns), rem;

	if (v == IRQ_POLL_AUTO_DEFER) {
		*now += timeout;
		*progress += div64_u64((u64)timeout * pace->polled_ns,
				       pace->windowed_ns);
	} else {
		div64_u64_rem(*progress, pace->polled_ns, &rem);
		*now += pace->polled_ns - rem + 20000;
		*progress += pace->polled_ns - rem + 20000;
	}
	return 2 * (div64_u64(*progress, pace->polled_ns) - before);
}

/*
 * Run 8000 polls of @pace from a reset on a switchable instance, the CPU
 * @busy; count the second half.  True if that half kept 1.7 times the
 * pace without windows.  @defers: deferrals in all.
 */
static bool ipt_pairs_run(struct kunit *test, const struct ipt_cpu_pace *pace,
			  bool busy, int *defers)
{
	struct irq_poll_auto a = {};
	enum irq_poll_auto_verdict v = IRQ_POLL_AUTO_IDLE;
	u64 now = 0, progress = 0, start = 0;
	u32 timeout = 0;
	int i, work, done = 0;

	*defers = 0;
	irq_poll_auto_reset(&a);
	for (i = 0; i < 8000; i++) {
		work = ipt_pairs_poll(pace, &progress, &now, v, timeout);
		v = irq_poll_auto_step(&a, now, work, true, busy, &timeout);
		/* A parked instance would reap the same pairs: stop there. */
		if (v == IRQ_POLL_AUTO_PARK)
			break;
		if (v == IRQ_POLL_AUTO_DEFER)
			(*defers)++;
		if (i == 4000)
			start = now;
		else if (i > 4000)
			done += work;
	}
	kunit_info(test, "%llu us per pair: %d completions in %llu ms, %d deferrals\n",
		   div_u64(pace->polled_ns, 1000), done,
		   div_u64(now - start, 1000000), *defers);
	return i == 8000 && 10ULL * done * pace->polled_ns >=
			    17ULL * 2 * (now - start);
}

/*
 * On a busy CPU, windows are tried at gaps of up to 500 us, and where
 * they speed the load up they stay: the trial pairs find it at 2000
 * completions a second too.  On an idle CPU the completions are as sparse
 * as they look: no window.
 */
static void irq_poll_test_auto_busy_pairs(struct kunit *test)
{
	int i, defers;

	for (i = 0; i < ARRAY_SIZE(ipt_cpu_pairs); i++) {
		KUNIT_EXPECT_TRUE(test, ipt_pairs_run(test, &ipt_cpu_pairs[i],
						      true, &defers));
		KUNIT_EXPECT_GT(test, defers, 0);
		ipt_pairs_run(test, &ipt_cpu_pairs[i], false, &defers);
		KUNIT_EXPECT_EQ(test, defers, 0);
	}
}

/*
 * Windows of 500 us that find three, one, two and one completions in
 * turn, as chance has it with a few commands in flight, where interrupts
 * delivered one every 400 us: the chain's windows find 1.75 on average,
 * so one that found a single completion keeps its length.  When they
 * find one after another, the chain's average falls below 1.5, the
 * windows are halved and the chain ends.
 */
static void irq_poll_test_auto_windows_hold(struct kunit *test)
{
	static const int finds[] = { 3, 1, 2, 1 };
	struct irq_poll_auto a = {};
	enum irq_poll_auto_verdict v;
	u32 timeout = 0;
	u64 now = 0;
	int i;

	irq_poll_auto_reset(&a);
	/* Windows pay here: no trial pair cuts the chain short. */
	irq_poll_auto_follow(&a, true);
	/* One completion every 400 us, then two: a window of 500 us. */
	for (i = 0; i < 4; i++) {
		now += 400000;
		irq_poll_auto_step(&a, now, 1, true, true, &timeout);
	}
	now += 800000;
	v = irq_poll_auto_step(&a, now, 2, true, true, &timeout);
	KUNIT_ASSERT_EQ(test, v, IRQ_POLL_AUTO_DEFER);
	KUNIT_ASSERT_EQ(test, timeout, 500000U);
	for (i = 0; i < 24; i++) {
		now += timeout;
		v = irq_poll_auto_step(&a, now, finds[i % 4], true, false,
				       &timeout);
		KUNIT_EXPECT_EQ(test, v, IRQ_POLL_AUTO_DEFER);
		KUNIT_EXPECT_EQ_MSG(test, timeout, 500000U, "window %d", i);
	}
	for (i = 0; i < 16 && v == IRQ_POLL_AUTO_DEFER; i++) {
		now += timeout;
		v = irq_poll_auto_step(&a, now, 1, true, false, &timeout);
	}
	KUNIT_EXPECT_EQ(test, v, IRQ_POLL_AUTO_IDLE);
	KUNIT_EXPECT_LE(test, i, 12);
}

/*
 * A trial pair must not take a load's drift for the windows' effect.  The
 * stream of irq_poll_test_auto_lone_windows_that_pay (a completion every
 * 110 us while windows are open, every 150 us without) speeds up all the
 * while, its rate doubling every 100 ms, as a TCP stream's pace can swing
 * within a pair.  Both arms see the same stretches of it, so the first
 * verdict is the one without drift: for windows, at about 150/110 (1396
 * in 1/1024).  A pair of two epochs in a row saw the drift as the effect
 * of the arm that came second, the one without windows (1017: against).
 */
static void irq_poll_test_auto_pair_under_drift(struct kunit *test)
{
	struct irq_poll_auto a = {};
	enum irq_poll_auto_verdict v = IRQ_POLL_AUTO_IDLE;
	u64 now = 0, next = ipt_cpu_lone.polled_ns, each;
	u32 timeout = 0;
	int i, work;

	irq_poll_auto_reset(&a);
	for (i = 0; i < 100000 && !a.pay_x1024; i++) {
		if (v == IRQ_POLL_AUTO_DEFER) {
			now += timeout;
			each = ipt_cpu_lone.windowed_ns;
		} else {
			now = max(now, next) + 20000;
			each = ipt_cpu_lone.polled_ns;
		}
		/* The gap at time t: each / (1 + t / 100 ms). */
		for (work = 0; next <= now; work++)
			next += div64_u64(each * 100000000ULL,
					  100000000ULL + next);
		v = irq_poll_auto_step(&a, now, work, false, true, &timeout);
	}
	KUNIT_EXPECT_TRUE(test, a.pays);
	KUNIT_EXPECT_GE(test, a.pay_x1024, 1300U);
}

/*
 * The closed loop of irq_poll_test_auto_measures_pay from a switch on @a
 * until @to epochs of 512 completions are done; the instance must not
 * park (it is not switchable).  Returns the deferrals from epoch @from
 * on, and the completions from then in @counted.
 */
static int ipt_closed_loop(struct kunit *test, struct irq_poll_auto *a,
			   int from, int to, int *counted)
{
	const struct ipt_rate *r = &ipt_pay_rates[0];
	enum irq_poll_auto_verdict v = IRQ_POLL_AUTO_IDLE;
	u64 done_at[IPT_DEPTH_MAX];
	u64 now = 0, reaped = 0;
	int i, work, done = 0, defers = 0;
	u32 timeout = 0;

	*counted = 0;
	for (i = 0; i < r->depth; i++)
		done_at[i] = r->service_ns;
	irq_poll_auto_reset(a);
	while (done < to * 512) {
		work = ipt_rate_poll(r, done_at, &now, &reaped, v, timeout);
		v = irq_poll_auto_step(a, now, work, r->can_park, r->busy,
				       &timeout);
		KUNIT_ASSERT_NE(test, v, IRQ_POLL_AUTO_PARK);
		done += work;
		if (done < from * 512)
			continue;
		*counted += work;
		if (v == IRQ_POLL_AUTO_DEFER)
			defers++;
	}
	return defers;
}

/*
 * That closed loop right after a switch: in its first 24 epochs, windows
 * open only in the first trial pair and in the one that confirms its
 * verdict against them 8 epochs later, about 128 deferrals each.  Were
 * that verdict put to the test again after 2 epochs, as one for windows
 * is, four pairs would open them.
 */
static void irq_poll_test_auto_few_trials_after_switch(struct kunit *test)
{
	struct irq_poll_auto a = {};
	int done, defers;

	defers = ipt_closed_loop(test, &a, 0, 24, &done);
	/* The first pair tried windows; then few more did. */
	KUNIT_EXPECT_GT(test, defers, 0);
	KUNIT_EXPECT_LE_MSG(test, 32 * defers, done,
			    "%d deferrals for %d completions", defers, done);
}

/*
 * The same closed loop long after the switch: once pairs confirmed the
 * verdict against windows, they open in one epoch in 130, not in 34 as
 * they would were that verdict held for no longer than one for them.
 * Counted from epoch 300 to 600, past the stretch's doublings to 128: 2
 * or 3 trial pairs, about 128 deferrals each (9 pairs with a cap of 32).
 */
static void irq_poll_test_auto_rare_trials_where_windows_lose(struct kunit *test)
{
	struct irq_poll_auto a = {};
	int counted, defers;

	defers = ipt_closed_loop(test, &a, 300, 600, &counted);
	KUNIT_EXPECT_FALSE(test, a.pays);
	/* Trial pairs still come, */
	KUNIT_EXPECT_GT(test, defers, 0);
	/* but rarely: at most one deferral per 256 completions. */
	KUNIT_EXPECT_LE_MSG(test, 256 * defers, counted,
			    "%d deferrals for %d completions", defers, counted);
}

/*
 * Windows that paid, past the first trial pairs (the stream of
 * ipt_cpu_poll() until 1000 deferrals), and then one completion per
 * interrupt: as in irq_poll_test_auto_windows_grow, the instance parks 64
 * polls after its last deferral, not as soon as the polls find one, also
 * when no trial pair is running.
 */
static void irq_poll_test_auto_parks_late_after_trials(struct kunit *test)
{
	struct irq_poll_auto a = {};
	enum irq_poll_auto_verdict v = IRQ_POLL_AUTO_IDLE;
	u64 now = 0, next = ipt_cpu_deep.polled_ns;
	int i, work, defers = 0, since;
	u32 timeout = 0;

	irq_poll_auto_reset(&a);
	for (i = 0; i < 20000 && defers < 1000; i++) {
		work = ipt_cpu_poll(&ipt_cpu_deep, &next, &now, v, timeout);
		v = irq_poll_auto_step(&a, now, work, true, false, &timeout);
		KUNIT_ASSERT_NE(test, v, IRQ_POLL_AUTO_PARK);
		if (v == IRQ_POLL_AUTO_DEFER)
			defers++;
	}
	KUNIT_ASSERT_EQ(test, defers, 1000);
	/* Windows that find one go on, halved, until one of 10 us does. */
	for (i = 0, since = 0; i < 200 && v != IRQ_POLL_AUTO_PARK; i++) {
		now += v == IRQ_POLL_AUTO_DEFER ? timeout : 200000;
		v = irq_poll_auto_step(&a, now, 1, true, false, &timeout);
		since = v == IRQ_POLL_AUTO_DEFER ? 0 : since + 1;
	}
	KUNIT_EXPECT_EQ(test, v, IRQ_POLL_AUTO_PARK);
	KUNIT_EXPECT_EQ(test, since, 64);
}

/*
 * A parked instance whose windows paid gets a trial of 64 polls, time for
 * a poll that finds two to open a window again (where only windows batch,
 * polls after an interrupt find one completion most of the time); a trial
 * that opened none is back to 8 polls, as for one command in flight.
 */
static void irq_poll_test_auto_long_trial_after_windows(struct kunit *test)
{
	struct irq_poll_auto a = {};
	enum irq_poll_auto_verdict v;
	u32 timeout = 0;
	u64 now = 0;
	int i, trial;

	ipt_auto_open_chain(test, &a, &now, 20000, true, &timeout);
	KUNIT_ASSERT_TRUE(test, a.pays);
	for (trial = 0; trial < 2; trial++) {
		/* Parked later on; a trial finds one completion a poll. */
		now += 10000000;
		irq_poll_auto_trial(&a);
		for (i = 1; i <= 100; i++) {
			now += 20000;
			v = irq_poll_auto_step(&a, now, 1, true, false,
					       &timeout);
			if (v != IRQ_POLL_AUTO_IDLE)
				break;
		}
		KUNIT_EXPECT_EQ(test, v, IRQ_POLL_AUTO_PARK);
		KUNIT_EXPECT_EQ(test, i, trial ? 8 : 64);
	}
}

/*
 * A trial pair's epoch without windows is seen through although its polls
 * find one completion each, as where only windows batch (a completion
 * every 10 us while windows are open, one every 20 us without, each
 * polled after its interrupt): the pair completes and finds that windows
 * pay.
 */
static void irq_poll_test_auto_pair_without_windows(struct kunit *test)
{
	struct irq_poll_auto a = {};
	enum irq_poll_auto_verdict v = IRQ_POLL_AUTO_IDLE;
	u32 timeout = 0;
	u64 now = 0;
	int i, work;

	irq_poll_auto_reset(&a);
	for (i = 0; i < 5000 && !a.pay_x1024; i++) {
		if (v == IRQ_POLL_AUTO_DEFER) {
			now += timeout;
			work = timeout / 10000;
		} else {
			now += 20000;
			/* The fifth finds two: windows open. */
			work = i == 4 ? 2 : 1;
		}
		v = irq_poll_auto_step(&a, now, work, true, false, &timeout);
		/* It parks once the pair is over: its polls find one. */
		KUNIT_ASSERT_TRUE_MSG(test, v != IRQ_POLL_AUTO_PARK || a.pay_x1024,
				      "parked at poll %d, nowin %d", i, a.nowin);
	}
	KUNIT_EXPECT_GE(test, a.pay_x1024, 1065U);
	KUNIT_EXPECT_TRUE(test, a.pays);
}

static void irq_poll_test_auto_parks_and_trials(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, &ipt_ops, IRQ_POLL_CFG_SWITCHABLE);
	long polls;
	int i;

	KUNIT_ASSERT_EQ(test, ipt_store(t, "mode", "auto"), 4);
	/*
	 * Switching on polls once (irq_poll_enable() with ops), which finds
	 * nothing: the first of the 8 polls the mode observes before parking.
	 */
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	polls = STAT(t, polls);
	/* One command in flight: polls find one completion each. */
	for (i = 0; i < 300; i++) {
		ipt_irq(t, 1);
		KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	}
	/*
	 * Parked after 8 polls (7 interrupts), the handler reaps; the 256th
	 * interrupt after that is polled on trial, parked again 8 polls
	 * later.
	 */
	KUNIT_EXPECT_EQ(test, STAT(t, parks), 2L);
	KUNIT_EXPECT_EQ(test, STAT(t, trials), 1L);
	KUNIT_EXPECT_EQ(test, STAT(t, deferrals), 0L);
	KUNIT_EXPECT_EQ(test, STAT(t, polls) - polls, 15L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->classic), 300 - 15);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 300);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->mixed), 0);
	/* A disable takes it back from the driver, unmasked. */
	irq_poll_disable(&t->iop);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masked), 0);
	irq_poll_enable(&t->iop);
	KUNIT_EXPECT_TRUE(test, ipt_wait_for(ipt_settled(t)));
}

/*
 * Switching the mode off and back starts the count towards the next trial
 * afresh: 100 interrupts parked it and counted 93 towards a trial; after
 * the switch it parks again, and its trial comes at the 256th interrupt
 * of the new park, not 93 interrupts early.
 */
static void irq_poll_test_auto_trial_count_after_switch(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, &ipt_ops, IRQ_POLL_CFG_SWITCHABLE);
	long trials;
	int i;

	KUNIT_ASSERT_EQ(test, ipt_store(t, "mode", "auto"), 4);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	for (i = 0; i < 100; i++) {
		ipt_irq(t, 1);
		KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	}
	KUNIT_ASSERT_EQ(test, STAT(t, parks), 1L);
	KUNIT_ASSERT_EQ(test, STAT(t, trials), 0L);

	KUNIT_ASSERT_EQ(test, ipt_store(t, "mode", "off"), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masked), 0);
	KUNIT_ASSERT_EQ(test, ipt_store(t, "mode", "auto"), 4);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	trials = STAT(t, trials);
	/* 7 interrupts polled (8 polls with the switch's), then 255 parked, */
	for (i = 0; i < 7 + 255; i++) {
		ipt_irq(t, 1);
		KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	}
	KUNIT_EXPECT_EQ(test, STAT(t, parks), 2L);
	KUNIT_EXPECT_EQ(test, STAT(t, trials) - trials, 0L);
	/* and the 256th is polled on trial. */
	ipt_irq(t, 1);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	KUNIT_EXPECT_EQ(test, STAT(t, trials) - trials, 1L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 100 + 263);
}

/*
 * Spin until @cond or until ktime_get_ns() reaches @end_ns; true if @cond.
 * No sleep: one can last milliseconds under emulation.  cond_resched()
 * lets ksoftirqd run when it is due: while it is runnable, 6.1 leaves it
 * all softirq work, also the poll a schedule from this thread raised.
 */
#define ipt_spin_until(cond, end_ns)					\
({									\
	bool __ok;							\
									\
	while (!(__ok = (cond)) && ktime_get_ns() < (end_ns))		\
		cond_resched();						\
	__ok;								\
})

static void ipt_noop_tasklet(struct tasklet_struct *unused)
{
}

/*
 * Whether ksoftirqd is made runnable (by a tasklet scheduled from this
 * thread) before the load starts: the softirq then runs in ksoftirqd,
 * late, until ksoftirqd got the CPU once.
 */
static const bool ipt_ksoftirqd_modes[] = { false, true };

static void ipt_ksoftirqd_desc(const bool *woken, char *desc)
{
	strscpy(desc, *woken ? "ksoftirqd runnable" : "softirq inline",
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ipt_ksoftirqd, ipt_ksoftirqd_modes, ipt_ksoftirqd_desc);

static void irq_poll_test_auto_defers_under_load(struct kunit *test)
{
	const bool *woken = test->param_value;
	struct ipt *t = ipt_new(test, 64, &ipt_ops, 0);
	struct tasklet_struct tl;
	bool polled = true;
	int i;

	KUNIT_ASSERT_EQ(test, ipt_store(t, "mode", "auto"), 4);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	tasklet_setup(&tl, ipt_noop_tasklet);
	if (*woken)
		tasklet_schedule(&tl);
	/*
	 * Bursts of 8, 50 us apart, each polled before the next (by this
	 * thread's softirq or by ksoftirqd): polls batch, so the device
	 * stays masked a while.
	 */
	for (i = 0; i < 50 && polled; i++) {
		u64 next = ktime_get_ns() + 50 * NSEC_PER_USEC;

		ipt_add(t, 8);
		ipt_sched_sync(t);
		polled = ipt_spin_until(!atomic_read(&t->queued),
					ktime_get_ns() +
					IPT_TIMEOUT_MS * NSEC_PER_MSEC);
		ipt_spin_until(false, next);
	}
	/* Before any assertion returns: the tasklet lives on this stack. */
	tasklet_kill(&tl);
	KUNIT_ASSERT_TRUE_MSG(test, polled, "a burst waited %d ms for its poll",
			      IPT_TIMEOUT_MS);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	KUNIT_EXPECT_GT(test, STAT(t, deferrals), 0L);
	KUNIT_EXPECT_EQ(test, STAT(t, parks), 0L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 400);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->bad_ctx), 0);
}

/* --- configuration: sysctls, sysfs, names ------------------------------- */

struct ipt_input {
	const char *file;
	const char *input;
	int err;
};

static void ipt_input_desc(const struct ipt_input *in, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s <- \"%s\"", in->file,
		 in->input);
}

static const struct ipt_input ipt_sysctl_inputs[] = {
	{ "irq_poll", "2", -EINVAL },
	{ "irq_poll", "-1", -EINVAL },
	{ "irq_poll", "abc", -EINVAL },
	{ "irq_poll_budget", "0", -EINVAL },
	{ "irq_poll_budget", "-5", -EINVAL },
	{ "irq_poll_budget_usecs", "0", -EINVAL },
	{ "irq_poll_budget_usecs", "100001", -EINVAL },
	{ "irq_poll_budget", "300", 0 },
};

KUNIT_ARRAY_PARAM(ipt_sysctl, ipt_sysctl_inputs, ipt_input_desc);

static struct ctl_table *ipt_find_sysctl(const char *name)
{
	struct ctl_table *ct;

	for (ct = irq_poll_sysctls; ct->procname; ct++)
		if (!strcmp(ct->procname, name))
			return ct;
	return NULL;
}

static int ipt_sysctl_write(struct ctl_table *ct, const char *val)
{
	char buf[32];
	size_t len = strscpy(buf, val, sizeof(buf));
	loff_t pos = 0;

	return ct->proc_handler(ct, 1, buf, &len, &pos);
}

static void irq_poll_test_sysctl_input(struct kunit *test)
{
	const struct ipt_input *in = test->param_value;
	struct ctl_table *ct = ipt_find_sysctl(in->file);
	int old;

	KUNIT_ASSERT_NOT_NULL(test, ct);
	old = *(int *)ct->data;
	KUNIT_EXPECT_EQ(test, ipt_sysctl_write(ct, in->input), in->err);
	/* Rejected input leaves the value alone; accepted input sets it. */
	if (in->err) {
		KUNIT_EXPECT_EQ(test, *(int *)ct->data, old);
	} else {
		char buf[16];

		KUNIT_EXPECT_EQ(test, *(int *)ct->data, 300);
		snprintf(buf, sizeof(buf), "%d", old);
		KUNIT_EXPECT_EQ(test, ipt_sysctl_write(ct, buf), 0);
	}
}

static const struct ipt_input ipt_sysfs_inputs[] = {
	{ "weight", "0", -EINVAL },
	{ "weight", "-3", -EINVAL },
	{ "weight", "many", -EINVAL },
	{ "weight", "", -EINVAL },
	{ "weight", "1025", -EINVAL },
	{ "weight", "2147483647", -EINVAL },
	{ "weight", "0x10", -EINVAL },
	{ "weight", " 8", -EINVAL },
	{ "defer_hard_irqs", "-1", -EINVAL },
	{ "defer_hard_irqs", "101", -EINVAL },
	{ "defer_hard_irqs", "010x", -EINVAL },
	{ "flush_timeout_ns", "1", -EINVAL },
	{ "flush_timeout_ns", "9999", -EINVAL },
	{ "flush_timeout_ns", "100000001", -EINVAL },
	{ "flush_timeout_ns", "0x2710", -EINVAL },
	{ "flush_timeout_ns", "-1", -EINVAL },
	{ "mode", "on", -EINVAL },
	{ "mode", "1", -EINVAL },
	{ "mode", "", -EINVAL },
	{ "mode", "off", -EINVAL },	/* not switchable */
	{ "mode", "autox", -EINVAL },
	{ "polls", "0", -EACCES },
	{ "nonexistent", "0", -ENOENT },
};

KUNIT_ARRAY_PARAM(ipt_sysfs, ipt_sysfs_inputs, ipt_input_desc);

static void irq_poll_test_sysfs_input(struct kunit *test)
{
	const struct ipt_input *in = test->param_value;
	struct ipt *t = ipt_new(test, 16, &ipt_ops, 0);
	char *before = NULL;

	if (in->err != -ENOENT)
		before = ipt_show(test, t, in->file);
	KUNIT_EXPECT_EQ(test, ipt_store(t, in->file, in->input), in->err);
	/* Rejected input leaves the setting as it was. */
	if (before)
		KUNIT_EXPECT_STREQ(test, ipt_show(test, t, in->file), before);
}

static void irq_poll_test_sysfs_roundtrip(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, &ipt_ops, IRQ_POLL_CFG_SWITCHABLE);
	static const char * const files[] = {
		"weight", "defer_hard_irqs", "flush_timeout_ns", "mode", "mode",
		"weight",
	};
	/* Decimal, with echo's newline or without; a leading 0 is decimal. */
	static const char * const values[] = {
		"32\n", "7", "250000\n", "threaded\n", "off", "010",
	};
	static const char * const shown[] = {
		"32\n", "7\n", "250000\n", "threaded\n", "off\n", "10\n",
	};
	int i;

	static_assert(ARRAY_SIZE(files) == ARRAY_SIZE(values));
	static_assert(ARRAY_SIZE(files) == ARRAY_SIZE(shown));
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		KUNIT_EXPECT_EQ(test, ipt_store(t, files[i], values[i]),
				(int)strlen(values[i]));
		KUNIT_EXPECT_STREQ(test, ipt_show(test, t, files[i]), shown[i]);
	}
}

static void irq_poll_test_init_named_invalid(struct kunit *test)
{
	static const char * const bad_names[] = {
		NULL, "", ".", "..", "a/b", "a b", "tab\there", "nl\n",
		"ctl\x01", "a-name-that-is-thirty-two-chars!",
	};
	struct irq_poll_ops half = { .mask = ipt_mask };
	struct irq_poll_config cfg = { .name = "kunit_dup" };
	struct ipt *a = ipt_alloc(test), *b = ipt_alloc(test);
	struct irq_poll scratch;
	int i;

	KUNIT_ASSERT_EQ(test, irq_poll_init_named(&a->iop, &cfg, ipt_poll), 0);
	/* Same name again: -EEXIST, the first stays. */
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&b->iop, &cfg, ipt_poll),
			-EEXIST);
	irq_poll_init(&b->iop, 1, ipt_poll);

	for (i = 0; i < ARRAY_SIZE(bad_names); i++) {
		cfg.name = bad_names[i];
		KUNIT_EXPECT_EQ_MSG(test, irq_poll_init_named(&scratch, &cfg,
							      ipt_poll),
				    -EINVAL, "name #%d", i);
	}
	/* Global files live elsewhere: any other name is fine. */
	cfg.name = "squeezed";
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&scratch, &cfg, ipt_poll), 0);
	irq_poll_destroy(&scratch);

	cfg.name = "kunit_bad";
	cfg.flags = BIT(7);
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&scratch, &cfg, ipt_poll),
			-EINVAL);
	cfg.flags = IRQ_POLL_CFG_SWITCHABLE;	/* needs ops */
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&scratch, &cfg, ipt_poll),
			-EINVAL);
	cfg.flags = 0;
	cfg.ops = &half;
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&scratch, &cfg, ipt_poll),
			-EINVAL);
	cfg.ops = &ipt_ops;
	cfg.weight = IRQ_POLL_MAX_WEIGHT + 1;
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&scratch, &cfg, ipt_poll),
			-EINVAL);
	cfg.weight = 0;
	cfg.flush_timeout_ns = 1;
	cfg.defer_hard_irqs = 1000;
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&scratch, &cfg, ipt_poll),
			-EINVAL);
}

static void irq_poll_test_deferral_needs_ops(struct kunit *test)
{
	struct irq_poll_config cfg = {
		.name = "kunit_defer_noops",
		.defer_hard_irqs = 2,
		.flush_timeout_ns = 100000,
	};
	struct ipt *t = ipt_alloc(test);
	struct ipt *u;

	/*
	 * Without ops nobody can keep the device masked, and a disable
	 * would leave it masked: refused, at init and in sysfs.
	 */
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&t->iop, &cfg, ipt_poll),
			-EINVAL);
	u = ipt_new(test, 16, NULL, 0);
	KUNIT_EXPECT_EQ(test, ipt_store(u, "defer_hard_irqs", "2"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ipt_store(u, "flush_timeout_ns", "100000"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ipt_store(u, "defer_hard_irqs", "0"), 1);
	KUNIT_EXPECT_EQ(test, ipt_store(u, "mode", "auto"), -EINVAL);
}

static void irq_poll_test_works_without_sysfs(struct kunit *test)
{
	struct kset *kset = irq_poll_kset;
	struct ipt *t = ipt_alloc(test);
	struct irq_poll_config cfg = { .name = "kunit_nosysfs" };
	int err;

	/* No /sys/kernel/irq_poll: the driver still gets its instance. */
	irq_poll_kset = NULL;
	err = irq_poll_init_named(&t->iop, &cfg, ipt_poll);
	irq_poll_kset = kset;
	KUNIT_ASSERT_EQ(test, err, 0);
	ipt_add(t, 2);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 2);
}

static void irq_poll_test_misuse_per_instance(struct kunit *test)
{
	struct ipt *a = ipt_new(test, 16, NULL, 0);
	struct ipt *b = ipt_new(test, 16, NULL, 0);

	/* Completing outside the poll function: each instance reported. */
	irq_poll_complete(&a->iop);
	irq_poll_complete(&b->iop);
	KUNIT_EXPECT_TRUE(test, irq_poll_misuse_reported(&a->iop));
	KUNIT_EXPECT_TRUE(test, irq_poll_misuse_reported(&b->iop));
	/* And neither is wedged. */
	ipt_add(a, 1);
	ipt_add(b, 1);
	ipt_sched_sync(a);
	ipt_sched_sync(b);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(a) && ipt_idle(b)));
	KUNIT_EXPECT_EQ(test, atomic_read(&a->reaped) + atomic_read(&b->reaped),
			2);
}

static void irq_poll_test_global_switch(struct kunit *test)
{
	struct ctl_table *ct = ipt_find_sysctl("irq_poll");
	struct ipt *sw = ipt_new(test, 16, &ipt_ops, IRQ_POLL_CFG_SWITCHABLE);
	struct ipt *thr = ipt_new(test, 16, &ipt_ops, IRQ_POLL_CFG_SWITCHABLE);
	struct ipt *plain = ipt_new(test, 16, &ipt_ops, 0);
	struct ipt *legacy = ipt_new_legacy(test, 16);

	KUNIT_ASSERT_NOT_NULL(test, ct);
	KUNIT_ASSERT_EQ(test, irq_poll_set_mode(&thr->iop,
						IRQ_POLL_MODE_THREADED), 0);
	/* 1 with everything on changes nothing. */
	KUNIT_ASSERT_EQ(test, ipt_sysctl_write(ct, "1"), 0);
	KUNIT_EXPECT_STREQ(test, ipt_show(test, thr, "mode"), "threaded\n");
	/* 0: switchable instances go off, the others keep polling. */
	KUNIT_ASSERT_EQ(test, ipt_sysctl_write(ct, "0"), 0);
	KUNIT_EXPECT_STREQ(test, ipt_show(test, sw, "mode"), "off\n");
	KUNIT_EXPECT_STREQ(test, ipt_show(test, thr, "mode"), "off\n");
	KUNIT_EXPECT_FALSE(test, irq_poll_active(&sw->iop));
	KUNIT_EXPECT_TRUE(test, irq_poll_active(&plain->iop));
	KUNIT_EXPECT_TRUE(test, irq_poll_active(&legacy->iop));
	/* 1: off ones go to softirq. */
	KUNIT_ASSERT_EQ(test, ipt_sysctl_write(ct, "1"), 0);
	KUNIT_EXPECT_STREQ(test, ipt_show(test, sw, "mode"), "softirq\n");
	KUNIT_EXPECT_TRUE(test, irq_poll_active(&sw->iop));
	ipt_irq(sw, 2);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(sw)));
	KUNIT_EXPECT_EQ(test, atomic_read(&sw->classic), 0);
	KUNIT_ASSERT_EQ(test, ipt_sysctl_write(ct, "0"), 0);
}

static void irq_poll_test_softirq_squeeze(struct kunit *test)
{
	struct ctl_table *ct = ipt_find_sysctl("irq_poll_budget");
	struct ipt *t = ipt_new(test, 4, NULL, 0);
	unsigned long before = irq_poll_squeezed();

	KUNIT_ASSERT_NOT_NULL(test, ct);
	/* Budget 4 per run: a run ends after one full poll and re-raises. */
	KUNIT_ASSERT_EQ(test, ipt_sysctl_write(ct, "4"), 0);
	atomic_set(&t->busy, 10);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	KUNIT_EXPECT_EQ(test, ipt_sysctl_write(ct, "256"), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 11);
	KUNIT_EXPECT_GE(test, irq_poll_squeezed() - before, 10UL);
}

/* Poll function that schedules another instance, then reaps. */
static struct ipt *ipt_chain_next;

static int ipt_chain_poll(struct irq_poll *iop, int budget)
{
	irq_poll_sched(&ipt_chain_next->iop);
	return ipt_poll(iop, budget);
}

static void irq_poll_test_squeeze_counts_new_work(struct kunit *test)
{
	struct ctl_table *ct = ipt_find_sysctl("irq_poll_budget");
	struct ipt *a = ipt_alloc(test);
	unsigned long before;

	KUNIT_ASSERT_NOT_NULL(test, ct);
	irq_poll_init(&a->iop, 16, ipt_chain_poll);
	ipt_chain_next = ipt_new_legacy(test, 16);
	/*
	 * Budget 4: A reaps 5 and completes, using up the run while B,
	 * scheduled during that poll, waits: the run was squeezed.
	 */
	KUNIT_ASSERT_EQ(test, ipt_sysctl_write(ct, "4"), 0);
	ipt_add(a, 5);
	before = irq_poll_squeezed();
	ipt_sched_sync(a);
	KUNIT_EXPECT_EQ(test, ipt_sysctl_write(ct, "256"), 0);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(a) &&
					     ipt_idle(ipt_chain_next)));
	KUNIT_EXPECT_GE(test, irq_poll_squeezed() - before, 1UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&ipt_chain_next->polls), 1);
}

static void irq_poll_test_cpu_offline_moves(struct kunit *test)
{
#ifdef CONFIG_HOTPLUG_CPU
	struct task_struct *k[3];
	struct ipt *t[3];
	int i, cpu, err;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 online CPUs, have %u",
			   num_online_cpus());
	cpu = cpumask_last(cpu_online_mask);
	if (!cpu)
		kunit_skip(test, "no hot-pluggable CPU besides CPU0");

	/* Three instances kept busy on @cpu: always scheduled there. */
	for (i = 0; i < 3; i++) {
		t[i] = ipt_new_legacy(test, 4);
		atomic_set(&t[i]->busy, INT_MAX);
		k[i] = ipt_sched_on(test, t[i], cpu);
		KUNIT_ASSERT_TRUE(test, ipt_wait_for(atomic_read(&t[i]->polls)));
		kthread_stop(k[i]);
	}
	err = remove_cpu(cpu);
	if (err)
		kunit_skip(test, "remove_cpu(%d) failed: %d", cpu, err);

	/* The dead CPU's list moved to a live one, which polls them. */
	for (i = 0; i < 3; i++) {
		atomic_set(&t[i]->polls, 0);
		KUNIT_EXPECT_TRUE(test,
				  ipt_wait_for(atomic_read(&t[i]->polls) > 1 &&
					       READ_ONCE(t[i]->last_cpu) != cpu));
		atomic_set(&t[i]->busy, 0);
	}
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, ipt_wait_for(ipt_idle(t[i])));
	KUNIT_EXPECT_EQ(test, add_cpu(cpu), 0);
#else
	kunit_skip(test, "needs CONFIG_HOTPLUG_CPU");
#endif
}

/* --- trace points ------------------------------------------------------- */

struct ipt_trace {
	const struct irq_poll *iop;
	atomic_t sched;
	atomic_t poll;
	atomic_t rearm;
	int work;
	int budget;
};

static void ipt_probe_sched(void *data, const struct irq_poll *iop)
{
	struct ipt_trace *tr = data;

	if (iop == READ_ONCE(tr->iop))
		atomic_inc(&tr->sched);
}

static void ipt_probe_poll(void *data, const struct irq_poll *iop, int work,
			   int budget, bool threaded)
{
	struct ipt_trace *tr = data;

	if (iop != READ_ONCE(tr->iop))
		return;
	WRITE_ONCE(tr->work, work);
	WRITE_ONCE(tr->budget, budget);
	atomic_inc(&tr->poll);
}

static void ipt_probe_rearm(void *data, const struct irq_poll *iop,
			    bool missed)
{
	struct ipt_trace *tr = data;

	if (iop == READ_ONCE(tr->iop))
		atomic_inc(&tr->rearm);
}

static void irq_poll_test_tracepoints(struct kunit *test)
{
	struct ipt_trace *tr = kunit_kzalloc(test, sizeof(*tr), GFP_KERNEL);
	struct ipt *t = ipt_new(test, 16, &ipt_ops, 0);

	KUNIT_ASSERT_NOT_NULL(test, tr);
	tr->iop = &t->iop;
	if (register_trace_irq_poll_schedule(ipt_probe_sched, tr))
		kunit_skip(test, "trace points unavailable");
	KUNIT_ASSERT_EQ(test, register_trace_irq_poll_poll(ipt_probe_poll, tr),
			0);
	KUNIT_ASSERT_EQ(test, register_trace_irq_poll_rearm(ipt_probe_rearm,
							    tr), 0);
	/* A pending hit, then a missed schedule: two re-polls, both traced. */
	ipt_add(t, 5);
	atomic_set(&t->inject, 1);
	ipt_sched_sync(t);
	KUNIT_EXPECT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	atomic_set(&t->resched, 1);
	ipt_sched_sync(t);
	KUNIT_EXPECT_TRUE(test, ipt_wait_for(ipt_settled(t)));
	unregister_trace_irq_poll_rearm(ipt_probe_rearm, tr);
	unregister_trace_irq_poll_poll(ipt_probe_poll, tr);
	unregister_trace_irq_poll_schedule(ipt_probe_sched, tr);
	tracepoint_synchronize_unregister();
	KUNIT_EXPECT_EQ(test, atomic_read(&tr->sched), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&tr->poll), atomic_read(&t->polls));
	KUNIT_EXPECT_EQ(test, (long)atomic_read(&tr->rearm),
			STAT(t, missed) + STAT(t, rearm_races));
	KUNIT_EXPECT_GE(test, atomic_read(&tr->rearm), 2);
	KUNIT_EXPECT_EQ(test, tr->budget, 16);
}

/*
 * Reference model: for a script of "completions queued before the
 * schedule", weight and deferral settings, a deliberately naive
 * re-statement of the rules predicts every counter.
 */
struct ipt_script {
	const char *desc;
	int queued;
	int weight;
	int defer;
};

static const struct ipt_script ipt_scripts[] = {
	{ "empty",		0,	8,	0 },
	{ "one",		1,	8,	0 },
	{ "exact-weight",	8,	8,	0 },
	{ "two-and-a-bit",	17,	8,	0 },
	{ "defer-1",		5,	8,	1 },
	{ "defer-3-big",	20,	8,	3 },
};

static void ipt_script_desc(const struct ipt_script *s, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE,
		 "%s: queued=%d weight=%d defer=%d", s->desc, s->queued,
		 s->weight, s->defer);
}

KUNIT_ARRAY_PARAM(ipt_script, ipt_scripts, ipt_script_desc);

static void irq_poll_test_counters_model(struct kunit *test)
{
	const struct ipt_script *s = test->param_value;
	struct ipt *t = ipt_new(test, s->weight, &ipt_ops, 0);
	long polls = 0, exhausted = 0, empty = 0, deferrals = 0;
	int left = s->queued, count = 0;
	char val[16];

	snprintf(val, sizeof(val), "%d", s->defer);
	ipt_set_defer(test, t, val, IPT_FLUSH_NS);

	/* Model: poll until a poll reaps < weight and deferral ends. */
	for (;;) {
		int n = min(left, s->weight);

		polls++;
		left -= n;
		if (!n)
			empty++;
		if (n == s->weight) {
			exhausted++;
			continue;
		}
		if (n)
			count = s->defer;
		else if (count)
			count--;
		if (!count)
			break;
		deferrals++;
	}

	ipt_add(t, s->queued);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_settled(t) &&
					     atomic_read(&t->done_true)));
	KUNIT_EXPECT_EQ(test, STAT(t, polls), polls);
	KUNIT_EXPECT_EQ(test, STAT(t, budget_exhausted), exhausted);
	KUNIT_EXPECT_EQ(test, STAT(t, empty_polls), empty);
	KUNIT_EXPECT_EQ(test, STAT(t, deferrals), deferrals);
	KUNIT_EXPECT_EQ(test, STAT(t, reaped), (long)s->queued);
	KUNIT_EXPECT_EQ(test, STAT(t, scheduled), deferrals + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->unmasks), 1);
}

static struct kunit_case irq_poll_test_cases[] = {
	KUNIT_CASE(irq_poll_test_init_legacy),
	KUNIT_CASE(irq_poll_test_weight_zero_is_default),
	KUNIT_CASE(irq_poll_test_sched_polls_once),
	KUNIT_CASE(irq_poll_test_budget_honoured),
	KUNIT_CASE(irq_poll_test_full_budget_repolls),
	KUNIT_CASE(irq_poll_test_sched_twice_is_once),
	KUNIT_CASE(irq_poll_test_resched_after_complete),
	KUNIT_CASE(irq_poll_test_sched_during_poll),
	KUNIT_CASE(irq_poll_test_ops_mask_unmask),
	KUNIT_CASE(irq_poll_test_ops_rearm_pending),
	KUNIT_CASE(irq_poll_test_ops_latched_without_pending),
	KUNIT_CASE(irq_poll_test_level_line_quiesced),
	KUNIT_CASE(irq_poll_test_disable_waits_for_poll),
	KUNIT_CASE(irq_poll_test_disable_nests),
	KUNIT_CASE(irq_poll_test_disable_concurrent),
	KUNIT_CASE(irq_poll_test_disable_polls_scheduled),
	KUNIT_CASE(irq_poll_test_enable_polls_masked),
	KUNIT_CASE(irq_poll_test_active_during_last_poll),
	KUNIT_CASE(irq_poll_test_destroy_leaves_masked),
	KUNIT_CASE(irq_poll_test_disable_then_free),
	KUNIT_CASE(irq_poll_test_switchable_starts_off),
	KUNIT_CASE(irq_poll_test_enable_disable_sched_race),
	KUNIT_CASE(irq_poll_test_mode_switch_under_load),
	KUNIT_CASE(irq_poll_test_threaded_polls_in_kthread),
	KUNIT_CASE(irq_poll_test_reinit_stops_thread),
	KUNIT_CASE(irq_poll_test_deferral_fires_and_ends),
	KUNIT_CASE(irq_poll_test_deferral_sched_overtakes),
	KUNIT_CASE(irq_poll_test_deferral_disable),
	KUNIT_CASE(irq_poll_test_deferral_short_timer),
	KUNIT_CASE(irq_poll_test_legacy_complete_no_deferral),
	KUNIT_CASE_PARAM(irq_poll_test_auto_controller, ipt_rate_gen_params),
	KUNIT_CASE(irq_poll_test_auto_windows_grow),
	KUNIT_CASE(irq_poll_test_auto_noisy_windows),
	KUNIT_CASE(irq_poll_test_auto_bursty_rate),
	KUNIT_CASE_PARAM(irq_poll_test_auto_measures_pay, ipt_pay_rate_gen_params),
	KUNIT_CASE(irq_poll_test_auto_windows_that_pay),
	KUNIT_CASE(irq_poll_test_auto_lone_windows_that_pay),
	KUNIT_CASE(irq_poll_test_auto_busy_pairs),
	KUNIT_CASE(irq_poll_test_auto_windows_hold),
	KUNIT_CASE(irq_poll_test_auto_pair_under_drift),
	KUNIT_CASE(irq_poll_test_auto_few_trials_after_switch),
	KUNIT_CASE(irq_poll_test_auto_rare_trials_where_windows_lose),
	KUNIT_CASE_PARAM(irq_poll_test_auto_parks_where_windows_lose,
			 ipt_pay_rate_gen_params),
	KUNIT_CASE(irq_poll_test_auto_parks_late_after_trials),
	KUNIT_CASE(irq_poll_test_auto_long_trial_after_windows),
	KUNIT_CASE(irq_poll_test_auto_pair_without_windows),
	KUNIT_CASE(irq_poll_test_auto_parks_and_trials),
	KUNIT_CASE(irq_poll_test_auto_trial_count_after_switch),
	KUNIT_CASE_PARAM(irq_poll_test_auto_defers_under_load,
			 ipt_ksoftirqd_gen_params),
	KUNIT_CASE_PARAM(irq_poll_test_sysctl_input, ipt_sysctl_gen_params),
	KUNIT_CASE_PARAM(irq_poll_test_sysfs_input, ipt_sysfs_gen_params),
	KUNIT_CASE(irq_poll_test_sysfs_roundtrip),
	KUNIT_CASE(irq_poll_test_init_named_invalid),
	KUNIT_CASE(irq_poll_test_deferral_needs_ops),
	KUNIT_CASE(irq_poll_test_works_without_sysfs),
	KUNIT_CASE(irq_poll_test_misuse_per_instance),
	KUNIT_CASE(irq_poll_test_global_switch),
	KUNIT_CASE(irq_poll_test_softirq_squeeze),
	KUNIT_CASE(irq_poll_test_squeeze_counts_new_work),
	KUNIT_CASE(irq_poll_test_cpu_offline_moves),
	KUNIT_CASE(irq_poll_test_tracepoints),
	KUNIT_CASE_PARAM(irq_poll_test_counters_model, ipt_script_gen_params),
	{}
};

static struct kunit_suite irq_poll_test_suite = {
	.name = "irq_poll",
	.init = ipt_init,
	.exit = ipt_exit,
	.test_cases = irq_poll_test_cases,
};

kunit_test_suite(irq_poll_test_suite);

MODULE_DESCRIPTION("KUnit tests for the irq_poll library");
MODULE_LICENSE("GPL");
