// spatch: -D handler=qux_irq
#include <linux/interrupt.h>

struct qux_dev {
	void __iomem *regs;
};

/* Only the handler named with -D handler= is converted. */
static irqreturn_t qux_err_irq(int irq, void *dev_id)
{
	struct qux_dev *qd = dev_id;
	u32 e;

	while ((e = readl(qd->regs + 4)))
		qux_log(qd, e);
	return IRQ_HANDLED;
}

static int qux_setup(struct qux_dev *qd, int irq)
{
	return request_irq(irq, qux_err_irq, 0, "qux", qd);
}
