// spatch: -D handler=baz_irq
#include <linux/interrupt.h>

struct baz_dev {
	void __iomem *regs;
};

/* No loop in the handler: nothing to move, file unchanged. */
static irqreturn_t baz_irq(int irq, void *dev_id)
{
	struct baz_dev *bd = dev_id;
	u32 st = readl(bd->regs);

	if (!st)
		return IRQ_NONE;
	baz_complete_one(bd, st);
	return IRQ_HANDLED;
}

static int baz_setup(struct baz_dev *bd, int irq)
{
	return request_irq(irq, baz_irq, 0, "baz", bd);
}
