// SPDX-License-Identifier: GPL-2.0-only
/// Find misuse of irq_poll in poll functions, IRQ handlers and teardown:
///  - irq_poll_complete() or irq_poll_complete_done() reachable without a
///    test of the budget: when the whole budget was used the softirq still
///    owns the instance and will re-poll it; completing it as well corrupts
///    the per-CPU poll list,
///  - disable_irq*()/enable_irq() inside a poll function or a function of
///    the same file it calls: a poll function runs in softirq context where
///    disable_irq() may sleep-wait on the handler, and masking the line hurts
///    every other device sharing it; mask at the device instead,
///  - irq_poll_sched() outside an irqreturn_t function without bottom
///    halves disabled: the raised softirq then waits for the next interrupt
///    or softirq run,
///  - kfree() of an object embedding a struct irq_poll in a function that
///    never calls irq_poll_disable(): a scheduled poll may run on freed memory.
///
//# The budget rule accepts any test mentioning the budget parameter on the
//# path. The context rule for irq_poll_sched() does not know about callers
//# that run with BHs or IRQs disabled (spin_lock_irqsave() in the caller,
//# hard-IRQ callees of the handler): check each hit. The kfree rule only
//# sees the same function.
//
// Confidence: Moderate
// Copyright: (C) 2026 irq-poll developers
// Options: --no-includes --include-headers
// Keywords: irq_poll_complete, irq_poll_sched, disable_irq, irq_poll_disable,
//           irq_poll_init_named, irq_poll_complete_done

virtual context
virtual org
virtual report

@initialize:python@
@@
seen = set()

# A position bound inside <+... ...+> or reached on several paths is a
# list: present every element once, so report/org agree with context.
def show(ps, msg, org):
    for q in ps:
        key = (q.file, q.line, q.column, msg)
        if key in seen:
            continue
        seen.add(key)
        if org:
            coccilib.org.print_todo(q, msg)
        else:
            coccilib.report.print_report(q, msg)

// Poll functions: passed to irq_poll_init() or irq_poll_init_named().
@pf@
identifier fn;
expression x, w;
@@
(
irq_poll_init(x, w, fn)
|
irq_poll_init_named(x, w, fn)
)

@budget exists@
identifier pf.fn, iop, budget;
expression E : script:python () { str(E).strip() != chr(48) };
statement S1, S2;
position p;
@@
fn(struct irq_poll *iop, int budget)
{
  ... when != if (<+... budget ...+>) S1 else S2
      when != if (<+... budget ...+>) S1
      when any
(
  irq_poll_complete@p(...);
|
  irq_poll_complete_done@p(...);
)
  ... when any
  return E;
}

@callee@
identifier pf.fn, g;
@@
fn(...)
{
  <+... g(...) ...+>
}

@line exists@
identifier f = {pf.fn, callee.g};
position p;
@@
f(...)
{
  <+...
(
  disable_irq@p(...)
|
  disable_irq_nosync@p(...)
|
  enable_irq@p(...)
)
  ...+>
}

@hard exists@
identifier h;
position p;
typedef irqreturn_t;
@@
irqreturn_t h(...)
{
  <+... irq_poll_sched@p(...) ...+>
}

@bh exists@
identifier f != pf.fn;
position p != hard.p;
@@
f(...)
{
  ... when != local_bh_disable()
      when != spin_lock_bh(...)
      when != local_irq_disable()
      when != local_irq_save(...)
      when != spin_lock_irqsave(...)
      when != spin_lock_irq(...)
      when any
  irq_poll_sched@p(...);
  ... when any
}

@owner@
identifier S, m;
@@
struct S {
  ...
  struct irq_poll m;
  ...
};

@free exists@
identifier owner.S, f;
struct S *x;
position p;
@@
f(...)
{
  ... when != irq_poll_disable(...)
      when != irq_poll_destroy(...)
  kfree@p(x);
  ... when != irq_poll_disable(...)
      when != irq_poll_destroy(...)
}

@depends on context@
position budget.p;
identifier f;
@@
* f@p(...)

@depends on context@
position line.p;
identifier f;
@@
* f@p(...)

@depends on context@
position bh.p;
identifier f;
@@
* f@p(...)

@depends on context@
position free.p;
identifier f;
@@
* f@p(...)

@script:python depends on org@
p << budget.p;
@@
show(p, "WARNING: irq_poll_complete() on a path where the budget may have been used up", True)

@script:python depends on report@
p << budget.p;
@@
show(p, "WARNING: irq_poll_complete() on a path where the budget may have been used up", False)

@script:python depends on org@
p << line.p;
@@
show(p, "WARNING: IRQ line masked or unmasked from a poll function; mask at the device", True)

@script:python depends on report@
p << line.p;
@@
show(p, "WARNING: IRQ line masked or unmasked from a poll function; mask at the device", False)

@script:python depends on org@
p << bh.p;
@@
show(p, "WARNING: irq_poll_sched() outside hard-IRQ context without bottom halves disabled", True)

@script:python depends on report@
p << bh.p;
@@
show(p, "WARNING: irq_poll_sched() outside hard-IRQ context without bottom halves disabled", False)

@script:python depends on org@
p << free.p;
@@
show(p, "WARNING: object embedding struct irq_poll freed without irq_poll_disable()", True)

@script:python depends on report@
p << free.p;
@@
show(p, "WARNING: object embedding struct irq_poll freed without irq_poll_disable()", False)
