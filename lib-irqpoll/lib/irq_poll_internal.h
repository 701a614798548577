/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hooks of lib/irq_poll.c for its KUnit suite (lib/irq_poll_kunit.c) only;
 * they exist when CONFIG_KUNIT is set (include/kunit/visibility.h).
 */
#ifndef _LIB_IRQ_POLL_INTERNAL_H
#define _LIB_IRQ_POLL_INTERNAL_H

#include <linux/irq_poll.h>

#if IS_ENABLED(CONFIG_KUNIT)
struct ctl_table;
struct kset;
struct task_struct;

extern struct ctl_table irq_poll_sysctls[];
extern struct kset *irq_poll_kset;
ssize_t irq_poll_attr_store(struct irq_poll *iop, const char *name,
			    const char *buf);
ssize_t irq_poll_attr_show(struct irq_poll *iop, const char *name, char *buf);
unsigned long irq_poll_squeezed(void);
struct task_struct *irq_poll_thread_of(struct irq_poll *iop);
bool irq_poll_registered(const struct irq_poll *iop);
bool irq_poll_misuse_reported(const struct irq_poll *iop);
#endif

#endif /* _LIB_IRQ_POLL_INTERNAL_H */
