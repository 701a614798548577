/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace points for lib/irq_poll.c.
 *
 * Every event names its instance by id= (stable for the instance's life)
 * and name= (empty for unnamed legacy instances) and prints key=value
 * pairs.  The name is copied into the ring buffer, never referenced.
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
		    TP_STRUCT__entry(__field(unsigned int, id)
				     __string(name, iop->name ?: "")),
		    TP_fast_assign(__entry->id = iop->id;
				   __assign_str(name, iop->name ?: "");),
		    TP_printk("id=%u name=%s", __entry->id, __get_str(name))
);

/**
 * irq_poll_schedule - an idle or deferred instance was scheduled
 * @iop: the instance
 *
 * Fires once per move out of idle, from the context that scheduled it
 * (interrupt handler, deferral timer, re-arm check).  Its partner
 * irq_poll_poll measures the schedule-to-poll latency.
 */
DEFINE_EVENT(irq_poll_instance, irq_poll_schedule,
	     TP_PROTO(const struct irq_poll *iop),
	     TP_ARGS(iop)
);

/**
 * irq_poll_timer - the deferral timer expired
 * @iop: the instance
 *
 * Fires in the hrtimer callback armed by irq_poll_defer; the instance is
 * scheduled right after, unless a disable is pending.
 */
DEFINE_EVENT(irq_poll_instance, irq_poll_timer,
	     TP_PROTO(const struct irq_poll *iop),
	     TP_ARGS(iop)
);

/**
 * irq_poll_rearm - completions found right after unmasking
 * @iop: the instance
 *
 * ->pending() returned true after ->unmask(); the library rescheduled the
 * instance instead of waiting for an interrupt that may never come.
 */
DEFINE_EVENT(irq_poll_instance, irq_poll_rearm,
	     TP_PROTO(const struct irq_poll *iop),
	     TP_ARGS(iop)
);

/**
 * irq_poll_poll - one call of the driver's poll function returned
 * @iop: the instance
 * @work: value the poll function returned
 * @budget: budget it was given
 * @threaded: polled from the instance's kthread rather than the softirq
 *
 * work >= budget means the instance stays scheduled and is polled again.
 */
TRACE_EVENT(irq_poll_poll,
	    TP_PROTO(const struct irq_poll *iop, int work, int budget,
		     bool threaded),
	    TP_ARGS(iop, work, budget, threaded),
	    TP_STRUCT__entry(__field(unsigned int, id)
			     __string(name, iop->name ?: "")
			     __field(int, work)
			     __field(int, budget)
			     __field(bool, threaded)),
	    TP_fast_assign(__entry->id = iop->id;
			   __assign_str(name, iop->name ?: "");
			   __entry->work = work;
			   __entry->budget = budget;
			   __entry->threaded = threaded;),
	    TP_printk("id=%u name=%s work=%d budget=%d threaded=%d",
		      __entry->id, __get_str(name), __entry->work,
		      __entry->budget, __entry->threaded)
);

/**
 * irq_poll_complete - the driver completed a poll
 * @iop: the instance
 * @work: work_done passed to irq_poll_complete_done() (-1 for the
 *	  legacy irq_poll_complete(), which does not say)
 * @idle: the instance went idle (device unmasked); false when the
 *	  deferral timer keeps it polling
 */
TRACE_EVENT(irq_poll_complete,
	    TP_PROTO(const struct irq_poll *iop, int work, bool idle),
	    TP_ARGS(iop, work, idle),
	    TP_STRUCT__entry(__field(unsigned int, id)
			     __string(name, iop->name ?: "")
			     __field(int, work)
			     __field(bool, idle)),
	    TP_fast_assign(__entry->id = iop->id;
			   __assign_str(name, iop->name ?: "");
			   __entry->work = work;
			   __entry->idle = idle;),
	    TP_printk("id=%u name=%s work=%d idle=%d",
		      __entry->id, __get_str(name), __entry->work,
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
	    TP_PROTO(const struct irq_poll *iop, int remaining, u32 timeout_ns),
	    TP_ARGS(iop, remaining, timeout_ns),
	    TP_STRUCT__entry(__field(unsigned int, id)
			     __string(name, iop->name ?: "")
			     __field(int, remaining)
			     __field(u32, timeout_ns)),
	    TP_fast_assign(__entry->id = iop->id;
			   __assign_str(name, iop->name ?: "");
			   __entry->remaining = remaining;
			   __entry->timeout_ns = timeout_ns;),
	    TP_printk("id=%u name=%s remaining=%d timeout_ns=%u",
		      __entry->id, __get_str(name), __entry->remaining,
		      __entry->timeout_ns)
);

#endif /* _TRACE_IRQ_POLL_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
