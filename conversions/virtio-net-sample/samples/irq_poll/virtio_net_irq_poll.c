// SPDX-License-Identifier: GPL-2.0
/*
 * virtio_net_irq_poll: a virtio network driver polled with irq_poll
 *
 * A network driver normally defers its completion work to NAPI.  This sample
 * uses the subsystem-neutral irq_poll library (lib/irq_poll.c) instead, to
 * show a driver author how the library is meant to be used on a real
 * completion queue: one queue pair of a virtio-net device (virtio device
 * id 1).  Read it next to Documentation/core-api/irq_poll.rst.  It is a
 * teaching example; use virtio_net for real work.
 *
 * Binding
 * -------
 * The module has no MODULE_DEVICE_TABLE(), so udev never loads it for a
 * virtio-net device, and like any driver it only takes devices no other
 * driver holds.  To move virtio0 from virtio_net to this driver:
 *
 *   echo virtio0 > /sys/bus/virtio/drivers/virtio_net/unbind
 *   modprobe virtio_net_irq_poll      # binds every unclaimed virtio-net device
 *   echo virtio0 > /sys/bus/virtio/drivers/virtio_net_irq_poll/bind   # or this
 *
 * and back with the same two files the other way round.
 *
 * One irq_poll instance per virtqueue
 * -----------------------------------
 * The receive and the transmit virtqueue each get a named instance,
 * "vnet-<virtio device>-rx0" and "vnet-<virtio device>-tx0", whose weight,
 * deferral, mode and counters live in /sys/kernel/irq_poll/instances/<name>/.
 * A virtqueue callback runs in hard-IRQ context and does one thing:
 * irq_poll_sched().  Everything else is the library calling back through
 * struct irq_poll_ops, which maps onto the virtqueue API:
 *
 *   ->mask()     virtqueue_disable_cb(), when the instance gets scheduled;
 *   ->unmask()   receive: virtqueue_enable_cb_prepare(), when it goes idle;
 *                transmit: virtqueue_enable_cb_delayed(), which asks for the
 *                next callback only once three quarters of the packets in
 *                flight are done (nobody waits for a transmit completion,
 *                only for the memory it frees);
 *   ->pending()  receive: virtqueue_poll() against the index the unmask
 *                returned; transmit: whether enable_cb_delayed() reported
 *                that too many buffers were already used.
 *
 * The library unmasks and asks ->pending() while it still owns the
 * instance, and polls again on a hit: this is the "enable_cb_prepare(),
 * then virtqueue_poll()" race check every virtio driver needs, done once
 * in the library.  virtqueue_disable_cb() is documented as needing no
 * serialisation, which is what ->mask() requires: it runs in the callback,
 * on whatever CPU, also when the instance is being polled elsewhere (the
 * library then polls once more).  ->unmask() is a real virtqueue operation
 * and needs the same serialisation as adding buffers: the receive ring has
 * only its owner, the transmit ring also vnet_start_xmit(), so the transmit
 * ->unmask() takes the queue's lock.  The instance's state is also the
 * driver's only gate: while the interface is down both instances are
 * disabled, a callback only masks its virtqueue, and enabling the instance
 * polls once, so there is no "ready" flag to keep in step.
 *
 * The poll functions
 * ------------------
 * vnet_rx_poll() takes up to @budget frames off the receive ring, refills
 * it, passes the frames to the stack with netif_receive_skb_list() and, if
 * it used less than its budget, completes with irq_poll_complete_done().  It
 * also schedules the transmit instance, so that transmit completions are
 * reaped on the back of receive traffic (TCP ACKs) rather than waiting for
 * their own callback.  While the receive instance is masked (polled, or
 * deferring in mode auto or with defer_hard_irqs), the transmit instance
 * leaves its callbacks off when it completes; the receive instance's
 * unmask schedules it to turn them back on.  So a receive queue that
 * defers its interrupts saves the transmit queue's too.
 *
 * vnet_tx_poll() frees up to @budget transmitted skbs, wakes the queue once
 * a maximal skb fits again, and completes, all under the transmit queue's
 * lock: the lock that ndo_start_xmit() runs under is what keeps ->unmask()
 * from racing with virtqueue_add_outbuf().  ndo_start_xmit() first frees
 * what the device has sent since (TCP holds a socket back until its skbs
 * are freed, and a deferred or threaded poll comes late), stops the queue
 * when the ring gets near full and then schedules the transmit instance.
 *
 * The library lets go of an instance only after its poll function has
 * returned, so the counters may be updated anywhere in it.  "ethtool -S" shows them
 * per queue (rx0_*, tx0_*): "irqs" (virtqueue callbacks) against "polls"
 * and "pkts_per_poll" tells how much polling batches, tx0_ring_full how
 * often the queue stopped.  The library's own counters are in sysfs.
 *
 * Receive buffers
 * ---------------
 * A receive buffer is one chunk carved from a page fragment
 * (skb_page_frag_refill(), normally a 32 KiB compound page); its size rides
 * along as the virtqueue's per-buffer context.  With VIRTIO_NET_F_MRG_RXBUF
 * a frame spans the hdr.num_buffers next buffers, and buffer sizes follow a
 * moving average of the frame length, between a standard Ethernet frame and
 * a page: bulk receive with GUEST_TSO4/6 uses a few large buffers per 64 KiB
 * segment, while small frames do not pin large ones.  Without it each buffer
 * holds a whole frame, which limits the MTU to what fits in a page.  Short
 * frames are copied into a fresh skb and their buffer is freed at once; of
 * longer ones only the protocol headers are copied (eth_get_headlen()) and
 * the payload stays in the buffers as page fragments, neighbouring buffers
 * of one page merging into one fragment.
 *
 * What is not here
 * ----------------
 * No napi_* function is called.  GRO only exists inside NAPI
 * (napi_gro_receive() needs a napi_struct), so frames reach the stack one
 * by one, as with virtio_net and GRO turned off.  There is no XDP, no busy
 * polling, no multiqueue and no control virtqueue (hence no receive filter
 * or MAC address changes, no runtime offload switching, no announce), no
 * suspend/resume, and legacy (pre-VIRTIO_F_VERSION_1) devices are refused.
 * The instances are not IRQ_POLL_CFG_SWITCHABLE: a network driver has no
 * interrupt-context receive path to fall back to, so the kernel.irq_poll
 * sysctl does not apply to them.
 *
 * Teardown
 * --------
 * Remove works under traffic: unregistering the net device runs
 * vnet_close(), which stops the refill work, the queue and both instances
 * (irq_poll_disable() waits for a running poll).  The device is then reset,
 * so it no longer touches the rings, the buffers still in them are freed, the
 * virtqueues (and with them the interrupts) go away, and only then the
 * instances, which the callbacks reference.
 */
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/irq_poll.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>
#include <linux/u64_stats_sync.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_net.h>
#include <linux/workqueue.h>

/*
 * The header in front of every frame.  With VIRTIO_F_VERSION_1 (required
 * here) it always has the num_buffers field, mergeable buffers or not.
 */
#define VNET_HDR_LEN		sizeof(struct virtio_net_hdr_mrg_rxbuf)

/*
 * Linear part of a received skb: frames up to this length are copied whole,
 * longer ones have up to this much of their headers copied.  256 bytes hold
 * the Ethernet, IP and TCP headers with options (or an ACK with SACK blocks)
 * several times over and still fit a small allocation.
 */
#define VNET_RX_HEAD_LEN	256

/* Smallest receive buffer: a VLAN-tagged 1500-byte frame and its header. */
#define VNET_RX_BUF_MIN \
	ALIGN(VNET_HDR_LEN + VLAN_ETH_HLEN + ETH_DATA_LEN, L1_CACHE_BYTES)

/*
 * Largest MTU without mergeable buffers, where one page-sized buffer must
 * hold a whole frame.
 */
#define VNET_RX_SINGLE_MTU_MAX	(PAGE_SIZE - VNET_HDR_LEN - VLAN_ETH_HLEN)

/*
 * Ring slots one skb may need: the header, the linear part and every
 * fragment.  The queue stops while fewer are free, so that
 * ndo_start_xmit() never has to return NETDEV_TX_BUSY.
 */
#define VNET_TX_STOP_SLOTS	(MAX_SKB_FRAGS + 2)

/*
 * Upper bound of the weight parameter: four times the default softirq
 * budget (kernel.irq_poll_budget, 256).  A larger budget per call would
 * only let one queue keep the softirq to itself.
 */
#define VNET_WEIGHT_MAX		1024

static int vnet_weight;

/*
 * "weight": budget of each poll call for instances created afterwards,
 * 0 for the library's default.  Accepts 0..VNET_WEIGHT_MAX and fails with
 * -EINVAL otherwise, including for malformed numbers.  The per-instance
 * sysfs file "weight" changes it at run time.
 */
static int vnet_weight_set(const char *val, const struct kernel_param *kp)
{
	int weight;

	if (kstrtoint(val, 0, &weight) || weight < 0 ||
	    weight > VNET_WEIGHT_MAX)
		return -EINVAL;
	WRITE_ONCE(*(int *)kp->arg, weight);
	return 0;
}

static const struct kernel_param_ops vnet_weight_ops = {
	.set = vnet_weight_set,
	.get = param_get_int,
};

module_param_cb(weight, &vnet_weight_ops, &vnet_weight, 0644);
MODULE_PARM_DESC(weight,
		 "Budget per poll of new irq_poll instances, 0..1024 (0: library default)");

/*
 * Receive counters.  Written only by the owner of the receive ring: the
 * receive poll, or open and the refill work while the instance is disabled.
 */
struct vnet_rx_stats {
	struct u64_stats_sync syncp;	/* guards the counters below */
	u64_stats_t packets;		/* frames passed to the stack */
	u64_stats_t bytes;		/* their length, Ethernet header included */
	u64_stats_t drops;		/* frames lost for lack of memory */
	u64_stats_t errors;		/* malformed frames */
	u64_stats_t buffers;		/* receive buffers consumed */
	u64_stats_t kicks;		/* device notified of new buffers */
	u64_stats_t refill_oom;		/* refills cut short by allocation */
	u64_stats_t polls;		/* calls of vnet_rx_poll() */
	u64_stats_t budget_polls;	/* ... that used their whole budget */
};

/* Transmit counters.  Written under the transmit queue's lock only. */
struct vnet_tx_stats {
	struct u64_stats_sync syncp;	/* guards the counters below */
	u64_stats_t packets;		/* skbs the device has sent */
	u64_stats_t bytes;		/* their length */
	u64_stats_t drops;		/* skbs dropped in ndo_start_xmit() */
	u64_stats_t kicks;		/* device notified of new packets */
	u64_stats_t ring_full;		/* queue stopped for lack of slots */
	u64_stats_t wakes;		/* queue woken by vnet_tx_poll() */
	u64_stats_t xmit_freed;		/* ... of @packets, freed by ndo_start_xmit() */
	u64_stats_t polls;		/* calls of vnet_tx_poll() */
	u64_stats_t budget_polls;	/* ... that used their whole budget */
};

/*
 * Virtqueue callbacks, i.e. interrupts for this queue.  Written by the
 * callback, which never runs concurrently with itself, hence its own syncp.
 */
struct vnet_irq_stats {
	struct u64_stats_sync syncp;	/* guards @irqs */
	u64_stats_t irqs;
};

struct vnet_priv;

/**
 * struct vnet_rxq - the receive virtqueue and its irq_poll instance
 * @iop: the instance; its owner is the only user of @vq, @frag and @avg_len
 * @vq: receive virtqueue
 * @vi: the device
 * @armed_at: value of virtqueue_enable_cb_prepare() at the last unmask
 * @masked: callbacks are off for a poll, or a deferral, of @iop; the
 *	    transmit queue keeps its own off meanwhile (vnet_tx_unmask())
 * @frag: page fragment receive buffers are cut from
 * @avg_len: moving average of the frame length, sizes mergeable buffers
 * @min_buf: smallest (without mergeable buffers: every) buffer size
 * @refill_batch: refill once this many ring slots are free
 * @stats: counters
 * @irq: callback counter
 */
struct vnet_rxq {
	struct irq_poll iop;
	struct virtqueue *vq;
	struct vnet_priv *vi;
	unsigned int armed_at;
	bool masked;
	struct page_frag frag;
	unsigned int avg_len;
	unsigned int min_buf;
	unsigned int refill_batch;
	struct vnet_rx_stats stats;
	struct vnet_irq_stats irq;
};

/**
 * struct vnet_txq - the transmit virtqueue and its irq_poll instance
 * @iop: the instance
 * @vq: transmit virtqueue; used under the transmit queue's lock
 * @vi: the device
 * @rearm_late: the last unmask found completions it had not waited for
 * @stats: counters
 * @irq: callback counter
 * @sg: scatterlist of the skb being queued, under the queue's lock
 */
struct vnet_txq {
	struct irq_poll iop;
	struct virtqueue *vq;
	struct vnet_priv *vi;
	bool rearm_late;
	struct vnet_tx_stats stats;
	struct vnet_irq_stats irq;
	struct scatterlist sg[VNET_TX_STOP_SLOTS];
};

/**
 * struct vnet_priv - per-device state, the net device's private area
 * @vdev: the virtio device
 * @dev: the net device
 * @rx: receive queue
 * @tx: transmit queue
 * @mergeable: VIRTIO_NET_F_MRG_RXBUF was negotiated
 * @config_work: reads the link status after a configuration change
 * @refill_work: refills an empty receive ring with GFP_KERNEL
 * @refill_lock: protects @refill_on
 * @refill_on: @refill_work may be scheduled (interface up)
 */
struct vnet_priv {
	struct virtio_device *vdev;
	struct net_device *dev;
	struct vnet_rxq rx;
	struct vnet_txq tx;
	bool mergeable;
	struct work_struct config_work;
	struct delayed_work refill_work;
	spinlock_t refill_lock;		/* protects refill_on */
	bool refill_on;
};

static struct vnet_rxq *to_rxq(struct irq_poll *iop)
{
	return container_of(iop, struct vnet_rxq, iop);
}

static struct vnet_txq *to_txq(struct irq_poll *iop)
{
	return container_of(iop, struct vnet_txq, iop);
}

static void vnet_count_irq(struct vnet_irq_stats *s)
{
	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->irqs);
	u64_stats_update_end(&s->syncp);
}

/* Receive buffers: their size travels as the virtqueue context. */

static void *vnet_size_to_ctx(unsigned int size)
{
	return (void *)(unsigned long)size;
}

static unsigned int vnet_ctx_to_size(void *ctx)
{
	return (unsigned long)ctx;
}

static unsigned int vnet_rx_buf_size(const struct vnet_rxq *rq)
{
	unsigned int size;

	if (!rq->vi->mergeable)
		return rq->min_buf;
	size = ALIGN(VNET_HDR_LEN + rq->avg_len, L1_CACHE_BYTES);
	return clamp_t(unsigned int, size, rq->min_buf, PAGE_SIZE);
}

/* Queue one receive buffer.  Caller owns the receive ring. */
static int vnet_rx_add_buf(struct vnet_rxq *rq, gfp_t gfp)
{
	struct page_frag *pf = &rq->frag;
	unsigned int size = vnet_rx_buf_size(rq);
	struct scatterlist sg;
	char *buf;
	int err;

	if (unlikely(!skb_page_frag_refill(size, pf, gfp)))
		return -ENOMEM;

	buf = (char *)page_address(pf->page) + pf->offset;
	/*
	 * If what would be left of the page cannot hold another buffer like
	 * this one, give it to this one: the page's memory is accounted to
	 * the skbs built on it either way.
	 */
	if (pf->size - pf->offset - size < size)
		size = pf->size - pf->offset;
	get_page(pf->page);
	pf->offset += size;

	sg_init_one(&sg, buf, size);
	err = virtqueue_add_inbuf_ctx(rq->vq, &sg, 1, buf,
				      vnet_size_to_ctx(size), gfp);
	if (unlikely(err))
		put_page(virt_to_head_page(buf));
	return err;
}

/*
 * Fill the receive ring and notify the device.  Caller owns the receive
 * ring.  Returns false if an allocation failed.
 */
static bool vnet_rx_fill(struct vnet_rxq *rq, gfp_t gfp)
{
	bool kicked;
	int err = 0;

	while (rq->vq->num_free && !err)
		err = vnet_rx_add_buf(rq, gfp);
	kicked = virtqueue_kick_prepare(rq->vq) && virtqueue_notify(rq->vq);

	u64_stats_update_begin(&rq->stats.syncp);
	if (kicked)
		u64_stats_inc(&rq->stats.kicks);
	if (err == -ENOMEM)
		u64_stats_inc(&rq->stats.refill_oom);
	u64_stats_update_end(&rq->stats.syncp);
	return err != -ENOMEM;
}

/* Ask for a refill from process context, unless the interface is down. */
static void vnet_rx_refill_later(struct vnet_priv *vi, unsigned long delay)
{
	spin_lock_bh(&vi->refill_lock);
	if (vi->refill_on)
		schedule_delayed_work(&vi->refill_work, delay);
	spin_unlock_bh(&vi->refill_lock);
}

/*
 * The receive ring ran dry and the poll could not refill it with
 * GFP_ATOMIC.  With no buffers there are no callbacks either, so nothing
 * but this work will ever poll again.  Disabling the instance waits for a
 * running poll and makes the ring ours.
 */
static void vnet_refill_work(struct work_struct *work)
{
	struct vnet_priv *vi = container_of(to_delayed_work(work),
					    struct vnet_priv, refill_work);
	struct vnet_rxq *rq = &vi->rx;
	bool full;

	irq_poll_disable(&rq->iop);
	full = vnet_rx_fill(rq, GFP_KERNEL);
	/* Polls the ring once: callbacks only masked it meanwhile. */
	irq_poll_enable(&rq->iop);

	if (!full)
		vnet_rx_refill_later(vi, HZ / 2);
}

/* Free @n receive buffers of a frame that is being dropped. */
static void vnet_rx_discard(struct vnet_rxq *rq, unsigned int n)
{
	unsigned int len;
	void *buf;

	while (n--) {
		buf = virtqueue_get_buf(rq->vq, &len);
		if (!buf)
			return;
		put_page(virt_to_head_page(buf));
	}
}

/* Counts of one poll, added to rq->stats once at its end. */
struct vnet_rx_tally {
	unsigned int packets;
	unsigned int bytes;
	unsigned int drops;
	unsigned int errors;
	unsigned int buffers;
};

/*
 * Start a frame's skb from its first buffer, @len bytes after the virtio
 * header at @frame.  Consumes the buffer's page reference, also on failure.
 */
static struct sk_buff *vnet_rx_head(struct vnet_rxq *rq, char *frame,
				    unsigned int len, unsigned int truesize,
				    bool whole)
{
	struct page *page = virt_to_head_page(frame);
	struct net_device *dev = rq->vi->dev;
	unsigned int copy;
	struct sk_buff *skb;

	skb = netdev_alloc_skb_ip_align(dev, VNET_RX_HEAD_LEN);
	if (unlikely(!skb)) {
		put_page(page);
		return NULL;
	}

	if (whole && len <= VNET_RX_HEAD_LEN)
		copy = len;
	else
		copy = min(eth_get_headlen(dev, frame,
					   min_t(unsigned int, len,
						 VNET_RX_HEAD_LEN)), len);
	skb_put_data(skb, frame, copy);

	if (copy < len)
		skb_add_rx_frag(skb, 0, page,
				frame + copy - (char *)page_address(page),
				len - copy, truesize);
	else
		put_page(page);
	return skb;
}

/*
 * Append one more buffer of a mergeable frame to @head, whose last skb is
 * *@tailp.  Consumes the buffer's page reference, also on failure.
 */
static bool vnet_rx_append(struct sk_buff *head, struct sk_buff **tailp,
			   char *buf, unsigned int len, unsigned int truesize)
{
	struct page *page = virt_to_head_page(buf);
	unsigned int off = buf - (char *)page_address(page);
	struct sk_buff *tail = *tailp;
	int nr = skb_shinfo(tail)->nr_frags;

	if (skb_can_coalesce(tail, nr, page, off)) {
		/* Continues the previous fragment, which holds the page. */
		skb_coalesce_rx_frag(tail, nr - 1, len, truesize);
		put_page(page);
	} else {
		if (nr == MAX_SKB_FRAGS) {
			/* A frame of many small buffers: chain another skb. */
			struct sk_buff *more = alloc_skb(0, GFP_ATOMIC);

			if (unlikely(!more)) {
				put_page(page);
				return false;
			}
			if (tail == head)
				skb_shinfo(head)->frag_list = more;
			else
				tail->next = more;
			head->truesize += more->truesize;
			*tailp = more;
			tail = more;
			nr = 0;
		}
		skb_add_rx_frag(tail, nr, page, off, len, truesize);
	}

	if (tail != head) {
		head->len += len;
		head->data_len += len;
		head->truesize += truesize;
	}
	return true;
}

/*
 * Build the skb of the frame starting in @buf (@len bytes used, header
 * included).  Takes the frame's further buffers off the ring.  Returns NULL
 * if the frame was dropped; its buffers are freed either way.
 */
static struct sk_buff *vnet_rx_frame(struct vnet_rxq *rq, char *buf,
				     unsigned int len, void *ctx,
				     struct vnet_rx_tally *t)
{
	struct virtio_device *vdev = rq->vi->vdev;
	unsigned int truesize = vnet_ctx_to_size(ctx);
	struct virtio_net_hdr_mrg_rxbuf hdr;
	struct sk_buff *skb, *tail;
	unsigned int nbufs = 1;

	t->buffers++;
	if (unlikely(len < VNET_HDR_LEN + ETH_HLEN || len > truesize)) {
		/* Not even a header to trust num_buffers from. */
		put_page(virt_to_head_page(buf));
		t->errors++;
		return NULL;
	}

	/* Copied: the buffer may be freed once its data is in the skb. */
	memcpy(&hdr, buf, sizeof(hdr));
	if (rq->vi->mergeable) {
		nbufs = virtio16_to_cpu(vdev, hdr.num_buffers);
		if (unlikely(!nbufs)) {
			put_page(virt_to_head_page(buf));
			t->errors++;
			return NULL;
		}
	}

	skb = vnet_rx_head(rq, buf + VNET_HDR_LEN, len - VNET_HDR_LEN,
			   truesize, nbufs == 1);
	if (unlikely(!skb)) {
		vnet_rx_discard(rq, nbufs - 1);
		t->drops++;
		return NULL;
	}

	tail = skb;
	while (--nbufs) {
		void *more = virtqueue_get_buf_ctx(rq->vq, &len, &ctx);

		if (unlikely(!more)) {
			/* The device announced more buffers than it used. */
			t->errors++;
			goto drop;
		}
		t->buffers++;
		truesize = vnet_ctx_to_size(ctx);
		if (unlikely(len > truesize)) {
			put_page(virt_to_head_page(more));
			vnet_rx_discard(rq, nbufs - 1);
			t->errors++;
			goto drop;
		}
		if (unlikely(!vnet_rx_append(skb, &tail, more, len,
					     truesize))) {
			vnet_rx_discard(rq, nbufs - 1);
			t->drops++;
			goto drop;
		}
	}

	/* Weight 1/16: follows a change of traffic within a few dozen frames. */
	rq->avg_len = (rq->avg_len * 15 + skb->len) / 16;

	if (hdr.hdr.flags & VIRTIO_NET_HDR_F_DATA_VALID)
		skb->ip_summed = CHECKSUM_UNNECESSARY;
	/* Checksum offset and GSO type of frames the host merged for us */
	if (unlikely(virtio_net_hdr_to_skb(skb, &hdr.hdr,
					   virtio_is_little_endian(vdev)))) {
		t->errors++;
		goto drop;
	}

	t->packets++;
	t->bytes += skb->len;
	skb_record_rx_queue(skb, 0);
	skb->protocol = eth_type_trans(skb, rq->vi->dev);
	return skb;

drop:
	kfree_skb(skb);
	return NULL;
}

/*
 * Receive poll: up to @budget frames.  Runs in softirq context (BH disabled
 * in threaded mode too) and owns the receive ring while it runs.
 */
static int vnet_rx_poll(struct irq_poll *iop, int budget)
{
	struct vnet_rxq *rq = to_rxq(iop);
	struct vnet_priv *vi = rq->vi;
	struct vnet_rx_tally t = {};
	LIST_HEAD(frames);
	unsigned int len;
	int done = 0;
	void *buf, *ctx;

	while (done < budget &&
	       (buf = virtqueue_get_buf_ctx(rq->vq, &len, &ctx))) {
		struct sk_buff *skb = vnet_rx_frame(rq, buf, len, ctx, &t);

		if (skb)
			list_add_tail(&skb->list, &frames);
		done++;
	}

	/* Give the device buffers back before the stack gets busy. */
	if (rq->vq->num_free >= rq->refill_batch &&
	    !vnet_rx_fill(rq, GFP_ATOMIC) &&
	    rq->vq->num_free == virtqueue_get_vring_size(rq->vq))
		vnet_rx_refill_later(vi, 0);

	netif_receive_skb_list(&frames);

	/* Reap transmit completions here rather than in their own IRQ. */
	if (done)
		irq_poll_sched(&vi->tx.iop);

	u64_stats_update_begin(&rq->stats.syncp);
	u64_stats_add(&rq->stats.packets, t.packets);
	u64_stats_add(&rq->stats.bytes, t.bytes);
	u64_stats_add(&rq->stats.drops, t.drops);
	u64_stats_add(&rq->stats.errors, t.errors);
	u64_stats_add(&rq->stats.buffers, t.buffers);
	u64_stats_inc(&rq->stats.polls);
	if (done == budget)
		u64_stats_inc(&rq->stats.budget_polls);
	u64_stats_update_end(&rq->stats.syncp);

	if (done < budget)
		irq_poll_complete_done(iop, done);
	return done;
}

/*
 * Free up to @max skbs the device has sent and add their length to *@bytes.
 * Caller holds the transmit queue's lock.  Returns how many were freed.
 */
static unsigned int vnet_tx_free(struct vnet_txq *sq, unsigned int max,
				 unsigned int *bytes)
{
	unsigned int len, n = 0;
	struct sk_buff *skb;

	while (n < max && (skb = virtqueue_get_buf(sq->vq, &len))) {
		*bytes += skb->len;
		dev_consume_skb_any(skb);
		n++;
	}
	return n;
}

/*
 * Transmit poll: frees up to @budget sent skbs.  Takes the transmit queue's
 * lock, which serialises this virtqueue's users: vnet_start_xmit() adding
 * buffers, this function taking them off, and vnet_tx_unmask().
 */
static int vnet_tx_poll(struct irq_poll *iop, int budget)
{
	struct vnet_txq *sq = to_txq(iop);
	struct netdev_queue *txq = netdev_get_tx_queue(sq->vi->dev, 0);
	unsigned int bytes = 0;
	bool woke = false;
	int done;

	__netif_tx_lock(txq, smp_processor_id());

	done = vnet_tx_free(sq, budget, &bytes);

	if (netif_tx_queue_stopped(txq) &&
	    sq->vq->num_free >= VNET_TX_STOP_SLOTS) {
		netif_tx_wake_queue(txq);
		woke = true;
	}

	u64_stats_update_begin(&sq->stats.syncp);
	u64_stats_add(&sq->stats.packets, done);
	u64_stats_add(&sq->stats.bytes, bytes);
	u64_stats_inc(&sq->stats.polls);
	if (woke)
		u64_stats_inc(&sq->stats.wakes);
	if (done == budget)
		u64_stats_inc(&sq->stats.budget_polls);
	u64_stats_update_end(&sq->stats.syncp);

	if (done < budget)
		irq_poll_complete_done(iop, done);

	__netif_tx_unlock(txq);
	return done;
}

/* The ops: how the library masks, unmasks and re-checks a virtqueue. */

static void vnet_rx_mask(struct irq_poll *iop)
{
	WRITE_ONCE(to_rxq(iop)->masked, true);
	virtqueue_disable_cb(to_rxq(iop)->vq);
}

/* ->unmask() and ->pending(): called by the instance's owner, in turn. */
static void vnet_rx_unmask(struct irq_poll *iop)
{
	struct vnet_rxq *rq = to_rxq(iop);

	rq->armed_at = virtqueue_enable_cb_prepare(rq->vq);
	WRITE_ONCE(rq->masked, false);
	/* Transmit callbacks may have stayed off for us: poll, and unmask. */
	irq_poll_sched(&rq->vi->tx.iop);
}

static bool vnet_rx_pending(struct irq_poll *iop)
{
	struct vnet_rxq *rq = to_rxq(iop);

	return virtqueue_poll(rq->vq, rq->armed_at);
}

static void vnet_tx_mask(struct irq_poll *iop)
{
	virtqueue_disable_cb(to_txq(iop)->vq);
}

static void vnet_tx_unmask(struct irq_poll *iop)
{
	struct vnet_txq *sq = to_txq(iop);
	struct netdev_queue *txq = netdev_get_tx_queue(sq->vi->dev, 0);

	/*
	 * While the receive queue is masked, its polls (every ACK or segment
	 * received) schedule this one, and its unmask does: a transmit
	 * callback per sent skb would cost an interrupt that they save,
	 * which is most of them when the receive queue defers.
	 */
	if (READ_ONCE(sq->vi->rx.masked)) {
		sq->rearm_late = false;
		return;
	}
	/*
	 * Under the queue's lock, like vnet_start_xmit() adding buffers.
	 * Returns false if more buffers are used than it will wait for, so
	 * their callback may have come and gone: tell ->pending().
	 */
	__netif_tx_lock(txq, smp_processor_id());
	sq->rearm_late = !virtqueue_enable_cb_delayed(sq->vq);
	__netif_tx_unlock(txq);
}

static bool vnet_tx_pending(struct irq_poll *iop)
{
	return to_txq(iop)->rearm_late;
}

static const struct irq_poll_ops vnet_rx_ops = {
	.mask		= vnet_rx_mask,
	.unmask		= vnet_rx_unmask,
	.pending	= vnet_rx_pending,
};

static const struct irq_poll_ops vnet_tx_ops = {
	.mask		= vnet_tx_mask,
	.unmask		= vnet_tx_unmask,
	.pending	= vnet_tx_pending,
};

/* Virtqueue callbacks (hard IRQ): the library's ->mask() does the rest. */

static void vnet_rx_done(struct virtqueue *vq)
{
	struct vnet_priv *vi = vq->vdev->priv;

	vnet_count_irq(&vi->rx.irq);
	irq_poll_sched(&vi->rx.iop);
}

static void vnet_tx_done(struct virtqueue *vq)
{
	struct vnet_priv *vi = vq->vdev->priv;

	vnet_count_irq(&vi->tx.irq);
	irq_poll_sched(&vi->tx.iop);
}

/* The virtio header of an skb being sent lives in its control buffer. */
static struct virtio_net_hdr_mrg_rxbuf *vnet_skb_hdr(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof_field(struct sk_buff, cb) < VNET_HDR_LEN);
	return (struct virtio_net_hdr_mrg_rxbuf *)skb->cb;
}

/*
 * Transmit.  The header goes in its own scatterlist entry (VERSION_1
 * devices accept any layout), so the skb's own head is never written and
 * cloned TCP skbs need no copy; with indirect descriptors a packet still
 * takes one ring slot.  Runs under the queue's lock.
 */
static netdev_tx_t vnet_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct vnet_priv *vi = netdev_priv(dev);
	struct vnet_txq *sq = &vi->tx;
	struct netdev_queue *txq = netdev_get_tx_queue(dev, 0);
	struct virtio_net_hdr_mrg_rxbuf *hdr = vnet_skb_hdr(skb);
	unsigned int freed, bytes = 0;
	bool stop, kicked = false;
	int nsg;

	/*
	 * Free what was sent since the last poll first: a socket over its
	 * small-queue limit waits for its skbs to be freed, and the poll may
	 * be deferred or threaded.  At most a ring's worth: bounded.
	 */
	freed = vnet_tx_free(sq, virtqueue_get_vring_size(sq->vq), &bytes);

	/* Fails only for GSO types the device was not offered. */
	if (unlikely(virtio_net_hdr_from_skb(skb, &hdr->hdr,
					     virtio_is_little_endian(vi->vdev),
					     false, 0)))
		goto drop;
	hdr->num_buffers = 0;

	sg_init_table(sq->sg, skb_shinfo(skb)->nr_frags + 2);
	sg_set_buf(sq->sg, hdr, VNET_HDR_LEN);
	nsg = skb_to_sgvec(skb, sq->sg + 1, 0, skb->len);
	if (unlikely(nsg < 0))
		goto drop;

	skb_tx_timestamp(skb);
	/* Cannot run out of slots: the queue stops early enough. */
	if (unlikely(virtqueue_add_outbuf(sq->vq, sq->sg, nsg + 1, skb,
					  GFP_ATOMIC)))
		goto drop;
	/* The skb belongs to the device now; vnet_tx_poll() frees it. */

	stop = sq->vq->num_free < VNET_TX_STOP_SLOTS;
	if (stop)
		netif_tx_stop_queue(txq);

	if (!netdev_xmit_more() || netif_xmit_stopped(txq))
		kicked = virtqueue_kick_prepare(sq->vq) &&
			 virtqueue_notify(sq->vq);

	u64_stats_update_begin(&sq->stats.syncp);
	u64_stats_add(&sq->stats.packets, freed);
	u64_stats_add(&sq->stats.bytes, bytes);
	u64_stats_add(&sq->stats.xmit_freed, freed);
	if (kicked)
		u64_stats_inc(&sq->stats.kicks);
	if (stop)
		u64_stats_inc(&sq->stats.ring_full);
	u64_stats_update_end(&sq->stats.syncp);

	/*
	 * Reclaim now rather than when the delayed callback comes: the poll
	 * runs once this CPU re-enables BH (or in the instance's kthread),
	 * after the lock is dropped, and wakes the queue when a maximal skb
	 * fits again.
	 */
	if (stop)
		irq_poll_sched(&sq->iop);
	return NETDEV_TX_OK;

drop:
	u64_stats_update_begin(&sq->stats.syncp);
	u64_stats_add(&sq->stats.packets, freed);
	u64_stats_add(&sq->stats.bytes, bytes);
	u64_stats_add(&sq->stats.xmit_freed, freed);
	u64_stats_inc(&sq->stats.drops);
	u64_stats_update_end(&sq->stats.syncp);
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static int vnet_open(struct net_device *dev)
{
	struct vnet_priv *vi = netdev_priv(dev);
	bool full;

	/* Both instances are disabled while down: the rings are ours. */
	full = vnet_rx_fill(&vi->rx, GFP_KERNEL);

	/*
	 * Only a poll or this function schedule the refill work, and the
	 * work must not start before the instances are enabled (it disables
	 * and re-enables the receive one): allow it first, schedule it last.
	 */
	spin_lock_bh(&vi->refill_lock);
	vi->refill_on = true;
	spin_unlock_bh(&vi->refill_lock);

	/*
	 * Callbacks were off while down.  Enabling polls each queue once,
	 * which takes what came meanwhile and, when it completes, turns them
	 * back on.
	 */
	irq_poll_enable(&vi->rx.iop);
	irq_poll_enable(&vi->tx.iop);
	if (!full)
		vnet_rx_refill_later(vi, 0);

	netif_tx_start_all_queues(dev);
	return 0;
}

/*
 * dev_close() has already deactivated the qdisc and cleared
 * __LINK_STATE_START, so no new transmit comes in; netif_tx_disable() waits
 * out one in progress.  A last transmit poll may still wake the queue,
 * which is harmless now.  Once the instances are disabled nothing polls
 * or unmasks; a callback may still mask.
 */
static int vnet_close(struct net_device *dev)
{
	struct vnet_priv *vi = netdev_priv(dev);

	spin_lock_bh(&vi->refill_lock);
	vi->refill_on = false;
	spin_unlock_bh(&vi->refill_lock);
	cancel_delayed_work_sync(&vi->refill_work);

	netif_tx_disable(dev);
	irq_poll_disable(&vi->rx.iop);
	irq_poll_disable(&vi->tx.iop);

	/* Quiet while down; the first poll after open re-enables them. */
	virtqueue_disable_cb(vi->rx.vq);
	virtqueue_disable_cb(vi->tx.vq);
	return 0;
}

static void vnet_get_stats64(struct net_device *dev,
			     struct rtnl_link_stats64 *s)
{
	struct vnet_priv *vi = netdev_priv(dev);
	const struct vnet_rx_stats *rs = &vi->rx.stats;
	const struct vnet_tx_stats *ts = &vi->tx.stats;
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&rs->syncp);
		s->rx_packets = u64_stats_read(&rs->packets);
		s->rx_bytes = u64_stats_read(&rs->bytes);
		s->rx_dropped = u64_stats_read(&rs->drops);
		s->rx_errors = u64_stats_read(&rs->errors);
	} while (u64_stats_fetch_retry(&rs->syncp, start));

	do {
		start = u64_stats_fetch_begin(&ts->syncp);
		s->tx_packets = u64_stats_read(&ts->packets);
		s->tx_bytes = u64_stats_read(&ts->bytes);
		s->tx_dropped = u64_stats_read(&ts->drops);
	} while (u64_stats_fetch_retry(&ts->syncp, start));
}

static const struct net_device_ops vnet_netdev_ops = {
	.ndo_open		= vnet_open,
	.ndo_stop		= vnet_close,
	.ndo_start_xmit		= vnet_start_xmit,
	.ndo_get_stats64	= vnet_get_stats64,
	.ndo_validate_addr	= eth_validate_addr,
};

/* ethtool */

struct vnet_stat_desc {
	char name[ETH_GSTRING_LEN];
	size_t offset;
};

#define VNET_RX_STAT(m) { #m, offsetof(struct vnet_rx_stats, m) }
#define VNET_TX_STAT(m) { #m, offsetof(struct vnet_tx_stats, m) }

static const struct vnet_stat_desc vnet_rx_stat_desc[] = {
	VNET_RX_STAT(packets),
	VNET_RX_STAT(bytes),
	VNET_RX_STAT(drops),
	VNET_RX_STAT(errors),
	VNET_RX_STAT(buffers),
	VNET_RX_STAT(kicks),
	VNET_RX_STAT(refill_oom),
	VNET_RX_STAT(polls),
	VNET_RX_STAT(budget_polls),
};

static const struct vnet_stat_desc vnet_tx_stat_desc[] = {
	VNET_TX_STAT(packets),
	VNET_TX_STAT(bytes),
	VNET_TX_STAT(drops),
	VNET_TX_STAT(kicks),
	VNET_TX_STAT(ring_full),
	VNET_TX_STAT(wakes),
	VNET_TX_STAT(xmit_freed),
	VNET_TX_STAT(polls),
	VNET_TX_STAT(budget_polls),
};

/*
 * After each queue's table come two derived counters: "irqs" (virtqueue
 * callbacks) and "pkts_per_poll" (packets the polls took / polls, rounded
 * down), the figure that tells how much polling batches.
 */
#define VNET_DERIVED_STATS	2
#define VNET_NUM_STATS	(ARRAY_SIZE(vnet_rx_stat_desc) + \
			 ARRAY_SIZE(vnet_tx_stat_desc) + 2 * VNET_DERIVED_STATS)

static void vnet_get_drvinfo(struct net_device *dev,
			     struct ethtool_drvinfo *info)
{
	struct vnet_priv *vi = netdev_priv(dev);

	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	strscpy(info->bus_info, virtio_bus_name(vi->vdev),
		sizeof(info->bus_info));
}

static void vnet_get_ringparam(struct net_device *dev,
			       struct ethtool_ringparam *ring,
			       struct kernel_ethtool_ringparam *kring,
			       struct netlink_ext_ack *extack)
{
	struct vnet_priv *vi = netdev_priv(dev);

	ring->rx_max_pending = virtqueue_get_vring_size(vi->rx.vq);
	ring->tx_max_pending = virtqueue_get_vring_size(vi->tx.vq);
	ring->rx_pending = ring->rx_max_pending;
	ring->tx_pending = ring->tx_max_pending;
}

static int vnet_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? VNET_NUM_STATS : -EOPNOTSUPP;
}

static void vnet_put_strings(u8 **data, const char *queue,
			     const struct vnet_stat_desc *desc, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		ethtool_sprintf(data, "%s_%s", queue, desc[i].name);
	ethtool_sprintf(data, "%s_irqs", queue);
	ethtool_sprintf(data, "%s_pkts_per_poll", queue);
}

static void vnet_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	if (sset != ETH_SS_STATS)
		return;
	vnet_put_strings(&data, "rx0", vnet_rx_stat_desc,
			 ARRAY_SIZE(vnet_rx_stat_desc));
	vnet_put_strings(&data, "tx0", vnet_tx_stat_desc,
			 ARRAY_SIZE(vnet_tx_stat_desc));
}

static u64 vnet_stat_read(const void *base, size_t offset)
{
	return u64_stats_read((const u64_stats_t *)((const u8 *)base + offset));
}

/*
 * Copy one queue's counters to @data in table order, then the derived ones.
 * @packets, @unpolled (packets not taken by a poll, or NULL) and @polls
 * point into the same structure as @base.
 */
static u64 *vnet_put_stats(u64 *data, const struct u64_stats_sync *syncp,
			   const void *base, const struct vnet_stat_desc *desc,
			   unsigned int n, const u64_stats_t *packets,
			   const u64_stats_t *unpolled,
			   const u64_stats_t *polls,
			   const struct vnet_irq_stats *irq)
{
	unsigned int start, i;
	u64 npackets, npolls;

	do {
		start = u64_stats_fetch_begin(syncp);
		for (i = 0; i < n; i++)
			data[i] = vnet_stat_read(base, desc[i].offset);
		npackets = u64_stats_read(packets);
		if (unpolled)
			npackets -= u64_stats_read(unpolled);
		npolls = u64_stats_read(polls);
	} while (u64_stats_fetch_retry(syncp, start));
	data += n;

	do {
		start = u64_stats_fetch_begin(&irq->syncp);
		*data = u64_stats_read(&irq->irqs);
	} while (u64_stats_fetch_retry(&irq->syncp, start));
	data++;

	*data++ = npolls ? div64_u64(npackets, npolls) : 0;
	return data;
}

static void vnet_get_ethtool_stats(struct net_device *dev,
				   struct ethtool_stats *stats, u64 *data)
{
	struct vnet_priv *vi = netdev_priv(dev);
	const struct vnet_rx_stats *rs = &vi->rx.stats;
	const struct vnet_tx_stats *ts = &vi->tx.stats;

	data = vnet_put_stats(data, &rs->syncp, rs, vnet_rx_stat_desc,
			      ARRAY_SIZE(vnet_rx_stat_desc), &rs->packets, NULL,
			      &rs->polls, &vi->rx.irq);
	vnet_put_stats(data, &ts->syncp, ts, vnet_tx_stat_desc,
		       ARRAY_SIZE(vnet_tx_stat_desc), &ts->packets,
		       &ts->xmit_freed, &ts->polls, &vi->tx.irq);
}

static const struct ethtool_ops vnet_ethtool_ops = {
	.get_drvinfo		= vnet_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_ringparam		= vnet_get_ringparam,
	.get_strings		= vnet_get_strings,
	.get_sset_count		= vnet_get_sset_count,
	.get_ethtool_stats	= vnet_get_ethtool_stats,
};

/* Link status (VIRTIO_NET_F_STATUS), read in process context. */
static void vnet_config_work(struct work_struct *work)
{
	struct vnet_priv *vi = container_of(work, struct vnet_priv,
					    config_work);
	bool up;
	u16 status;

	if (virtio_cread_feature(vi->vdev, VIRTIO_NET_F_STATUS,
				 struct virtio_net_config, status, &status))
		return;

	up = status & VIRTIO_NET_S_LINK_UP;
	if (up == netif_carrier_ok(vi->dev))
		return;
	netdev_info(vi->dev, "link %s\n", up ? "up" : "down");
	if (up)
		netif_carrier_on(vi->dev);
	else
		netif_carrier_off(vi->dev);
}

/* May be called in interrupt context. */
static void vnet_config_changed(struct virtio_device *vdev)
{
	struct vnet_priv *vi = vdev->priv;

	schedule_work(&vi->config_work);
}

/* Offloads the device offers, MAC address and MTU. */
static void vnet_setup_netdev(struct vnet_priv *vi)
{
	struct virtio_device *vdev = vi->vdev;
	struct net_device *dev = vi->dev;
	u8 addr[ETH_ALEN];
	u16 mtu;

	dev->netdev_ops = &vnet_netdev_ops;
	dev->ethtool_ops = &vnet_ethtool_ops;
	SET_NETDEV_DEV(dev, &vdev->dev);

	dev->features = NETIF_F_HIGHDMA;
	if (virtio_has_feature(vdev, VIRTIO_NET_F_CSUM)) {
		dev->hw_features |= NETIF_F_HW_CSUM | NETIF_F_SG;
		if (virtio_has_feature(vdev, VIRTIO_NET_F_HOST_TSO4))
			dev->hw_features |= NETIF_F_TSO;
		if (virtio_has_feature(vdev, VIRTIO_NET_F_HOST_TSO6))
			dev->hw_features |= NETIF_F_TSO6;
		if (virtio_has_feature(vdev, VIRTIO_NET_F_HOST_ECN))
			dev->hw_features |= NETIF_F_TSO_ECN;
		dev->features |= dev->hw_features;
	}
	/* Without a control queue the device cannot be told to stop. */
	if (virtio_has_feature(vdev, VIRTIO_NET_F_GUEST_CSUM))
		dev->features |= NETIF_F_RXCSUM;
	dev->vlan_features = dev->features;

	if (virtio_has_feature(vdev, VIRTIO_NET_F_MAC)) {
		virtio_cread_bytes(vdev, offsetof(struct virtio_net_config, mac),
				   addr, ETH_ALEN);
		if (is_valid_ether_addr(addr))
			eth_hw_addr_set(dev, addr);
		else
			dev_warn(&vdev->dev, "invalid MAC address %pM\n", addr);
	}
	if (!is_valid_ether_addr(dev->dev_addr))
		eth_hw_addr_random(dev);

	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU;
	/* vnet_validate() dropped the feature if the value is unusable. */
	if (!virtio_cread_feature(vdev, VIRTIO_NET_F_MTU,
				  struct virtio_net_config, mtu, &mtu)) {
		dev->max_mtu = mtu;
		dev->mtu = mtu;
	}
	if (!vi->mergeable) {
		dev->max_mtu = min_t(unsigned int, dev->max_mtu,
				     VNET_RX_SINGLE_MTU_MAX);
		dev->mtu = min(dev->mtu, dev->max_mtu);
	}
}

/* Receive buffer sizes, once the ring size is known. */
static void vnet_rx_setup(struct vnet_priv *vi)
{
	struct vnet_rxq *rq = &vi->rx;
	unsigned int ring = virtqueue_get_vring_size(rq->vq);
	unsigned int frame = VNET_HDR_LEN + VLAN_ETH_HLEN + vi->dev->max_mtu;

	if (vi->mergeable) {
		/* A full ring must hold the largest frame the device may send */
		if (virtio_has_feature(vi->vdev, VIRTIO_NET_F_GUEST_TSO4) ||
		    virtio_has_feature(vi->vdev, VIRTIO_NET_F_GUEST_TSO6))
			frame = max_t(unsigned int, frame,
				      VNET_HDR_LEN + VLAN_ETH_HLEN + IP_MAX_MTU);
		frame = ALIGN(DIV_ROUND_UP(frame, ring), L1_CACHE_BYTES);
		rq->min_buf = clamp_t(unsigned int, frame, VNET_RX_BUF_MIN,
				      PAGE_SIZE);
	} else {
		rq->min_buf = ALIGN(frame, L1_CACHE_BYTES);
	}
	rq->refill_batch = max(ring / 8, 1U);
}

/*
 * Instances come before the virtqueues, whose callbacks use them, and start
 * disabled: nothing polls until vnet_open().
 */
static int vnet_init_polls(struct vnet_priv *vi)
{
	const char *vname = dev_name(&vi->vdev->dev);
	struct irq_poll_config cfg = {
		.weight = READ_ONCE(vnet_weight),
	};
	char name[48];
	int err;

	snprintf(name, sizeof(name), "vnet-%s-rx0", vname);
	cfg.name = name;
	cfg.ops = &vnet_rx_ops;
	err = irq_poll_init_named(&vi->rx.iop, &cfg, vnet_rx_poll);
	if (err)
		return err;
	irq_poll_disable(&vi->rx.iop);

	snprintf(name, sizeof(name), "vnet-%s-tx0", vname);
	cfg.ops = &vnet_tx_ops;
	err = irq_poll_init_named(&vi->tx.iop, &cfg, vnet_tx_poll);
	if (err) {
		irq_poll_destroy(&vi->rx.iop);
		return err;
	}
	irq_poll_disable(&vi->tx.iop);
	return 0;
}

static void vnet_destroy_polls(struct vnet_priv *vi)
{
	irq_poll_destroy(&vi->tx.iop);
	irq_poll_destroy(&vi->rx.iop);
}

static int vnet_find_vqs(struct vnet_priv *vi)
{
	vq_callback_t *callbacks[] = { vnet_rx_done, vnet_tx_done };
	static const char * const names[] = { "rx0", "tx0" };
	/* Receive buffers carry their size as context. */
	static const bool ctx[] = { true, false };
	struct virtqueue *vqs[2];
	int err;

	err = virtio_find_vqs_ctx(vi->vdev, 2, vqs, callbacks, names, ctx,
				  NULL);
	if (err)
		return err;
	vi->rx.vq = vqs[0];
	vi->tx.vq = vqs[1];
	return 0;
}

/* Buffers the device still holds, after a reset. */
static void vnet_free_unused_bufs(struct vnet_priv *vi)
{
	void *buf;

	while ((buf = virtqueue_detach_unused_buf(vi->rx.vq)))
		put_page(virt_to_head_page(buf));
	while ((buf = virtqueue_detach_unused_buf(vi->tx.vq)))
		dev_kfree_skb(buf);
}

/*
 * Called before the features are final: drop what this driver cannot use
 * in the combination offered.
 */
static int vnet_validate(struct virtio_device *vdev)
{
	bool mergeable = virtio_has_feature(vdev, VIRTIO_NET_F_MRG_RXBUF);
	u16 mtu;

	if (!virtio_has_feature(vdev, VIRTIO_F_VERSION_1)) {
		dev_err(&vdev->dev, "legacy virtio-net devices are not supported\n");
		return -ENODEV;
	}
	if (!vdev->config->get) {
		dev_err(&vdev->dev, "no configuration space\n");
		return -EINVAL;
	}

	/* Large receive needs mergeable buffers (no "big packets" mode). */
	if (!mergeable || !virtio_has_feature(vdev, VIRTIO_NET_F_GUEST_CSUM)) {
		__virtio_clear_bit(vdev, VIRTIO_NET_F_GUEST_TSO4);
		__virtio_clear_bit(vdev, VIRTIO_NET_F_GUEST_TSO6);
	}
	if (!virtio_has_feature(vdev, VIRTIO_NET_F_GUEST_TSO4) &&
	    !virtio_has_feature(vdev, VIRTIO_NET_F_GUEST_TSO6))
		__virtio_clear_bit(vdev, VIRTIO_NET_F_GUEST_ECN);
	if (!virtio_has_feature(vdev, VIRTIO_NET_F_CSUM)) {
		__virtio_clear_bit(vdev, VIRTIO_NET_F_HOST_TSO4);
		__virtio_clear_bit(vdev, VIRTIO_NET_F_HOST_TSO6);
	}
	if (!virtio_has_feature(vdev, VIRTIO_NET_F_HOST_TSO4) &&
	    !virtio_has_feature(vdev, VIRTIO_NET_F_HOST_TSO6))
		__virtio_clear_bit(vdev, VIRTIO_NET_F_HOST_ECN);

	/*
	 * Negotiating the MTU promises buffers for a frame of that size:
	 * decline a value below the minimum, or one a page cannot hold
	 * without mergeable buffers.
	 */
	if (!virtio_cread_feature(vdev, VIRTIO_NET_F_MTU,
				  struct virtio_net_config, mtu, &mtu) &&
	    (mtu < ETH_MIN_MTU || (!mergeable && mtu > VNET_RX_SINGLE_MTU_MAX)))
		__virtio_clear_bit(vdev, VIRTIO_NET_F_MTU);
	return 0;
}

static int vnet_probe(struct virtio_device *vdev)
{
	struct net_device *dev;
	struct vnet_priv *vi;
	int err;

	dev = alloc_etherdev(sizeof(*vi));
	if (!dev)
		return -ENOMEM;

	vi = netdev_priv(dev);
	vi->vdev = vdev;
	vi->dev = dev;
	vi->rx.vi = vi;
	vi->tx.vi = vi;
	vi->mergeable = virtio_has_feature(vdev, VIRTIO_NET_F_MRG_RXBUF);
	u64_stats_init(&vi->rx.stats.syncp);
	u64_stats_init(&vi->rx.irq.syncp);
	u64_stats_init(&vi->tx.stats.syncp);
	u64_stats_init(&vi->tx.irq.syncp);
	INIT_WORK(&vi->config_work, vnet_config_work);
	INIT_DELAYED_WORK(&vi->refill_work, vnet_refill_work);
	spin_lock_init(&vi->refill_lock);
	vdev->priv = vi;

	vnet_setup_netdev(vi);

	err = vnet_init_polls(vi);
	if (err)
		goto err_free_netdev;

	err = vnet_find_vqs(vi);
	if (err)
		goto err_destroy_polls;
	vnet_rx_setup(vi);

	/* ndo_open() may run as soon as the device is registered. */
	virtio_device_ready(vdev);

	netif_carrier_off(dev);
	err = register_netdev(dev);
	if (err)
		goto err_reset;

	if (virtio_has_feature(vdev, VIRTIO_NET_F_STATUS))
		schedule_work(&vi->config_work);
	else
		netif_carrier_on(dev);

	netdev_info(dev, "irq_poll sample on %s: %pM, mtu %u, %s receive buffers\n",
		    dev_name(&vdev->dev), dev->dev_addr, dev->mtu,
		    vi->mergeable ? "mergeable" : "single");
	return 0;

err_reset:
	virtio_reset_device(vdev);
	vdev->config->del_vqs(vdev);
err_destroy_polls:
	vnet_destroy_polls(vi);
err_free_netdev:
	free_netdev(dev);
	return err;
}

static void vnet_remove(struct virtio_device *vdev)
{
	struct vnet_priv *vi = vdev->priv;

	/* The virtio core stopped configuration callbacks before this. */
	cancel_work_sync(&vi->config_work);

	/* Runs vnet_close() if up: no transmit, refill or poll after this. */
	unregister_netdev(vi->dev);

	/*
	 * The device stops using the rings; the transport waits for running
	 * callbacks, and later ones find the instances disabled.
	 */
	virtio_reset_device(vdev);
	vnet_free_unused_bufs(vi);
	/* Frees the interrupts: no callback can run once this returns. */
	vdev->config->del_vqs(vdev);
	vnet_destroy_polls(vi);

	if (vi->rx.frag.page)
		put_page(vi->rx.frag.page);
	free_netdev(vi->dev);
}

static const unsigned int vnet_features[] = {
	VIRTIO_NET_F_CSUM,
	VIRTIO_NET_F_GUEST_CSUM,
	VIRTIO_NET_F_MTU,
	VIRTIO_NET_F_MAC,
	VIRTIO_NET_F_GUEST_TSO4,
	VIRTIO_NET_F_GUEST_TSO6,
	VIRTIO_NET_F_GUEST_ECN,
	VIRTIO_NET_F_HOST_TSO4,
	VIRTIO_NET_F_HOST_TSO6,
	VIRTIO_NET_F_HOST_ECN,
	VIRTIO_NET_F_MRG_RXBUF,
	VIRTIO_NET_F_STATUS,
};

/* Deliberately no MODULE_DEVICE_TABLE(): see "Binding" at the top. */
static const struct virtio_device_id vnet_id_table[] = {
	{ VIRTIO_ID_NET, VIRTIO_DEV_ANY_ID },
	{ 0 },
};

static struct virtio_driver vnet_driver = {
	.driver.name		= KBUILD_MODNAME,
	.driver.owner		= THIS_MODULE,
	.feature_table		= vnet_features,
	.feature_table_size	= ARRAY_SIZE(vnet_features),
	.id_table		= vnet_id_table,
	.validate		= vnet_validate,
	.probe			= vnet_probe,
	.remove			= vnet_remove,
	.config_changed		= vnet_config_changed,
};

module_virtio_driver(vnet_driver);

MODULE_DESCRIPTION("virtio-net sample driver polled by irq_poll, not NAPI");
MODULE_AUTHOR("irq-poll developers <irq-poll@example.org>");
MODULE_LICENSE("GPL");
