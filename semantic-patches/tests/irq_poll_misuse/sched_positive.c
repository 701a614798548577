#include <linux/interrupt.h>
#include <linux/irq_poll.h>

struct q { struct irq_poll iop; };

/* process context (e.g. a work item): the softirq is raised but not run */
static void q_kick(struct q *q)
{
	irq_poll_sched(&q->iop);
}
