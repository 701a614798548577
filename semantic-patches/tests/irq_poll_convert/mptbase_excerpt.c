// spatch: -D handler=mpt_interrupt -D devstruct=_MPT_ADAPTER
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/interrupt.h>

typedef struct _MPT_ADAPTER {
	int id;
	int pci_irq;
	struct pci_dev *pcidev;
	char name[32];
	struct { u32 ReplyFifo; } *chip;
} MPT_ADAPTER;

static irqreturn_t
mpt_interrupt(int irq, void *bus_id)
{
	MPT_ADAPTER *ioc = bus_id;
	u32 pa = CHIPREG_READ32_dmasync(&ioc->chip->ReplyFifo);

	if (pa == 0xFFFFFFFF)
		return IRQ_NONE;

	/*
	 *  Drain the reply FIFO!
	 */
	do {
		if (pa & MPI_ADDRESS_REPLY_A_BIT)
			mpt_reply(ioc, pa);
		else
			mpt_turbo_reply(ioc, pa);
		pa = CHIPREG_READ32_dmasync(&ioc->chip->ReplyFifo);
	} while (pa != 0xFFFFFFFF);

	return IRQ_HANDLED;
}

static int mpt_do_ioc_recovery(MPT_ADAPTER *ioc)
{
	int rc, ret = 0;

	rc = request_irq(ioc->pcidev->irq, mpt_interrupt,
	    IRQF_SHARED, ioc->name, ioc);
	if (rc < 0) {
		ret = -EBUSY;
		goto out;
	}
 out:
	if (ret != 0)
		free_irq(ioc->pci_irq, ioc);
	return ret;
}
