// SPDX-License-Identifier: GPL-2.0-only
/// irq_poll_init() returns an enabled instance; irq_poll_enable() on an
/// enabled instance hits BUG_ON() in 6.1 (it expects IRQ_POLL_F_SCHED to be
/// set by irq_poll_disable()). The blk_iopoll pairing of init followed by
/// enable, needed in 2009, must not survive commit 511cbce2ff8b ("irq_poll:
/// make blk-iopoll available outside the block layer"). Drop the enable.
//
// Confidence: High
// Copyright: (C) 2026 irq-poll developers
// Options: --no-includes --include-headers
// Keywords: irq_poll_init, irq_poll_enable

virtual context
virtual patch
virtual org
virtual report

@r depends on !patch exists@
expression x, w, f;
position p;
@@
  irq_poll_init(x, w, f);
  irq_poll_enable@p(x);

@depends on context@
expression x;
position r.p;
@@
* irq_poll_enable@p(x);

@depends on patch@
expression x, w, f;
@@
  irq_poll_init(x, w, f);
- irq_poll_enable(x);

@script:python depends on org@
p << r.p;
@@
coccilib.org.print_todo(p[0], "WARNING: irq_poll_enable() right after irq_poll_init() BUGs: the instance is already enabled")

@script:python depends on report@
p << r.p;
@@
coccilib.report.print_report(p[0], "WARNING: irq_poll_enable() right after irq_poll_init() BUGs: the instance is already enabled")
