// SPDX-License-Identifier: GPL-2.0-only
/// Migrate users of the 2009 blk_iopoll API to irq_poll, re-enacting
/// commit 511cbce2ff8b ("irq_poll: make blk-iopoll available outside the
/// block layer"): struct blk_iopoll, blk_iopoll_fn, the blk_iopoll_*()
/// functions and <linux/blk-iopoll.h> become their irq_poll equivalents.
///
/// blk_iopoll_sched_prep() returned non-zero on success and callers
/// checked the blk_iopoll_enabled global first; irq_poll_sched() does both
/// tests itself, so "if (blk_iopoll_enabled && blk_iopoll_sched_prep(x))
/// blk_iopoll_sched(x);" becomes "irq_poll_sched(x);".
/// A 2009 instance started disabled and needed blk_iopoll_enable() after
/// blk_iopoll_init(); irq_poll_init() returns an enabled instance and
/// irq_poll_enable() must not be called on it, so that call is dropped.
/// Kconfig "select BLK_IOPOLL" becomes "select IRQ_POLL"
/// (irq_poll_kconfig.sh --migrate).
///
//# A blk_iopoll_enabled test with an else branch (the classic interrupt
//# path) and other uses of blk_iopoll_enabled are left for a human: 6.1
//# has no global switch.
//
// Confidence: High
// Copyright: (C) 2026 irq-poll developers
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Options: --no-includes --include-headers
// Keywords: blk_iopoll, irq_poll

virtual patch
virtual report

// Report mode (what "make coccicheck" runs): every call that patch mode
// renames.  The names are spelt out, not given as an identifier list, so
// that spatch only parses files containing one of them.
@r depends on report@
position p;
identifier fn;
@@
(
blk_iopoll_init@fn@p(...)
|
blk_iopoll_sched@fn@p(...)
|
blk_iopoll_sched_prep@fn@p(...)
|
__blk_iopoll_complete@fn@p(...)
|
blk_iopoll_complete@fn@p(...)
|
blk_iopoll_enable@fn@p(...)
|
blk_iopoll_disable@fn@p(...)
)

@script:python depends on report@
p << r.p;
fn << r.fn;
@@
coccilib.report.print_report(p[0], "%s(): blk_iopoll became irq_poll in 4.5 (511cbce2ff8b), use -D patch" % fn)

@depends on patch@
@@
- #include <linux/blk-iopoll.h>
+ #include <linux/irq_poll.h>

@depends on patch@
expression x;
@@
(
- if (blk_iopoll_enabled && blk_iopoll_sched_prep(x)) {
-	blk_iopoll_sched(x);
- }
+ irq_poll_sched(x);
|
- if (blk_iopoll_sched_prep(x)) {
-	blk_iopoll_sched(x);
- }
+ irq_poll_sched(x);
)

@depends on patch@
expression x, w, f;
@@
  blk_iopoll_init(x, w, f);
- blk_iopoll_enable(x);

@depends on patch@
expression x;
@@
(
- blk_iopoll_init
+ irq_poll_init
|
- blk_iopoll_sched
+ irq_poll_sched
|
- __blk_iopoll_complete
+ irq_poll_complete
|
- blk_iopoll_complete
+ irq_poll_complete
|
- blk_iopoll_enable
+ irq_poll_enable
|
- blk_iopoll_disable
+ irq_poll_disable
)
  (x, ...)

@depends on patch@
@@
- struct blk_iopoll
+ struct irq_poll

@depends on patch@
typedef blk_iopoll_fn, irq_poll_fn;
@@
- blk_iopoll_fn
+ irq_poll_fn
