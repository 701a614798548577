// SPDX-License-Identifier: GPL-2.0-only
/// Convert an interrupt handler that drains completions in a loop to
/// irq_poll, the subsystem-neutral successor of blk-iopoll (commit
/// 511cbce2ff8b ("irq_poll: make blk-iopoll available outside the block
/// layer")), for the v2 API: a named instance (irq_poll_init_named()),
/// device masking through struct irq_poll_ops, irq_poll_complete_done().
///
/// Given -D handler=FN it makes:
///  - FN_poll(): the loop (the first one holding a known completion call,
///    else the first one; -D loop=N picks the N-th), with the locals it
///    uses, their value on entry (an assignment before the loop is
///    repeated, e.g. a status register is read again), the locks the
///    handler held around it (spin_lock_irqsave(): the handler still takes
///    them), its own exit label for gotos that left the loop, "done" counted
///    at each completion call (or per iteration, said in a comment, when
///    the completion point is not found) and tested against the budget;
///  - the handler: irq_poll_sched() where the loop was, under the loop's
///    condition when that condition has no side effect;
///  - with -D mask=M -D unmask=U (the driver's macros or functions, called
///    with the device pointer): FN_irq_poll_ops; without them a comment at
///    the handler and a message: a shared level-triggered line storms while
///    the poll is pending if the device is not masked;
///  - FN_irq_poll_init(), called before every request_irq() family call of
///    the handler (irq_poll_destroy() if the request fails; a devres action
///    for devm_request_irq()), irq_poll_destroy() after every free_irq() and
///    pci_free_irq() of the same dev_id;
///  - the struct irq_poll member (with --include-headers also in a local
///    header) and #include <linux/irq_poll.h>.
/// irq_poll_kconfig.sh adds "select IRQ_POLL" to the Kconfig entries.
///
//# Semi-automatic.  The handler must start with "T *dev = dev_id;" (a cast
//# is fine).  Messages name what to review: iteration counting, values read
//# destructively before the loop (a FIFO pop is not repeated safely),
//# request_irq() calls not of the form "ret = request_irq(...);".  The
//# poll function and the handler's body are composed from the handler's
//# own lines; a file that already uses irq_poll is left alone.
//
// Confidence: Low
// Copyright: (C) 2026 irq-poll developers
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Options: --no-includes --include-headers
// Keywords: irq_poll, irq_poll_init_named, irq_poll_sched, request_irq, free_irq
//
// Parameters (spatch -D NAME=VALUE):
//   handler=FN      interrupt handler to convert (required)
//   mask=M          masks the device's completion interrupt: M(dev)
//   unmask=U        unmasks it: U(dev)
//   member=NAME     struct irq_poll member name (default: iop)
//   weight=W        budget per poll (default: the library's, 64)
//   devstruct=TAG   struct tag receiving the member, when the device
//                   pointer's type is a typedef that is not defined in a
//                   file spatch reads
//   loop=N          move the N-th outermost loop of the handler
//   complete=F,G    the driver's completion functions (count points)
//   drain=FN        move the call to FN instead of a loop (counted once)
//   remove=FN       accepted for compatibility; not needed any more

virtual patch
virtual report

// "make coccicheck" runs every script with -D report and no -D handler:
// report nothing then, through a rule whose function does not exist, so
// no file is even parsed.
@noop depends on report@
@@
irq_poll_convert_reports_nothing();

@script:python depends on noop@
@@
pass

@initialize:python@
@@
import re
import sys

SLASH2 = chr(47) * 2


def strip_c(s):
    s = re.sub(r"/\*.*?\*/", " ", s, flags=re.S)
    return re.sub(SLASH2 + r"[^\n]*", " ", s)


# ---------------------------------------------------------------- engine
# The poll function and the new handler body are composed as text from
# the handler source lines, because spatch re-prints a statement it
# moves ("}else", lines holding only a tab, re-wrapped calls).

CONV = {}       # file -> analysis of the handler
LOOPS = {}      # file -> [(line, col, line_end, col_end, is_loop)]

# Calls that complete one unit of work each (-D complete=F1,F2 adds more).
COMPLETIONS = ["scsi_done", "complete", "complete_all",
               "blk_mq_complete_request", "blk_mq_end_request",
               "ata_qc_complete", "serio_interrupt", "netif_receive_skb",
               "napi_gro_receive", "netif_rx", "dev_kfree_skb_irq",
               "dev_consume_skb_any", "dev_kfree_skb_any", "tty_flip_buffer_push",
               "tty_insert_flip_char", "input_event"]

KEYWORDS = set("""if else while for do switch case default return goto
break continue sizeof typeof struct union enum const volatile static
unsigned signed int long short char void""".split())


def warn(f, line, msg):
    sys.stderr.write("%s:%d: irq_poll_convert: %s\n" % (f, line, msg))




def mask_code(t):
    """Blank out comments, strings and character constants (same length)."""
    out = list(t)
    i, n = 0, len(t)
    while i < n:
        c = t[i]
        if t.startswith("/*", i):
            j = t.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif t.startswith(SLASH2, i):
            j = t.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif c in (chr(34), chr(39)):
            j = i + 1
            while j < n and t[j] != c:
                j += 2 if t[j] == chr(92) else 1
            for k in range(i + 1, min(j, n)):
                out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


def match_close(m, i):
    """Index of the bracket closing the one at m[i]."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    op, cl = m[i], pairs[m[i]]
    depth = 0
    for j in range(i, len(m)):
        if m[j] == op:
            depth += 1
        elif m[j] == cl:
            depth -= 1
            if depth == 0:
                return j
    return -1


def offset(text, line, col):
    pos = 0
    for _ in range(line - 1):
        pos = text.index("\n", pos) + 1
    return pos + col


def idents(m):
    """Identifiers of masked code that are not member names."""
    return set(x.group(1) for x in
               re.finditer(r"(?<![\w.>])([A-Za-z_]\w*)", m)
               if not m[:x.start()].rstrip().endswith(("->", ".")))


def uses(name, m):
    for x in re.finditer(r"(?<![\w])%s\b" % re.escape(name), m):
        before = m[:x.start()].rstrip()
        if not before.endswith(("->", ".")):
            return True
    return False


DECL_RE = re.compile(r"\s*(?:[A-Za-z_]\w*[\s*]+)+[A-Za-z_]\w*\s*"
                     r"(?:\[[^\]]*\]\s*)*(?:=|,|;)", re.S)


def split_top(s, sep=","):
    parts, depth, cur = [], 0, ""
    for c in s:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return parts


def parse_decl(stmt, mstmt):
    """'int a, *b = 0;' -> (base, [(declarator text, name, init)])"""
    first = re.match(r"(.*?)(?:=|,|;)", mstmt, re.S).group(1)
    nm = re.search(r"(\**)\s*([A-Za-z_]\w*)\s*((?:\[[^\]]*\]\s*)*)$", first)
    if not nm:
        return None
    base = stmt[:nm.start()].strip()
    if base.split()[0] in ("return", "goto", "else", "case") or not base:
        return None
    rest = stmt[nm.start():].rstrip()
    assert rest.endswith(";")
    decls = []
    mrest = mstmt[nm.start():].rstrip()[:-1]
    pos = 0
    for part in split_top(mrest):
        txt = rest[pos:pos + len(part)]
        pos += len(part) + 1
        dm = re.match(r"\s*(\**)\s*([A-Za-z_]\w*)\s*((?:\[[^\]]*\]\s*)*)(?:=(.*))?$",
                      part, re.S)
        if not dm:
            return None
        init = None
        if dm.group(4) is not None:
            init = txt[txt.index("=", dm.start(4) - 1) + 1:].strip()
        decls.append((txt.strip(), dm.group(2), init))
    return base, decls


def statements(m, start, end):
    """Top-level statements of m[start:end]: [(s, e)], e after ';' or '}'."""
    out = []
    i = start
    while i < end:
        while i < end and m[i].isspace():
            i += 1
        if i >= end:
            break
        s = i
        depth = 0
        while i < end:
            c = m[i]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == "{":
                j = match_close(m, i)
                i = j
                if depth == 0:
                    # a block statement ends at its brace unless an else follows
                    k = i + 1
                    while k < end and m[k].isspace():
                        k += 1
                    if not m.startswith("else", k) and not \
                       re.match(r"\s*while\b", m[k:k + 12]) and \
                       not re.match(r"[^;]*=", m[s:i]):
                        i += 1
                        break
            elif c == ";" and depth == 0:
                i += 1
                break
            i += 1
        out.append((s, i))
    return out


def line_indent(t, pos):
    ls = t.rfind("\n", 0, pos) + 1
    return re.match(r"[ \t]*", t[ls:]).group(0)


def pure(cond):
    m = mask_code(cond)
    if re.search(r"[A-Za-z_]\w*\s*\(", m.replace("sizeof", "")):
        return False
    if re.search(r"(?<![=!<>])=(?!=)|\+\+|--", m):
        return False
    return True


def analyse(f, h, hline, T, d, irq, dev_id, opts):
    text = open(f).read()
    m = mask_code(text)
    a = {"ok": False, "notes": []}
    CONV[f] = a
    # the handler: its name on line hline, then (params) { body }
    p = offset(text, hline, 0)
    nm = re.compile(r"\b%s\s*\(" % re.escape(h)).search(m, p)
    if not nm:
        return a
    pe = match_close(m, nm.end() - 1)
    bo = m.index("{", pe)
    bc = match_close(m, bo)
    cands = sorted(c for c in LOOPS.get(f, [])
                   if bo < offset(text, c[0], c[1]) < bc)
    if not cands:
        warn(f, hline, "no loop to move in %s()" % h)
        return a
    # outermost candidates, in source order
    outer = []
    for c in cands:
        s = offset(text, c[0], c[1])
        if not any(o[0] <= s < o[1] for o in outer):
            outer.append((s, offset(text, c[2], c[3]), c))
    pick = None
    if opts.get("loop"):
        k = int(opts["loop"]) - 1
        if 0 <= k < len(outer):
            pick = outer[k]
    else:
        comps = COMPLETIONS + opts.get("complete", [])
        for o in outer:
            if any(re.search(r"\b%s\s*\(" % re.escape(c), m[o[0]:o[1]])
                   for c in comps):
                pick = o
                break
        pick = pick or outer[0]
    if not pick:
        warn(f, hline, "-D loop=%s: %s() has %d loops" %
             (opts.get("loop"), h, len(outer)))
        return a
    ls, le, cand = pick
    if opts.get("drain") or m[le - 1] not in ";}":
        # an expression statement: up to its semicolon
        k = ls
        depth = 0
        while k < bc:
            if m[k] in "([{":
                depth += 1
            elif m[k] in ")]}":
                depth -= 1
            elif m[k] == ";" and depth == 0:
                break
            k += 1
        le = k + 1
    lline = cand[0]
    loop = text[ls:le]
    mloop = m[ls:le]
    body_m = m[bo + 1:bc]
    # declarations at the top of the handler body
    decls = []      # (start, end, base, [(dtext, name, init)])
    for s, e in statements(m, bo + 1, bc):
        if not DECL_RE.match(m[s:e]):
            break
        pd = parse_decl(text[s:e], m[s:e])
        if not pd:
            break
        decls.append((s, e, pd[0], pd[1]))
    declared = {}
    for s, e, base, ds in decls:
        for dt, name, init in ds:
            declared[name] = (base, dt, init)
    prelude_m = m[bo + 1:ls]
    post_m = m[le:bc]
    # handler parameters the moved code would need
    for par in (irq, dev_id):
        if uses(par, mloop):
            warn(f, lline, "the loop uses the handler parameter %s; "
                 "the poll function does not have it" % par)
            a["notes"].append("uses the handler parameter %s" % par)
    used = [n for n in declared if n != d and uses(n, mloop)]
    # locks held around the loop
    locks = []
    for lm in re.finditer(r"\b((?:raw_)?spin_lock(?:_irqsave|_irq)?)\s*\(", prelude_m):
        ce = match_close(prelude_m, lm.end() - 1)
        args = split_top(text[bo + 1 + lm.end():bo + 1 + ce])
        lk = args[0].strip()
        raw = lm.group(1).startswith("raw_")
        later = prelude_m[ce:]
        if re.search(r"\b(?:raw_)?spin_unlock(?:_irqrestore|_irq)?\s*\(\s*%s\s*[,)]"
                     % re.escape(re.sub(r"\s+", "", lk)).replace(r"\ ", ""),
                     re.sub(r"[ \t]+", "", later)):
            continue
        locks.append((lk, raw))
    # lock calls inside the loop run in softirq context now
    has_flags = "flags" in used
    flags = "flags" if not has_flags else "poll_flags"
    nloop = loop
    nloop = re.sub(r"\b(raw_)?spin_lock\s*\(([^;]*)\)\s*;",
                   lambda x: "%sspin_lock_irqsave(%s, %s);" %
                   (x.group(1) or "", x.group(2), flags), nloop)
    nloop = re.sub(r"\b(raw_)?spin_unlock\s*\(([^;]*)\)\s*;",
                   lambda x: "%sspin_unlock_irqrestore(%s, %s);" %
                   (x.group(1) or "", x.group(2), flags), nloop)
    inner_lock = nloop != loop
    # locals the loop only sets to a constant (a return value the handler
    # keeps computing): not needed in the poll function
    for n in list(used):
        occ = len(re.findall(r"(?<![\w.>])%s\b" % re.escape(n), mloop))
        sets = re.findall(r"(?m)^[ \t]*%s\s*=\s*[A-Za-z_0-9]+\s*;[ \t]*\n" %
                          re.escape(n), nloop)
        if occ and len(sets) == occ:
            nloop = re.sub(r"(?m)^[ \t]*%s\s*=\s*[A-Za-z_0-9]+\s*;[ \t]*\n" %
                           re.escape(n), "", nloop)
            used.remove(n)
    # labels the loop jumps to outside itself, returns inside it
    inner_labels = set(re.findall(r"(?m)^\s*([A-Za-z_]\w*)\s*:(?!:)", mloop)) - \
        {"default"}
    labels = []
    for g in re.findall(r"\bgoto\s+(\w+)\s*;", mloop):
        if g not in inner_labels and g not in labels:
            labels.append(g)
    if re.search(r"\breturn\b", mloop):
        out = "out" if "out" not in inner_labels else "poll_out"
        if labels:
            out = labels[0]
        elif out not in labels:
            labels.append(out)
        nloop = re.sub(r"\breturn\b[^;]*;", "goto %s;" % out, nloop)
    # loop kind, condition, body; one unit of budget per completion
    mn = mask_code(nloop)
    drain = opts.get("drain")
    kind = "drain" if drain else re.match(r"\s*(\w+)", mn).group(1)
    comps = COMPLETIONS + opts.get("complete", [])
    cond = None
    count_note = None
    if kind == "drain":
        pass
    elif kind in ("while", "for"):
        po = mn.index("(")
        pc = match_close(mn, po)
        head = nloop[po + 1:pc]
        body = nloop[pc + 1:]
        if kind == "while":
            cond = head.strip()
            nhead = "done < budget && (%s)" % cond
        else:
            parts = split_top(head, ";")
            c = parts[1].strip()
            nhead = "%s; %s;%s" % (parts[0], "done < budget && (%s)" % c
                                   if c else "done < budget", parts[2])
        nloop = nloop[:po + 1] + nhead + ")" + body
    elif kind == "do":
        wm = list(re.finditer(r"\bwhile\s*\(", mn))[-1]
        pc = match_close(mn, wm.end() - 1)
        cond = nloop[wm.end():pc].strip()
        body = nloop[2:wm.start()].rstrip()
        nloop = "while (done < budget && (%s))%s" % (cond, body)
        a["notes"].append("do-while became a while loop: the poll tests "
                          "the condition before the first iteration")
    # where to count
    mn = mask_code(nloop)
    ind0 = line_indent(text, ls)
    if kind == "drain":
        nloop = nloop.rstrip() + "\n" + ind0 + "done++;"
        count_note = ("counts one per call of %s(), which may complete more "
                      "than one" % drain)
    else:
        after = mn[match_close(mn, mn.index("(")) + 1:]
        compound = after.lstrip().startswith("{")
        if not compound:
            # single-statement body: brace it
            hdr_end = match_close(mn, mn.index("(")) + 1
            stmt = nloop[hdr_end:].strip()
            nloop = nloop[:hdr_end] + " {\n" + ind0 + "\t" + stmt + "\n" + \
                ind0 + "}"
            mn = mask_code(nloop)
        bstart = mn.index("{", match_close(mn, mn.index("(")))
        bend = match_close(mn, bstart)
        # completion calls at the top level of the body
        points = []
        conditional = []
        for c in comps:
            for x in re.finditer(r"(?<![\w.>])%s\s*\(" % re.escape(c), mn[:bend]):
                if x.start() < bstart:
                    continue
                depth = mn[bstart:x.start()].count("{") - \
                    mn[bstart:x.start()].count("}")
                st = max(mn.rfind(";", 0, x.start()), mn.rfind("{", 0, x.start()),
                         mn.rfind("}", 0, x.start()))
                lead = mn[st + 1:x.start()].strip()
                if depth == 1 and re.match(r"^(\w+\s*=\s*)?$", lead):
                    points.append((x, c))
                else:
                    conditional.append(c)
        bind = ind0 + "\t"
        if points and not conditional:
            for x, c in sorted(points, key=lambda p: -p[0].start()):
                e = mn.index(";", match_close(mn, x.end() - 1)) + 1
                nloop = nloop[:e] + "\n" + bind + "done++;" + nloop[e:]
            count_note = None
            a["points"] = [c for x, c in points]
        else:
            nloop = nloop[:bstart + 1] + "\n" + bind + "done++;" + \
                nloop[bstart + 1:]
            why = ("the completion calls (%s) are conditional" %
                   ", ".join(sorted(set(conditional))) if conditional else
                   "no completion call found in the loop")
            count_note = "counts loop iterations, not completions: " + why
    if count_note:
        a["notes"].append(count_note)
        warn(f, lline, count_note)
    # re-indent the moved code to one tab
    lines = nloop.split("\n")
    strip = len(ind0) - 1
    out = []
    for i, l in enumerate(lines):
        if i > 0 and strip > 0 and l.startswith(ind0[:strip]):
            l = l[strip:]
        out.append(l.rstrip())
    nloop = "\n".join(out)
    # values on entry to the loop
    entry = []
    for n in used:
        base, dt, init = declared[n]
        first = re.search(r"(?<![\w.>])%s\b\s*(=(?!=))?" % re.escape(n), mloop)
        read_first = (cond is not None and uses(n, mask_code(cond))) or \
            (first is not None and not first.group(1)) or kind == "drain"
        assigns = list(re.finditer(r"(?m)^[ \t]*%s\s*=(?!=)\s*([^;]*);" %
                                   re.escape(n), prelude_m))
        if assigns and read_first:
            x = assigns[-1]
            rhs = text[bo + 1 + x.start(1):bo + 1 + x.end(1)]
            if uses(irq, mask_code(rhs)) or uses(dev_id, mask_code(rhs)):
                warn(f, lline, "%s is computed from the handler "
                     "parameters before the loop" % n)
            else:
                entry.append("%s = %s;" % (n, rhs.strip()))
    # the poll function locals: the handler declarations the loop uses,
    # grouped as the handler declared them
    locals_ = []
    for s_, e, base, ds in decls:
        keep = []
        for dt, name, init in ds:
            if name not in used:
                continue
            if init is not None:
                mi = mask_code(init)
                if uses(irq, mi) or uses(dev_id, mi):
                    dt = dt[:dt.index("=")].rstrip()
            keep.append(dt)
        if keep:
            sep = "" if base.endswith("*") else " "
            locals_.append("%s%s%s;" % (base, sep, ", ".join(keep)))
    mem = opts["member"]
    fn = []
    fn.append("%s *%s = container_of(iop, %s, %s);" % (T, d, T, mem))
    fn += locals_
    if locks or inner_lock:
        fn.append("unsigned long %s;" % flags)
    fn.append("int done = 0;")
    fn.append("")
    for lk, raw in locks:
        fn.append("%sspin_lock_irqsave(%s, %s);" % ("raw_" if raw else "", lk, flags))
    for x in entry:
        fn.append(x)
    if locks or entry:
        fn.append("")
    if count_note:
        words = ("irq_poll_convert: " + count_note + ".").split()
        cl = ["/*"]
        cur = " *"
        for w in words:
            if len(cur) + 1 + len(w) > 70:
                cl.append(cur)
                cur = " *"
            cur += " " + w
        fn += cl + [cur, " */"]
    fn.append(nloop)
    fn.append("")
    for lb in labels:
        fn.append("%s:" % lb)
    for lk, raw in reversed(locks):
        fn.append("%sspin_unlock_irqrestore(%s, %s);" % ("raw_" if raw else "", lk, flags))
    fn.append("if (done < budget)")
    fn.append("\tirq_poll_complete_done(iop, done);")
    fn.append("return done")
    # the moved loop lines carry their own tabs
    res = []
    for l in fn:
        if "\n" in l:
            ls_ = l.split("\n")
            res.append("\t" + ls_[0])
            res += ls_[1:]
        elif not l:
            res.append("")
        elif re.match(r"\w+:$", l):
            res.append(l)
        else:
            res.append("\t" + l)
    ptxt = "\n".join(res)[1:]
    a["poll"] = ptxt
    # the handler: the loop becomes the schedule
    live = []
    for n in declared:
        if uses(n, mloop) and uses(n, post_m) and n != d:
            asg = re.findall(r"(?<![\w.>])%s\s*=(?!=)\s*([A-Za-z_0-9]+)\s*;" %
                             re.escape(n), mloop)
            if asg and len(set(asg)) == 1:
                live.append("%s = %s;" % (n, asg[0]))
            else:
                warn(f, lline, "the handler uses %s after the loop, which "
                     "the loop computed" % n)
    sched = []
    if not opts.get("ops"):
        sched += ["/*",
                  " * irq_poll_convert: mask the completion interrupt of the device here,",
                  " * and unmask it in %s() after" % opts["pollfn"],
                  " * irq_poll_complete_done(), or convert with -D mask=M",
                  " * -D unmask=U: on a shared level-triggered line an "
                  "unmasked",
                  " * device interrupts again and again while the poll "
                  "is pending.",
                  " */"]
        warn(f, lline, "no -D mask/-D unmask: the device is not masked while "
             "the poll is pending (a level-triggered line storms); see the "
             "comment in %s()" % h)
        a["notes"].append("device not masked (no -D mask/-D unmask)")
    call = "irq_poll_sched(&%s->%s);" % (d, mem)
    # a threaded handler runs in process context: bottom halves off around
    # the schedule, so that the poll runs on local_bh_enable()
    threaded = False
    for x in re.finditer(r"\b(devm_request_threaded_irq|request_threaded_irq|"
                         r"pci_request_irq)\s*\(", m):
        args = split_top(m[x.end():match_close(m, x.end() - 1)])
        k = {"request_threaded_irq": 2, "devm_request_threaded_irq": 3,
             "pci_request_irq": 3}[x.group(1)]
        if len(args) > k and args[k].strip() == h:
            threaded = True
    if cond is not None and kind == "while" and pure(cond):
        if live:
            sched += ["if (%s) {" % cond, "\t" + call] + \
                ["\t" + x for x in live] + ["}"]
        else:
            sched += ["if (%s)" % cond, "\t" + call]
    else:
        sched += [call] + live
    if threaded:
        k = next((i for i, x in enumerate(sched) if not x.startswith((" ", "/*"))), 0)
        sched = sched[:k] + ["local_bh_disable();"] + sched[k:] + ["local_bh_enable();"]
    stxt = "\n".join(ind0 + x for x in sched)
    nbody = text[bo + 1:ls - len(ind0)] + stxt + text[le:bc]
    # drop the handler declarations it no longer uses
    mb = mask_code(nbody)
    off = bo + 1
    rm = []
    for s, e, base, ds in reversed(decls):
        rest_m = mb[:s - off] + mb[e - off:]
        keep = [dt for dt, name, init in ds
                if name == d or uses(name, rest_m)]
        if len(keep) == len(ds):
            continue
        if not keep:
            ls2 = nbody.rfind("\n", 0, s - off) + 1
            rest = nbody[e - off:]
            tail = rest.lstrip(" \t")
            if tail.startswith("\n"):
                rest = tail[1:]
            nbody = nbody[:ls2] + rest
        else:
            sep = " " if not base.endswith("*") else ""
            nbody = nbody[:s - off] + base + sep + ", ".join(keep) + ";" + \
                nbody[e - off:]
        mb = mask_code(nbody)
    nb = nbody.rstrip()
    if not nb.endswith(";"):
        warn(f, hline, "%s() does not end with a statement; not converted" % h)
        return a
    nb = nb[:-1]
    nb = nb.lstrip("\n")
    if nb.startswith("\t"):
        nb = nb[1:]
    a["handler"] = nb
    a["ok"] = True
    a["line"] = lline
    return a


def handler_head(f, h, hline):
    """(comment above the handler, its header up to the opening brace)."""
    text = open(f).read()
    m = mask_code(text)
    p = offset(text, hline, 0)
    nm = re.compile(r"\b%s\s*\(" % re.escape(h)).search(m, p)
    pe = match_close(m, nm.end() - 1)
    bo = m.index("{", pe)
    prev = max(m.rfind(";", 0, nm.start()), m.rfind("}", 0, nm.start()))
    # preprocessor lines end the region too
    for pp in re.finditer(r"(?m)^[ \t]*#.*$", m[:nm.start()]):
        if pp.end() > prev:
            prev = pp.end() - 1
    # a comment on the line of the previous item stays with it
    start = text.find("\n", prev) + 1
    mregion = m[start:nm.start()]
    # the header starts at the first code token of the region
    hs = start + len(mregion) - len(mregion.lstrip())
    comment = text[start:hs].strip("\n")
    head = text[hs:bo].rstrip()
    return comment.strip() and comment.strip("\n"), head


def compose(f, h, hline, a, T, d, opts, devm):
    """One text from the poll function body to the end of the handler
    body: poll body, ops, the destructor of the devres action, the init
    function, the comment and header of the handler, its body."""
    comment, head = handler_head(f, h, hline)
    mem = opts["member"]
    cd = "\t%s *%s = container_of(iop, %s, %s);\n" % (T, d, T, mem)
    out = [a["poll"], ";\n}\n"]
    if "ops" in opts:
        for what, fn in (("mask", opts["ops"][0]), ("unmask", opts["ops"][1])):
            out.append("\nstatic void %s_irq_poll_%s(struct irq_poll *iop)\n{\n"
                       "%s\n\t%s(%s);\n}\n" % (h, what, cd, fn, d))
        out.append("\nstatic const struct irq_poll_ops %s_irq_poll_ops = {\n"
                   "\t.mask\t\t= %s_irq_poll_mask,\n"
                   "\t.unmask\t\t= %s_irq_poll_unmask,\n};\n" % (h, h, h))
    if devm:
        out.append("\nstatic void %s_irq_poll_destroy(void *iop)\n{\n"
                   "\tirq_poll_destroy(iop);\n}\n" % h)
    q = chr(34)
    lines = ["static int %s_irq_poll_init(%s *%s)" % (h, T, d), "{",
             "\tstatic atomic_t ids = ATOMIC_INIT(0);",
             "\tstruct irq_poll_config cfg = {"]
    if "weight" in opts:
        lines.append("\t\t.weight\t= %s," % opts["weight"])
    if "ops" in opts:
        lines.append("\t\t.ops\t= &%s_irq_poll_ops," % h)
    if lines[-1].endswith("{"):
        lines[-1] += "};"
    else:
        lines.append("\t};")
    lines += ["\tint ret;", "",
              "\t/* /sys/kernel/irq_poll/instances/<module>-<n>/ */",
              "\tcfg.name = kasprintf(GFP_KERNEL, %s%%s-%%d%s, KBUILD_MODNAME," %
              (q, q),
              "\t\t\t     atomic_inc_return(&ids));",
              "\tif (!cfg.name)", "\t\treturn -ENOMEM;",
              "\tret = irq_poll_init_named(&%s->%s, &cfg, %s_poll);" % (d, mem, h),
              "\tkfree(cfg.name);", "\treturn ret;", "}"]
    out.append("\n" + "\n".join(lines) + "\n\n")
    if comment:
        out.append(comment.rstrip() + "\n")
    out.append(head + "\n{\n\t" + a["handler"])
    return "".join(out)

OPTS = {"member": "iop", "complete": []}
SITES = []
FORMA = []
DEVM = []
FREED = []


def is_work(L):
    s = strip_c(L)
    if "drain" in OPTS:
        return re.match(r"\s*%s\s*\(" % re.escape(OPTS["drain"]), s) is not None
    return re.match(r"\s*(while|for|do)\b", s) is not None

@script:python o_member@
x << virtual.member;
@@
OPTS["member"] = x

@script:python o_weight@
x << virtual.weight;
@@
OPTS["weight"] = x

@script:python o_loop@
x << virtual.loop;
@@
OPTS["loop"] = x

@script:python o_complete@
x << virtual.complete;
@@
OPTS["complete"] = [c.strip() for c in x.split(",") if c.strip()]

@script:python o_drain@
x << virtual.drain;
@@
OPTS["drain"] = x

@script:python o_mask@
x << virtual.mask;
y << virtual.unmask;
@@
OPTS["ops"] = (x, y)

@script:python depends on report@
@@
OPTS["report"] = True

@already@
@@
(
irq_poll_init(...)
|
irq_poll_init_named(...)
|
irq_poll_sched(...)
)

// The handler and its device pointer.
@hd depends on !already exists@
identifier virtual.handler;
identifier irq, dev_id, d;
type T;
position p;
typedef irqreturn_t;
@@
irqreturn_t handler@p(int irq, void *dev_id)
{
  ... when any
(
  T *d = dev_id;
|
  T *d = (T *)dev_id;
)
  ... when any
}

// Loops (or -D drain calls) of the handler, at any depth.
@lp exists@
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

@script:python@
pl << lp.pl;
@@
LOOPS.setdefault(pl[0].file, []).append(
    (int(pl[0].line), int(pl[0].column), int(pl[0].line_end),
     int(pl[0].column_end)))

// The struct tag behind a typedef'd device pointer.
@tdef@
type hd.T;
identifier tag;
@@
typedef struct tag { ... } T;

// Every request of the handler's interrupt initialises first.
@reg depends on hd@
identifier virtual.handler;
expression D, E1, E2, E3, E4;
position pr;
@@
(
request_irq@pr(E1, handler, E2, E3, D)
|
request_threaded_irq@pr(E1, handler, E2, E3, E4, D)
|
request_threaded_irq@pr(E1, E2, handler, E3, E4, D)
|
pci_request_irq@pr(E1, E2, handler, E3, D, ...)
|
pci_request_irq@pr(E1, E2, E3, handler, D, ...)
)

@dreg depends on hd@
identifier virtual.handler;
expression D, E1, E2, E3, E4, E5;
position pr;
@@
(
devm_request_irq@pr(E1, E2, handler, E3, E4, D)
|
devm_request_threaded_irq@pr(E1, E2, handler, E3, E4, E5, D)
|
devm_request_threaded_irq@pr(E1, E2, E3, handler, E4, E5, D)
)

// Requests that are not "ret = request_irq(...);" are only reported.
@forma depends on hd@
expression E;
identifier F = {request_irq, request_threaded_irq, devm_request_irq,
                devm_request_threaded_irq};
position p;
@@
E = F@p(...);

@script:python@
p << reg.pr;
@@
SITES.append((p[0].file, int(p[0].line), int(p[0].column)))

@script:python@
p << dreg.pr;
@@
SITES.append((p[0].file, int(p[0].line), int(p[0].column)))
DEVM.append(p[0].file)

@script:python@
p << forma.p;
@@
FORMA.append((p[0].file, int(p[0].line), int(p[0].column)))

// Frees spatch matched; the others (in code spatch could not parse, e.g.
// after a macro it does not know) are reported.
@fr depends on hd@
expression reg.D, E1, E2;
position p;
@@
(
free_irq@p(E1, D)
|
pci_free_irq@p(E1, E2, D)
)

@script:python@
p << fr.p;
@@
FREED.append((p[0].file, int(p[0].line)))

@script:python an@
p << hd.p;
h << virtual.handler;
T << hd.T;
d << hd.d;
irq << hd.irq;
dev_id << hd.dev_id;
tg << tdef.tag = "";
ds << virtual.devstruct = "";
pollfn;
all;
mem;
tag;
initfn;
dtor;
@@
f = p[0].file
T = str(T).strip()
OPTS["pollfn"] = h + "_poll"
a = analyse(f, h, int(p[0].line), T, str(d), str(irq), str(dev_id), OPTS)
if not a["ok"]:
    cocci.include_match(False)
else:
    for s in SITES:
        if s not in FORMA:
            warn(s[0], s[1], "request not of the form ret = request_irq(...): "
                 "call %s_irq_poll_init() before it and irq_poll_destroy() "
                 "if it fails" % h)
    text_ = open(f).read()
    for x in re.finditer(r"\b(pci_)?free_irq\s*\(", mask_code(text_)):
        line = text_.count("\n", 0, x.start()) + 1
        if (f, line) not in FREED:
            warn(f, line, "free_irq() not matched (code spatch could not parse?): "
                 "if it frees the handler, add irq_poll_destroy() after it")
    if not SITES:
        warn(f, int(p[0].line), "no request_irq() of %s() in this file: "
             "call %s_irq_poll_init() before the request" % (h, h))
    coccinelle.pollfn = cocci.make_ident(h + "_poll")
    coccinelle.all = cocci.make_ident(compose(f, h, int(p[0].line), a, T,
                                              str(d), OPTS, f in DEVM))
    coccinelle.mem = cocci.make_ident(OPTS["member"])
    t = str(ds) or str(tg)
    if not t:
        m_ = re.match(r"\s*struct\s+(\w+)\s*$", T)
        t = m_.group(1) if m_ else "__irq_poll_no_struct_tag"
    coccinelle.tag = cocci.make_ident(t)
    coccinelle.initfn = cocci.make_ident(h + "_irq_poll_init")
    coccinelle.dtor = cocci.make_ident(h + "_irq_poll_destroy")
    if "report" in OPTS:
        for n in a["notes"]:
            print("%s:%d: %s" % (f, a["line"], n))

// The handler is replaced as a whole, with the generated functions in
// front of it: removing only its body makes spatch explore every path of
// a handler with gotos (minutes on 3w-sas.c), and spatch drops the blank
// lines of added code, so the text holds all from the poll function body
// to the end of the handler.
// A prototype of the handler goes: spatch would otherwise carry the
// removal of the definition below over to it (and leave "static;").
// The definitions come before any request in the files this was tried
// on; a file that requests the interrupt above the handler needs the
// prototypes of the handler and of its init function put back by hand.
@depends on patch && an@
identifier virtual.handler;
typedef irqreturn_t;
@@
- irqreturn_t handler(...);

@depends on patch && an@
identifier virtual.handler, an.all, an.pollfn;
typedef irqreturn_t;
@@
+static int pollfn(struct irq_poll *iop, int budget)
+{
+	all;
+}
- irqreturn_t handler(...) {...}

@depends on patch && an@
identifier virtual.handler, an.initfn, an.mem;
expression D, E, E1, E2, E3, E4;
@@
(
- E = request_irq(E1, handler, E2, E3, D);
+ E = initfn(D);
+ if (!E) {
+	E = request_irq(E1, handler, E2, E3, D);
+	if (E)
+		irq_poll_destroy(&D->mem);
+ }
|
- E = request_threaded_irq(E1, handler, E2, E3, E4, D);
+ E = initfn(D);
+ if (!E) {
+	E = request_threaded_irq(E1, handler, E2, E3, E4, D);
+	if (E)
+		irq_poll_destroy(&D->mem);
+ }
|
- E = request_threaded_irq(E1, E2, handler, E3, E4, D);
+ E = initfn(D);
+ if (!E) {
+	E = request_threaded_irq(E1, E2, handler, E3, E4, D);
+	if (E)
+		irq_poll_destroy(&D->mem);
+ }
)

@depends on patch && an@
identifier virtual.handler, an.initfn, an.dtor, an.mem;
expression D, E, DEV, E1, E2, E3, E4;
@@
(
- E = devm_request_irq(DEV, E1, handler, E2, E3, D);
+ E = initfn(D);
+ if (!E)
+	E = devm_add_action_or_reset(DEV, dtor, &D->mem);
+ if (!E)
+	E = devm_request_irq(DEV, E1, handler, E2, E3, D);
|
- E = devm_request_threaded_irq(DEV, E1, handler, E2, E3, E4, D);
+ E = initfn(D);
+ if (!E)
+	E = devm_add_action_or_reset(DEV, dtor, &D->mem);
+ if (!E)
+	E = devm_request_threaded_irq(DEV, E1, handler, E2, E3, E4, D);
)

// Teardown after every free of the same dev_id.
@depends on patch && an@
identifier an.mem;
expression reg.D, E1, E2;
@@
(
  free_irq(E1, D);
+ irq_poll_destroy(&D->mem);
|
  pci_free_irq(E1, E2, D);
+ irq_poll_destroy(&D->mem);
)

// The member, at the end of the per-device structure.
@depends on patch && an@
identifier an.tag, an.mem;
type T;
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

@inc0 depends on an@
@@
#include <linux/irq_poll.h>

@inc1 depends on patch && an && !inc0@
@@
#include <linux/interrupt.h>
+#include <linux/irq_poll.h>

@inc2 depends on patch && an && !inc0 && !inc1@
@@
#include <linux/module.h>
+#include <linux/irq_poll.h>

@inc3 depends on patch && an && !inc0 && !inc1 && !inc2@
@@
#include <linux/kernel.h>
+#include <linux/irq_poll.h>
