#include <linux/interrupt.h>
#include <linux/irq_poll.h>

struct q { struct irq_poll iop; spinlock_t lock; };

static irqreturn_t q_irq(int irq, void *data)
{
	struct q *q = data;

	irq_poll_sched(&q->iop);
	return IRQ_HANDLED;
}

static void q_kick(struct q *q)
{
	local_bh_disable();
	irq_poll_sched(&q->iop);
	local_bh_enable();
}

static void q_kick_locked(struct q *q)
{
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	irq_poll_sched(&q->iop);
	spin_unlock_irqrestore(&q->lock, flags);
}
