// SPDX-License-Identifier: GPL-2.0
/*
 * irq_poll: polled completion processing for interrupting devices
 *
 * Lineage: blk-iopoll (2009) brought NAPI's interrupt mitigation to block
 * drivers and became the subsystem-neutral irq_poll in 2015.  This version
 * keeps that API and adds what NAPI learned since.  The states and who
 * moves between them are tabled in include/linux/irq_poll.h; this comment
 * argues why the moves are safe.
 *
 * Ownership.  IRQ_POLL_F_SCHED is a lock on the instance.  A schedule wins
 * it with a cmpxchg on ->state and hands the instance to this CPU's poll
 * list or to the instance's kthread; the owner polls, and the library gives
 * the lock up only after ->poll() has returned, so nothing runs on behalf
 * of the instance once it is idle: the counters are plain stores of the
 * owner, and irq_poll_disable() needs nothing but the lock to know that
 * the instance is quiet.  irq_poll_complete*() only records the driver's
 * wish, in the per-CPU record of the poll in progress.
 *
 * No lost schedule.  A schedule that finds SCHED set sets MISSED in the
 * same cmpxchg.  The owner goes idle with a cmpxchg that fails while
 * MISSED is set, and then polls again instead: whatever the lost schedule
 * was for is reaped by that poll.  So a driver may complete and reschedule
 * right away (ib_poll_handler() does), and an interrupt at any point of a
 * poll is never dropped.
 *
 * Level-triggered lines.  An interrupt handler must not return with its
 * device still asserting the line, whether or not its schedule won: on
 * the CPU whose softirq it interrupted, the owner cannot run until the
 * handler stops firing.  With ops the library masks the device for every
 * schedule that does not find the instance off.  A schedule that loses
 * sets MISSED together with MASKING, masks, and clears MASKING with
 * release semantics; the owner waits for MASKING to clear before it acts
 * on MISSED, so that mask has reached the device before the owner's next
 * ->unmask() and cannot land after it, leaving an idle instance masked.
 *
 * The re-arm race.  A completion that arrives after the last look of
 * ->poll() but before ->unmask() raises no interrupt on devices that do
 * not latch while masked.  The owner therefore unmasks while it still owns
 * the instance and asks ->pending(); a completion seen there is polled at
 * once.  An interrupt raised by the unmask either finds the instance owned
 * (MISSED: polled again) or idle (scheduled normally).
 *
 * Budget.  ->poll() gets at most ->weight completions per call.  Using all
 * of it means "there is more": the instance stays owned and goes to the
 * tail of the list, so busy instances on one CPU are served round robin.
 * A softirq run stops after kernel.irq_poll_budget completions or
 * kernel.irq_poll_budget_usecs and re-raises itself for the rest;
 * __do_softirq() then decides whether ksoftirqd takes over, so a flood of
 * completions cannot starve the CPU.
 *
 * Deferral.  With defer_hard_irqs and flush_timeout_ns set, a completion
 * keeps the device masked and hands ownership to a pinned hrtimer through
 * DEFERRED; the timer, an irq_poll_sched() or irq_poll_disable() takes it
 * back by clearing DEFERRED, whichever comes first.  The timer is armed
 * under ->timer_lock with DEFERRED set first, so that a disable which took
 * DEFERRED and then took the lock knows no arming is still under way when
 * it cancels the timer.
 *
 * Disable.  irq_poll_disable() nests.  The first caller sets DISABLE,
 * takes ownership when the owner lets go (or from the timer) and marks
 * the instance DISABLED; the others wait for DISABLED.  A switchable
 * instance goes back to its driver's interrupt path, so the disabler first
 * drains it as its owner: it polls, unmasks, re-checks, and only sets
 * DISABLED with a cmpxchg that fails while MISSED is set.  Until then
 * irq_poll_handoff() keeps telling handlers that polling takes their
 * completions, and afterwards that they reap them themselves; the two
 * never overlap.  The last irq_poll_enable() reverses it, waiting for a
 * grace period first, so that handlers still reaping in hard-IRQ context
 * are done before the first poll.
 */
#include <linux/cpuhotplug.h>
#include <linux/ctype.h>
#include <linux/export.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq_poll.h>
#include <linux/kobject.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysctl.h>
#include <linux/sysfs.h>
#include <linux/wait_bit.h>
#include <kunit/visibility.h>

#include "irq_poll_internal.h"

/* Bits of irq_poll.state beyond 6.1's SCHED and DISABLE, see irq_poll.h */
enum {
	IRQ_POLL_F_MISSED	= 2,	/* a schedule found the instance owned */
	IRQ_POLL_F_MASKING	= 3,	/* that schedule is still masking */
	IRQ_POLL_F_DISABLED	= 4,	/* disabled; SCHED held by the library */
	IRQ_POLL_F_DEFERRED	= 5,	/* owned by the deferral timer */
	IRQ_POLL_F_THREADED	= 6,	/* handed to the kthread */
	IRQ_POLL_F_WARNED	= 7,	/* misuse of this instance reported */
	IRQ_POLL_F_PARKED	= 8,	/* auto: on the driver's interrupt path */
};

#define IRQ_POLL_SCHED		BIT(IRQ_POLL_F_SCHED)
#define IRQ_POLL_DISABLE	BIT(IRQ_POLL_F_DISABLE)
#define IRQ_POLL_MISSED		BIT(IRQ_POLL_F_MISSED)
#define IRQ_POLL_MASKING	BIT(IRQ_POLL_F_MASKING)
#define IRQ_POLL_DISABLED	BIT(IRQ_POLL_F_DISABLED)
#define IRQ_POLL_DEFERRED	BIT(IRQ_POLL_F_DEFERRED)
#define IRQ_POLL_PARKED		BIT(IRQ_POLL_F_PARKED)

/* An unnamed instance must stay within a cache line: every ib_cq has one. */
static_assert(sizeof(struct irq_poll) <= 64);

/*
 * Completions reaped per softirq run before yielding.  256 is what the
 * blk-iopoll seeds settled on (up from 64) and what 6.1 hard-coded.
 */
#define IRQ_POLL_BUDGET_DEFAULT		256

/*
 * Time per softirq run, in microseconds.  2000 matches MAX_SOFTIRQ_TIME in
 * kernel/softirq.c and netdev_budget_usecs at HZ=1000: one run of this
 * softirq may take what __do_softirq() allows for all of them before it
 * punts to ksoftirqd.  Capped at 100 ms, beyond which the RCU stall and
 * soft-lockup detectors start to fire.
 */
#define IRQ_POLL_BUDGET_USECS_DEFAULT	2000
#define IRQ_POLL_BUDGET_USECS_MAX	100000

/*
 * Deferral limits.  A timer period under 10 us costs more in timer
 * interrupts than the device interrupts it saves (an hrtimer expiry and a
 * softirq are a few microseconds each); over 100 ms a masked device looks
 * hung to its users.  More than 100 empty polls in a row mean the device
 * went idle and should interrupt again.
 */
#define IRQ_POLL_FLUSH_NS_MIN		(10 * NSEC_PER_USEC)
#define IRQ_POLL_FLUSH_NS_MAX		(100 * NSEC_PER_MSEC)
#define IRQ_POLL_DEFER_MAX		100

/*
 * IRQ_POLL_MODE_AUTO.  Polling pays when one wake-up (an interrupt or the
 * deferral timer) serves several completions.  So a deferral, a chain of
 * windows, starts only after a poll that found at least two, never after
 * one that found none, nor after one that found one, with one exception:
 * on an instance that is not switchable, one completion whose interrupt
 * took the CPU from a task (the load is on the CPU, not waiting for the
 * device) starts a chain too.  Such an instance has no cheaper path than
 * masking, a softirq and unmasking per completion, and a stream that
 * arrives one completion per interrupt, such as a NIC's 64 KiB segments,
 * batches only in windows; whether they pay is left to the trial pairs
 * below, and an idle CPU, low load, never defers a single completion.
 * The first window of a chain is the time four completions take at the
 * rate seen so far.  There is none before a rate was seen, nor when
 * completions come so far apart that even the longest window would not
 * collect two (a timer interrupt per completion saves nothing), unless
 * the interrupt took the CPU from a task and they come at most the
 * longest window apart: then the load's pace may be the CPU's, which the
 * wake-ups a window saves go to, and completions may come faster while
 * the device is masked than the gaps between interrupts say (mptsas at a
 * depth of 4 under QEMU: 500 us windows find about two where the gaps
 * predict 1.0 to 1.4); the trial pairs judge.  The
 * chain goes on while its windows find work, and the device stays
 * masked.  A window is doubled after a poll that found 4 to 15 at a rate
 * (completions per window time) no lower than three
 * quarters of the chain's (the average of its windows' rates, weight
 * 1/4: windows find few, and one window's count is noisy): completions
 * keep arriving all through the window, so a longer one serves more per
 * wake-up (from 16 on, a wake-up costs little per completion and a longer
 * window only adds latency).  It is halved when its rate falls below two
 * thirds of the chain's, or of the rate interrupts delivered outside
 * windows: then the window outlasts the work in flight and slows the
 * device down.  It is halved, too, after a window that found one: the
 * load may only have dipped, and where only windows batch (polls after an
 * interrupt find one each) ending the chain there would end the batching.
 * Not, though, while the chain's windows still find 1.5 or more on
 * average at that length, at no less than the rate interrupts delivered:
 * with a few commands in flight, a window that finds one is chance, and
 * halving it would leave windows too short to find two.
 * An empty window ends the chain, as does one of the shortest length that
 * found one.  Windows stay between 10 us (a shorter timer costs more than
 * it saves) and 500 us (the longest fixed deferral measured to pay under
 * QEMU, tests/run.sh).
 *
 * A switchable instance whose polls find fewer than 1.25 on average after
 * 8 polls, such as one command in flight, is parked on its driver's
 * interrupt path, which costs less than masking, a softirq and unmasking
 * for one completion; not within 64 polls of a deferral, though, since a
 * load that batches only while deferred finds one at a time in between.
 * Every 256th interrupt a parked instance is polled again on trial, so a
 * rising load is noticed within 256 interrupts, at the price of one trial
 * (8 polls) per 256.  While windows pay and the last trial opened one, a
 * trial lasts 64 polls: where only windows batch, a poll after an
 * interrupt that finds the two a chain needs is rare.
 */
#define IRQ_POLL_AUTO_PARK_X256		320
#define IRQ_POLL_AUTO_WARMUP		8
#define IRQ_POLL_AUTO_CALM		64
#define IRQ_POLL_AUTO_TRIAL		256
#define IRQ_POLL_AUTO_NS_MIN		IRQ_POLL_FLUSH_NS_MIN
#define IRQ_POLL_AUTO_NS_MAX		(500 * NSEC_PER_USEC)
/* Gaps beyond this are idle time, not a rate. */
#define IRQ_POLL_AUTO_GAP_MAX		(10 * NSEC_PER_MSEC)

/*
 * Windows cost throughput where the device is the bottleneck: in a loop
 * such as a disk at a shallow queue depth with CPU to spare, a completion
 * that waits in a window is resubmitted late and the device idles, which
 * nothing the controller sees before or inside the window shows.  So, as
 * lib/dim does for network interrupt moderation, the mode measures the
 * result.  Completions are counted in epochs of IRQ_POLL_AUTO_EPOCH.  A
 * trial pair compares the rate with windows and without (completions over
 * time, each arm's blocks summed; see IRQ_POLL_AUTO_BLOCK_NS); it starts
 * when a window would open, so a load that never batches never pays for
 * one.  The instance is not parked during it: a block without windows is
 * seen through (where only windows batch, its polls find one each), the
 * pair is dropped if the load stopped batching in one with.  Windows must
 * buy throughput: while the average of the pairs' ratios stays at
 * IRQ_POLL_AUTO_PAY_X1024 / 1024 (4% more with windows) or above, they
 * open as above, as they do pay where the CPU sets the pace (the wake-ups
 * they save go to the load).  Where the device or the submitter sets it,
 * they buy only interrupts: free in a closed loop, but under a load at a
 * fixed rate every completion they hold back is late, and the two look the
 * same from here (completions come at the same pace, and pairs measure a
 * little above 1 at a fixed rate).  So below the margin they do not open, a
 * switchable instance is parked 64 polls after the last window however
 * much its polls find (the driver's handler reaps all of it, too), and
 * others are polled at every interrupt.  The verdict is followed for a
 * stretch of epochs (a trial of a parked instance counts as one, at most
 * one per IRQ_POLL_AUTO_EPOCH_NS), doubled
 * while pairs confirm it, up to 32 for windows and 128 against them: in
 * the end one epoch in 34, or in 130, tries the losing choice.  A new
 * verdict for windows is put to the test again after 2 epochs, one against
 * them after 8.  The asymmetry is that of the costs: windows that do not
 * pay cost throughput or latency, so that verdict is checked soon, while
 * doing without them costs at most the interrupts they would save; and
 * where they do not pay, every trial pair is an epoch of lost throughput,
 * which in the first seconds after a switch would otherwise come every few
 * epochs, and later one epoch in 34.  An idle gap starts the epoch again
 * and drops a pair.
 */
#define IRQ_POLL_AUTO_EPOCH		512
/*
 * A trial pair interleaves its two arms in blocks of
 * IRQ_POLL_AUTO_BLOCK_NS, ordered ABBA ABBA... (which arm leads alternates
 * from pair to pair), so that a load whose pace drifts over tens of
 * milliseconds, as a TCP stream's does under QEMU, weighs on both arms
 * alike: two epochs in a row put all of a drift on the arm that came
 * second.  The first IRQ_POLL_AUTO_WASH_NS of a block are not counted: in
 * a closed loop the pace of the arm before carries over until the commands
 * in flight have turned once.  The pair ends after IRQ_POLL_AUTO_BLOCKS
 * blocks, or more (four at a time) until each arm counted
 * IRQ_POLL_AUTO_EPOCH / 4, and is dropped if that takes eight times as
 * long (at 2000 completions a second an arm counts 8 a block).  A pair
 * lasts a time, not a count, and so does an epoch at high rates: it ends
 * after IRQ_POLL_AUTO_EPOCH completions but not before
 * IRQ_POLL_AUTO_EPOCH_NS, a pair's IRQ_POLL_AUTO_BLOCKS blocks (nor does a
 * trial of a parked instance count as an epoch more often), so that at
 * any rate the pairs take at most one stretch's share of the time.
 */
#define IRQ_POLL_AUTO_BLOCK_NS		(8 * NSEC_PER_MSEC)
#define IRQ_POLL_AUTO_WASH_NS		(4 * NSEC_PER_MSEC)
#define IRQ_POLL_AUTO_BLOCKS		8
#define IRQ_POLL_AUTO_EPOCH_NS		(IRQ_POLL_AUTO_BLOCKS * IRQ_POLL_AUTO_BLOCK_NS)
#define IRQ_POLL_AUTO_PAY_X1024		1065
#define IRQ_POLL_AUTO_STRETCH_MIN	2
#define IRQ_POLL_AUTO_STRETCH_NOWIN	8
#define IRQ_POLL_AUTO_STRETCH_MAX	32
#define IRQ_POLL_AUTO_STRETCH_NOWIN_MAX	128

/* Longest instance name, without the NUL; kthread names cut it at 15. */
#define IRQ_POLL_NAME_MAX		31

static int sysctl_irq_poll __read_mostly;
static int sysctl_irq_poll_budget __read_mostly = IRQ_POLL_BUDGET_DEFAULT;
static int sysctl_irq_poll_budget_usecs __read_mostly =
	IRQ_POLL_BUDGET_USECS_DEFAULT;
static int irq_poll_budget_usecs_max = IRQ_POLL_BUDGET_USECS_MAX;

/**
 * struct irq_poll_stats - counters of a named instance, shown in sysfs
 * @scheduled: moves out of idle or out of a deferral
 * @polls: calls of ->poll()
 * @reaped: sum of the values ->poll() returned
 * @budget_exhausted: polls that used their whole budget
 * @empty_polls: polls that returned 0
 * @missed: polls again because a schedule had found the instance owned
 * @rearm_races: polls again because ->pending() saw work after ->unmask()
 * @deferrals: times the deferral timer was armed instead of unmasking
 * @parks: times IRQ_POLL_MODE_AUTO parked the instance on the driver's path
 * @trials: times it left the parked state to poll on trial
 *
 * Only the owner writes them (plain stores); readers get a snapshot.
 */
struct irq_poll_stats {
	unsigned long scheduled;
	unsigned long polls;
	unsigned long reaped;
	unsigned long budget_exhausted;
	unsigned long empty_polls;
	unsigned long missed;
	unsigned long rearm_races;
	unsigned long deferrals;
	unsigned long parks;
	unsigned long trials;
};

/**
 * struct irq_poll_ext - what a named instance has beyond struct irq_poll
 * @iop: the instance
 * @name: its name
 * @flags: IRQ_POLL_CFG_* flags
 * @mode: how it is polled; changed only while the instance is disabled,
 *	  under irq_poll_mutex
 * @thread: the kthread, while @mode is IRQ_POLL_MODE_THREADED
 * @defer_hard_irqs: sysfs setting, see irq_poll_complete_done()
 * @flush_timeout_ns: sysfs setting, deferral timer period
 * @defer_count: empty polls still tolerated masked (owner only)
 * @auto_state: what IRQ_POLL_MODE_AUTO learned
 * @timer: deferral timer
 * @timer_lock: orders arming @timer against irq_poll_disable()
 * @stats: counters (owner only)
 * @node: entry on irq_poll_instances, under irq_poll_mutex
 * @kobj: sysfs directory; its release frees this structure
 * @kobj_added: @kobj is in sysfs
 */
struct irq_poll_ext {
	struct irq_poll *iop;
	char name[IRQ_POLL_NAME_MAX + 1];
	unsigned int flags;
	enum irq_poll_mode mode;
	struct task_struct *thread;
	unsigned int defer_hard_irqs;
	u32 flush_timeout_ns;
	unsigned int defer_count;
	struct irq_poll_auto auto_state;
	struct hrtimer timer;
	raw_spinlock_t timer_lock;
	struct irq_poll_stats stats;
	struct list_head node;
	struct kobject kobj;
	bool kobj_added;
};

/*
 * Only the owner writes counters, so a plain store does; sysfs readers use
 * READ_ONCE().  Unnamed instances have none.
 */
static void irq_poll_count(struct irq_poll *iop, size_t offset,
			   unsigned long n)
{
	unsigned long *ctr;

	if (!iop->ext)
		return;
	ctr = (unsigned long *)((char *)&iop->ext->stats + offset);
	WRITE_ONCE(*ctr, *ctr + n);
}

#define irq_poll_stat_add(iop, field, n)				\
	irq_poll_count(iop, offsetof(struct irq_poll_stats, field), n)

static const char *irq_poll_name(const struct irq_poll *iop)
{
	return iop->ext ? iop->ext->name : "";
}

#define CREATE_TRACE_POINTS
#include <trace/events/irq_poll.h>

/**
 * struct irq_poll_cpu - per-CPU softirq state
 * @list: scheduled instances; only touched with interrupts off
 * @squeezed: softirq runs cut short by budget or time with work left
 */
struct irq_poll_cpu {
	struct list_head list;
	unsigned long squeezed;
};

static DEFINE_PER_CPU(struct irq_poll_cpu, irq_poll_pcpu);

enum irq_poll_end {
	IRQ_POLL_END_NONE,		/* ->poll() did not complete */
	IRQ_POLL_END_COMPLETE,		/* irq_poll_complete() */
	IRQ_POLL_END_DONE,		/* irq_poll_complete_done() */
};

/**
 * struct irq_poll_run - the ->poll() call in progress on this CPU
 * @iop: instance being polled, NULL between calls
 * @budget: budget passed to that call
 * @end: how the driver completed, if it did
 * @defer_ns: irq_poll_complete_done() decided to defer for so long (0: not)
 * @park: irq_poll_complete_done() decided to park (IRQ_POLL_MODE_AUTO)
 *
 * ->poll() runs with BH disabled, so at most one call is in progress per
 * CPU and the record is stable while it runs.
 */
struct irq_poll_run {
	struct irq_poll *iop;
	int budget;
	enum irq_poll_end end;
	u32 defer_ns;
	bool park;
};

static DEFINE_PER_CPU(struct irq_poll_run, irq_poll_running);

/* Nesting of irq_poll_disable()/irq_poll_enable(); any context. */
static DEFINE_SPINLOCK(irq_poll_lock);

/* Named instances, their modes and kernel.irq_poll; may sleep. */
static DEFINE_MUTEX(irq_poll_mutex);
static LIST_HEAD(irq_poll_instances);

static struct kobject *irq_poll_kobj;
/* Not static for KUnit, which checks that instances work without it. */
VISIBLE_IF_KUNIT struct kset *irq_poll_kset;
EXPORT_SYMBOL_IF_KUNIT(irq_poll_kset);

static bool irq_poll_switchable(const struct irq_poll *iop)
{
	return iop->ext && (iop->ext->flags & IRQ_POLL_CFG_SWITCHABLE);
}

/*
 * Report a driver bug once per instance, naming its poll function, as
 * __napi_poll() does; the instance goes on working.
 */
static __printf(2, 3) void irq_poll_warn(struct irq_poll *iop,
					 const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (test_and_set_bit(IRQ_POLL_F_WARNED, &iop->state))
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("irq_poll: %s%s%pS: %pV", irq_poll_name(iop),
	       iop->ext ? " " : "", iop->poll, &vaf);
	va_end(args);
}

/* Queue an owned instance for its poller.  Interrupts off. */
static void irq_poll_queue_irqoff(struct irq_poll *iop)
{
	struct irq_poll_ext *ext = iop->ext;

	if (ext && READ_ONCE(ext->mode) == IRQ_POLL_MODE_THREADED) {
		/* Pairs with set_current_state() in irq_poll_thread_wait(). */
		set_bit(IRQ_POLL_F_THREADED, &iop->state);
		wake_up_process(ext->thread);
		return;
	}
	list_add_tail(&iop->list, this_cpu_ptr(&irq_poll_pcpu.list));
	raise_softirq_irqoff(IRQ_POLL_SOFTIRQ);
}

static void irq_poll_queue(struct irq_poll *iop)
{
	unsigned long flags;

	local_irq_save(flags);
	irq_poll_queue_irqoff(iop);
	local_irq_restore(flags);
}

enum irq_poll_sched_ret {
	IRQ_POLL_REFUSED,	/* off or disabled: the caller reaps */
	IRQ_POLL_SCHEDULED,	/* this call made it owned */
	IRQ_POLL_MISSED_SET,	/* owned elsewhere; the owner polls again */
};

/* Where IRQ_POLL_MODE_AUTO stands in its trials (struct irq_poll_auto) */
enum {
	IRQ_POLL_AUTO_FOLLOW,	/* follow the verdict for a stretch */
	IRQ_POLL_AUTO_ARMED,	/* start a trial pair at the next window */
	IRQ_POLL_AUTO_PAIR1,	/* in the first half of a trial pair */
	IRQ_POLL_AUTO_PAIR2,	/* in the second half */
};

/* Give up the trial pair in progress; the verdict stands. */
static void irq_poll_auto_drop_pair(struct irq_poll_auto *a)
{
	a->phase = IRQ_POLL_AUTO_ARMED;
	a->nowin = !a->pays;
	a->rechain = false;
}

/*
 * One more epoch of the stretch has passed at @now, unless the last one
 * ended less than IRQ_POLL_AUTO_EPOCH_NS before (a trial, see
 * irq_poll_auto_trial()).
 */
static void irq_poll_auto_tick(struct irq_poll_auto *a, u64 now)
{
	if (a->phase != IRQ_POLL_AUTO_FOLLOW ||
	    now - a->tick_ns < IRQ_POLL_AUTO_EPOCH_NS)
		return;
	a->tick_ns = now;
	if (!--a->epochs_left)
		a->phase = IRQ_POLL_AUTO_ARMED;
}

/*
 * IRQ_POLL_MODE_AUTO: learn the rate afresh (a parked instance is polled
 * on trial, or the mode was switched on), but keep what trial pairs
 * found: the epoch the instance parked in is dropped, the verdict stands.
 * The count towards the next trial starts again at the next park.
 */
static void irq_poll_auto_relearn(struct irq_poll_auto *a)
{
	a->irqs = 0;
	/* 1.5 per poll: neither parks nor defers before it has seen polls. */
	a->work_x256 = 384;
	a->gap_ns = 0;
	a->span_ns = 0;
	a->span_x256 = 0;
	a->last_ns = 0;
	a->polls = 0;
	a->window_ns = 0;
	a->rate = 0;
	a->calm = IRQ_POLL_AUTO_CALM;
	a->quiet = IRQ_POLL_AUTO_CALM;
	a->epoch_ns = 0;
	a->epoch_work = 0;
}

/*
 * IRQ_POLL_MODE_AUTO: a parked instance is polled on trial (its 256th
 * interrupt since it parked).  The trial counts as an epoch of the stretch
 * (at its first poll, irq_poll_auto_step()), but not within an epoch's
 * time of the last: at high rates a parked instance is polled on trial
 * every few milliseconds, and a stretch counted in trials would let the
 * trial pairs, which last a time, take a large share of it.  The trial
 * lasts 8 polls, or 64 while windows pay and the last trial (or the polls
 * before the first) opened one.
 */
VISIBLE_IF_KUNIT void irq_poll_auto_trial(struct irq_poll_auto *a)
{
	bool resume = a->pays && a->batched;

	irq_poll_auto_relearn(a);
	a->batched = false;
	if (resume)
		a->calm = 0;
}
EXPORT_SYMBOL_IF_KUNIT(irq_poll_auto_trial);

/* IRQ_POLL_MODE_AUTO: start afresh (the mode was switched on). */
VISIBLE_IF_KUNIT void irq_poll_auto_reset(struct irq_poll_auto *a)
{
	irq_poll_auto_relearn(a);
	/* A trial pair at the first window, the arm with windows leading. */
	a->pay_x1024 = 0;
	a->stretch = IRQ_POLL_AUTO_STRETCH_MIN;
	a->epochs_left = 0;
	a->tick_ns = 0;
	a->phase = IRQ_POLL_AUTO_ARMED;
	a->nowin = false;
	a->rechain = false;
	a->pays = true;
	a->flip = false;
	a->batched = false;
}
EXPORT_SYMBOL_IF_KUNIT(irq_poll_auto_reset);

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * KUnit: follow a verdict for windows (@pays) or against them for the
 * longest stretch, as after pairs that confirmed it, so that a test of
 * the rules for windows is not cut short by a trial pair.
 */
void irq_poll_auto_follow(struct irq_poll_auto *a, bool pays)
{
	a->pays = pays;
	a->nowin = !pays;
	a->pay_x1024 = pays ? 2 * IRQ_POLL_AUTO_PAY_X1024 : 512;
	a->stretch = pays ? IRQ_POLL_AUTO_STRETCH_MAX :
			    IRQ_POLL_AUTO_STRETCH_NOWIN_MAX;
	a->epochs_left = a->stretch;
	a->phase = IRQ_POLL_AUTO_FOLLOW;
}
EXPORT_SYMBOL_IF_KUNIT(irq_poll_auto_follow);
#endif

/*
 * The one place that decides a schedule, in a single cmpxchg on ->state,
 * with interrupts off so that a MASKING window is never preempted.
 */
static enum irq_poll_sched_ret irq_poll_sched_irqoff(struct irq_poll *iop)
{
	const struct irq_poll_ops *ops = iop->ops;
	bool switchable = irq_poll_switchable(iop);
	unsigned long old = READ_ONCE(iop->state), new;
	enum irq_poll_sched_ret ret;
	bool trial = false;

	/*
	 * Parked: count the interrupt the driver takes.  Only the instance's
	 * interrupt handler calls irq_poll_handoff() (see its Context), so
	 * the count has one writer at a time.
	 */
	if (old & IRQ_POLL_PARKED)
		trial = ++iop->ext->auto_state.irqs >= IRQ_POLL_AUTO_TRIAL;

	do {
		if (old & IRQ_POLL_DISABLED) {
			/* Off: the driver's handler reaps by itself. */
			if (switchable || !ops)
				return IRQ_POLL_REFUSED;
			/* Kept masked; irq_poll_enable() polls. */
			new = old | IRQ_POLL_MISSED | IRQ_POLL_MASKING;
			ret = IRQ_POLL_MISSED_SET;
		} else if (old & IRQ_POLL_DISABLE) {
			/* 6.1 behaviour for instances without ops */
			if (!ops)
				return IRQ_POLL_REFUSED;
			/* The disabler drains (switchable) or enable polls. */
			new = old | IRQ_POLL_MISSED | IRQ_POLL_MASKING;
			ret = IRQ_POLL_MISSED_SET;
		} else if (old & IRQ_POLL_PARKED) {
			/* The driver reaps, but now and then polling tries. */
			if (!trial)
				return IRQ_POLL_REFUSED;
			new = (old & ~IRQ_POLL_PARKED) | IRQ_POLL_SCHED;
			ret = IRQ_POLL_SCHEDULED;
		} else if (old & IRQ_POLL_DEFERRED) {
			/* Take it from the timer: poll now. */
			new = old & ~IRQ_POLL_DEFERRED;
			ret = IRQ_POLL_SCHEDULED;
		} else if (old & IRQ_POLL_SCHED) {
			new = old | IRQ_POLL_MISSED;
			if (ops)
				new |= IRQ_POLL_MASKING;
			ret = IRQ_POLL_MISSED_SET;
		} else {
			new = old | IRQ_POLL_SCHED;
			ret = IRQ_POLL_SCHEDULED;
		}
	} while (!try_cmpxchg(&iop->state, &old, new));

	if (ret == IRQ_POLL_MISSED_SET) {
		if (ops) {
			ops->mask(iop);
			/* Pairs with smp_cond_load_acquire() in irq_poll_take_missed(). */
			clear_bit_unlock(IRQ_POLL_F_MASKING, &iop->state);
		}
		return ret;
	}

	/* We own it now. */
	if (old & IRQ_POLL_PARKED) {
		irq_poll_auto_trial(&iop->ext->auto_state);
		irq_poll_stat_add(iop, trials, 1);
	}
	if (old & IRQ_POLL_DEFERRED) {
		/* The device is still masked; the timer may fire for nothing. */
		hrtimer_try_to_cancel(&iop->ext->timer);
	} else if (ops) {
		ops->mask(iop);
	}
	irq_poll_stat_add(iop, scheduled, 1);
	trace_irq_poll_schedule(iop);
	irq_poll_queue_irqoff(iop);
	return ret;
}

static enum irq_poll_sched_ret __irq_poll_sched(struct irq_poll *iop)
{
	enum irq_poll_sched_ret ret;
	unsigned long flags;

	local_irq_save(flags);
	ret = irq_poll_sched_irqoff(iop);
	local_irq_restore(flags);
	return ret;
}

/**
 * irq_poll_sched - schedule a poll of @iop
 * @iop: the instance
 *
 * Typically called from the device's interrupt handler.  If @iop is idle
 * it is scheduled; if it is already scheduled, being polled or deferred,
 * the poll it is in is followed by another one (a deferred instance is
 * polled at once), so nothing this call was made for is lost.  With ops,
 * the device is masked in every case but one: a switchable instance that
 * is off, whose driver then reaps by itself (see irq_poll_handoff()).
 * An instance without ops that is disabled ignores the call, as in 6.1.
 *
 * Context: any context, including hard IRQ.
 * Return: true if this call scheduled @iop.
 */
bool irq_poll_sched(struct irq_poll *iop)
{
	return __irq_poll_sched(iop) == IRQ_POLL_SCHEDULED;
}
EXPORT_SYMBOL(irq_poll_sched);

/**
 * irq_poll_handoff - hand an interrupt's completions to polling, if it is on
 * @iop: the instance
 *
 * For the interrupt handler of a switchable instance
 * (IRQ_POLL_CFG_SWITCHABLE), which has a completion path of its own: one
 * call decides, atomically against mode switches and
 * irq_poll_disable()/irq_poll_enable(), whether polling takes care of the
 * completions this interrupt is for.  If so, the device has been masked
 * and the instance scheduled (or marked for another poll); otherwise the
 * handler reaps them itself, as before the conversion, and ->poll() does
 * not run until the handler has returned.
 *
 * Context: the instance's interrupt handler (one at a time), in hard IRQ,
 * or inside rcu_read_lock() together with the handler's own reaping when
 * this returns false: irq_poll_enable() waits for an RCU grace period
 * before the first poll.
 * Return: true if polling takes the completions, false if the caller must
 * reap them.
 */
bool irq_poll_handoff(struct irq_poll *iop)
{
	return __irq_poll_sched(iop) != IRQ_POLL_REFUSED;
}
EXPORT_SYMBOL_GPL(irq_poll_handoff);

/*
 * Owner: act on MISSED.  The schedule that set it (with ops) masks the
 * device and then clears MASKING; wait for that, so that the mask is done
 * before this owner may unmask again.  Returns false if MISSED was clear.
 */
static bool irq_poll_take_missed(struct irq_poll *iop)
{
	if (!test_bit(IRQ_POLL_F_MISSED, &iop->state))
		return false;
	/* Pairs with clear_bit_unlock() in irq_poll_sched_irqoff(). */
	smp_cond_load_acquire(&iop->state, !(VAL & IRQ_POLL_MASKING));
	clear_bit(IRQ_POLL_F_MISSED, &iop->state);
	irq_poll_stat_add(iop, missed, 1);
	trace_irq_poll_rearm(iop, true);
	return true;
}

/*
 * Owner: go idle, unless a schedule came in meanwhile.  Fully ordered:
 * the next owner sees all this one did, and a disabler that set DISABLE
 * before the cmpxchg is woken.  @park: hand the instance to the driver's
 * interrupt path (IRQ_POLL_MODE_AUTO).  Returns false if MISSED was set.
 */
static bool irq_poll_release(struct irq_poll *iop, bool park)
{
	unsigned long old = READ_ONCE(iop->state), new;

	do {
		if (old & (IRQ_POLL_MISSED | IRQ_POLL_MASKING))
			return false;
		new = old & ~IRQ_POLL_SCHED;
		if (park)
			new |= IRQ_POLL_PARKED;
	} while (!try_cmpxchg(&iop->state, &old, new));

	if (old & IRQ_POLL_DISABLE)
		wake_up_var(&iop->state);
	return true;
}

/* Owner, DISABLE set: let the waiting irq_poll_disable() take over. */
static void irq_poll_hand_over(struct irq_poll *iop)
{
	clear_bit(IRQ_POLL_F_SCHED, &iop->state);
	/* Pairs with the cmpxchg in irq_poll_claim_disabled(). */
	smp_mb__after_atomic();
	wake_up_var(&iop->state);
}

/*
 * Look up the poll in progress on this CPU.  Returns it if it polls @iop,
 * NULL (after complaining) otherwise.
 */
static struct irq_poll_run *irq_poll_this_run(struct irq_poll *iop)
{
	struct irq_poll_run *run = this_cpu_ptr(&irq_poll_running);

	if (run->iop != iop || run->end != IRQ_POLL_END_NONE) {
		irq_poll_warn(iop, "completion outside its poll function or twice\n");
		return NULL;
	}
	return run;
}

/**
 * irq_poll_complete - end polling of @iop
 * @iop: the instance
 *
 * Call from the poll function when it reaped fewer completions than its
 * budget.  When the poll function returns, the instance goes idle (with
 * ops, the device is unmasked and re-checked) unless a schedule came in
 * while it ran, in which case it is polled again.  Never defers.
 *
 * Context: from the instance's poll function only.
 */
void irq_poll_complete(struct irq_poll *iop)
{
	struct irq_poll_run *run = irq_poll_this_run(iop);

	if (run)
		run->end = IRQ_POLL_END_COMPLETE;
}
EXPORT_SYMBOL(irq_poll_complete);

/*
 * IRQ_POLL_MODE_AUTO, at the end of a trial pair: weigh the ratio of its
 * arms' rates into the average of the pairs, and follow the verdict.
 */
static void irq_poll_auto_decide(struct irq_poll_auto *a, u64 now)
{
	u64 rate[2];
	u32 ratio;
	bool pays;
	int i;

	for (i = 0; i < 2; i++)
		rate[i] = clamp_t(u64, div64_u64((u64)a->arm_work[i] << 32,
						 max_t(u64, a->arm_ns[i], 1)),
				  1, U32_MAX);
	ratio = min_t(u64, div64_u64(rate[0] * 1024, rate[1]), 4096);
	if (a->pay_x1024)
		a->pay_x1024 += ((int)ratio - (int)a->pay_x1024) / 4;
	else
		a->pay_x1024 = ratio;
	pays = a->pay_x1024 >= IRQ_POLL_AUTO_PAY_X1024;
	if (pays == a->pays)
		a->stretch = min(2 * a->stretch,
				 pays ? IRQ_POLL_AUTO_STRETCH_MAX :
					IRQ_POLL_AUTO_STRETCH_NOWIN_MAX);
	else if (pays)
		a->stretch = IRQ_POLL_AUTO_STRETCH_MIN;
	else
		a->stretch = IRQ_POLL_AUTO_STRETCH_NOWIN;
	a->pays = pays;
	a->epochs_left = a->stretch;
	a->tick_ns = now;
	a->phase = IRQ_POLL_AUTO_FOLLOW;
	a->nowin = !pays;
	a->rechain = false;
}

/*
 * IRQ_POLL_MODE_AUTO, in a trial pair: count @work completions found at
 * @now into the current block (epoch_ns and epoch_work are the block's);
 * at its end, add what was counted to its arm and move on to the next
 * block, or decide.
 */
static void irq_poll_auto_block(struct irq_poll_auto *a, u64 now, int work)
{
	a->epoch_work += work;
	if (!a->counting && now - a->epoch_ns >= IRQ_POLL_AUTO_WASH_NS) {
		a->count_ns = now;
		a->count_work = a->epoch_work;
		a->counting = true;
	}
	if (now - a->epoch_ns < IRQ_POLL_AUTO_BLOCK_NS)
		return;
	a->arm_work[a->nowin] += a->epoch_work - a->count_work;
	a->arm_ns[a->nowin] += now - a->count_ns;
	a->epoch_ns = now;
	a->epoch_work = 0;
	a->counting = false;
	if (++a->block >= 8 * IRQ_POLL_AUTO_BLOCKS) {
		/* Too slow a load to tell. */
		irq_poll_auto_drop_pair(a);
		return;
	}
	if (a->block >= IRQ_POLL_AUTO_BLOCKS && !(a->block % 4) &&
	    min(a->arm_work[0], a->arm_work[1]) >= IRQ_POLL_AUTO_EPOCH / 4) {
		irq_poll_auto_decide(a, now);
		return;
	}
	/* ABBA: the arm changes before every odd block. */
	if (a->block & 1)
		a->nowin = !a->nowin;
	if (a->block == IRQ_POLL_AUTO_BLOCKS / 2)
		a->phase = IRQ_POLL_AUTO_PAIR2;
}

/*
 * IRQ_POLL_MODE_AUTO: count @work completions found at @now into the
 * current epoch (IRQ_POLL_AUTO_EPOCH of them, IRQ_POLL_AUTO_EPOCH_NS at
 * least), or the trial pair's block; at an epoch's end, move on in the
 * stretch.  @idle: a gap of IRQ_POLL_AUTO_GAP_MAX or more came before,
 * which starts the epoch again (and drops a pair).
 */
static void irq_poll_auto_epoch(struct irq_poll_auto *a, u64 now, int work,
				bool idle)
{
	if (idle || !a->epoch_ns) {
		a->epoch_ns = now;
		a->epoch_work = 0;
		if (a->phase >= IRQ_POLL_AUTO_PAIR1)
			irq_poll_auto_drop_pair(a);
		return;
	}
	if (a->phase >= IRQ_POLL_AUTO_PAIR1) {
		irq_poll_auto_block(a, now, work);
		return;
	}
	a->epoch_work += work;
	if (a->epoch_work < IRQ_POLL_AUTO_EPOCH ||
	    now - a->epoch_ns < IRQ_POLL_AUTO_EPOCH_NS)
		return;
	a->epoch_ns = now;
	a->epoch_work = 0;
	irq_poll_auto_tick(a, now);
}

/*
 * IRQ_POLL_MODE_AUTO: learn from a completed poll that found @work at time
 * @now, and decide (see IRQ_POLL_AUTO_* for the reasons).  @can_park: the
 * instance is switchable.  @busy: the interrupt that led to this poll took
 * the CPU from a task.  Owner only; no side effect but on @a.
 */
VISIBLE_IF_KUNIT enum irq_poll_auto_verdict
irq_poll_auto_step(struct irq_poll_auto *a, u64 now, int work, bool can_park,
		   bool busy, u32 *timeout_ns)
{
	int w = min(work, 255);
	u32 window = a->window_ns, ended = window;
	u32 rate, irq_rate, avg;
	u64 gap;

	a->work_x256 += (w * 256 - (int)a->work_x256) / 8;
	/* The first poll of a trial (or after a reset, armed: no effect). */
	if (!a->polls)
		irq_poll_auto_tick(a, now);
	if (a->polls < IRQ_POLL_AUTO_WARMUP)
		a->polls++;
	if (w > 0) {
		gap = a->last_ns ? now - a->last_ns : IRQ_POLL_AUTO_GAP_MAX;
		irq_poll_auto_epoch(a, now, w, gap >= IRQ_POLL_AUTO_GAP_MAX);
		/*
		 * The rate interrupts deliver, measured outside windows: time
		 * and completions are averaged apart, so that a long gap
		 * before one completion weighs as much as it lasts.
		 */
		if (gap < IRQ_POLL_AUTO_GAP_MAX && !window) {
			if (a->span_ns) {
				a->span_ns += ((s64)gap - a->span_ns) / 4;
				a->span_x256 += (w * 256 - (int)a->span_x256) / 4;
			} else {
				a->span_ns = gap;
				a->span_x256 = w * 256;
			}
			a->gap_ns = div_u64((u64)a->span_ns * 256, a->span_x256);
		}
		a->last_ns = now;
	}

	a->window_ns = 0;
	if (w && window) {
		/* This poll ended a window: size the next one by its yield. */
		rate = div_u64((u64)w << 30, window);
		irq_rate = a->gap_ns ? div_u64(1ULL << 30, a->gap_ns) : 0;
		avg = a->rate ? a->rate - a->rate / 4 + rate / 4 : rate;
		/*
		 * A chain that a batch started goes on after a window that
		 * found one, for half as long (the load may only have
		 * dipped), and ends where it cannot be halved; at its length
		 * while its windows find 1.5 on average, at no less than the
		 * rate interrupts delivered.
		 */
		if (w == 1) {
			if (2ULL * avg * window < 3ULL << 30 || avg < irq_rate)
				window = window > IRQ_POLL_AUTO_NS_MIN ?
					 max_t(u32, window / 2,
					       IRQ_POLL_AUTO_NS_MIN) : 0;
		} else if (w >= 4 && w < 16 && 4ULL * rate >= 3ULL * a->rate &&
			 3ULL * rate >= 2ULL * irq_rate)
			window = min_t(u32, 2 * window, IRQ_POLL_AUTO_NS_MAX);
		else if (3ULL * rate < 2ULL * a->rate ||
			 3ULL * rate < 2ULL * irq_rate)
			window = max_t(u32, window / 2, IRQ_POLL_AUTO_NS_MIN);
		/* Windows find few: average their rates (weight 1/4). */
		a->rate = avg;
	} else if (w >= 2 || (w == 1 && busy && !can_park)) {
		/*
		 * Interrupt-driven: a new chain of windows, if it can pay,
		 * or on a busy CPU, if it may.
		 */
		if (a->gap_ns && (2ULL * a->gap_ns <= IRQ_POLL_AUTO_NS_MAX ||
				  (busy && a->gap_ns <= IRQ_POLL_AUTO_NS_MAX)))
			window = clamp_t(u64, 4ULL * a->gap_ns,
					 IRQ_POLL_AUTO_NS_MIN,
					 IRQ_POLL_AUTO_NS_MAX);
		a->rate = 0;
	}
	/*
	 * A chain that a trial pair's block without windows cut short goes
	 * on in the next block with windows, at the length it had: where
	 * only windows batch, polls between windows find one completion
	 * each and would not start it again.
	 */
	if (w && !window && a->rechain && !a->nowin)
		window = a->held_ns;
	/* From here on, window is what this poll would open. */
	if (!w)
		window = 0;
	if (ended && window && a->nowin && a->phase >= IRQ_POLL_AUTO_PAIR1) {
		a->held_ns = window;
		a->rechain = true;
	} else if (window && !a->nowin) {
		a->rechain = false;
	}
	if (window)
		a->quiet = 0;
	else if (a->quiet < IRQ_POLL_AUTO_CALM)
		a->quiet++;
	if (window && a->phase == IRQ_POLL_AUTO_ARMED) {
		/* A window would open: time for a trial pair. */
		a->phase = IRQ_POLL_AUTO_PAIR1;
		a->nowin = a->flip;
		a->block = 0;
		a->counting = false;
		a->arm_work[0] = 0;
		a->arm_work[1] = 0;
		a->arm_ns[0] = 0;
		a->arm_ns[1] = 0;
		a->flip = !a->flip;
		a->epoch_ns = now;
		a->epoch_work = 0;
	}
	if (window && !a->nowin) {
		a->window_ns = window;
		a->calm = 0;
		a->batched = true;
		*timeout_ns = window;
		return IRQ_POLL_AUTO_DEFER;
	}
	if (a->calm < IRQ_POLL_AUTO_CALM)
		a->calm++;
	if (!can_park || a->polls < IRQ_POLL_AUTO_WARMUP ||
	    a->calm < IRQ_POLL_AUTO_CALM)
		return IRQ_POLL_AUTO_IDLE;
	/*
	 * Batching keeps the instance polled while windows may pay.  Once
	 * trial pairs found that they do not, it parks however much its
	 * polls find: the driver's handler reaps all that is there as well,
	 * without masking, a softirq and unmasking.
	 */
	if (a->work_x256 >= IRQ_POLL_AUTO_PARK_X256 &&
	    (a->pays || a->phase >= IRQ_POLL_AUTO_PAIR1))
		return IRQ_POLL_AUTO_IDLE;
	/*
	 * A trial pair's epoch without windows is seen through: without
	 * them, polls may find one completion each under a load that
	 * batches in windows.  One that stopped batching in its epoch with
	 * windows is dropped.
	 */
	if (a->phase >= IRQ_POLL_AUTO_PAIR1) {
		if (a->nowin || a->quiet < IRQ_POLL_AUTO_CALM)
			return IRQ_POLL_AUTO_IDLE;
		irq_poll_auto_drop_pair(a);
	}
	return IRQ_POLL_AUTO_PARK;
}
EXPORT_SYMBOL_IF_KUNIT(irq_poll_auto_step);

/*
 * Did the interrupt behind the poll at hand take its CPU from a task?  A
 * softirq run on the way out of an interrupt runs on the interrupted
 * task, the idle task if the CPU was idle; one run by ksoftirqd had to
 * wait for the CPU.  From the kthread, the interrupt cannot be told: no.
 */
static bool irq_poll_took_busy_cpu(void)
{
	return in_serving_softirq() && !is_idle_task(current);
}

/*
 * Owner: should the completion at hand keep the device masked, and for how
 * long?  Fixed deferral: after a poll that found work, and for up to
 * defer_hard_irqs - 1 empty polls after it, for flush_timeout_ns.  Sets
 * @run->defer_ns (0: no) and @run->park.
 */
static void irq_poll_want_defer(struct irq_poll *iop, int work_done,
				struct irq_poll_run *run)
{
	struct irq_poll_ext *ext = iop->ext;
	unsigned int defer;
	u32 timeout;

	if (!ext || !iop->ops || test_bit(IRQ_POLL_F_DISABLE, &iop->state))
		goto no;
	if (READ_ONCE(ext->mode) == IRQ_POLL_MODE_AUTO) {
		/*
		 * ktime, not local_clock(): gaps span CPUs when the interrupt
		 * moves, and where the TSC is unstable (guests) local_clock()
		 * stands still while ticks come late: every gap reads zero.
		 */
		switch (irq_poll_auto_step(&ext->auto_state, ktime_get_ns(),
					   work_done, irq_poll_switchable(iop),
					   irq_poll_took_busy_cpu(),
					   &timeout)) {
		case IRQ_POLL_AUTO_DEFER:
			run->defer_ns = timeout;
			break;
		case IRQ_POLL_AUTO_PARK:
			run->park = true;
			break;
		case IRQ_POLL_AUTO_IDLE:
			break;
		}
		return;
	}
	timeout = READ_ONCE(ext->flush_timeout_ns);
	defer = READ_ONCE(ext->defer_hard_irqs);
	if (!timeout || !defer)
		goto no;
	if (work_done > 0)
		ext->defer_count = defer;
	else if (ext->defer_count)
		ext->defer_count--;
	if (ext->defer_count > 0)
		run->defer_ns = timeout;
	return;
no:
	if (ext) {
		ext->defer_count = 0;
		ext->auto_state.window_ns = 0;
	}
}

/**
 * irq_poll_complete_done - end polling of @iop, unless deferral applies
 * @iop: the instance
 * @work_done: completions reaped by this poll; below its budget
 *
 * Like irq_poll_complete(), with the instance's interrupt deferral: after
 * a poll that found work, and for up to defer_hard_irqs - 1 empty polls
 * after it, the device stays masked and a timer polls again after
 * flush_timeout_ns.  Deferral is off unless both are set (named instances
 * with ops only).  In IRQ_POLL_MODE_AUTO the library decides instead.
 *
 * Context: from the instance's poll function only.
 * Return: false if deferral keeps the device masked; true if the instance
 * goes idle when the poll function returns (with ops, the library unmasks
 * it then; without, the driver may unmask now).
 */
bool irq_poll_complete_done(struct irq_poll *iop, int work_done)
{
	struct irq_poll_run *run = irq_poll_this_run(iop);

	if (!run)
		return true;
	run->end = IRQ_POLL_END_DONE;
	irq_poll_want_defer(iop, work_done, run);
	return !run->defer_ns;
}
EXPORT_SYMBOL_GPL(irq_poll_complete_done);

/*
 * Owner: hand the instance to the deferral timer.  DEFERRED is set first,
 * so the timer can never fire without finding it; both under ->timer_lock
 * with interrupts off, so irq_poll_disable() can wait out an arming in
 * progress.  The timer has nothing to read in the instance before it takes
 * DEFERRED, so the counters and trace points before the arming are safe.
 * Returns false, without deferring, if MISSED is set.
 */
static bool irq_poll_defer(struct irq_poll *iop, int work, u32 timeout)
{
	struct irq_poll_ext *ext = iop->ext;
	unsigned long flags, old;

	raw_spin_lock_irqsave(&ext->timer_lock, flags);
	/*
	 * A schedule that came in since irq_poll_finish() looked set
	 * MISSED: poll for it now rather than after the timeout.
	 */
	old = READ_ONCE(iop->state);
	do {
		if (old & (IRQ_POLL_MISSED | IRQ_POLL_MASKING)) {
			raw_spin_unlock_irqrestore(&ext->timer_lock, flags);
			return false;
		}
	} while (!try_cmpxchg(&iop->state, &old, old | IRQ_POLL_DEFERRED));
	/* Traced and counted before the timer may take the instance. */
	irq_poll_stat_add(iop, deferrals, 1);
	trace_irq_poll_complete(iop, work, false);
	trace_irq_poll_defer(iop, ext->defer_count, timeout);
	hrtimer_start(&ext->timer, ns_to_ktime(timeout),
		      HRTIMER_MODE_REL_PINNED);
	raw_spin_unlock_irqrestore(&ext->timer_lock, flags);
	return true;
}

/*
 * The deferral timer.  Whoever clears DEFERRED owns the instance: this
 * timer, or an irq_poll_sched() or irq_poll_disable() that came first.
 */
static enum hrtimer_restart irq_poll_timer_fn(struct hrtimer *timer)
{
	struct irq_poll_ext *ext = container_of(timer, struct irq_poll_ext,
						timer);
	struct irq_poll *iop = ext->iop;

	if (test_and_clear_bit(IRQ_POLL_F_DEFERRED, &iop->state)) {
		trace_irq_poll_timer(iop);
		irq_poll_stat_add(iop, scheduled, 1);
		irq_poll_queue(iop);
	}
	return HRTIMER_NORESTART;
}

/*
 * Owner, after ->poll() completed: defer, go idle or poll again.  Returns
 * true if the caller still owns the instance and must poll it again.
 */
static bool irq_poll_finish(struct irq_poll *iop, int work, u32 defer_ns,
			    bool park)
{
	const struct irq_poll_ops *ops = iop->ops;

	if (irq_poll_take_missed(iop))
		return true;
	if (defer_ns) {
		if (irq_poll_defer(iop, work, defer_ns))
			return false;
		irq_poll_take_missed(iop);
		return true;
	}
	if (ops) {
		ops->unmask(iop);
		if (ops->pending && ops->pending(iop)) {
			irq_poll_stat_add(iop, rearm_races, 1);
			trace_irq_poll_rearm(iop, false);
			return true;
		}
	}
	/* Traced and counted first: once released, it may be freed. */
	trace_irq_poll_complete(iop, work, true);
	if (park)
		irq_poll_stat_add(iop, parks, 1);
	if (!irq_poll_release(iop, park)) {
		/* An interrupt at unmask: its schedule set MISSED. */
		irq_poll_take_missed(iop);
		return true;
	}
	return false;
}

/*
 * Call ->poll() once.  Caller owns @iop and has BH disabled.  Returns the
 * work done; *@again is true if the caller still owns the instance (budget
 * used, or work found at the end) and must poll it again.  With @draining
 * (irq_poll_disable()), completion only ends the drain loop.
 */
static int irq_poll_call(struct irq_poll *iop, bool threaded, bool draining,
			 bool *again)
{
	struct irq_poll_run *run = this_cpu_ptr(&irq_poll_running);
	int budget = READ_ONCE(iop->weight);
	enum irq_poll_end end;
	u32 defer_ns;
	bool park;
	int work;

	run->iop = iop;
	run->budget = budget;
	run->end = IRQ_POLL_END_NONE;
	run->defer_ns = 0;
	run->park = false;

	work = iop->poll(iop, budget);

	end = run->end;
	defer_ns = run->defer_ns;
	park = run->park;
	run->iop = NULL;

	if (unlikely(work < 0)) {
		irq_poll_warn(iop, "returned %d\n", work);
		work = 0;
	}
	irq_poll_stat_add(iop, polls, 1);
	irq_poll_stat_add(iop, reaped, work);
	if (!work)
		irq_poll_stat_add(iop, empty_polls, 1);
	if (work >= budget)
		irq_poll_stat_add(iop, budget_exhausted, 1);
	trace_irq_poll_poll(iop, work, budget, threaded);
	if (unlikely(end != IRQ_POLL_END_NONE && work >= budget))
		irq_poll_warn(iop, "completed after using its budget (%d >= %d)\n",
			      work, budget);

	/*
	 * Still ours: the driver used its budget (or more: some cannot
	 * stop mid-batch), or returned less without completing, which 6.1
	 * also polled again.
	 */
	if (work >= budget || end == IRQ_POLL_END_NONE) {
		*again = true;
	} else if (draining) {
		*again = false;
	} else if (test_bit(IRQ_POLL_F_DISABLE, &iop->state)) {
		irq_poll_hand_over(iop);
		*again = false;
	} else {
		*again = irq_poll_finish(iop, work, defer_ns, park);
	}
	return work;
}

static __latent_entropy void irq_poll_softirq(struct softirq_action *h)
{
	struct irq_poll_cpu *pc = this_cpu_ptr(&irq_poll_pcpu);
	u64 usecs = READ_ONCE(sysctl_irq_poll_budget_usecs);
	u64 deadline = local_clock() + usecs * NSEC_PER_USEC;
	int budget = READ_ONCE(sysctl_irq_poll_budget);
	LIST_HEAD(list);

	for (;;) {
		struct irq_poll *iop;
		bool again;

		if (list_empty(&list)) {
			local_irq_disable();
			list_splice_init(&pc->list, &list);
			local_irq_enable();
			if (list_empty(&list))
				break;
		}

		iop = list_first_entry(&list, struct irq_poll, list);
		list_del_init(&iop->list);
		/*
		 * A disable that is waiting for this instance is served
		 * by one more poll, which hands it over, as in 6.1.
		 */
		budget -= irq_poll_call(iop, false, false, &again);
		if (again) {
			if (test_bit(IRQ_POLL_F_DISABLE, &iop->state))
				irq_poll_hand_over(iop);
			else
				list_add_tail(&iop->list, &list);
		}

		if (budget <= 0 || (s64)(local_clock() - deadline) >= 0) {
			if (!list_empty(&list) || !list_empty(&pc->list))
				WRITE_ONCE(pc->squeezed, pc->squeezed + 1);
			break;
		}
	}

	/* Leftovers first, then what was scheduled meanwhile. */
	local_irq_disable();
	list_splice_tail_init(&pc->list, &list);
	list_splice(&list, &pc->list);
	if (!list_empty(&pc->list))
		__raise_softirq_irqoff(IRQ_POLL_SOFTIRQ);
	local_irq_enable();
}

/*
 * Sleep until the instance is handed to the thread.  SCHED alone does not
 * prove that (the instance may be owned by irq_poll_disable()), the
 * dedicated THREADED bit does.  Returns false when asked to stop.
 */
static bool irq_poll_thread_wait(struct irq_poll *iop)
{
	for (;;) {
		/* Pairs with wake_up_process() in irq_poll_queue_irqoff(). */
		set_current_state(TASK_INTERRUPTIBLE);
		if (test_and_clear_bit(IRQ_POLL_F_THREADED, &iop->state)) {
			__set_current_state(TASK_RUNNING);
			return true;
		}
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			return false;
		}
		schedule();
	}
}

static int irq_poll_thread(void *data)
{
	struct irq_poll *iop = data;

	while (irq_poll_thread_wait(iop)) {
		bool again;

		do {
			/* Poll functions run with BH disabled. */
			local_bh_disable();
			irq_poll_call(iop, true, false, &again);
			if (again && test_bit(IRQ_POLL_F_DISABLE, &iop->state)) {
				irq_poll_hand_over(iop);
				again = false;
			}
			local_bh_enable();
			cond_resched();
		} while (again);
	}
	return 0;
}

/*
 * irq_poll_disable(): take ownership from idle, or from the deferral
 * timer.  DISABLE is set, so no schedule competes.
 */
static bool irq_poll_claim_disabled(struct irq_poll *iop)
{
	unsigned long old = READ_ONCE(iop->state), new;

	do {
		if (old & IRQ_POLL_DEFERRED)
			new = old & ~IRQ_POLL_DEFERRED;
		else if (!(old & IRQ_POLL_SCHED))
			new = old | IRQ_POLL_SCHED;
		else
			return false;
	} while (!try_cmpxchg(&iop->state, &old, new));
	return true;
}

/*
 * Owner, DISABLE set: turn the instance into DISABLED unless a schedule
 * is still to be served.  Returns false if MISSED (or MASKING) is set.
 */
static bool irq_poll_mark_disabled(struct irq_poll *iop)
{
	unsigned long old = READ_ONCE(iop->state), new;

	do {
		if (old & (IRQ_POLL_MISSED | IRQ_POLL_MASKING))
			return false;
		new = (old | IRQ_POLL_DISABLED) & ~IRQ_POLL_DISABLE;
	} while (!try_cmpxchg(&iop->state, &old, new));
	return true;
}

/*
 * Owner, DISABLE set, switchable instance: reap what the device holds and
 * hand it back to the driver's interrupt path unmasked.  Until DISABLED is
 * set, irq_poll_handoff() keeps returning true and sets MISSED, so a
 * completion signalled meanwhile is polled here, not dropped.
 */
static void irq_poll_drain(struct irq_poll *iop)
{
	const struct irq_poll_ops *ops = iop->ops;
	bool again;

	local_bh_disable();
	for (;;) {
		irq_poll_take_missed(iop);
		irq_poll_call(iop, false, true, &again);
		if (!again) {
			ops->unmask(iop);
			if (ops->pending && ops->pending(iop)) {
				irq_poll_stat_add(iop, rearm_races, 1);
				trace_irq_poll_rearm(iop, false);
			} else if (irq_poll_mark_disabled(iop)) {
				break;
			}
		}
		local_bh_enable();
		cond_resched();
		local_bh_disable();
	}
	local_bh_enable();
}

/* Stop the deferral timer of an instance the caller owns. */
static void irq_poll_stop_timer(struct irq_poll *iop)
{
	struct irq_poll_ext *ext = iop->ext;

	if (!ext)
		return;
	/* An arming that set DEFERRED before we took it is done after this. */
	raw_spin_lock_irq(&ext->timer_lock);
	raw_spin_unlock_irq(&ext->timer_lock);
	hrtimer_cancel(&ext->timer);
	ext->defer_count = 0;
}

/*
 * The first irq_poll_disable(): quiesce.  @drain: hand a switchable
 * instance back to its driver unmasked (not in irq_poll_destroy(), which
 * runs after free_irq() and leaves the device masked).
 */
static void irq_poll_quiesce(struct irq_poll *iop, bool drain)
{
	/*
	 * DISABLE is set; the owner sees it in the cmpxchg of
	 * irq_poll_release() or in irq_poll_hand_over(), and wakes us.
	 */
	wait_var_event(&iop->state, irq_poll_claim_disabled(iop));
	irq_poll_stop_timer(iop);
	/* Parked: wait for handlers still reaping, as irq_poll_enable() does. */
	if (test_and_clear_bit(IRQ_POLL_F_PARKED, &iop->state))
		synchronize_rcu();

	if (drain && irq_poll_switchable(iop)) {
		irq_poll_drain(iop);
	} else {
		/*
		 * A schedule left MISSED for an instance that stays quiet:
		 * with ops the device stays masked and irq_poll_enable()
		 * polls; without, 6.1 dropped it too.
		 */
		set_bit(IRQ_POLL_F_DISABLED, &iop->state);
		if (!iop->ops)
			clear_bit(IRQ_POLL_F_MISSED, &iop->state);
		clear_bit(IRQ_POLL_F_DISABLE, &iop->state);
	}
	/* Pairs with the wait for DISABLED in __irq_poll_disable(). */
	smp_mb__after_atomic();
	wake_up_var(&iop->state);
}

static void __irq_poll_disable(struct irq_poll *iop, bool drain)
{
	unsigned long flags;
	bool first;

	spin_lock_irqsave(&irq_poll_lock, flags);
	first = !iop->disable_depth++;
	if (first)
		set_bit(IRQ_POLL_F_DISABLE, &iop->state);
	spin_unlock_irqrestore(&irq_poll_lock, flags);

	if (first)
		irq_poll_quiesce(iop, drain);
	else
		wait_var_event(&iop->state,
			       test_bit(IRQ_POLL_F_DISABLED, &iop->state));
}

/**
 * irq_poll_disable - disable @iop and wait for it to go quiet
 * @iop: the instance
 *
 * On return ->poll() is not running and will not run until the matching
 * irq_poll_enable(), and the deferral timer is stopped.  Calls nest and
 * may come from several tasks at once; each returns once the instance is
 * quiet.  A scheduled or running poll is waited for (a scheduled one is
 * polled once more, as in 6.1).
 *
 * A switchable instance is handed back to its driver's interrupt path:
 * its completions are reaped (by calling the poll function from here),
 * the device is unmasked, and irq_poll_handoff() returns false from then
 * on.  Any other instance with ops stays masked if it was, and is polled
 * again by irq_poll_enable().
 *
 * Context: process context, may sleep.  Not from the poll function.
 */
void irq_poll_disable(struct irq_poll *iop)
{
	might_sleep();
	__irq_poll_disable(iop, true);
}
EXPORT_SYMBOL(irq_poll_disable);

/**
 * irq_poll_enable - undo irq_poll_disable()
 * @iop: the instance
 *
 * The last of nested enables makes @iop schedulable again.  With ops it
 * is polled right away: completions may have arrived while the device was
 * masked, or while the driver's own interrupt path had it.  A new instance
 * is enabled (unless it starts off); enabling it warns and does nothing.
 *
 * Context: any context for an instance without ops.  With ops, not in
 * hard IRQ or with interrupts disabled (the poll runs at local_bh_enable()),
 * and a switchable instance needs process context: it waits for an RCU
 * grace period so that no interrupt handler still reaps by itself when the
 * first poll runs.
 */
void irq_poll_enable(struct irq_poll *iop)
{
	unsigned long flags;
	bool last = false;

	spin_lock_irqsave(&irq_poll_lock, flags);
	if (!iop->disable_depth)
		irq_poll_warn(iop, "enabled while enabled\n");
	else if (!--iop->disable_depth)
		last = true;
	/* Still owned: schedules set MISSED until we let go below. */
	if (last)
		clear_bit(IRQ_POLL_F_DISABLED, &iop->state);
	spin_unlock_irqrestore(&irq_poll_lock, flags);
	if (!last)
		return;

	if (!iop->ops) {
		if (!irq_poll_release(iop, false) && irq_poll_take_missed(iop))
			irq_poll_queue(iop);
		return;
	}
	if (irq_poll_switchable(iop)) {
		might_sleep();
		synchronize_rcu();
	}
	/* The poll below serves what schedules marked while disabled. */
	smp_cond_load_acquire(&iop->state, !(VAL & IRQ_POLL_MASKING));
	clear_bit(IRQ_POLL_F_MISSED, &iop->state);
	irq_poll_stat_add(iop, scheduled, 1);
	trace_irq_poll_schedule(iop);
	/* BH off: in process context the softirq runs at local_bh_enable(). */
	local_bh_disable();
	irq_poll_queue(iop);
	local_bh_enable();
}
EXPORT_SYMBOL(irq_poll_enable);

/**
 * irq_poll_active - is @iop polling?
 * @iop: the instance
 *
 * For information only: the answer may be stale when it is used.  An
 * interrupt handler decides with irq_poll_handoff(), which is atomic
 * against disable, enable and mode switches.
 *
 * Context: any context.
 * Return: false if @iop is disabled or off, true otherwise (also while a
 * disable waits for the last poll).
 */
bool irq_poll_active(const struct irq_poll *iop)
{
	return !test_bit(IRQ_POLL_F_DISABLED, &iop->state);
}
EXPORT_SYMBOL_GPL(irq_poll_active);

/**
 * irq_poll_init - initialise @iop
 * @iop: the instance
 * @weight: budget per call of @poll_fn; 0 (or less, which warns) means
 *	    IRQ_POLL_DEFAULT_WEIGHT
 * @poll_fn: the driver's poll function
 *
 * Sets up an unnamed instance: enabled, idle, polled from the softirq, no
 * ops, no deferral, no sysfs directory, no counters.  May be called again
 * on a disabled unnamed instance to reset it.
 *
 * Context: any context.
 */
void irq_poll_init(struct irq_poll *iop, int weight, irq_poll_fn *poll_fn)
{
	WARN_ONCE(weight < 0, "irq_poll: %pS: negative weight %d\n",
		  poll_fn, weight);
	memset(iop, 0, sizeof(*iop));
	INIT_LIST_HEAD(&iop->list);
	iop->weight = weight > 0 ? weight : IRQ_POLL_DEFAULT_WEIGHT;
	iop->poll = poll_fn;
}
EXPORT_SYMBOL(irq_poll_init);

/*
 * Switch a named instance's mode: disable, flip, enable, so that no poll
 * runs and no schedule is in flight while the mode changes.  "off" is the
 * library's own disable.  Caller holds irq_poll_mutex.
 */
static int __irq_poll_set_mode(struct irq_poll *iop, enum irq_poll_mode mode)
{
	struct irq_poll_ext *ext = iop->ext;
	enum irq_poll_mode old = ext->mode;
	struct task_struct *t = NULL;

	lockdep_assert_held(&irq_poll_mutex);
	if (mode == old)
		return 0;
	if (mode == IRQ_POLL_MODE_THREADED) {
		t = kthread_create(irq_poll_thread, iop, "irq_poll/%s",
				   ext->name);
		if (IS_ERR(t))
			return PTR_ERR(t);
	}

	if (old != IRQ_POLL_MODE_OFF)
		irq_poll_disable(iop);
	if (old == IRQ_POLL_MODE_THREADED) {
		kthread_stop(ext->thread);
		ext->thread = NULL;
	}
	if (t) {
		ext->thread = t;
		wake_up_process(t);
	}
	irq_poll_auto_reset(&ext->auto_state);
	/* Read by irq_poll_queue_irqoff(), after the enable below. */
	WRITE_ONCE(ext->mode, mode);
	if (mode != IRQ_POLL_MODE_OFF)
		irq_poll_enable(iop);
	return 0;
}

/**
 * irq_poll_set_mode - poll a named instance from the softirq, a kthread,
 *		       or not at all
 * @iop: the instance
 * @mode: the new mode; IRQ_POLL_MODE_OFF only for switchable instances
 *
 * The switch is made with the instance disabled, so no completion is
 * reaped twice or lost and the interrupt handler sees one mode or the
 * other (see irq_poll_handoff()).  The same as writing the instance's
 * sysfs "mode" file.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL for an unnamed instance, an unknown mode, off for an
 * instance that cannot be switched off, or auto for one without ops; or
 * the error from creating the kthread.
 */
int irq_poll_set_mode(struct irq_poll *iop, enum irq_poll_mode mode)
{
	int err;

	might_sleep();
	if (!iop->ext || (unsigned int)mode > IRQ_POLL_MODE_AUTO ||
	    (mode == IRQ_POLL_MODE_OFF && !irq_poll_switchable(iop)) ||
	    (mode == IRQ_POLL_MODE_AUTO && !iop->ops))
		return -EINVAL;
	mutex_lock(&irq_poll_mutex);
	err = __irq_poll_set_mode(iop, mode);
	mutex_unlock(&irq_poll_mutex);
	return err;
}
EXPORT_SYMBOL_GPL(irq_poll_set_mode);

/* sysfs: /sys/kernel/irq_poll/instances/<name>/ */

static struct irq_poll_ext *kobj_to_ext(struct kobject *kobj)
{
	return container_of(kobj, struct irq_poll_ext, kobj);
}

#define IRQ_POLL_STAT_ATTR(_name)					\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%lu\n",					\
			  READ_ONCE(kobj_to_ext(kobj)->stats._name));	\
}									\
static struct kobj_attribute _name##_attr = {				\
	.attr = { .name = __stringify(_name), .mode = 0444 },		\
	.show = _name##_show,						\
}

IRQ_POLL_STAT_ATTR(scheduled);
IRQ_POLL_STAT_ATTR(polls);
IRQ_POLL_STAT_ATTR(reaped);
IRQ_POLL_STAT_ATTR(budget_exhausted);
IRQ_POLL_STAT_ATTR(empty_polls);
IRQ_POLL_STAT_ATTR(missed);
IRQ_POLL_STAT_ATTR(rearm_races);
IRQ_POLL_STAT_ATTR(deferrals);
IRQ_POLL_STAT_ATTR(parks);
IRQ_POLL_STAT_ATTR(trials);

/* Parse a decimal unsigned int within [@min, @max]; echo's '\n' is fine. */
static int irq_poll_parse(const char *buf, unsigned int min, unsigned int max,
			  unsigned int *val)
{
	if (kstrtouint(buf, 10, val) || *val < min || *val > max)
		return -EINVAL;
	return 0;
}

static ssize_t weight_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(kobj_to_ext(kobj)->iop->weight));
}

static ssize_t weight_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	unsigned int val;

	if (irq_poll_parse(buf, 1, IRQ_POLL_MAX_WEIGHT, &val))
		return -EINVAL;
	/* Read once per call by irq_poll_call(). */
	WRITE_ONCE(kobj_to_ext(kobj)->iop->weight, val);
	return count;
}

static ssize_t defer_hard_irqs_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(kobj_to_ext(kobj)->defer_hard_irqs));
}

static ssize_t defer_hard_irqs_store(struct kobject *kobj,
				     struct kobj_attribute *attr,
				     const char *buf, size_t count)
{
	struct irq_poll_ext *ext = kobj_to_ext(kobj);
	unsigned int val;

	if (irq_poll_parse(buf, 0, IRQ_POLL_DEFER_MAX, &val) ||
	    (val && !ext->iop->ops))
		return -EINVAL;
	/* Read by irq_poll_want_defer() at the next completion. */
	WRITE_ONCE(ext->defer_hard_irqs, val);
	return count;
}

static ssize_t flush_timeout_ns_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(kobj_to_ext(kobj)->flush_timeout_ns));
}

static ssize_t flush_timeout_ns_store(struct kobject *kobj,
				      struct kobj_attribute *attr,
				      const char *buf, size_t count)
{
	struct irq_poll_ext *ext = kobj_to_ext(kobj);
	unsigned int val;

	if (irq_poll_parse(buf, 0, IRQ_POLL_FLUSH_NS_MAX, &val) ||
	    (val && (val < IRQ_POLL_FLUSH_NS_MIN || !ext->iop->ops)))
		return -EINVAL;
	/* Read by irq_poll_want_defer() and irq_poll_defer(). */
	WRITE_ONCE(ext->flush_timeout_ns, val);
	return count;
}

static const char * const irq_poll_mode_names[] = {
	[IRQ_POLL_MODE_OFF]		= "off",
	[IRQ_POLL_MODE_SOFTIRQ]		= "softirq",
	[IRQ_POLL_MODE_THREADED]	= "threaded",
	[IRQ_POLL_MODE_AUTO]		= "auto",
};

static ssize_t mode_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  irq_poll_mode_names[READ_ONCE(kobj_to_ext(kobj)->mode)]);
}

static ssize_t mode_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count)
{
	int mode = sysfs_match_string(irq_poll_mode_names, buf);
	int err;

	if (mode < 0)
		return -EINVAL;
	err = irq_poll_set_mode(kobj_to_ext(kobj)->iop, mode);
	return err ? err : count;
}

static struct kobj_attribute mode_attr = __ATTR_RW(mode);
static struct kobj_attribute weight_attr = __ATTR_RW(weight);
static struct kobj_attribute defer_hard_irqs_attr = __ATTR_RW(defer_hard_irqs);
static struct kobj_attribute flush_timeout_ns_attr =
	__ATTR_RW(flush_timeout_ns);

static struct attribute *irq_poll_attrs[] = {
	&mode_attr.attr,
	&weight_attr.attr,
	&defer_hard_irqs_attr.attr,
	&flush_timeout_ns_attr.attr,
	&scheduled_attr.attr,
	&polls_attr.attr,
	&reaped_attr.attr,
	&budget_exhausted_attr.attr,
	&empty_polls_attr.attr,
	&missed_attr.attr,
	&rearm_races_attr.attr,
	&deferrals_attr.attr,
	&parks_attr.attr,
	&trials_attr.attr,
	NULL
};
ATTRIBUTE_GROUPS(irq_poll);

static void irq_poll_ext_release(struct kobject *kobj)
{
	kfree(kobj_to_ext(kobj));
}

static struct kobj_type irq_poll_ktype = {
	.release	= irq_poll_ext_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= irq_poll_groups,
};

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * For KUnit: call an attribute's methods as sysfs would; built-in tests
 * run before sysfs can be mounted.
 */
VISIBLE_IF_KUNIT ssize_t irq_poll_attr_store(struct irq_poll *iop,
					     const char *name,
					     const char *buf)
{
	struct attribute **a;

	if (!iop->ext)
		return -ENOENT;
	for (a = irq_poll_attrs; *a; a++) {
		struct kobj_attribute *ka =
			container_of(*a, struct kobj_attribute, attr);

		if (!strcmp((*a)->name, name))
			return ka->store ? ka->store(&iop->ext->kobj, ka, buf,
						     strlen(buf)) : -EACCES;
	}
	return -ENOENT;
}
EXPORT_SYMBOL_IF_KUNIT(irq_poll_attr_store);

VISIBLE_IF_KUNIT ssize_t irq_poll_attr_show(struct irq_poll *iop,
					    const char *name, char *buf)
{
	struct attribute **a;

	if (!iop->ext)
		return -ENOENT;
	for (a = irq_poll_attrs; *a; a++) {
		struct kobj_attribute *ka =
			container_of(*a, struct kobj_attribute, attr);

		if (!strcmp((*a)->name, name))
			return ka->show(&iop->ext->kobj, ka, buf);
	}
	return -ENOENT;
}
EXPORT_SYMBOL_IF_KUNIT(irq_poll_attr_show);
#endif

VISIBLE_IF_KUNIT unsigned long irq_poll_squeezed(void)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(irq_poll_pcpu, cpu).squeezed);
	return sum;
}
EXPORT_SYMBOL_IF_KUNIT(irq_poll_squeezed);

#if IS_ENABLED(CONFIG_KUNIT)
VISIBLE_IF_KUNIT struct task_struct *irq_poll_thread_of(struct irq_poll *iop)
{
	return iop->ext ? iop->ext->thread : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(irq_poll_thread_of);

VISIBLE_IF_KUNIT bool irq_poll_misuse_reported(const struct irq_poll *iop)
{
	return test_bit(IRQ_POLL_F_WARNED, &iop->state);
}
EXPORT_SYMBOL_IF_KUNIT(irq_poll_misuse_reported);

VISIBLE_IF_KUNIT bool irq_poll_registered(const struct irq_poll *iop)
{
	struct irq_poll_ext *ext;
	bool found = false;

	mutex_lock(&irq_poll_mutex);
	list_for_each_entry(ext, &irq_poll_instances, node)
		found |= ext->iop == iop;
	mutex_unlock(&irq_poll_mutex);
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(irq_poll_registered);
#endif

static ssize_t squeezed_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%lu\n", irq_poll_squeezed());
}

static struct kobj_attribute squeezed_attr = __ATTR_RO(squeezed);

/* A name sysfs, ps and a shell take as it is. */
static bool irq_poll_name_valid(const char *name)
{
	size_t len = name ? strnlen(name, IRQ_POLL_NAME_MAX + 1) : 0;
	const char *p;

	if (!len || len > IRQ_POLL_NAME_MAX || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return false;
	for (p = name; *p; p++)
		if (*p == '/' || isspace(*p) || iscntrl(*p))
			return false;
	return true;
}

static bool irq_poll_config_valid(const struct irq_poll_config *cfg)
{
	const struct irq_poll_ops *ops = cfg->ops;
	bool defer = cfg->defer_hard_irqs || cfg->flush_timeout_ns;

	if (!irq_poll_name_valid(cfg->name))
		return false;
	if (cfg->weight < 0 || cfg->weight > IRQ_POLL_MAX_WEIGHT)
		return false;
	if (cfg->flags & ~IRQ_POLL_CFG_SWITCHABLE)
		return false;
	if (ops && (!ops->mask || !ops->unmask))
		return false;
	/* Both need the library to mask the device. */
	if (!ops && (defer || (cfg->flags & IRQ_POLL_CFG_SWITCHABLE)))
		return false;
	if (cfg->defer_hard_irqs > IRQ_POLL_DEFER_MAX ||
	    cfg->flush_timeout_ns > IRQ_POLL_FLUSH_NS_MAX ||
	    (cfg->flush_timeout_ns &&
	     cfg->flush_timeout_ns < IRQ_POLL_FLUSH_NS_MIN))
		return false;
	return true;
}

static struct irq_poll_ext *irq_poll_find(const struct irq_poll *iop,
					  const char *name)
{
	struct irq_poll_ext *ext;

	lockdep_assert_held(&irq_poll_mutex);
	list_for_each_entry(ext, &irq_poll_instances, node)
		if (ext->iop == iop || (name && !strcmp(ext->name, name)))
			return ext;
	return NULL;
}

/**
 * irq_poll_init_named - initialise @iop with a name, ops and sysfs files
 * @iop: the instance
 * @cfg: its configuration; only read during the call
 * @poll_fn: the driver's poll function
 *
 * Like irq_poll_init(), plus @cfg->ops, deferral, modes, counters and
 * /sys/kernel/irq_poll/instances/<name>/.  A switchable instance starts
 * off unless the kernel.irq_poll sysctl is 1; any other starts polled from
 * the softirq.  If sysfs is unavailable the instance works without its
 * directory.  Undo with irq_poll_destroy().  Initialising an instance
 * that was not destroyed destroys it first, with a warning.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL for a bad @cfg (name, weight, flags, ops without
 * mask or unmask, deferral or IRQ_POLL_CFG_SWITCHABLE without ops,
 * deferral settings out of range); -EEXIST if the name is taken; -ENOMEM.
 */
int irq_poll_init_named(struct irq_poll *iop,
			const struct irq_poll_config *cfg,
			irq_poll_fn *poll_fn)
{
	struct irq_poll_ext *ext, *old;
	int err;

	might_sleep();
	if (!cfg || !irq_poll_config_valid(cfg))
		return -EINVAL;
	ext = kzalloc(sizeof(*ext), GFP_KERNEL);
	if (!ext)
		return -ENOMEM;
	kobject_init(&ext->kobj, &irq_poll_ktype);

	mutex_lock(&irq_poll_mutex);
	old = irq_poll_find(iop, NULL);
	if (old) {
		mutex_unlock(&irq_poll_mutex);
		pr_err("irq_poll: %s initialised again without irq_poll_destroy()\n",
		       old->name);
		irq_poll_destroy(iop);
		mutex_lock(&irq_poll_mutex);
	}
	if (irq_poll_find(NULL, cfg->name)) {
		mutex_unlock(&irq_poll_mutex);
		kobject_put(&ext->kobj);
		return -EEXIST;
	}

	irq_poll_init(iop, cfg->weight, poll_fn);
	iop->ops = cfg->ops;
	iop->ext = ext;
	ext->iop = iop;
	strscpy(ext->name, cfg->name, sizeof(ext->name));
	ext->flags = cfg->flags;
	ext->defer_hard_irqs = cfg->defer_hard_irqs;
	ext->flush_timeout_ns = cfg->flush_timeout_ns;
	raw_spin_lock_init(&ext->timer_lock);
	hrtimer_init(&ext->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
	ext->timer.function = irq_poll_timer_fn;
	irq_poll_auto_reset(&ext->auto_state);
	ext->mode = IRQ_POLL_MODE_SOFTIRQ;
	if ((cfg->flags & IRQ_POLL_CFG_SWITCHABLE) && !sysctl_irq_poll) {
		/* Off: disabled by the library from the start. */
		ext->mode = IRQ_POLL_MODE_OFF;
		iop->disable_depth = 1;
		iop->state = IRQ_POLL_SCHED | IRQ_POLL_DISABLED;
	}
	list_add_tail(&ext->node, &irq_poll_instances);
	mutex_unlock(&irq_poll_mutex);

	if (irq_poll_kset) {
		ext->kobj.kset = irq_poll_kset;
		err = kobject_add(&ext->kobj, NULL, "%s", ext->name);
		if (err)
			pr_warn("irq_poll: %s: no sysfs directory: %d\n",
				ext->name, err);
		else
			ext->kobj_added = true;
	}
	if (ext->kobj_added)
		kobject_uevent(&ext->kobj, KOBJ_ADD);
	return 0;
}
EXPORT_SYMBOL_GPL(irq_poll_init_named);

/**
 * irq_poll_destroy - tear down @iop
 * @iop: the instance
 *
 * Removes the sysfs directory (waiting for readers and writers of its
 * files), disables the instance unless it is disabled already (without
 * unmasking: the driver's interrupt is gone, see below), stops the
 * deferral timer and the kthread and frees what irq_poll_init_named()
 * allocated.  On return nothing runs on @iop any more and the driver may
 * free it, provided it first stopped calling irq_poll_sched() (free_irq()
 * before this).  Works on unnamed instances too.
 *
 * Context: process context, may sleep.
 */
void irq_poll_destroy(struct irq_poll *iop)
{
	struct irq_poll_ext *ext = iop->ext;
	unsigned long flags;
	bool disabled;

	might_sleep();
	if (ext) {
		/* Drains running show()/store(); none can start afterwards. */
		if (ext->kobj_added)
			kobject_del(&ext->kobj);
		mutex_lock(&irq_poll_mutex);
		list_del(&ext->node);
		mutex_unlock(&irq_poll_mutex);
	}

	spin_lock_irqsave(&irq_poll_lock, flags);
	disabled = iop->disable_depth;
	spin_unlock_irqrestore(&irq_poll_lock, flags);
	if (!disabled)
		__irq_poll_disable(iop, false);

	if (ext) {
		irq_poll_stop_timer(iop);
		if (ext->thread)
			kthread_stop(ext->thread);
		iop->ext = NULL;
		kobject_put(&ext->kobj);
	}
	iop->ops = NULL;
}
EXPORT_SYMBOL_GPL(irq_poll_destroy);

/*
 * kernel.irq_poll: switch every switchable instance off (0), or those
 * that are off to softirq polling (1); new ones start so.
 */
static int irq_poll_sysctl_switch(struct ctl_table *table, int write,
				  void *buffer, size_t *lenp, loff_t *ppos)
{
	struct irq_poll_ext *ext;
	struct ctl_table t;
	int val, err;

	mutex_lock(&irq_poll_mutex);
	val = sysctl_irq_poll;
	t = *table;
	t.data = &val;
	err = proc_dointvec_minmax(&t, write, buffer, lenp, ppos);
	if (!err && write) {
		sysctl_irq_poll = val;
		list_for_each_entry(ext, &irq_poll_instances, node) {
			if (!(ext->flags & IRQ_POLL_CFG_SWITCHABLE))
				continue;
			if (!val)
				__irq_poll_set_mode(ext->iop, IRQ_POLL_MODE_OFF);
			else if (ext->mode == IRQ_POLL_MODE_OFF)
				__irq_poll_set_mode(ext->iop,
						    IRQ_POLL_MODE_SOFTIRQ);
		}
	}
	mutex_unlock(&irq_poll_mutex);
	return err;
}

VISIBLE_IF_KUNIT struct ctl_table irq_poll_sysctls[] = {
	{
		.procname	= "irq_poll",
		.data		= &sysctl_irq_poll,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= irq_poll_sysctl_switch,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "irq_poll_budget",
		.data		= &sysctl_irq_poll_budget,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= SYSCTL_INT_MAX,
	},
	{
		.procname	= "irq_poll_budget_usecs",
		.data		= &sysctl_irq_poll_budget_usecs,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= &irq_poll_budget_usecs_max,
	},
	{ }
};
EXPORT_SYMBOL_IF_KUNIT(irq_poll_sysctls);

/*
 * @cpu is dead; its scheduled instances would never run.  Move them here.
 * Splicing is O(1), so interrupts are off only briefly, and
 * local_bh_enable() runs the softirq raised here before this CPU can go
 * idle with it pending.  Deferral timers are migrated by hrtimers' own
 * hotplug callback; kthreads are not bound to a CPU.
 */
static int irq_poll_cpu_dead(unsigned int cpu)
{
	struct list_head *dead = &per_cpu(irq_poll_pcpu, cpu).list;

	local_bh_disable();
	local_irq_disable();
	if (!list_empty(dead)) {
		list_splice_tail_init(dead, this_cpu_ptr(&irq_poll_pcpu.list));
		__raise_softirq_irqoff(IRQ_POLL_SOFTIRQ);
	}
	local_irq_enable();
	local_bh_enable();
	return 0;
}

static int __init irq_poll_setup(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		INIT_LIST_HEAD(&per_cpu(irq_poll_pcpu, cpu).list);

	open_softirq(IRQ_POLL_SOFTIRQ, irq_poll_softirq);
	cpuhp_setup_state_nocalls(CPUHP_IRQ_POLL_DEAD, "irq_poll:dead", NULL,
				  irq_poll_cpu_dead);

	/* Instances work without sysfs and sysctls; warn only. */
	irq_poll_kobj = kobject_create_and_add("irq_poll", kernel_kobj);
	if (irq_poll_kobj) {
		if (sysfs_create_file(irq_poll_kobj, &squeezed_attr.attr))
			pr_warn("irq_poll: no /sys/kernel/irq_poll/squeezed\n");
		irq_poll_kset = kset_create_and_add("instances", NULL,
						    irq_poll_kobj);
	}
	if (!irq_poll_kset)
		pr_warn("irq_poll: no /sys/kernel/irq_poll/instances\n");
	if (!register_sysctl("kernel", irq_poll_sysctls))
		pr_warn("irq_poll: cannot register sysctls\n");
	return 0;
}
subsys_initcall(irq_poll_setup);
