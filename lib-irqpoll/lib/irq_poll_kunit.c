// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for lib/irq_poll.c
 *
 * Each case drives a fake device ("ipt"): an atomic count of queued
 * completions that the poll function reaps up to its budget, optional
 * mask/unmask/pending ops that record their pairing, and knobs to make a
 * poll report a full budget, spin, or let a completion slip in between the
 * last look and the unmask.  Schedules are issued inside
 * local_bh_disable()/local_bh_enable() so the softirq runs right there;
 * everything that may run elsewhere (timers, kthreads, other CPUs) is
 * awaited with a bounded wait.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irq_poll.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sysctl.h>
#include <trace/events/irq_poll.h>

/*
 * Upper bound for anything we wait for.  Softirqs, pinned hrtimers and
 * kthread wake-ups take micro- to milliseconds even under QEMU TCG with
 * lockdep; 2 s is several hundred times that and still keeps a failing
 * case short.
 */
#define IPT_TIMEOUT_MS		2000

/* Deferral timer period used by the tests: 1 ms, so 3 rounds take ~3 ms. */
#define IPT_FLUSH_NS		1000000

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
	atomic_t reaped;
	atomic_t polls;
	atomic_t in_poll;
	atomic_t overlaps;	/* ->poll() ran twice at once */
	atomic_t busy;		/* polls left that claim the whole budget */
	atomic_t inject;	/* completions to slip in before completing */
	atomic_t masks;
	atomic_t unmasks;
	atomic_t masked;
	atomic_t bad_mask;	/* mask while masked or unmask while not */
	atomic_t done_true;
	atomic_t done_false;
	atomic_t softirq_polls;
	atomic_t thread_polls;
	atomic_t bad_budget;
	atomic_t disabled_window;
	atomic_t polls_while_disabled;
	atomic_t ended;
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

static int ipt_poll(struct irq_poll *iop, int budget)
{
	struct ipt *t = container_of(iop, struct ipt, iop);
	int n;

	if (atomic_inc_return(&t->in_poll) > 1)
		atomic_inc(&t->overlaps);
	if (atomic_read(&t->disabled_window))
		atomic_inc(&t->polls_while_disabled);
	atomic_inc(&t->polls);
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
		atomic_dec(&t->in_poll);
		return budget;
	}

	n = ipt_reap(t, budget);
	/* Leave the owned section before completing: a new poll may start. */
	atomic_dec(&t->in_poll);
	if (n < budget) {
		/* A completion lands after the last look: the re-arm race. */
		if (atomic_add_unless(&t->inject, -1, 0)) {
			atomic_inc(&t->produced);
			atomic_inc(&t->queued);
		}
		if (t->legacy_complete)
			irq_poll_complete(iop);
		else if (irq_poll_complete_done(iop, n))
			atomic_inc(&t->done_true);
		else
			atomic_inc(&t->done_false);
	}
	atomic_set(&t->ended, 1);
	return n;
}

static void ipt_mask(struct irq_poll *iop)
{
	struct ipt *t = container_of(iop, struct ipt, iop);

	atomic_inc(&t->masks);
	if (atomic_xchg(&t->masked, 1))
		atomic_inc(&t->bad_mask);
}

static void ipt_unmask(struct irq_poll *iop)
{
	struct ipt *t = container_of(iop, struct ipt, iop);

	atomic_inc(&t->unmasks);
	if (!atomic_xchg(&t->masked, 0))
		atomic_inc(&t->bad_mask);
}

static bool ipt_pending(struct irq_poll *iop)
{
	return atomic_read(&container_of(iop, struct ipt, iop)->queued) > 0;
}

static const struct irq_poll_ops ipt_ops = {
	.mask		= ipt_mask,
	.unmask		= ipt_unmask,
	.pending	= ipt_pending,
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

/* A named instance, with ops if @ops. */
static struct ipt *ipt_new(struct kunit *test, int weight, bool ops,
			   unsigned int flags)
{
	struct irq_poll_config cfg = {
		.weight = weight,
		.ops = ops ? &ipt_ops : NULL,
		.flags = flags,
	};
	struct ipt *t = ipt_alloc(test);
	char name[32];

	snprintf(name, sizeof(name), "kunit%d", atomic_inc_return(&ipt_names));
	cfg.name = name;
	KUNIT_ASSERT_EQ(test, irq_poll_init_named(&t->iop, &cfg, ipt_poll), 0);
	return t;
}

/* Schedule and let the softirq run right here, on this CPU. */
static void ipt_sched_sync(struct ipt *t)
{
	local_bh_disable();
	irq_poll_sched(&t->iop);
	local_bh_enable();
}

static void ipt_add(struct ipt *t, int n)
{
	atomic_add(n, &t->produced);
	atomic_add(n, &t->queued);
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

static bool ipt_idle(struct ipt *t)
{
	return !test_bit(IRQ_POLL_F_SCHED, &t->iop.state) &&
	       !test_bit(IRQ_POLL_F_DEFERRED, &t->iop.state);
}

#define STAT(t, f)	atomic_long_read(&(t)->iop.stats.f)

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

static void irq_poll_test_init_enabled_idle(struct kunit *test)
{
	struct ipt *t = ipt_new_legacy(test, 16);

	/* A new instance is enabled and idle: state 0, active, weight kept. */
	KUNIT_EXPECT_EQ(test, t->iop.state, 0UL);
	KUNIT_EXPECT_TRUE(test, irq_poll_active(&t->iop));
	KUNIT_EXPECT_EQ(test, t->iop.weight, 16);
	KUNIT_EXPECT_NULL(test, t->iop.name);
}

static void irq_poll_test_sched_polls_once(struct kunit *test)
{
	struct ipt *t = ipt_new_legacy(test, 16);

	ipt_add(t, 5);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	/* One poll reaped all 5, completed, and the instance is idle. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 5);
	KUNIT_EXPECT_EQ(test, STAT(t, scheduled), 1L);
	KUNIT_EXPECT_EQ(test, STAT(t, polls), 1L);
	KUNIT_EXPECT_EQ(test, STAT(t, reaped), 5L);
	KUNIT_EXPECT_EQ(test, STAT(t, empty_polls), 0L);
	KUNIT_EXPECT_EQ(test, STAT(t, budget_exhausted), 0L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->softirq_polls), 1);
}

static void irq_poll_test_budget_honoured(struct kunit *test)
{
	struct ipt *t = ipt_new_legacy(test, 8);

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
	struct ipt *t = ipt_new_legacy(test, 4);

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
	struct ipt *t = ipt_new_legacy(test, 16);
	bool sched;

	local_bh_disable();
	irq_poll_sched(&t->iop);
	irq_poll_sched(&t->iop);
	sched = test_bit(IRQ_POLL_F_SCHED, &t->iop.state);
	local_bh_enable();
	/* Was still scheduled, not yet polled: the second call was a no-op. */
	KUNIT_EXPECT_TRUE(test, sched);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	KUNIT_EXPECT_EQ(test, STAT(t, scheduled), 1L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 1);
}

static void irq_poll_test_weight_store_applies(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, false, 0);

	KUNIT_ASSERT_EQ(test, irq_poll_attr_store(&t->iop, "weight", "4", 1),
			1L);
	t->expect_budget = 4;
	ipt_add(t, 10);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	/* 10 at the new weight 4: 4, 4, 2. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->bad_budget), 0);
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

static void irq_poll_test_disable_waits_for_poll(struct kunit *test)
{
	struct task_struct *k;
	struct ipt *t;
	int cpu;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 online CPUs, have %u",
			   num_online_cpus());
	t = ipt_new_legacy(test, 16);
	/* The poll spins 100 ms, long enough for disable to arrive. */
	t->spin_ms = 100;
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	k = ipt_sched_on(test, t, cpu);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(atomic_read(&t->polls) > 0));
	irq_poll_disable(&t->iop);
	/* disable() returned, so the poll function has returned too. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->ended), 1);
	KUNIT_EXPECT_FALSE(test, irq_poll_active(&t->iop));
	kthread_stop(k);
}

static void irq_poll_test_disable_idempotent(struct kunit *test)
{
	struct ipt *t = ipt_new_legacy(test, 16);

	irq_poll_disable(&t->iop);
	irq_poll_disable(&t->iop);
	KUNIT_EXPECT_FALSE(test, irq_poll_active(&t->iop));
	/* Disabled: a schedule does nothing. */
	ipt_add(t, 1);
	ipt_sched_sync(t);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 0);
	KUNIT_EXPECT_EQ(test, STAT(t, scheduled), 0L);
	irq_poll_enable(&t->iop);
	KUNIT_EXPECT_TRUE(test, irq_poll_active(&t->iop));
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 1);
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

struct ipt_hammer {
	struct ipt *t;
	int iterations;
};

static int ipt_hammer_thread(void *data)
{
	struct ipt_hammer *h = data;
	int i;

	/* Keep the load up until stopped; the cap only bounds a runaway. */
	for (i = 0; i < h->iterations && !kthread_should_stop(); i++) {
		ipt_add(h->t, 1);
		ipt_sched_sync(h->t);
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
		atomic_set(&t->disabled_window, 1);
		usleep_range(100, 300);
		atomic_set(&t->disabled_window, 0);
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
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls_while_disabled), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped),
			atomic_read(&t->produced));
}

static void irq_poll_test_ops_mask_pairing(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, true, 0);
	int i;

	for (i = 0; i < 10; i++) {
		ipt_add(t, 3);
		ipt_sched_sync(t);
		KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	}
	/* Ten rounds: masked on each schedule, unmasked on each completion. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masks), 10);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->unmasks), 10);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masked), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->bad_mask), 0);
	KUNIT_EXPECT_EQ(test, STAT(t, rearm_races), 0L);
}

static void irq_poll_test_ops_rearm_race(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, true, 0);

	ipt_add(t, 2);
	atomic_set(&t->inject, 1);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t) &&
					     !atomic_read(&t->queued)));
	/*
	 * The completion injected after the last look was found by
	 * ->pending() after unmask: one race caught, two rounds, all reaped.
	 */
	KUNIT_EXPECT_EQ(test, STAT(t, rearm_races), 1L);
	KUNIT_EXPECT_EQ(test, STAT(t, scheduled), 2L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masks), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->unmasks), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->bad_mask), 0);
}

static void irq_poll_test_deferral_fires_and_ends(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, true, 0);

	KUNIT_ASSERT_EQ(test, irq_poll_attr_store(&t->iop, "defer_hard_irqs",
						  "2", 1), 1L);
	KUNIT_ASSERT_EQ(test, irq_poll_attr_store(&t->iop, "flush_timeout_ns",
						  "1000000", 7), 7L);
	ipt_add(t, 3);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t) &&
					     atomic_read(&t->done_true)));
	/*
	 * defer_hard_irqs=2: the poll with work defers, the first empty
	 * poll defers, the second empty poll unmasks.
	 */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 3);
	KUNIT_EXPECT_EQ(test, STAT(t, empty_polls), 2L);
	KUNIT_EXPECT_EQ(test, STAT(t, deferrals), 2L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->done_false), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->done_true), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masks), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->unmasks), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masked), 0);
}

/*
 * A 1 ns deferral timer expires while the poll that armed it is still
 * on its way to releasing the instance, often enough under emulation.
 * The timer then cannot claim the instance; the poll must notice and
 * schedule it, or the device stays masked with nobody polling.
 */
static void irq_poll_test_deferral_timer_beats_release(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, true, 0);
	int i;

	KUNIT_ASSERT_EQ(test, irq_poll_attr_store(&t->iop, "defer_hard_irqs",
						  "1", 1), 1L);
	KUNIT_ASSERT_EQ(test, irq_poll_attr_store(&t->iop, "flush_timeout_ns",
						  "1", 1), 1L);
	for (i = 0; i < 500; i++) {
		ipt_add(t, 1);
		ipt_sched_sync(t);
		if (!ipt_wait_for(ipt_idle(t) && !atomic_read(&t->masked) &&
				  atomic_read(&t->reaped) == i + 1)) {
			KUNIT_FAIL(test, "round %d: left masked, %d polls, state %#lx",
				   i, atomic_read(&t->polls), t->iop.state);
			break;
		}
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 500);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->bad_mask), 0);
	kunit_info(test, "timer expired before release %ld times in 500 rounds\n",
		   STAT(t, rearm_races));
}

static void irq_poll_test_deferral_off_by_default(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, true, 0);

	ipt_add(t, 3);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	/* No deferral configured: completes and unmasks at once. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->done_true), 1);
	KUNIT_EXPECT_EQ(test, STAT(t, deferrals), 0L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 1);
}

static void irq_poll_test_deferral_sched_overtakes(struct kunit *test)
{
	struct irq_poll_config cfg = {
		.name = "kunit_defer_long",
		.ops = &ipt_ops,
		.defer_hard_irqs = 1,
		/* 1 s: far beyond the test's runtime, so the timer never fires */
		.flush_timeout_ns = NSEC_PER_SEC,
	};
	struct ipt *t = ipt_alloc(test);

	KUNIT_ASSERT_EQ(test, irq_poll_init_named(&t->iop, &cfg, ipt_poll), 0);
	ipt_add(t, 1);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(atomic_read(&t->done_false)));
	KUNIT_EXPECT_TRUE(test, test_bit(IRQ_POLL_F_DEFERRED, &t->iop.state));
	/* An explicit schedule polls now and cancels the pending deferral. */
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t) &&
					     atomic_read(&t->done_true)));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 2);
	KUNIT_EXPECT_FALSE(test, hrtimer_active(&t->iop.timer));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masks), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->unmasks), 1);
}

static void irq_poll_test_legacy_complete_no_deferral(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, true, 0);

	t->legacy_complete = true;
	irq_poll_attr_store(&t->iop, "defer_hard_irqs", "5", 1);
	irq_poll_attr_store(&t->iop, "flush_timeout_ns", "1000000", 7);
	ipt_add(t, 3);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	/* irq_poll_complete() never defers: one poll, unmasked. */
	KUNIT_EXPECT_EQ(test, STAT(t, deferrals), 0L);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->unmasks), 1);
}

static void irq_poll_test_ops_disable_unmasks(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, true, 0);

	irq_poll_attr_store(&t->iop, "defer_hard_irqs", "1", 1);
	irq_poll_attr_store(&t->iop, "flush_timeout_ns", "1000000000", 10);
	ipt_add(t, 1);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(atomic_read(&t->done_false)));
	/* Deferred with the device masked; disable hands it back unmasked. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masked), 1);
	irq_poll_disable(&t->iop);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masked), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masks), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->unmasks), 1);
	KUNIT_EXPECT_FALSE(test, hrtimer_active(&t->iop.timer));
}

static void irq_poll_test_threaded_polls_in_kthread(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, false, IRQ_POLL_F_THREADED);

	KUNIT_EXPECT_STREQ(test, ipt_show(test, t, "threaded"), "1\n");
	ipt_add(t, 5);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t) &&
					     atomic_read(&t->polls)));
	/* Polled by the kthread (BH disabled), not by the softirq. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->thread_polls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->softirq_polls), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped), 5);
}

static void irq_poll_test_threaded_switch_under_load(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 4, true, 0);
	struct ipt_hammer h = { .t = t };
	struct task_struct *k[4];
	int i, n;

	n = ipt_start_hammers(test, &h, k, 1000000);
	for (i = 0; i < 10; i++) {
		KUNIT_ASSERT_EQ(test, irq_poll_attr_store(&t->iop, "threaded",
							  i & 1 ? "0" : "1",
							  1), 1L);
		usleep_range(1000, 2000);
	}
	for (i = 0; i < n; i++)
		kthread_stop(k[i]);
	/* With ops nothing is left behind: no final sweep needed. */
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t) &&
					     !atomic_read(&t->queued)));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->reaped),
			atomic_read(&t->produced));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->overlaps), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->bad_mask), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masks),
			atomic_read(&t->unmasks));
	KUNIT_EXPECT_GT(test, atomic_read(&t->thread_polls), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&t->softirq_polls), 0);
}

struct ipt_input {
	const char *file;
	const char *input;
	int err;
};

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

static void ipt_input_desc(const struct ipt_input *in, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s <- \"%s\"", in->file,
		 in->input);
}

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
	{ "defer_hard_irqs", "-1", -EINVAL },
	{ "flush_timeout_ns", "1000000001", -EINVAL },
	{ "flush_timeout_ns", "-1", -EINVAL },
	{ "threaded", "2", -EINVAL },
	{ "threaded", "yes", -EINVAL },
	{ "polls", "0", -ENOENT },
};

KUNIT_ARRAY_PARAM(ipt_sysfs, ipt_sysfs_inputs, ipt_input_desc);

static void irq_poll_test_sysfs_input(struct kunit *test)
{
	const struct ipt_input *in = test->param_value;
	struct ipt *t = ipt_new(test, 16, false, 0);
	char *before = ipt_show(test, t, in->file);

	KUNIT_EXPECT_EQ(test, irq_poll_attr_store(&t->iop, in->file, in->input,
						  strlen(in->input)),
			(ssize_t)in->err);
	/* Rejected input leaves the setting as it was. */
	KUNIT_EXPECT_STREQ(test, ipt_show(test, t, in->file), before);
}

static void irq_poll_test_sysfs_roundtrip(struct kunit *test)
{
	struct ipt *t = ipt_new(test, 16, false, 0);
	static const char * const files[] = {
		"weight", "defer_hard_irqs", "flush_timeout_ns", "threaded",
	};
	static const char * const values[] = { "32", "7", "250000", "1" };
	char want[32];
	int i;

	static_assert(ARRAY_SIZE(files) == ARRAY_SIZE(values));
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		KUNIT_EXPECT_EQ(test, irq_poll_attr_store(&t->iop, files[i],
							  values[i],
							  strlen(values[i])),
				(ssize_t)strlen(values[i]));
		snprintf(want, sizeof(want), "%s\n", values[i]);
		KUNIT_EXPECT_STREQ(test, ipt_show(test, t, files[i]), want);
	}
}

static void irq_poll_test_init_named_invalid(struct kunit *test)
{
	struct irq_poll_ops half = { .mask = ipt_mask };
	struct irq_poll_config cfg = { .name = "kunit_dup" };
	struct ipt *a = ipt_alloc(test), *b = ipt_alloc(test);
	struct irq_poll scratch;

	KUNIT_ASSERT_EQ(test, irq_poll_init_named(&a->iop, &cfg, ipt_poll), 0);
	/* Same name again: -EEXIST, the first stays. */
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&b->iop, &cfg, ipt_poll),
			-EEXIST);
	irq_poll_init(&b->iop, 1, ipt_poll);

	cfg.name = NULL;
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&scratch, &cfg, ipt_poll),
			-EINVAL);
	cfg.name = "a/b";
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&scratch, &cfg, ipt_poll),
			-EINVAL);
	cfg.name = "";
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&scratch, &cfg, ipt_poll),
			-EINVAL);
	cfg.name = "kunit_bad";
	cfg.flags = BIT(7);
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&scratch, &cfg, ipt_poll),
			-EINVAL);
	cfg.flags = 0;
	cfg.ops = &half;
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&scratch, &cfg, ipt_poll),
			-EINVAL);
	cfg.ops = NULL;
	cfg.flush_timeout_ns = NSEC_PER_SEC + 1;
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&scratch, &cfg, ipt_poll),
			-EINVAL);
}

static void irq_poll_test_destroy_quiesces(struct kunit *test)
{
	struct irq_poll_config cfg = {
		.name = "kunit_destroy",
		.ops = &ipt_ops,
		.flags = IRQ_POLL_F_THREADED,
	};
	struct ipt *t = ipt_alloc(test);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	int polls;

	KUNIT_ASSERT_EQ(test, irq_poll_init_named(&t->iop, &cfg, ipt_poll), 0);
	atomic_set(&t->busy, INT_MAX);
	ipt_sched_sync(t);
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(atomic_read(&t->polls) > 3));
	irq_poll_destroy(&t->iop);
	/* Gone: no thread, no sysfs files, no more polls, device unmasked. */
	polls = atomic_read(&t->polls);
	KUNIT_EXPECT_NULL(test, t->iop.thread);
	KUNIT_EXPECT_EQ(test, irq_poll_attr_show(&t->iop, "weight", buf),
			(ssize_t)-ENOENT);
	msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->polls), polls);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->masked), 0);
	/* The name is free again. */
	KUNIT_EXPECT_EQ(test, irq_poll_init_named(&t->iop, &cfg, ipt_poll), 0);
}

static void irq_poll_test_global_switch(struct kunit *test)
{
	struct ctl_table *ct = ipt_find_sysctl("irq_poll");
	struct ipt *sw = ipt_new(test, 16, false, IRQ_POLL_F_SWITCHABLE);
	struct ipt *legacy = ipt_new_legacy(test, 16);

	KUNIT_ASSERT_NOT_NULL(test, ct);
	KUNIT_ASSERT_EQ(test, ipt_sysctl_write(ct, "0"), 0);
	/* Off: only instances that opted in stop polling. */
	KUNIT_EXPECT_FALSE(test, irq_poll_active(&sw->iop));
	KUNIT_EXPECT_TRUE(test, irq_poll_active(&legacy->iop));
	KUNIT_ASSERT_EQ(test, ipt_sysctl_write(ct, "1"), 0);
	KUNIT_EXPECT_TRUE(test, irq_poll_active(&sw->iop));
}

static void irq_poll_test_softirq_squeeze(struct kunit *test)
{
	struct ctl_table *ct = ipt_find_sysctl("irq_poll_budget");
	struct ipt *t = ipt_new_legacy(test, 4);
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

struct ipt_trace {
	atomic_t sched;
	atomic_t poll;
	int work;
	int budget;
	unsigned int id;
};

static void ipt_probe_sched(void *data, const struct irq_poll *iop)
{
	struct ipt_trace *tr = data;

	if (iop->id == READ_ONCE(tr->id))
		atomic_inc(&tr->sched);
}

static void ipt_probe_poll(void *data, const struct irq_poll *iop, int work,
			   int budget, bool threaded)
{
	struct ipt_trace *tr = data;

	if (iop->id != READ_ONCE(tr->id))
		return;
	WRITE_ONCE(tr->work, work);
	WRITE_ONCE(tr->budget, budget);
	atomic_inc(&tr->poll);
}

static void irq_poll_test_tracepoints(struct kunit *test)
{
	struct ipt_trace *tr = kunit_kzalloc(test, sizeof(*tr), GFP_KERNEL);
	struct ipt *t = ipt_new(test, 16, false, 0);

	KUNIT_ASSERT_NOT_NULL(test, tr);
	tr->id = t->iop.id;
	if (register_trace_irq_poll_schedule(ipt_probe_sched, tr))
		kunit_skip(test, "trace points unavailable");
	KUNIT_ASSERT_EQ(test, register_trace_irq_poll_poll(ipt_probe_poll, tr),
			0);
	ipt_add(t, 5);
	ipt_sched_sync(t);
	KUNIT_EXPECT_TRUE(test, ipt_wait_for(ipt_idle(t)));
	unregister_trace_irq_poll_poll(ipt_probe_poll, tr);
	unregister_trace_irq_poll_schedule(ipt_probe_sched, tr);
	tracepoint_synchronize_unregister();
	/* One schedule event, one poll event with work=5 budget=16. */
	KUNIT_EXPECT_EQ(test, atomic_read(&tr->sched), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&tr->poll), 1);
	KUNIT_EXPECT_EQ(test, tr->work, 5);
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
	struct ipt *t = ipt_new(test, s->weight, true, 0);
	long polls = 0, exhausted = 0, empty = 0, deferrals = 0;
	int left = s->queued, count = 0;
	char val[16];

	snprintf(val, sizeof(val), "%d", s->defer);
	irq_poll_attr_store(&t->iop, "defer_hard_irqs", val, strlen(val));
	irq_poll_attr_store(&t->iop, "flush_timeout_ns", "1000000", 7);

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
	KUNIT_ASSERT_TRUE(test, ipt_wait_for(ipt_idle(t) &&
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
	KUNIT_CASE(irq_poll_test_init_enabled_idle),
	KUNIT_CASE(irq_poll_test_sched_polls_once),
	KUNIT_CASE(irq_poll_test_budget_honoured),
	KUNIT_CASE(irq_poll_test_full_budget_repolls),
	KUNIT_CASE(irq_poll_test_sched_twice_is_once),
	KUNIT_CASE(irq_poll_test_weight_store_applies),
	KUNIT_CASE(irq_poll_test_disable_waits_for_poll),
	KUNIT_CASE(irq_poll_test_disable_idempotent),
	KUNIT_CASE(irq_poll_test_disable_polls_scheduled),
	KUNIT_CASE(irq_poll_test_enable_disable_sched_race),
	KUNIT_CASE(irq_poll_test_ops_mask_pairing),
	KUNIT_CASE(irq_poll_test_ops_rearm_race),
	KUNIT_CASE(irq_poll_test_deferral_fires_and_ends),
	KUNIT_CASE(irq_poll_test_deferral_timer_beats_release),
	KUNIT_CASE(irq_poll_test_deferral_off_by_default),
	KUNIT_CASE(irq_poll_test_deferral_sched_overtakes),
	KUNIT_CASE(irq_poll_test_legacy_complete_no_deferral),
	KUNIT_CASE(irq_poll_test_ops_disable_unmasks),
	KUNIT_CASE(irq_poll_test_threaded_polls_in_kthread),
	KUNIT_CASE(irq_poll_test_threaded_switch_under_load),
	KUNIT_CASE_PARAM(irq_poll_test_sysctl_input, ipt_sysctl_gen_params),
	KUNIT_CASE_PARAM(irq_poll_test_sysfs_input, ipt_sysfs_gen_params),
	KUNIT_CASE(irq_poll_test_sysfs_roundtrip),
	KUNIT_CASE(irq_poll_test_init_named_invalid),
	KUNIT_CASE(irq_poll_test_destroy_quiesces),
	KUNIT_CASE(irq_poll_test_global_switch),
	KUNIT_CASE(irq_poll_test_softirq_squeeze),
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
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
