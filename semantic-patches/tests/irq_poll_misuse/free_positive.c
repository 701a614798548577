#include <linux/slab.h>
#include <linux/irq_poll.h>

struct q { int id; struct irq_poll iop; };

static void q_destroy(struct q *q)
{
	free_irq(q->id, q);
	kfree(q);
}
