// spatch: -D handler=bar_isr -D weight=BAR_WEIGHT
#include <linux/module.h>
#include <linux/interrupt.h>

#define BAR_EMPTY		0xffff
#define BAR_NEXT(b)		readw((b)->base + 0x10)
#define BAR_WEIGHT		16

struct bar_host {
	void __iomem *base;
	int irq;
};

static irqreturn_t bar_isr(int irq, void *data)
{
	struct bar_host *bh = (struct bar_host *)data;
	u16 slot;

	while ((slot = BAR_NEXT(bh)) != BAR_EMPTY)
		bar_done(bh, slot);

	return IRQ_HANDLED;
}

static int bar_start(struct bar_host *bh)
{
	int err;

	err = bar_hw_init(bh);
	if (err)
		goto err_out;
	if (request_irq(bh->irq, bar_isr, IRQF_SHARED, "bar", bh)) {
		err = -EBUSY;
		goto err_hw;
	}
	err = bar_enable(bh);
	if (err)
		goto err_irq;
	return 0;

err_irq:
	free_irq(bh->irq, bh);
err_hw:
	bar_hw_exit(bh);
err_out:
	return err;
}
