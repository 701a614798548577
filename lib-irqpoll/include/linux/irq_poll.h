/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_poll: polled completion processing for interrupting devices
 *
 * A driver embeds a struct irq_poll per completion queue.  Its interrupt
 * handler schedules the instance instead of reaping completions in hard-IRQ
 * context; the library then calls the driver's poll function from the
 * IRQ_POLL softirq (or from a per-instance kthread) with a budget, for as
 * long as the device keeps it busy.  See Documentation/core-api/irq_poll.rst.
 *
 * States of an instance, their encoding in irq_poll.state and the moves:
 *
 *  state      encoding                   next         moved by
 *  ---------  -------------------------  -----------  ------------------------
 *  idle       !SCHED                     scheduled    irq_poll_sched() or
 *                                                     irq_poll_handoff()
 *                                        disabled     irq_poll_disable()
 *  scheduled  SCHED, on a per-CPU list   polling      IRQ_POLL softirq, or the
 *             or handed to the kthread                kthread
 *  polling    SCHED, ->poll() running    scheduled    library: budget used, or
 *                                                     work seen at the end
 *                                                     (MISSED, ->pending())
 *                                        idle         library, after ->poll()
 *                                                     completed
 *                                        deferred     library, after
 *                                                     irq_poll_complete_done()
 *                                                     with deferral due
 *                                        disabled     library, for a waiting
 *                                                     irq_poll_disable()
 *  deferred   SCHED, DEFERRED, device    scheduled    hrtimer, or
 *             masked, hrtimer armed                   irq_poll_sched()
 *                                        disabled     irq_poll_disable()
 *  disabled   SCHED, DISABLED            idle         last irq_poll_enable()
 *                                        scheduled    same, with ops
 *  parked     !SCHED, PARKED             scheduled    irq_poll_handoff(), every
 *  (auto)                                             256th interrupt
 *                                        disabled     irq_poll_disable()
 *
 * Whoever moves an instance out of idle owns it: only the owner touches
 * ->list, calls ->poll(), ->unmask() and ->pending(), and moves it on.
 * Ownership passes from the scheduler to the softirq through the per-CPU
 * list, to the kthread through a hand-off bit, to the deferral timer
 * through DEFERRED (which irq_poll_sched() and irq_poll_disable() may take
 * back), and ends in the library after ->poll() returned.  A schedule that
 * finds the instance owned sets MISSED, and the owner polls again rather
 * than go idle with it set: no schedule is ever lost.  "off", the mode of
 * a switchable instance that does not poll, is the disabled state held by
 * the library.  "parked" is where IRQ_POLL_MODE_AUTO leaves a switchable
 * instance whose polls do not batch: its driver's interrupt path reaps, as
 * when off, and the library only counts interrupts until it tries polling
 * again; the library parks it when it goes idle.
 *
 * SCHED and DISABLE keep their 6.1 bit numbers; the other bits are private
 * to lib/irq_poll.c.
 */
#ifndef IRQ_POLL_H
#define IRQ_POLL_H

#include <linux/bits.h>
#include <linux/list.h>
#include <linux/types.h>

struct irq_poll;
struct irq_poll_ext;

/**
 * typedef irq_poll_fn - driver callback that reaps completions
 * @iop: the instance being polled
 * @budget: maximum number of completions to reap in this call
 *
 * Called with BH disabled (from the IRQ_POLL softirq, the instance's
 * kthread, or irq_poll_disable() draining the instance), never
 * concurrently with itself for the same @iop.  If it reaps fewer than
 * @budget completions it calls irq_poll_complete() or
 * irq_poll_complete_done() before returning; if it used its whole budget
 * it must not, and the library polls it again.
 *
 * Return: the number of completions reaped.
 */
typedef int (irq_poll_fn)(struct irq_poll *iop, int budget);

/**
 * struct irq_poll_ops - device masking callbacks of a named instance
 * @mask: mask the device's completion interrupt, at the device, not the
 *	  IRQ line.  Called by irq_poll_sched() and irq_poll_handoff(), in
 *	  their caller's context (typically the interrupt handler, under
 *	  the locks it holds) with local interrupts disabled, whenever the
 *	  device must be quiet: when the call scheduled the instance, and
 *	  also when it found the instance busy or disabled, so that a
 *	  level-triggered line is never left asserted.  Not called for a
 *	  switchable instance that is off, disabled or parked (its driver
 *	  reaps then).  Must be idempotent.
 * @unmask: unmask it again.  Called by the owner when the instance goes
 *	    idle, and by irq_poll_disable() of a switchable instance, with
 *	    BH disabled and no lock of the driver held.  Must be idempotent.
 * @pending: optional; return true if completions are waiting.  Called by
 *	     the owner right after @unmask, with BH disabled and no lock of
 *	     the driver held, to close the re-arm race on devices that do
 *	     not interrupt again for a completion that arrived while they
 *	     were masked.  Must only peek.  May be NULL for devices that do
 *	     (level-triggered lines, latched interrupt status).
 *
 * None of them may sleep.
 */
struct irq_poll_ops {
	void (*mask)(struct irq_poll *iop);
	void (*unmask)(struct irq_poll *iop);
	bool (*pending)(struct irq_poll *iop);
};

/**
 * struct irq_poll - one polled completion source
 * @list: entry on a per-CPU poll list; only the owner touches it
 * @state: state bits, see the table at the top of this file
 * @weight: budget handed to ->poll() per call
 * @disable_depth: irq_poll_disable() calls not yet undone by
 *		   irq_poll_enable(); under the library's lock
 * @poll: the driver's poll function
 * @ops: device masking callbacks, or NULL
 * @ext: configuration, statistics, timer and kthread of a named
 *	 instance (irq_poll_init_named()); NULL for irq_poll_init()
 *
 * Embed in the driver's per-queue structure and set up with irq_poll_init()
 * or irq_poll_init_named().  All fields are private to lib/irq_poll.c.
 * An unnamed instance fits in one cache line.
 */
struct irq_poll {
	struct list_head list;
	unsigned long state;
	int weight;
	unsigned int disable_depth;
	irq_poll_fn *poll;
	const struct irq_poll_ops *ops;
	struct irq_poll_ext *ext;
};

/* Bits in irq_poll.state that 6.1 had; the others are private. */
enum {
	IRQ_POLL_F_SCHED		= 0,	/* owned, see above */
	IRQ_POLL_F_DISABLE		= 1,	/* irq_poll_disable() running */
};

/**
 * enum irq_poll_mode - how a named instance is polled
 * @IRQ_POLL_MODE_OFF: not at all; irq_poll_handoff() returns false and
 *		       the driver's interrupt handler reaps completions
 *		       itself.  Only for IRQ_POLL_CFG_SWITCHABLE instances.
 * @IRQ_POLL_MODE_SOFTIRQ: from the IRQ_POLL softirq of the CPU that
 *			   scheduled the instance
 * @IRQ_POLL_MODE_THREADED: from a kthread of its own, "irq_poll/<name>"
 * @IRQ_POLL_MODE_AUTO: from the softirq, with interrupt deferral the
 *			library adapts to what the polls find (the fixed
 *			defer_hard_irqs and flush_timeout_ns are not used);
 *			a switchable instance whose polls do not batch is
 *			parked on its driver's interrupt path and polled
 *			again on trial every 256 interrupts.  Needs ops.
 */
enum irq_poll_mode {
	IRQ_POLL_MODE_OFF,
	IRQ_POLL_MODE_SOFTIRQ,
	IRQ_POLL_MODE_THREADED,
	IRQ_POLL_MODE_AUTO,
};

/*
 * Flags for irq_poll_config.flags.  IRQ_POLL_CFG_SWITCHABLE: the driver's
 * interrupt handler can reap completions itself, so the instance may be
 * switched off (sysfs "mode", the kernel.irq_poll sysctl); it starts in
 * the mode kernel.irq_poll gives (off at 0, softirq at 1), and its handler
 * uses irq_poll_handoff().
 */
#define IRQ_POLL_CFG_SWITCHABLE		BIT(0)

/*
 * Budget per ->poll() call when the driver passes weight 0: NAPI's
 * NAPI_POLL_WEIGHT, which lets a default softirq budget of 256 serve at
 * least four busy instances per run.
 */
#define IRQ_POLL_DEFAULT_WEIGHT		64

/*
 * Largest weight: four default softirq budgets.  Beyond that one ->poll()
 * call could hold the CPU for milliseconds with BH disabled.
 */
#define IRQ_POLL_MAX_WEIGHT		1024

/**
 * struct irq_poll_config - parameters of a named instance
 * @name: directory name under /sys/kernel/irq_poll/instances/ and kthread
 *	  name suffix; unique, 1 to 31 characters, none of them '/', blank
 *	  or a control character, and neither "." nor ".."; copied
 * @weight: budget per ->poll() call, 1 to IRQ_POLL_MAX_WEIGHT; 0 means
 *	    IRQ_POLL_DEFAULT_WEIGHT
 * @ops: device masking callbacks, or NULL; must outlive the instance
 * @flags: IRQ_POLL_CFG_* flags
 * @defer_hard_irqs: initial deferral setting (0: none; needs @ops), see
 *		     irq_poll_complete_done()
 * @flush_timeout_ns: initial deferral timer period (0: none; needs @ops)
 */
struct irq_poll_config {
	const char *name;
	int weight;
	const struct irq_poll_ops *ops;
	unsigned int flags;
	unsigned int defer_hard_irqs;
	u32 flush_timeout_ns;
};

/* The 6.1 API; irq_poll_sched() now says whether it scheduled. */
void irq_poll_init(struct irq_poll *iop, int weight, irq_poll_fn *poll_fn);
bool irq_poll_sched(struct irq_poll *iop);
void irq_poll_complete(struct irq_poll *iop);
void irq_poll_enable(struct irq_poll *iop);
void irq_poll_disable(struct irq_poll *iop);

/* Named instances: device masking, deferral, modes, sysfs */
int irq_poll_init_named(struct irq_poll *iop,
			const struct irq_poll_config *cfg,
			irq_poll_fn *poll_fn);
void irq_poll_destroy(struct irq_poll *iop);
bool irq_poll_handoff(struct irq_poll *iop);
bool irq_poll_complete_done(struct irq_poll *iop, int work_done);
bool irq_poll_active(const struct irq_poll *iop);
int irq_poll_set_mode(struct irq_poll *iop, enum irq_poll_mode mode);

#endif /* IRQ_POLL_H */
