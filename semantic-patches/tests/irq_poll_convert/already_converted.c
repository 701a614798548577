// spatch: -D handler=foo_interrupt
#include <linux/interrupt.h>
#include <linux/irq_poll.h>

struct foo_dev {
	void __iomem *regs;
	struct irq_poll iop;
};

static irqreturn_t foo_interrupt(int irq, void *dev_id)
{
	struct foo_dev *fd = dev_id;
	u32 tag;

	while ((tag = readl(fd->regs + 8)) != ~0U)
		irq_poll_sched(&fd->iop);
	return IRQ_HANDLED;
}

static int foo_setup(struct foo_dev *fd, int irq)
{
	irq_poll_init(&fd->iop, 32, NULL);
	return request_irq(irq, foo_interrupt, 0, "foo", fd);
}
