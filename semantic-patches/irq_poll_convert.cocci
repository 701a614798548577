// SPDX-License-Identifier: GPL-2.0-only
/// Convert an interrupt handler that drains completions in a loop to
/// irq_poll, the subsystem-neutral successor of blk-iopoll (commit
/// 511cbce2ff8b ("irq_poll: make blk-iopoll available outside the block
/// layer")).
///
/// This produces the mechanical part of a conversion only:
///  - a struct irq_poll member in the per-device structure,
///  - <handler>_poll(), holding the handler's first top-level loop with a
///    budget, and irq_poll_complete() when less than the budget was used,
///  - irq_poll_sched() in the handler where the loop was,
///  - irq_poll_init() before request_irq(), devm_request_irq(),
///    request_threaded_irq(), devm_request_threaded_irq() or
///    pci_request_irq(), irq_poll_disable() after free_irq(),
///    devm_free_irq() or pci_free_irq() and in the remove function,
///  - #include <linux/irq_poll.h>.
/// The driver author still has to mask completions at the device before
/// scheduling and unmask them after irq_poll_complete(), take the locks the
/// loop ran under, and add "select IRQ_POLL" to the driver's Kconfig entry
/// (irq_poll_kconfig.sh does that).
///
//# Semi-automatic: the handler is named with -D handler=NAME and must start
//# with "T *dev = dev_id;"; a do { } while () loop is rewritten as a while
//# loop and pretty-printed by spatch, review its layout. Variables the loop
//# uses are copied into the poll function with their initializer unless the
//# initializer reads the handler's parameters. A dev_id passed as "&x" is
//# not handled. Files that already call irq_poll_init() or
//# irq_poll_sched() are left alone.
//
// Confidence: Low
// Copyright: (C) 2026 irq-poll developers
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Options: --no-includes --include-headers
// Keywords: irq_poll, irq_poll_init, irq_poll_sched, request_irq, free_irq
//
// Parameters (spatch -D NAME=VALUE):
//   handler=FN      interrupt handler to convert (required)
//   member=NAME     struct irq_poll member name (default: iop)
//   weight=NAME     budget passed to irq_poll_init(), an identifier or
//                   macro (default: 32, the blk-iopoll default)
//   devstruct=TAG   struct tag receiving the member when the handler's
//                   device pointer has a typedef type (MPT_ADAPTER)
//   remove=FN       remove function of a driver using devm_request_irq()
//   drain=FN        move the call to FN (ahci: ahci_handle_port_interrupt)
//                   instead of the first loop

virtual patch
virtual report

// "make coccicheck" runs every script with -D report, and spatch fails
// ("No rules apply") when no rule depends on the mode.  This script only
// transforms the handler named by -D handler=FN, so in report mode it
// reports nothing: the rule below names a function that does not exist,
// so no file is even parsed.
@noop depends on report@
@@
irq_poll_convert_reports_nothing();

@script:python depends on noop@
@@
pass

@initialize:python@

@@
import re

first_loop = {}
first_stmt = {}

# Constraint strings keep the comments in front of a statement.
def strip_comments(s):
    s = re.sub(r"/\*.*?\*/", " ", s, flags=re.S)
    return re.sub(r"//[^\n]*", " ", s)

def is_loop(s):
    return re.match(r"\s*(while|do|for)\b", strip_comments(s)) is not None

# -D drain=FN: move the statement calling FN instead of the first loop.
drain_fn = []

def is_work(s):
    if drain_fn:
        return re.match(r"\s*%s\s*\(" % re.escape(drain_fn[0]),
                        strip_comments(s)) is not None
    return is_loop(s)

def not_done(e):
    return str(e).strip() != "done"

def uses(name, text):
    return re.search(r"\b%s\b" % re.escape(name), text) is not None

# A statement metavariable prints as space-separated tokens.
def do_while_parts(s):
    m = re.match(r"\s*do\s*(.*)\s*while\s*\((.*)\)\s*;\s*$", strip_comments(s), re.S)
    if not m:
        return None
    body = m.group(1).strip()
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1]
    return body, m.group(2)

@script:python opt_drain depends on patch@
d << virtual.drain;
@@
drain_fn.append(str(d))

@already depends on patch@

@@
(
irq_poll_init(...)
|
irq_poll_sched(...)
)

@script:python opt_member depends on patch@
m << virtual.member;
mem;
@@
coccinelle.mem = cocci.make_ident(m)

@script:python def_member depends on patch && !opt_member@
mem;
@@
coccinelle.mem = cocci.make_ident("iop")

@script:python opt_weight depends on patch@
w << virtual.weight;
weight;
@@
coccinelle.weight = cocci.make_expr(w)

@script:python def_weight depends on patch && !opt_weight@
weight;
@@
coccinelle.weight = cocci.make_expr("32")

// The handler and its device pointer.
@hd depends on patch && !already@
identifier virtual.handler;
identifier irq, dev_id, d;
type T;
typedef irqreturn_t;
@@
irqreturn_t handler(int irq, void *dev_id)
{
  ... when any
(
  T *d = dev_id;
|
  T *d = (T *)dev_id;
)
  ... when any
}

// Its first loop, in source order.
@lp depends on hd@
identifier virtual.handler, hd.irq, hd.dev_id;
statement L : script:python () { is_work(L) };
position pl;
typedef irqreturn_t;
@@
irqreturn_t handler(int irq, void *dev_id)
{
  ... when any
  L@pl
  ... when any
}

@script:python lp_all@
pl << lp.pl;
@@
f = pl[0].file
l = (int(pl[0].line), int(pl[0].column))
if f not in first_loop or l < first_loop[f]:
    first_loop[f] = l

@script:python lp1@
pl << lp.pl;
L << lp.L;
h << virtual.handler;
m1 << opt_member.mem = "";
m2 << def_member.mem = "";
T << hd.T;
ds << virtual.devstruct = "";
w1 << opt_weight.weight = "";
w2 << def_weight.weight = "";
weight;
pollfn;
mem;
tag;
@@
if (int(pl[0].line), int(pl[0].column)) != first_loop[pl[0].file]:
    cocci.include_match(False)
else:
    coccinelle.pollfn = cocci.make_ident(h + "_poll")
    coccinelle.mem = cocci.make_ident(str(m1) or str(m2))
    coccinelle.weight = cocci.make_expr(str(w1) or str(w2))
    t = str(ds)
    if not t:
        m = re.match(r"\s*struct\s+(\w+)\s*$", str(T))
        t = m.group(1) if m else "__irq_poll_no_struct_tag"
    coccinelle.tag = cocci.make_ident(t)

// Locals the loop uses: copied into the poll function, with their
// initializer unless it reads the handler's parameters.
@dlu depends on lp1 disable decl_init@
identifier virtual.handler, hd.irq, hd.dev_id, hd.d;
type T2;
statement lp.L;
position lp.pl;
identifier x : script:python (L, d) { str(x) != str(d) and uses(str(x), L) };
typedef irqreturn_t;
@@
irqreturn_t handler(int irq, void *dev_id)
{
  ... when any
  T2 x;
  ... when any
  L@pl
  ... when any
}

@dli depends on lp1@
identifier virtual.handler, hd.irq, hd.dev_id, hd.d;
type T2;
expression E : script:python (irq, dev_id) { not (uses(str(irq), E) or uses(str(dev_id), E)) };
statement lp.L;
position lp.pl;
identifier x : script:python (L, d) { str(x) != str(d) and uses(str(x), L) };
typedef irqreturn_t;
@@
irqreturn_t handler(int irq, void *dev_id)
{
  ... when any
  T2 x = E;
  ... when any
  L@pl
  ... when any
}

@dlp depends on lp1@
identifier virtual.handler, hd.irq, hd.dev_id, hd.d;
type T2;
expression E : script:python (irq, dev_id) { uses(str(irq), E) or uses(str(dev_id), E) };
statement lp.L;
position lp.pl;
identifier x : script:python (L, d) { str(x) != str(d) and uses(str(x), L) };
typedef irqreturn_t;
@@
irqreturn_t handler(int irq, void *dev_id)
{
  ... when any
  T2 x = E;
  ... when any
  L@pl
  ... when any
}

// A threaded handler schedules with bottom halves disabled.
@thr depends on lp1@
identifier virtual.handler;
expression E1, E2, E3;
@@
(
request_threaded_irq(E1, E2, handler, ...)
|
devm_request_threaded_irq(E1, E2, E3, handler, ...)
|
pci_request_irq(E1, E2, E3, handler, ...)
)

@mv depends on lp1@
identifier virtual.handler, hd.irq, hd.dev_id, hd.d;
identifier lp1.pollfn, lp1.mem;
type hd.T;
statement lp.L;
position lp.pl;
typedef irqreturn_t;
@@
+static int pollfn(struct irq_poll *iop, int budget)
+{
+	T *d = container_of(iop, T, mem);
+	int done = 0;
+
+	L
+
+	if (done < budget)
+		irq_poll_complete(iop);
+	return done;
+}
+
 irqreturn_t handler(int irq, void *dev_id)
 {
   ... when any
- L@pl
+ irq_poll_sched(&d->mem);
   ... when any
 }

// A threaded handler runs in process context: keep softirqs off
// around irq_poll_sched() so the poll runs on local_bh_enable().
@depends on mv && thr@
identifier virtual.handler, hd.d, lp1.mem;
typedef irqreturn_t;
@@
 irqreturn_t handler(...)
 {
   <...
+  local_bh_disable();
   irq_poll_sched(&d->mem);
+  local_bh_enable();
   ...>
 }

// Copy the loop's locals.
@depends on mv@
identifier lp1.pollfn, hd.d, dli.x;
type hd.T, dli.T2;
expression dli.E;
@@
 pollfn(...)
 {
   T *d = ...;
+  T2 x = E;
   ...
 }

@depends on mv@
identifier lp1.pollfn, hd.d, dlu.x;
type hd.T, dlu.T2;
@@
 pollfn(...)
 {
   T *d = ...;
+  T2 x;
   ...
 }

@depends on mv@
identifier lp1.pollfn, hd.d, dlp.x;
type hd.T, dlp.T2;
@@
 pollfn(...)
 {
   T *d = ...;
+  T2 x;
   ...
 }


// Budget the moved loop: it is the statement after "int done = 0;".
@dw0 depends on mv@
identifier lp1.pollfn;
statement L : script:python () { do_while_parts(L) is not None };
position p;
@@
 pollfn(...)
 {
   ...
   int done = 0;
   L@p
   ...
 }

@script:python dw@
L << dw0.L;
nl;
@@
body, cond = do_while_parts(L)
coccinelle.nl = cocci.make_stmt("while (done < budget && (%s)) { done++; %s }" % (cond, body))

@depends on dw@
identifier lp1.pollfn;
statement dw0.L;
statement dw.nl;
position dw0.p;
@@
 pollfn(...)
 {
   ...
   int done = 0;
- L@p
+ nl
   ...
 }

@depends on mv && !dw@
identifier lp1.pollfn;
expression C, E1, E2;
statement S;
@@
 pollfn(...)
 {
   ...
   int done = 0;
(
- while (C)
+ while (done < budget && (C))
  {
+ done++;
  ...
  }
|
- while (C)
+ while (done < budget && (C)) {
+ done++;
  S
+ }
|
- for (E1; C; E2)
+ for (E1; done < budget && (C); E2)
  {
+ done++;
  ...
  }
|
- for (E1; C; E2)
+ for (E1; done < budget && (C); E2) {
+ done++;
  S
+ }
|
- for (E1; ; E2)
+ for (E1; done < budget; E2)
  {
+ done++;
  ...
  }
|
- for (; C; E2)
+ for (; done < budget && (C); E2)
  {
+ done++;
  ...
  }
)
   ...
 }

// A drained call reaps everything at once: count it as one unit of work.
@depends on mv@
identifier lp1.pollfn, virtual.drain;
@@
 pollfn(...)
 {
   ...
   int done = 0;
   drain(...);
+  done++;
   ...
 }

// A return inside the loop leaves through irq_poll_complete().
@ret depends on mv@
identifier lp1.pollfn;
expression E : script:python () { not_done(E) };
@@
 pollfn(...)
 {
   <+...
   return E;
   ...+>
 }

// The label first: a goto to a missing label breaks the control flow graph.
@depends on ret@
identifier lp1.pollfn;
@@
 pollfn(...)
 {
   ...
+poll_done:
   if (done < budget)
     irq_poll_complete(iop);
   return done;
 }

@depends on ret@
identifier lp1.pollfn;
expression E : script:python () { not_done(E) };
@@
 pollfn(...)
 {
   <+...
-  return E;
+  goto poll_done;
   ...+>
 }

// The handler's return value was computed by the loop: after scheduling
// the poll the interrupt is ours.
@depends on mv@
identifier virtual.handler;
identifier x = {dli.x, dlu.x};
typedef irqreturn_t;
@@
 irqreturn_t handler(...)
 {
   <...
(
-  return x;
+  return IRQ_HANDLED;
|
-  return IRQ_RETVAL(x);
+  return IRQ_HANDLED;
)
   ...>
 }

// Locals of the handler that only the loop used.
@depends on mv@
identifier virtual.handler, x, I;
type T2;
constant C;
typedef irqreturn_t;
@@
 irqreturn_t handler(...)
 {
   ... when any
(
-  T2 x;
|
-  T2 x = C;
|
-  T2 x = I;
)
   ... when != x
 }

// Initialisation before the IRQ is requested.
@reg depends on mv@
identifier virtual.handler;
expression D, E1, E2, E3, E4, E5;
position pr;
@@
(
request_irq@pr(E1, handler, E2, E3, D)
|
devm_request_irq@pr(E1, E2, handler, E3, E4, D)
|
request_threaded_irq@pr(E1, handler, E2, E3, E4, D)
|
request_threaded_irq@pr(E1, E2, handler, E3, E4, D)
|
devm_request_threaded_irq@pr(E1, E2, handler, E3, E4, E5, D)
|
devm_request_threaded_irq@pr(E1, E2, E3, handler, E4, E5, D)
|
pci_request_irq@pr(E1, E2, handler, E3, D, ...)
|
pci_request_irq@pr(E1, E2, E3, handler, D, ...)
)

@depends on reg@
identifier F, lp1.pollfn, lp1.mem;
expression reg.D, E;
expression lp1.weight;
position reg.pr;
statement S1, S2;
@@
(
+ irq_poll_init(&D->mem, weight, pollfn);
  E = F@pr(...);
|
+ irq_poll_init(&D->mem, weight, pollfn);
  return F@pr(...);
|
+ irq_poll_init(&D->mem, weight, pollfn);
  if (<+... F@pr(...) ...+>) S1 else S2
|
+ irq_poll_init(&D->mem, weight, pollfn);
  F@pr(...);
)

// Teardown after the IRQ is released.
@depends on reg@
identifier lp1.mem;
expression reg.D, E1, E2;
@@
(
  free_irq(E1, D);
+ irq_poll_disable(&D->mem);
|
  devm_free_irq(E1, E2, D);
+ irq_poll_disable(&D->mem);
|
  pci_free_irq(E1, E2, D);
+ irq_poll_disable(&D->mem);
)

@rm depends on mv@
identifier virtual.remove, x;
type hd.T;
expression E;
statement S;
position ps;
@@
 remove(...)
 {
   ... when any
   T *x = E;
   ... when any
   S@ps
   ... when any
 }

@script:python rm_all@
ps << rm.ps;
@@
f = ps[0].file
l = (int(ps[0].line), int(ps[0].column))
if f not in first_stmt or l < first_stmt[f]:
    first_stmt[f] = l

@script:python rm1@
ps << rm.ps;
@@
if (int(ps[0].line), int(ps[0].column)) != first_stmt[ps[0].file]:
    cocci.include_match(False)

@depends on rm1@
identifier virtual.remove, rm.x, lp1.mem;
statement rm.S;
position rm.ps;
@@
 remove(...)
 {
   ... when any
+  irq_poll_disable(&x->mem);
   S@ps
   ... when any
 }

// The member, at the end of the per-device structure.
@depends on mv@
identifier lp1.tag, lp1.mem;
@@
(
 struct tag {
   ...
+  struct irq_poll mem;
 };
|
 typedef struct tag {
   ...
+  struct irq_poll mem;
 } T;
)

@inc0 depends on mv@
@@
#include <linux/irq_poll.h>

@inc1 depends on mv && !inc0@
@@
#include <linux/interrupt.h>
+#include <linux/irq_poll.h>

@inc2 depends on mv && !inc0 && !inc1@
@@
#include <linux/module.h>
+#include <linux/irq_poll.h>

@inc3 depends on mv && !inc0 && !inc1 && !inc2@
@@
#include <linux/kernel.h>
+#include <linux/irq_poll.h>
