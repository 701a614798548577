/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_poll: polled completion processing for interrupting devices
 *
 * A driver embeds a struct irq_poll per completion queue.  Its interrupt
 * handler schedules the instance instead of reaping completions in hard-IRQ
 * context; the library then calls the driver's poll function from the
 * IRQ_POLL softirq (or from a per-instance kthread in threaded mode) with a
 * budget, for as long as the device keeps it busy.  See
 * Documentation/core-api/irq_poll.rst.
 *
 * Instance states, their encoding in irq_poll.state and the allowed moves:
 *
 *  state      encoding                     next state   moved by
 *  ---------  ---------------------------  -----------  ----------------------
 *  idle       !SCHED                       scheduled    irq_poll_sched() (IRQ
 *                                                       handler, deferral timer,
 *                                                       unmask re-check)
 *                                          disabled     irq_poll_disable()
 *  scheduled  SCHED, on a per-CPU list or  polling      softirq or kthread
 *             SCHED_THREADED set                        picking it up
 *  polling    SCHED, off every list,       idle         driver completes
 *             ->poll() running                          (< budget used)
 *                                          deferred     irq_poll_complete_done()
 *                                                       with deferral armed
 *                                          scheduled    poll used its budget
 *                                                       (library requeues)
 *                                          disabled     poll ends while
 *                                                       DISABLE is pending
 *  deferred   !SCHED, DEFERRED, MASKED,    scheduled    hrtimer expiry, or any
 *             hrtimer armed                             irq_poll_sched()
 *                                          disabled     irq_poll_disable()
 *  disabled   SCHED, DISABLED              idle         irq_poll_enable()
 *
 * Ownership: whoever sets SCHED owns the instance until it clears SCHED, and
 * is the only one allowed to touch ->list, to call ->poll() and to mask or
 * unmask the device through ->ops.  Ownership is handed from the scheduler
 * to the softirq through the per-CPU list and to the kthread through
 * SCHED_THREADED; it ends in irq_poll_complete*() (driver, from ->poll()) or
 * in the library when a disable is pending.  irq_poll_disable() takes
 * ownership itself and keeps it until irq_poll_enable().
 */
#ifndef IRQ_POLL_H
#define IRQ_POLL_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/types.h>

struct irq_poll;
struct irq_poll_kobj;
struct task_struct;

/**
 * typedef irq_poll_fn - driver callback that reaps completions
 * @iop: the instance being polled
 * @budget: maximum number of completions to reap in this call
 *
 * Called in softirq context (BH disabled, also in threaded mode), never
 * concurrently with itself for the same @iop.  If it reaps fewer than
 * @budget completions it must call irq_poll_complete() or
 * irq_poll_complete_done() before returning; if it used its whole budget it
 * must not, and the library polls it again.
 *
 * Return: the number of completions reaped.
 */
typedef int (irq_poll_fn)(struct irq_poll *iop, int budget);

/**
 * struct irq_poll_ops - optional device masking callbacks
 * @mask: mask the device's completion interrupt (at the device, not the
 *	  IRQ line).  Called once when the instance is scheduled.
 * @unmask: unmask it again.  Called once when the instance goes idle, or
 *	    from irq_poll_disable().  Exactly one @unmask follows each @mask.
 * @pending: return true if completions are waiting.  Called right after
 *	     @unmask to close the re-arm race; may run concurrently with
 *	     ->poll() on another CPU, so it must only peek.
 *
 * All three run in any context (hard IRQ, softirq, task with BH disabled)
 * and must not sleep.  Drivers without ops mask and unmask by hand, as
 * before.
 */
struct irq_poll_ops {
	void (*mask)(struct irq_poll *iop);
	void (*unmask)(struct irq_poll *iop);
	bool (*pending)(struct irq_poll *iop);
};

/**
 * struct irq_poll_stats - per-instance counters, shown in sysfs
 * @scheduled: idle (or deferred) to scheduled transitions
 * @polls: calls of ->poll()
 * @reaped: sum of the values ->poll() returned
 * @budget_exhausted: polls that used the whole budget
 * @empty_polls: polls that returned 0
 * @rearm_races: reschedules for races at re-arm: ->pending() found a
 *	completion right after unmasking, or the deferral timer expired
 *	before the poll had released the instance
 * @deferrals: times the deferral timer was armed instead of unmasking
 *
 * atomic_long_t because a counter may be bumped just after the instance was
 * released (and rescheduled on another CPU); all updates are relaxed and
 * readers only want a monotonic snapshot.
 */
struct irq_poll_stats {
	atomic_long_t scheduled;
	atomic_long_t polls;
	atomic_long_t reaped;
	atomic_long_t budget_exhausted;
	atomic_long_t empty_polls;
	atomic_long_t rearm_races;
	atomic_long_t deferrals;
};

/**
 * struct irq_poll - one polled completion source
 * @list: entry on a per-CPU poll list; only the SCHED owner touches it
 * @state: IRQ_POLL_F_* state bits, see the table at the top of this file
 * @weight: budget handed to ->poll() per call (sysfs "weight")
 * @poll: the driver's poll function
 * @ops: optional device masking callbacks, or NULL
 * @name: sysfs and trace name (named instances only), or NULL
 * @id: instance number for traces (a counter bumped by each init)
 * @flags: IRQ_POLL_F_SWITCHABLE, IRQ_POLL_F_THREADED
 * @defer_hard_irqs: empty polls tolerated with the device masked
 * @defer_count: remaining empty polls before unmasking (SCHED owner only)
 * @pollers: ->poll() calls in flight, including the library's bookkeeping
 *	     after a poll that completed; irq_poll_disable() waits for 0
 * @flush_timeout_ns: deferral timer period in ns; 0 disables deferral
 * @threaded: poll from @thread instead of the softirq
 * @thread: the polling kthread while @threaded (or while being stopped)
 * @timer: deferral timer
 * @stats: counters
 * @kobj: sysfs directory of a named instance
 *
 * Embed in the driver's per-queue structure and set up with irq_poll_init()
 * or irq_poll_init_named().  All fields are private to lib/irq_poll.c.
 */
struct irq_poll {
	struct list_head list;
	unsigned long state;
	int weight;
	irq_poll_fn *poll;

	const struct irq_poll_ops *ops;
	const char *name;
	unsigned int id;
	unsigned int flags;
	int defer_hard_irqs;
	int defer_count;
	atomic_t pollers;
	u32 flush_timeout_ns;
	bool threaded;
	struct task_struct *thread;
	struct hrtimer timer;
	struct irq_poll_stats stats;
	struct irq_poll_kobj *kobj;
};

/*
 * Bit numbers in irq_poll.state.  SCHED and DISABLE keep their 6.1 numbers.
 */
enum {
	IRQ_POLL_F_SCHED		= 0,	/* owned: scheduled/polling/disabled */
	IRQ_POLL_F_DISABLE		= 1,	/* irq_poll_disable() in progress */
	IRQ_POLL_F_DISABLED		= 2,	/* disabled, SCHED held by disabler */
	IRQ_POLL_F_SCHED_THREADED	= 3,	/* handed to the kthread */
	IRQ_POLL_F_MASKED		= 4,	/* ops->mask() called, no unmask yet */
	IRQ_POLL_F_DEFERRED		= 5,	/* deferral timer armed */
};

/* Flags for irq_poll_config.flags (and irq_poll.flags) */
#define IRQ_POLL_F_SWITCHABLE	BIT(0)	/* obeys the kernel.irq_poll sysctl */
#define IRQ_POLL_F_THREADED	BIT(1)	/* start in threaded mode */

/*
 * Budget per ->poll() call when the driver passes weight 0: NAPI's
 * NAPI_POLL_WEIGHT, which lets a default softirq budget of 256 serve at
 * least four busy instances per run.
 */
#define IRQ_POLL_DEFAULT_WEIGHT	64

/**
 * struct irq_poll_config - parameters of a named instance
 * @name: directory name under /sys/kernel/irq_poll/; unique, no '/',
 *	  at most 63 characters; copied
 * @weight: budget per ->poll() call; 0 means IRQ_POLL_DEFAULT_WEIGHT
 * @ops: optional device masking callbacks; must outlive the instance
 * @flags: IRQ_POLL_F_SWITCHABLE and/or IRQ_POLL_F_THREADED
 * @defer_hard_irqs: initial sysfs defer_hard_irqs (0: no deferral)
 * @flush_timeout_ns: initial sysfs flush_timeout_ns (0: no deferral)
 */
struct irq_poll_config {
	const char *name;
	int weight;
	const struct irq_poll_ops *ops;
	unsigned int flags;
	int defer_hard_irqs;
	u32 flush_timeout_ns;
};

/* 6.1 API, unchanged signatures and semantics */
void irq_poll_sched(struct irq_poll *iop);
void irq_poll_init(struct irq_poll *iop, int weight, irq_poll_fn *poll_fn);
void irq_poll_complete(struct irq_poll *iop);
void irq_poll_enable(struct irq_poll *iop);
void irq_poll_disable(struct irq_poll *iop);

/* Named instances, device masking, deferral and threading */
int irq_poll_init_named(struct irq_poll *iop,
			const struct irq_poll_config *cfg,
			irq_poll_fn *poll_fn);
void irq_poll_destroy(struct irq_poll *iop);
bool irq_poll_active(const struct irq_poll *iop);
bool irq_poll_complete_done(struct irq_poll *iop, int work_done);
int irq_poll_set_threaded(struct irq_poll *iop, bool threaded);

#if IS_ENABLED(CONFIG_KUNIT)
/* Test hooks for lib/irq_poll_kunit.c only (include/kunit/visibility.h) */
struct ctl_table;
extern struct ctl_table irq_poll_sysctls[];
ssize_t irq_poll_attr_store(struct irq_poll *iop, const char *attr,
			    const char *buf, size_t count);
ssize_t irq_poll_attr_show(struct irq_poll *iop, const char *attr, char *buf);
unsigned long irq_poll_squeezed(void);
#endif

#endif /* IRQ_POLL_H */
