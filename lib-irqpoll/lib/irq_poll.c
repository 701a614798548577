// SPDX-License-Identifier: GPL-2.0
/*
 * irq_poll: polled completion processing for interrupting devices
 *
 * Lineage: blk-iopoll (2009) brought NAPI's interrupt mitigation to block
 * drivers; it became the subsystem-neutral irq_poll in 2015.  This version
 * keeps that API and adds device masking callbacks, IRQ deferral, threaded
 * polling, per-instance configuration and statistics, and trace points.
 *
 * Why this is correct
 * -------------------
 * Ownership.  IRQ_POLL_F_SCHED is a lock on the instance: irq_poll_sched()
 * wins it with test_and_set_bit() and hands the instance either to this
 * CPU's poll list (softirq mode) or to the instance's kthread through
 * IRQ_POLL_F_SCHED_THREADED (threaded mode).  Exactly one context owns a
 * scheduled instance; only the owner touches ->list, calls ->poll() and
 * masks or unmasks the device.  Ownership ends when the driver completes
 * from inside ->poll(), or in the library when a disable is pending, and
 * the release is a clear_bit_unlock() so the next owner's test_and_set_bit()
 * sees everything the previous one did.
 *
 * Budget.  ->poll() gets at most ->weight completions per call.  Using the
 * whole weight means "there is more": the driver must not complete, the
 * library keeps ownership and requeues the instance at the tail of the
 * list, so busy instances on one CPU are served round robin.  A softirq
 * run stops once it reaped kernel.irq_poll_budget completions or ran for
 * kernel.irq_poll_budget_usecs, re-raises itself for the rest and counts a
 * squeeze; __do_softirq() then decides whether ksoftirqd takes over, so a
 * flood of completions cannot starve the CPU.
 *
 * Completing.  irq_poll_complete*() is only valid from inside ->poll()
 * (checked through the per-CPU irq_poll_running record, which also carries
 * the budget of the current call).  It releases ownership at once, as the
 * 6.1 API did, so a driver may reschedule from ->poll() right after
 * completing.  Because the instance can then be owned elsewhere, the
 * library touches nothing but counters and trace points after such a
 * ->poll() returns, and ->pollers keeps irq_poll_disable() (and thus the
 * driver's free) waiting until that is done.
 *
 * The unmask race.  A completion that lands after ->poll() looked for the
 * last time but before the device is unmasked raises no interrupt.  With
 * ops, the library unmasks while it still owns the instance, releases it,
 * and only then asks ->pending(): an interrupt in between finds the
 * instance owned and is dropped, but ->pending() then sees its completion
 * and reschedules; an interrupt after the release schedules by itself.
 * Either way nothing is left behind.  Drivers without ops must do the same
 * by hand (see ib_poll_handler() for the pattern).
 *
 * Deferral.  With defer_hard_irqs and flush_timeout_ns set, a completion
 * keeps the device masked and arms a pinned hrtimer instead; the timer
 * reschedules the instance.  The instance is released (idle, DEFERRED) in
 * between, so an explicit irq_poll_sched() still works at any time.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/export.h>
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
#include <linux/string.h>
#include <linux/sysctl.h>
#include <linux/sysfs.h>
#include <linux/wait_bit.h>
#include <kunit/visibility.h>

#define CREATE_TRACE_POINTS
#include <trace/events/irq_poll.h>

EXPORT_TRACEPOINT_SYMBOL_GPL(irq_poll_schedule);
EXPORT_TRACEPOINT_SYMBOL_GPL(irq_poll_poll);
EXPORT_TRACEPOINT_SYMBOL_GPL(irq_poll_complete);
EXPORT_TRACEPOINT_SYMBOL_GPL(irq_poll_defer);
EXPORT_TRACEPOINT_SYMBOL_GPL(irq_poll_timer);
EXPORT_TRACEPOINT_SYMBOL_GPL(irq_poll_rearm);

/*
 * Completions reaped per softirq run before yielding.  256 is what the
 * blk-iopoll seeds settled on (up from 64) and what 6.1 hard-coded.
 */
#define IRQ_POLL_BUDGET_DEFAULT		256

/*
 * Time per softirq run, in microseconds.  2000 matches MAX_SOFTIRQ_TIME in
 * kernel/softirq.c and netdev_budget_usecs at HZ=1000: one run of this
 * softirq may take what __do_softirq() allows for all of them before it
 * punts to ksoftirqd.  Capped at 100 ms, beyond which RCU stall and
 * soft-lockup detectors start to fire.
 */
#define IRQ_POLL_BUDGET_USECS_DEFAULT	2000
#define IRQ_POLL_BUDGET_USECS_MAX	100000

/*
 * Longest deferral timer, in ns.  A device masked for more than a second
 * looks dead to its users; larger values are taken for a unit mistake.
 */
#define IRQ_POLL_FLUSH_TIMEOUT_MAX	NSEC_PER_SEC

/* Longest instance name, without the NUL */
#define IRQ_POLL_NAME_MAX		63

static int sysctl_irq_poll __read_mostly = 1;
static int sysctl_irq_poll_budget __read_mostly = IRQ_POLL_BUDGET_DEFAULT;
static int sysctl_irq_poll_budget_usecs __read_mostly =
	IRQ_POLL_BUDGET_USECS_DEFAULT;
static int irq_poll_budget_usecs_max = IRQ_POLL_BUDGET_USECS_MAX;

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

/**
 * struct irq_poll_run - the ->poll() call in progress on this CPU
 * @iop: instance being polled, NULL between calls
 * @budget: budget passed to that call
 * @completed: the driver called irq_poll_complete*() during the call
 *
 * ->poll() runs with BH disabled in both modes, so at most one call is in
 * progress per CPU and the record is stable while it runs.
 */
struct irq_poll_run {
	struct irq_poll *iop;
	int budget;
	bool completed;
};

static DEFINE_PER_CPU(struct irq_poll_run, irq_poll_running);

static atomic_t irq_poll_ids = ATOMIC_INIT(0);

/* Serialises threaded switches and name registration; may sleep. */
static DEFINE_MUTEX(irq_poll_mutex);
static struct kset *irq_poll_kset;

/**
 * struct irq_poll_kobj - sysfs directory of a named instance
 * @kobj: the kobject; freed by its release when the last reference goes
 * @iop: the instance; only dereferenced from attribute methods, which
 *	 kobject_del() in irq_poll_destroy() drains before the driver may
 *	 free it
 */
struct irq_poll_kobj {
	struct kobject kobj;
	struct irq_poll *iop;
};

static bool __irq_poll_sched(struct irq_poll *iop);

/* Give up ownership.  Caller owns @iop. */
static void irq_poll_release(struct irq_poll *iop)
{
	/* Pairs with test_and_set_bit() in irq_poll_claim(). */
	clear_bit_unlock(IRQ_POLL_F_SCHED, &iop->state);
	/*
	 * Pairs with smp_mb__after_atomic() in irq_poll_disable(): either it
	 * sees SCHED clear, or we see DISABLE and wake it.
	 */
	smp_mb__after_atomic();
	if (test_bit(IRQ_POLL_F_DISABLE, &iop->state))
		wake_up_var(&iop->state);
}

static bool irq_poll_claim(struct irq_poll *iop)
{
	if (test_bit(IRQ_POLL_F_DISABLE, &iop->state))
		return false;
	/* Fully ordered; pairs with clear_bit_unlock() in irq_poll_release(). */
	return !test_and_set_bit(IRQ_POLL_F_SCHED, &iop->state);
}

/* Put an owned instance on this CPU's list.  Any context. */
static void irq_poll_queue_softirq(struct irq_poll *iop)
{
	unsigned long flags;

	local_irq_save(flags);
	list_add_tail(&iop->list, &this_cpu_ptr(&irq_poll_pcpu)->list);
	raise_softirq_irqoff(IRQ_POLL_SOFTIRQ);
	local_irq_restore(flags);
}

/*
 * Hand an owned instance to its kthread, if it is in threaded mode.
 * Returns false if it is not; the caller then queues it for the softirq.
 */
static bool irq_poll_queue_thread(struct irq_poll *iop)
{
	bool queued = false;

	/*
	 * irq_poll_set_threaded() clears ->threaded and waits for a grace
	 * period before stopping the thread, so ->thread stays valid inside
	 * this read-side section.
	 */
	rcu_read_lock();
	/* Pairs with smp_store_release() in irq_poll_set_threaded(). */
	if (smp_load_acquire(&iop->threaded)) {
		/*
		 * Pairs with set_current_state() in irq_poll_thread_wait():
		 * wake_up_process() orders the bit before reading the state.
		 */
		set_bit(IRQ_POLL_F_SCHED_THREADED, &iop->state);
		wake_up_process(iop->thread);
		queued = true;
	}
	rcu_read_unlock();
	return queued;
}

static void irq_poll_queue(struct irq_poll *iop)
{
	if (!irq_poll_queue_thread(iop))
		irq_poll_queue_softirq(iop);
}

/* Schedule @iop.  Returns true if this call moved it out of idle. */
static bool __irq_poll_sched(struct irq_poll *iop)
{
	if (!irq_poll_claim(iop))
		return false;

	/* An explicit schedule overtakes a pending deferral. */
	if (test_and_clear_bit(IRQ_POLL_F_DEFERRED, &iop->state))
		hrtimer_try_to_cancel(&iop->timer);

	atomic_long_inc(&iop->stats.scheduled);
	if (iop->ops && !test_and_set_bit(IRQ_POLL_F_MASKED, &iop->state))
		iop->ops->mask(iop);
	trace_irq_poll_schedule(iop);
	irq_poll_queue(iop);
	return true;
}

/**
 * irq_poll_sched - schedule a poll of @iop
 * @iop: the instance
 *
 * Typically called from the device's interrupt handler.  Does nothing if
 * @iop is already scheduled or being polled (the owner will see the new
 * completions) or if it is disabled.  With ops, masks the device.
 *
 * Context: any context, including hard IRQ.
 */
void irq_poll_sched(struct irq_poll *iop)
{
	__irq_poll_sched(iop);
}
EXPORT_SYMBOL(irq_poll_sched);

/* Unmask, release and re-check for the re-arm race.  Caller owns @iop. */
static void irq_poll_finish(struct irq_poll *iop)
{
	const struct irq_poll_ops *ops = iop->ops;
	bool masked = ops && test_and_clear_bit(IRQ_POLL_F_MASKED, &iop->state);

	if (masked)
		ops->unmask(iop);
	irq_poll_release(iop);
	/*
	 * An interrupt between unmask and release found the instance owned
	 * and was dropped; its completion is what ->pending() sees now.
	 */
	if (masked && ops->pending && ops->pending(iop) &&
	    __irq_poll_sched(iop)) {
		atomic_long_inc(&iop->stats.rearm_races);
		trace_irq_poll_rearm(iop);
	}
}

/*
 * Look up the poll in progress on this CPU and mark it completed.
 * Returns false (after complaining) if @iop is not being polled here.
 */
static bool irq_poll_mark_completed(struct irq_poll *iop, int work_done,
				    bool check_work)
{
	struct irq_poll_run *run;
	unsigned long flags;
	bool ok = true;

	/* ->poll() runs with BH off; this only guards against misuse. */
	local_irq_save(flags);
	run = this_cpu_ptr(&irq_poll_running);
	if (WARN_ONCE(run->iop != iop || run->completed,
		      "irq_poll: %pS: completion outside its poll function or twice\n",
		      iop->poll)) {
		ok = false;
	} else {
		WARN_ONCE(check_work && work_done >= run->budget,
			  "irq_poll: %pS completed after using its budget (%d >= %d)\n",
			  iop->poll, work_done, run->budget);
		run->completed = true;
	}
	local_irq_restore(flags);
	return ok;
}

/**
 * irq_poll_complete - end polling of @iop
 * @iop: the instance
 *
 * Call from the poll function when it reaped fewer completions than its
 * budget.  The instance goes idle at once (with ops, the device is
 * unmasked and re-checked); the poll function is not called again until
 * the next irq_poll_sched().  Never applies deferral.
 *
 * Context: from the instance's poll function only (softirq context).
 */
void irq_poll_complete(struct irq_poll *iop)
{
	if (!irq_poll_mark_completed(iop, 0, false))
		return;
	iop->defer_count = 0;
	trace_irq_poll_complete(iop, -1, true);
	irq_poll_finish(iop);
}
EXPORT_SYMBOL(irq_poll_complete);

/**
 * irq_poll_complete_done - end polling of @iop, unless deferral applies
 * @iop: the instance
 * @work_done: completions reaped by this poll; must be below the budget
 *
 * Like irq_poll_complete(), but with the instance's IRQ deferral: after a
 * poll that found work, and for up to defer_hard_irqs - 1 empty polls
 * after it, the device stays masked and a timer polls again after
 * flush_timeout_ns.  Deferral is off unless both are non-zero.
 *
 * Context: from the instance's poll function only (softirq context).
 * Return: true if the instance went idle and the device may interrupt
 * again (with ops, the library has unmasked it); false if deferral keeps
 * it masked, in which case a driver without ops must not unmask.
 */
bool irq_poll_complete_done(struct irq_poll *iop, int work_done)
{
	u32 timeout = 0;

	if (!irq_poll_mark_completed(iop, work_done, true))
		return !test_bit(IRQ_POLL_F_SCHED, &iop->state);

	if (work_done > 0)
		iop->defer_count = READ_ONCE(iop->defer_hard_irqs);
	else if (iop->defer_count > 0)
		iop->defer_count--;
	if (iop->defer_count > 0)
		timeout = READ_ONCE(iop->flush_timeout_ns);

	if (timeout) {
		atomic_long_inc(&iop->stats.deferrals);
		trace_irq_poll_defer(iop, iop->defer_count, timeout);
		trace_irq_poll_complete(iop, work_done, false);
		/* Cleared by the timer or by __irq_poll_sched(), both owners. */
		set_bit(IRQ_POLL_F_DEFERRED, &iop->state);
		hrtimer_start(&iop->timer, ns_to_ktime(timeout),
			      HRTIMER_MODE_REL_PINNED);
		irq_poll_release(iop);
		/*
		 * The timer can expire before the release (a short timeout,
		 * or this CPU stalled): it then cleared DEFERRED, found the
		 * instance still owned and gave up, and nothing would ever
		 * poll the masked device again.  Schedule in its place.
		 * Fully ordered against the timer by the atomics in
		 * irq_poll_release() and irq_poll_timer_fn(); if an explicit
		 * schedule took the instance instead, this does nothing.
		 */
		if (!test_bit(IRQ_POLL_F_DEFERRED, &iop->state) &&
		    __irq_poll_sched(iop))
			atomic_long_inc(&iop->stats.rearm_races);
		return false;
	}

	iop->defer_count = 0;
	trace_irq_poll_complete(iop, work_done, true);
	irq_poll_finish(iop);
	return true;
}
EXPORT_SYMBOL_GPL(irq_poll_complete_done);

/*
 * Deferral timer.  The device is still masked, so nothing but this timer
 * (or an explicit irq_poll_sched()) will poll the instance; scheduling it
 * from hard IRQ context is what an interrupt would have done.  Losing the
 * race against such an explicit schedule, or against a disable, is fine:
 * whoever won owns the instance.
 */
static enum hrtimer_restart irq_poll_timer_fn(struct hrtimer *timer)
{
	struct irq_poll *iop = container_of(timer, struct irq_poll, timer);

	if (test_and_clear_bit(IRQ_POLL_F_DEFERRED, &iop->state)) {
		trace_irq_poll_timer(iop);
		__irq_poll_sched(iop);
	}
	return HRTIMER_NORESTART;
}

/* Drop the ->pollers reference taken in irq_poll_run_one(). */
static void irq_poll_put_poller(struct irq_poll *iop)
{
	/*
	 * Fully ordered; pairs with smp_mb__after_atomic() in
	 * irq_poll_disable(), like irq_poll_release().
	 */
	if (atomic_dec_and_test(&iop->pollers) &&
	    test_bit(IRQ_POLL_F_DISABLE, &iop->state))
		wake_up_var(&iop->state);
}

/*
 * Call ->poll() once.  Caller owns @iop, has taken it off every list and
 * disabled BH.  Returns true if the caller still owns @iop and must poll
 * it again; false if it was completed or released for a pending disable.
 */
static bool irq_poll_run_one(struct irq_poll *iop, bool threaded, int *workp)
{
	struct irq_poll_run *run = this_cpu_ptr(&irq_poll_running);
	int budget = READ_ONCE(iop->weight);
	bool again = false;
	bool completed;
	int work;

	atomic_inc(&iop->pollers);
	run->iop = iop;
	run->budget = budget;
	run->completed = false;

	work = iop->poll(iop, budget);

	completed = run->completed;
	run->iop = NULL;

	if (WARN_ONCE(work < 0, "irq_poll: %pS returned %d\n", iop->poll, work))
		work = 0;
	atomic_long_inc(&iop->stats.polls);
	atomic_long_add(work, &iop->stats.reaped);
	if (!work)
		atomic_long_inc(&iop->stats.empty_polls);
	trace_irq_poll_poll(iop, work, budget, threaded);

	if (!completed) {
		/*
		 * Still ours: the driver used its budget (or more, some
		 * cannot stop mid-batch), or returned less without
		 * completing, which 6.1 also polled again.
		 */
		if (work >= budget)
			atomic_long_inc(&iop->stats.budget_exhausted);
		if (test_bit(IRQ_POLL_F_DISABLE, &iop->state))
			irq_poll_release(iop);
		else
			again = true;
	}

	irq_poll_put_poller(iop);
	*workp = work;
	return again;
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
		int work;

		if (list_empty(&list)) {
			local_irq_disable();
			list_splice_init(&pc->list, &list);
			local_irq_enable();
			if (list_empty(&list))
				break;
		}

		iop = list_first_entry(&list, struct irq_poll, list);
		list_del_init(&iop->list);
		if (irq_poll_run_one(iop, false, &work) &&
		    !irq_poll_queue_thread(iop))
			list_add_tail(&iop->list, &list);

		budget -= work;
		if (budget <= 0 || (s64)(local_clock() - deadline) >= 0) {
			if (!list_empty(&list))
				pc->squeezed++;
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
 * Sleep until the instance is handed to us.  SCHED alone does not prove
 * that: after a switch back to softirq mode an instance can be SCHED and
 * on a CPU list, so the thread only polls when it consumed the dedicated
 * SCHED_THREADED bit.  Returns false when asked to stop with nothing
 * handed over.
 */
static bool irq_poll_thread_wait(struct irq_poll *iop)
{
	for (;;) {
		/* Pairs with wake_up_process() in irq_poll_queue_thread(). */
		set_current_state(TASK_INTERRUPTIBLE);
		if (test_and_clear_bit(IRQ_POLL_F_SCHED_THREADED, &iop->state)) {
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
			int work;

			/* Poll functions expect softirq context. */
			local_bh_disable();
			again = irq_poll_run_one(iop, true, &work);
			if (again && (!READ_ONCE(iop->threaded) ||
				      kthread_should_stop())) {
				/* Switched back meanwhile: softirq takes over. */
				irq_poll_queue_softirq(iop);
				again = false;
			}
			local_bh_enable();
			cond_resched();
		} while (again);
	}
	return 0;
}

/**
 * irq_poll_set_threaded - poll @iop from a kthread or from the softirq
 * @iop: the instance
 * @threaded: true for a dedicated kthread "irq_poll/<name>"
 *
 * Can be switched while the instance is busy: an instance owned by one
 * side finishes its current poll there and the next poll runs on the other
 * side; it is never polled by both, and no schedule is lost.
 *
 * Context: process context, may sleep.
 * Return: 0, or the error from kthread creation.
 */
int irq_poll_set_threaded(struct irq_poll *iop, bool threaded)
{
	struct task_struct *t;
	int err = 0;

	might_sleep();
	mutex_lock(&irq_poll_mutex);
	if (threaded == iop->threaded)
		goto out;

	if (threaded) {
		if (iop->name)
			t = kthread_run(irq_poll_thread, iop, "irq_poll/%s",
					iop->name);
		else
			t = kthread_run(irq_poll_thread, iop, "irq_poll/%u",
					iop->id);
		if (IS_ERR(t)) {
			err = PTR_ERR(t);
			goto out;
		}
		iop->thread = t;
		/* Pairs with smp_load_acquire() in irq_poll_queue_thread(). */
		smp_store_release(&iop->threaded, true);
	} else {
		WRITE_ONCE(iop->threaded, false);
		/* No irq_poll_queue_thread() still sees ->threaded after this. */
		synchronize_rcu();
		kthread_stop(iop->thread);
		iop->thread = NULL;
		/*
		 * A kthread stopped before it first ran never called
		 * irq_poll_thread() and so never saw its hand-over: give the
		 * instance to the softirq instead (BH off, so it runs at
		 * local_bh_enable()).
		 */
		if (test_and_clear_bit(IRQ_POLL_F_SCHED_THREADED, &iop->state)) {
			local_bh_disable();
			irq_poll_queue_softirq(iop);
			local_bh_enable();
		}
	}
out:
	mutex_unlock(&irq_poll_mutex);
	return err;
}
EXPORT_SYMBOL_GPL(irq_poll_set_threaded);

/**
 * irq_poll_disable - disable @iop and wait for it to go quiet
 * @iop: the instance
 *
 * Waits until a scheduled or running poll has finished (a scheduled one is
 * polled once more), cancels the deferral timer and, with ops, unmasks the
 * device the library had masked.  Afterwards irq_poll_sched() does nothing
 * and irq_poll_active() returns false until irq_poll_enable().  Disabling
 * a disabled instance does nothing.
 *
 * Context: process context, may sleep.  Not from the poll function.
 */
void irq_poll_disable(struct irq_poll *iop)
{
	might_sleep();
	if (test_bit(IRQ_POLL_F_DISABLED, &iop->state))
		return;

	set_bit(IRQ_POLL_F_DISABLE, &iop->state);
	/*
	 * Pairs with smp_mb__after_atomic() in irq_poll_release() and with
	 * atomic_dec_and_test() in irq_poll_put_poller().
	 */
	smp_mb__after_atomic();
	wait_var_event(&iop->state,
		       !test_and_set_bit(IRQ_POLL_F_SCHED, &iop->state));
	/* A poll that completed may still be doing its bookkeeping. */
	wait_var_event(&iop->state, !atomic_read(&iop->pollers));

	hrtimer_cancel(&iop->timer);
	clear_bit(IRQ_POLL_F_DEFERRED, &iop->state);
	if (iop->ops && test_and_clear_bit(IRQ_POLL_F_MASKED, &iop->state))
		iop->ops->unmask(iop);
	iop->defer_count = 0;

	set_bit(IRQ_POLL_F_DISABLED, &iop->state);
	clear_bit(IRQ_POLL_F_DISABLE, &iop->state);
}
EXPORT_SYMBOL(irq_poll_disable);

/**
 * irq_poll_enable - enable @iop after irq_poll_disable()
 * @iop: the instance
 *
 * Makes @iop schedulable again; does not schedule it.  A new instance is
 * already enabled; enabling an enabled instance warns and does nothing.
 *
 * Context: any context.
 */
void irq_poll_enable(struct irq_poll *iop)
{
	if (WARN_ON_ONCE(!test_bit(IRQ_POLL_F_DISABLED, &iop->state)))
		return;
	clear_bit(IRQ_POLL_F_DISABLED, &iop->state);
	irq_poll_release(iop);
}
EXPORT_SYMBOL(irq_poll_enable);

/**
 * irq_poll_active - should the interrupt handler use polling now?
 * @iop: the instance
 *
 * Context: any context.
 * Return: false if @iop is disabled (or being disabled), or if it was
 * created with IRQ_POLL_F_SWITCHABLE and the kernel.irq_poll sysctl is 0;
 * true otherwise.  The answer can be stale by the time it is used, which
 * is harmless: irq_poll_sched() on a disabled instance does nothing.
 */
bool irq_poll_active(const struct irq_poll *iop)
{
	if (test_bit(IRQ_POLL_F_DISABLE, &iop->state) ||
	    test_bit(IRQ_POLL_F_DISABLED, &iop->state))
		return false;
	if ((iop->flags & IRQ_POLL_F_SWITCHABLE) && !READ_ONCE(sysctl_irq_poll))
		return false;
	return true;
}
EXPORT_SYMBOL_GPL(irq_poll_active);

/**
 * irq_poll_init - initialise @iop
 * @iop: the instance
 * @weight: budget per call of @poll_fn
 * @poll_fn: the driver's poll function
 *
 * Sets up an unnamed instance: enabled, idle, softirq mode, no ops, no
 * deferral, no sysfs directory.  May be called again on a disabled (or
 * never scheduled) unnamed instance to reset it.
 *
 * Context: any context.
 */
void irq_poll_init(struct irq_poll *iop, int weight, irq_poll_fn *poll_fn)
{
	memset(iop, 0, sizeof(*iop));
	INIT_LIST_HEAD(&iop->list);
	iop->weight = weight;
	iop->poll = poll_fn;
	iop->id = atomic_inc_return(&irq_poll_ids);
	hrtimer_init(&iop->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
	iop->timer.function = irq_poll_timer_fn;
}
EXPORT_SYMBOL(irq_poll_init);

/* sysfs: /sys/kernel/irq_poll/<name>/ */

static struct irq_poll *kobj_to_iop(struct kobject *kobj)
{
	return container_of(kobj, struct irq_poll_kobj, kobj)->iop;
}

#define IRQ_POLL_STAT_ATTR(_name)					\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	struct irq_poll *iop = kobj_to_iop(kobj);			\
									\
	return sysfs_emit(buf, "%lu\n",					\
			  atomic_long_read(&iop->stats._name));		\
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
IRQ_POLL_STAT_ATTR(rearm_races);
IRQ_POLL_STAT_ATTR(deferrals);

static ssize_t weight_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(kobj_to_iop(kobj)->weight));
}

static ssize_t weight_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	int val;

	if (kstrtoint(buf, 0, &val) || val < 1)
		return -EINVAL;
	/* Read once per poll by irq_poll_run_one(). */
	WRITE_ONCE(kobj_to_iop(kobj)->weight, val);
	return count;
}

static ssize_t defer_hard_irqs_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  READ_ONCE(kobj_to_iop(kobj)->defer_hard_irqs));
}

static ssize_t defer_hard_irqs_store(struct kobject *kobj,
				     struct kobj_attribute *attr,
				     const char *buf, size_t count)
{
	int val;

	if (kstrtoint(buf, 0, &val) || val < 0)
		return -EINVAL;
	/* Read by irq_poll_complete_done() at the next poll with work. */
	WRITE_ONCE(kobj_to_iop(kobj)->defer_hard_irqs, val);
	return count;
}

static ssize_t flush_timeout_ns_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(kobj_to_iop(kobj)->flush_timeout_ns));
}

static ssize_t flush_timeout_ns_store(struct kobject *kobj,
				      struct kobj_attribute *attr,
				      const char *buf, size_t count)
{
	u32 val;

	if (kstrtou32(buf, 0, &val) || val > IRQ_POLL_FLUSH_TIMEOUT_MAX)
		return -EINVAL;
	/* Read by irq_poll_complete_done(). */
	WRITE_ONCE(kobj_to_iop(kobj)->flush_timeout_ns, val);
	return count;
}

static ssize_t threaded_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(kobj_to_iop(kobj)->threaded));
}

static ssize_t threaded_store(struct kobject *kobj, struct kobj_attribute *attr,
			      const char *buf, size_t count)
{
	unsigned int val;
	int err;

	if (kstrtouint(buf, 0, &val) || val > 1)
		return -EINVAL;
	err = irq_poll_set_threaded(kobj_to_iop(kobj), val);
	return err ? err : count;
}

static struct kobj_attribute weight_attr = __ATTR_RW(weight);
static struct kobj_attribute defer_hard_irqs_attr = __ATTR_RW(defer_hard_irqs);
static struct kobj_attribute flush_timeout_ns_attr =
	__ATTR_RW(flush_timeout_ns);
static struct kobj_attribute threaded_attr = __ATTR_RW(threaded);

static struct attribute *irq_poll_attrs[] = {
	&weight_attr.attr,
	&defer_hard_irqs_attr.attr,
	&flush_timeout_ns_attr.attr,
	&threaded_attr.attr,
	&scheduled_attr.attr,
	&polls_attr.attr,
	&reaped_attr.attr,
	&budget_exhausted_attr.attr,
	&empty_polls_attr.attr,
	&rearm_races_attr.attr,
	&deferrals_attr.attr,
	NULL
};
ATTRIBUTE_GROUPS(irq_poll);

static void irq_poll_kobj_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct irq_poll_kobj, kobj));
}

static struct kobj_type irq_poll_ktype = {
	.release	= irq_poll_kobj_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= irq_poll_groups,
};

static struct kobj_attribute *irq_poll_find_attr(const char *name)
{
	struct attribute **a;

	for (a = irq_poll_attrs; *a; a++)
		if (!strcmp((*a)->name, name))
			return container_of(*a, struct kobj_attribute, attr);
	return NULL;
}

/*
 * For KUnit: call an attribute's store/show method the way sysfs would;
 * sysfs itself is not mounted when built-in tests run.
 */
VISIBLE_IF_KUNIT ssize_t irq_poll_attr_store(struct irq_poll *iop,
					     const char *attr,
					     const char *buf, size_t count)
{
	struct kobj_attribute *ka = irq_poll_find_attr(attr);

	if (!iop->kobj || !ka || !ka->store)
		return -ENOENT;
	return ka->store(&iop->kobj->kobj, ka, buf, count);
}
EXPORT_SYMBOL_IF_KUNIT(irq_poll_attr_store);

VISIBLE_IF_KUNIT ssize_t irq_poll_attr_show(struct irq_poll *iop,
					    const char *attr, char *buf)
{
	struct kobj_attribute *ka = irq_poll_find_attr(attr);

	if (!iop->kobj || !ka)
		return -ENOENT;
	return ka->show(&iop->kobj->kobj, ka, buf);
}
EXPORT_SYMBOL_IF_KUNIT(irq_poll_attr_show);

VISIBLE_IF_KUNIT unsigned long irq_poll_squeezed(void)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(irq_poll_pcpu, cpu).squeezed);
	return sum;
}
EXPORT_SYMBOL_IF_KUNIT(irq_poll_squeezed);

static ssize_t squeezed_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%lu\n", irq_poll_squeezed());
}

static struct kobj_attribute squeezed_attr = __ATTR_RO(squeezed);

static bool irq_poll_name_valid(const char *name)
{
	size_t len = name ? strnlen(name, IRQ_POLL_NAME_MAX + 1) : 0;

	return len && len <= IRQ_POLL_NAME_MAX && !strchr(name, '/') &&
	       strcmp(name, ".") && strcmp(name, "..");
}

/**
 * irq_poll_init_named - initialise @iop with a name, ops and sysfs files
 * @iop: the instance
 * @cfg: its configuration; only read during the call (@cfg->name is copied)
 * @poll_fn: the driver's poll function
 *
 * Like irq_poll_init(), plus @cfg->ops, the IRQ_POLL_F_* flags, initial
 * deferral settings and /sys/kernel/irq_poll/<name>/.  Undo with
 * irq_poll_destroy().
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL for a bad @cfg (missing or invalid name, negative
 * weight or defer_hard_irqs, timeout above 1 s, unknown flags, ops without
 * mask or unmask); -EEXIST if the name is taken; -ENOMEM, or the error
 * from starting the kthread.
 */
int irq_poll_init_named(struct irq_poll *iop,
			const struct irq_poll_config *cfg,
			irq_poll_fn *poll_fn)
{
	struct irq_poll_kobj *ik;
	struct kobject *old;
	int err;

	might_sleep();
	if (!cfg || !irq_poll_name_valid(cfg->name) || cfg->weight < 0 ||
	    cfg->defer_hard_irqs < 0 ||
	    cfg->flush_timeout_ns > IRQ_POLL_FLUSH_TIMEOUT_MAX ||
	    (cfg->flags & ~(IRQ_POLL_F_SWITCHABLE | IRQ_POLL_F_THREADED)) ||
	    (cfg->ops && (!cfg->ops->mask || !cfg->ops->unmask)))
		return -EINVAL;
	if (!irq_poll_kset)
		return -ENOMEM;

	irq_poll_init(iop, cfg->weight ?: IRQ_POLL_DEFAULT_WEIGHT, poll_fn);
	iop->ops = cfg->ops;
	iop->flags = cfg->flags;
	iop->defer_hard_irqs = cfg->defer_hard_irqs;
	iop->flush_timeout_ns = cfg->flush_timeout_ns;
	iop->name = kstrdup(cfg->name, GFP_KERNEL);
	ik = kzalloc(sizeof(*ik), GFP_KERNEL);
	if (!iop->name || !ik) {
		err = -ENOMEM;
		goto err_free;
	}
	ik->iop = iop;
	ik->kobj.kset = irq_poll_kset;

	mutex_lock(&irq_poll_mutex);
	/* Checked here: a duplicate kobject_add() would dump a stack. */
	old = kset_find_obj(irq_poll_kset, iop->name);
	if (old) {
		kobject_put(old);
		mutex_unlock(&irq_poll_mutex);
		err = -EEXIST;
		goto err_free;
	}
	err = kobject_init_and_add(&ik->kobj, &irq_poll_ktype, NULL, "%s",
				   iop->name);
	mutex_unlock(&irq_poll_mutex);
	if (err) {
		kobject_put(&ik->kobj);
		ik = NULL;
		goto err_free;
	}
	iop->kobj = ik;

	if (cfg->flags & IRQ_POLL_F_THREADED) {
		err = irq_poll_set_threaded(iop, true);
		if (err) {
			irq_poll_destroy(iop);
			return err;
		}
	}
	kobject_uevent(&ik->kobj, KOBJ_ADD);
	return 0;

err_free:
	kfree(ik);
	kfree(iop->name);
	iop->name = NULL;
	return err;
}
EXPORT_SYMBOL_GPL(irq_poll_init_named);

/**
 * irq_poll_destroy - tear down @iop
 * @iop: the instance
 *
 * Removes the sysfs directory (waiting for readers and writers of its
 * files), disables the instance (waiting for any poll), cancels the
 * deferral timer and stops the kthread.  On return nothing runs on @iop
 * any more and the driver may free it, provided it also stopped calling
 * irq_poll_sched() (free_irq() first).  Works on unnamed instances too.
 *
 * Context: process context, may sleep.
 */
void irq_poll_destroy(struct irq_poll *iop)
{
	struct irq_poll_kobj *ik = iop->kobj;

	might_sleep();
	if (ik) {
		/* Drains running show()/store(); none can start afterwards. */
		kobject_del(&ik->kobj);
		kobject_put(&ik->kobj);
		iop->kobj = NULL;
	}
	irq_poll_disable(iop);
	irq_poll_set_threaded(iop, false);
	kfree(iop->name);
	iop->name = NULL;
}
EXPORT_SYMBOL_GPL(irq_poll_destroy);

/* sysctls: kernel.irq_poll, kernel.irq_poll_budget{,_usecs} */
VISIBLE_IF_KUNIT struct ctl_table irq_poll_sysctls[] = {
	{
		.procname	= "irq_poll",
		.data		= &sysctl_irq_poll,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
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
		list_splice_tail_init(dead, &this_cpu_ptr(&irq_poll_pcpu)->list);
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

	/* Unnamed instances work without sysfs and sysctls; warn only. */
	irq_poll_kset = kset_create_and_add("irq_poll", NULL, kernel_kobj);
	if (!irq_poll_kset ||
	    sysfs_create_file(&irq_poll_kset->kobj, &squeezed_attr.attr))
		pr_warn("irq_poll: cannot create /sys/kernel/irq_poll\n");
	if (!register_sysctl("kernel", irq_poll_sysctls))
		pr_warn("irq_poll: cannot register sysctls\n");
	return 0;
}
subsys_initcall(irq_poll_setup);
