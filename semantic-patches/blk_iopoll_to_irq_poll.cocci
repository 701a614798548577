// SPDX-License-Identifier: GPL-2.0-only
/// Migrate users of the 2009 blk_iopoll API to irq_poll, re-enacting
/// commit 511cbce2ff8b ("irq_poll: make blk-iopoll available outside the
/// block layer"): struct blk_iopoll, blk_iopoll_fn, the blk_iopoll_*()
/// functions and <linux/blk-iopoll.h> become their irq_poll equivalents.
///
/// Mainline blk_iopoll (2.6.32 to 4.4) scheduled an instance with
/// "if (!blk_iopoll_sched_prep(x)) blk_iopoll_sched(x);": sched_prep
/// returned 0 when it took the instance.  The first posting of the API,
/// which this repository's seeds reproduce, returned non-zero instead:
/// "if (blk_iopoll_sched_prep(x)) blk_iopoll_sched(x);".  Both forms,
/// with or without a "blk_iopoll_enabled &&" test in front, become
/// irq_poll_sched(x), which takes the instance itself.
/// Before 4.1 drivers tested the blk_iopoll_enabled global; irq_poll has
/// no global switch, so, as upstream did, "if (blk_iopoll_enabled) A
/// else B" becomes A, "if (!blk_iopoll_enabled) A else B" becomes B,
/// "blk_iopoll_enabled && C" becomes C, and the forms nest ("else if").
/// A 2009 instance started disabled and needed blk_iopoll_enable() right
/// after blk_iopoll_init(); irq_poll_init() returns an enabled instance
/// and a second enable warns, so that call is dropped (a
/// blk_iopoll_disable()/blk_iopoll_enable() pair elsewhere stays).
/// "blk-iopoll" in the driver's strings becomes "irq_poll".  Kconfig
/// "select BLK_IOPOLL" becomes "select IRQ_POLL" (irq_poll_kconfig.sh
/// --migrate).  Converted code is left as it is.
///
//# Other uses of blk_iopoll_sched_prep() (its value stored or returned)
//# and of blk_iopoll_enabled (a module parameter, an assignment) are
//# reported in both modes for a human: irq_poll has neither.
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

// blk_iopoll_enabled: fold the tests as upstream did.  The rules run
// twice so that nested tests fold too.
@en1 depends on patch@
expression C;
@@
(
- blk_iopoll_enabled && C
+ C
|
- C && blk_iopoll_enabled
+ C
)

// "else if (blk_iopoll_enabled)" first: the branch it keeps stays the
// else branch.
@en0 depends on patch@
expression E;
statement S0, S1, S2;
@@
(
  if (E) S0
- else if (!blk_iopoll_enabled) S1
  else S2
|
  if (E) S0 else
- if (blk_iopoll_enabled)
  S1
- else S2
)

@en2 depends on patch@
statement S1, S2;
statement list SL;
@@
(
- if (blk_iopoll_enabled) { SL } else S2
+ SL
|
- if (blk_iopoll_enabled) S1 else S2
+ S1
|
- if (!blk_iopoll_enabled) S1 else { SL }
+ SL
|
- if (!blk_iopoll_enabled) S1 else S2
+ S2
|
- if (blk_iopoll_enabled) { SL }
+ SL
|
- if (blk_iopoll_enabled) S1
+ S1
|
- if (!blk_iopoll_enabled) S1
)

@en3 depends on patch@
statement S1, S2;
statement list SL;
@@
(
- if (blk_iopoll_enabled) { SL } else S2
+ SL
|
- if (blk_iopoll_enabled) S1 else S2
+ S1
|
- if (!blk_iopoll_enabled) S1 else { SL }
+ SL
|
- if (!blk_iopoll_enabled) S1 else S2
+ S2
|
- if (blk_iopoll_enabled) { SL }
+ SL
|
- if (blk_iopoll_enabled) S1
+ S1
|
- if (!blk_iopoll_enabled) S1
)

@depends on patch@
@@
- #include <linux/blk-iopoll.h>
+ #include <linux/irq_poll.h>

// Both sched_prep conventions: mainline's 0-on-success and the seeds'.
@depends on patch@
expression x;
@@
(
- if (!blk_iopoll_sched_prep(x)) {
-	blk_iopoll_sched(x);
- }
+ irq_poll_sched(x);
|
- if (blk_iopoll_sched_prep(x)) {
-	blk_iopoll_sched(x);
- }
+ irq_poll_sched(x);
|
- if (blk_iopoll_sched_prep(x) == 0) {
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

// "blk-iopoll" in messages and names.
@str depends on patch@
constant char[] c;
position p;
@@
c@p

@script:python strn@
c << str.c;
nc;
@@
if "blk-iopoll" in c:
    coccinelle.nc = cocci.make_expr(c.replace("blk-iopoll", "irq_poll"))
else:
    cocci.include_match(False)

@depends on patch@
constant char[] str.c;
expression strn.nc;
position str.p;
@@
- c@p
+ nc

// What is left needs a human.
@left depends on patch@
position p;
@@
(
blk_iopoll_sched_prep@p(...)
|
blk_iopoll_enabled@p
)

@script:python@
p << left.p;
@@
import sys
sys.stderr.write("%s:%s: blk_iopoll_to_irq_poll: left for a human: irq_poll "
                 "has no sched_prep and no global switch\n" % (p[0].file, p[0].line))
