// spatch: -D handler=foo_interrupt
#include <linux/module.h>
#include <linux/interrupt.h>
#include <linux/pci.h>

struct foo_dev {
	void __iomem *regs;
	int irq;
};

static void foo_complete(struct foo_dev *fd, u32 tag);

static irqreturn_t foo_interrupt(int irq, void *dev_id)
{
	struct foo_dev *fd = dev_id;
	u32 status, tag;
	int n = 0;

	status = readl(fd->regs + 4);
	if (!status)
		return IRQ_NONE;
	writel(status, fd->regs + 4);

	while ((tag = readl(fd->regs + 8)) != ~0U) {
		if (tag & 1)
			continue;
		foo_complete(fd, tag);
		n++;
	}
	return IRQ_HANDLED;
}

static int foo_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct foo_dev *fd;
	int err;

	fd = kzalloc(sizeof(*fd), GFP_KERNEL);
	if (!fd)
		return -ENOMEM;
	err = pci_request_irq(pdev, 0, foo_interrupt, NULL, fd, "foo%d", 0);
	if (err)
		goto out_free;
	pci_set_drvdata(pdev, fd);
	return 0;
out_free:
	kfree(fd);
	return err;
}

static void foo_remove(struct pci_dev *pdev)
{
	struct foo_dev *fd = pci_get_drvdata(pdev);

	pci_free_irq(pdev, 0, fd);
	kfree(fd);
}
