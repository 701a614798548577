#include <linux/slab.h>
#include <linux/irq_poll.h>

struct q { int id; struct irq_poll iop; };
struct other { int id; };

static void q_destroy(struct q *q)
{
	free_irq(q->id, q);
	irq_poll_disable(&q->iop);
	kfree(q);
}

/* kfree of a struct without an irq_poll */
static void other_destroy(struct other *o)
{
	kfree(o);
}
