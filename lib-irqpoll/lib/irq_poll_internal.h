/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to lib/irq_poll.c and its KUnit suite (lib/irq_poll_kunit.c): the
 * state of the adaptive mode, and hooks that exist when CONFIG_KUNIT is set
 * (include/kunit/visibility.h).
 */
#ifndef _LIB_IRQ_POLL_INTERNAL_H
#define _LIB_IRQ_POLL_INTERNAL_H

#include <linux/irq_poll.h>

/**
 * struct irq_poll_auto - what IRQ_POLL_MODE_AUTO learned of an instance
 * @work_x256: moving average of the completions a completed poll found,
 *	       times 256 (weight 1/8)
 * @gap_ns: the time between two completions outside deferral windows:
 *	    @span_ns over @span_x256
 * @span_ns: moving average of the time between polls that found work,
 *	     outside deferral windows (weight 1/4)
 * @span_x256: moving average of what those polls found, times 256
 * @last_ns: when the last completed poll that found work ended, 0 if
 *	     none yet
 * @polls: completed polls since polling started or resumed
 * @window_ns: the deferral window the next poll ends, 0 if none
 * @rate: completions per ns found by the last poll that ended a window,
 *	  times 2^30; 0 at the start of a chain of windows
 * @calm: polls since the last deferral, up to IRQ_POLL_AUTO_CALM
 * @quiet: polls since the last that would have opened a window (whether
 *	   or not it did), up to IRQ_POLL_AUTO_CALM
 * @irqs: interrupts the driver took while parked, since the last trial
 * @epoch_ns: when the current epoch (in a trial pair: block) began, 0 if
 *	      none has yet
 * @epoch_work: completions found in it so far
 * @arm_ns: time counted in the trial pair's blocks with windows ([0])
 *	    and without ([1])
 * @arm_work: completions found in that time
 * @count_ns: when the current block's counted part began
 * @count_work: @epoch_work then
 * @block: blocks of the trial pair done
 * @counting: the current block's counted part has begun
 * @rechain: a trial pair's block without windows cut a chain of windows
 *	     short: the next block with windows goes on with it
 * @held_ns: the window that chain would have opened next
 * @pay_x1024: moving average of the rate with windows over the rate
 *	       without, times 1024 (weight 1/4); 0 before the first pair
 * @stretch: epochs in a row that follow the verdict between trial pairs
 * @epochs_left: epochs left of the current stretch
 * @tick_ns: when the last epoch of the stretch ended, or the stretch began
 * @phase: where the trials stand: following the verdict, armed for the
 *	   next pair, or in its first or second half (lib/irq_poll.c)
 * @nowin: the current epoch or block opens no window
 * @pays: the verdict: windows do not slow completions down
 * @flip: the next pair starts with the arm without windows
 * @batched: a window opened since the last trial (or the reset)
 *
 * @irqs belongs to the interrupt handler (irq_poll_handoff() while
 * parked), the rest to the owner.
 */
struct irq_poll_auto {
	u32 work_x256;
	u32 gap_ns;
	u32 span_ns;
	u32 span_x256;
	u64 last_ns;
	u32 polls;
	u32 window_ns;
	u32 rate;
	u32 calm;
	u32 quiet;
	u32 irqs;
	u64 epoch_ns;
	u32 epoch_work;
	u64 arm_ns[2];
	u32 arm_work[2];
	u64 count_ns;
	u32 count_work;
	u8 block;
	bool counting;
	bool rechain;
	u32 held_ns;
	u32 pay_x1024;
	u32 stretch;
	u32 epochs_left;
	u64 tick_ns;
	u8 phase;
	bool nowin;
	bool pays;
	bool flip;
	bool batched;
};

/* What a completion in IRQ_POLL_MODE_AUTO leads to */
enum irq_poll_auto_verdict {
	IRQ_POLL_AUTO_IDLE,	/* unmask and wait for an interrupt */
	IRQ_POLL_AUTO_DEFER,	/* keep masked, poll again after a timeout */
	IRQ_POLL_AUTO_PARK,	/* back to the driver's interrupt path */
};

#if IS_ENABLED(CONFIG_KUNIT)
struct ctl_table;
struct kset;
struct task_struct;

extern struct ctl_table irq_poll_sysctls[];
extern struct kset *irq_poll_kset;
ssize_t irq_poll_attr_store(struct irq_poll *iop, const char *name,
			    const char *buf);
ssize_t irq_poll_attr_show(struct irq_poll *iop, const char *name, char *buf);
unsigned long irq_poll_squeezed(void);
struct task_struct *irq_poll_thread_of(struct irq_poll *iop);
bool irq_poll_registered(const struct irq_poll *iop);
bool irq_poll_misuse_reported(const struct irq_poll *iop);
void irq_poll_auto_reset(struct irq_poll_auto *a);
void irq_poll_auto_follow(struct irq_poll_auto *a, bool pays);
void irq_poll_auto_trial(struct irq_poll_auto *a);
enum irq_poll_auto_verdict irq_poll_auto_step(struct irq_poll_auto *a, u64 now,
					      int work, bool can_park,
					      bool busy, u32 *timeout_ns);
#endif

#endif /* _LIB_IRQ_POLL_INTERNAL_H */
