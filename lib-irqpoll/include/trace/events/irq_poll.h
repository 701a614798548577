/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace points of lib/irq_poll.c, which alone emits them (they use its
 * private irq_poll_name()).
 *
 * Every event names its instance by iop= (the address, hashed like any
 * %p) and name= (empty for unnamed instances) and prints key=value pairs.
 * The name is copied into the ring buffer, never referenced.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM irq_poll

#if !defined(_TRACE_IRQ_POLL_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IRQ_POLL_H

#include <linux/irq_poll.h>
#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(irq_poll_instance,
		    TP_PROTO(const struct irq_poll *iop),
		    TP_ARGS(iop),
		    TP_STRUCT__entry(__field(const void *, iop)
				     __string(name, irq_poll_name(iop))),
		    TP_fast_assign(__entry->iop = iop;
				   __assign_str(name, irq_poll_name(iop));),
		    TP_printk("iop=%p name=%s", __entry->iop, __get_str(name))
);

/**
 * irq_poll_schedule - an instance became owned to be polled
 * @iop: the instance
 *
 * Fires when irq_poll_sched() or irq_poll_handoff() scheduled an idle
 * instance or took a deferred one from its timer, and when
 * irq_poll_enable() polls an instance with ops.  Its partner irq_poll_poll
 * measures the schedule-to-poll latency.
 */
DEFINE_EVENT(irq_poll_instance, irq_poll_schedule,
	     TP_PROTO(const struct irq_poll *iop),
	     TP_ARGS(iop)
);

/**
 * irq_poll_timer - the deferral timer expired and scheduled the instance
 * @iop: the instance
 *
 * Partner of irq_poll_defer: the gap between them is the real deferral.
 * Does not fire when irq_poll_sched() or irq_poll_disable() took the
 * instance from the timer first.
 */
DEFINE_EVENT(irq_poll_instance, irq_poll_timer,
	     TP_PROTO(const struct irq_poll *iop),
	     TP_ARGS(iop)
);

/**
 * irq_poll_rearm - the instance is polled again instead of going idle
 * @iop: the instance
 * @missed: true if a schedule had found it owned (MISSED); false if
 *	    ->pending() saw a completion right after ->unmask()
 */
TRACE_EVENT(irq_poll_rearm,
	    TP_PROTO(const struct irq_poll *iop, bool missed),
	    TP_ARGS(iop, missed),
	    TP_STRUCT__entry(__field(const void *, iop)
			     __string(name, irq_poll_name(iop))
			     __field(bool, missed)),
	    TP_fast_assign(__entry->iop = iop;
			   __assign_str(name, irq_poll_name(iop));
			   __entry->missed = missed;),
	    TP_printk("iop=%p name=%s reason=%s", __entry->iop,
		      __get_str(name), __entry->missed ? "missed" : "pending")
);

/**
 * irq_poll_poll - one call of the driver's poll function returned
 * @iop: the instance
 * @work: value the poll function returned
 * @budget: budget it was given
 * @threaded: called from the instance's kthread rather than the softirq
 *
 * work >= budget means the instance stays owned and is polled again.
 */
TRACE_EVENT(irq_poll_poll,
	    TP_PROTO(const struct irq_poll *iop, int work, int budget,
		     bool threaded),
	    TP_ARGS(iop, work, budget, threaded),
	    TP_STRUCT__entry(__field(const void *, iop)
			     __string(name, irq_poll_name(iop))
			     __field(int, work)
			     __field(int, budget)
			     __field(bool, threaded)),
	    TP_fast_assign(__entry->iop = iop;
			   __assign_str(name, irq_poll_name(iop));
			   __entry->work = work;
			   __entry->budget = budget;
			   __entry->threaded = threaded;),
	    TP_printk("iop=%p name=%s work=%d budget=%d threaded=%d",
		      __entry->iop, __get_str(name), __entry->work,
		      __entry->budget, __entry->threaded)
);

/**
 * irq_poll_complete - a completed poll ends the polling
 * @iop: the instance
 * @work: what that poll reaped
 * @idle: the instance goes idle (device unmasked); false when the
 *	  deferral timer takes it over
 *
 * An idle=1 event followed at once by irq_poll_rearm reason=missed means
 * an interrupt came in as the instance was about to go idle.
 */
TRACE_EVENT(irq_poll_complete,
	    TP_PROTO(const struct irq_poll *iop, int work, bool idle),
	    TP_ARGS(iop, work, idle),
	    TP_STRUCT__entry(__field(const void *, iop)
			     __string(name, irq_poll_name(iop))
			     __field(int, work)
			     __field(bool, idle)),
	    TP_fast_assign(__entry->iop = iop;
			   __assign_str(name, irq_poll_name(iop));
			   __entry->work = work;
			   __entry->idle = idle;),
	    TP_printk("iop=%p name=%s work=%d idle=%d",
		      __entry->iop, __get_str(name), __entry->work,
		      __entry->idle)
);

/**
 * irq_poll_defer - the deferral timer was armed instead of unmasking
 * @iop: the instance
 * @remaining: empty polls still tolerated before unmasking
 * @timeout_ns: timer period
 *
 * Partner of irq_poll_timer; the gap between them is the deferral.
 */
TRACE_EVENT(irq_poll_defer,
	    TP_PROTO(const struct irq_poll *iop, unsigned int remaining,
		     u32 timeout_ns),
	    TP_ARGS(iop, remaining, timeout_ns),
	    TP_STRUCT__entry(__field(const void *, iop)
			     __string(name, irq_poll_name(iop))
			     __field(unsigned int, remaining)
			     __field(u32, timeout_ns)),
	    TP_fast_assign(__entry->iop = iop;
			   __assign_str(name, irq_poll_name(iop));
			   __entry->remaining = remaining;
			   __entry->timeout_ns = timeout_ns;),
	    TP_printk("iop=%p name=%s remaining=%u timeout_ns=%u",
		      __entry->iop, __get_str(name), __entry->remaining,
		      __entry->timeout_ns)
);

#endif /* _TRACE_IRQ_POLL_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
