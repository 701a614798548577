#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare what irq_poll_convert.cocci and irq_poll_kconfig.sh make of the
pristine drivers with the hand-made conversions in conversions/*/diffs.

Usage: compare-conversions.py [-v] PRISTINE_TREE   (-v: every record)

For each driver (ahci: libahci.c, mptsas: mptbase.c) the script runs spatch
with irq_poll_convert.cocci on a copy of the pristine file (with the local
headers of its directory, so that a member added to a struct in a header
shows) and irq_poll_kconfig.sh on a copy of its Makefile and Kconfig.  The
conversion's diffs are read from conversions/<driver>/ in the order of its
SERIES file and applied to copies of the pristine files.  Both sides give
"records": one per added statement, with its file, the function (or struct,
or Kconfig entry) it lands in, the code line before it, its text and the
statement after it.

The "pieces" of DRIVERS below are the contract: for every mechanical piece
of a conversion, which script records and which conversion records it
selects, and whether the conversion kept the script's text (same), kept
exactly the same set (equal), replaced it by hand (differs) or has it where
the script makes nothing (hand).  Each piece is one result; so is "every
record the script adds belongs to a piece", so a new kind of output fails
until it is classified.  Prints "ok - NAME" / "not ok - NAME", "# " notes,
and per driver a table of the conversion's hunks, per function: how many
of its statements a same/equal piece found in the script's output.

Normalisation, on both sides alike (each is layout, not content):
  - comments are dropped (the conversions annotate lines),
  - runs of white space become one space,
  - a statement or prototype split over lines is joined (open parenthesis
    at the end of a line; mptbase's "static int" line above the name),
  - "stmt;else" is split after the ";" (a known spatch printer defect),
  - a trailing "{" is dropped and lines of braces only are skipped.
On the script side only, the poll function's name is mapped to the one the
conversion chose ("rename"): the script derives it from the handler's name.
Nothing else is renamed: &ap->iop and &pp->iop, 32 and &cfg stay different.

Copyright: (C) 2026 irq-poll developers
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
COCCI = os.path.join(HERE, "irq_poll_convert.cocci")
KCONFIG_SH = os.path.join(HERE, "irq_poll_kconfig.sh")


FIELDS = ("file", "func", "prev", "text", "next")


def sel(file=".*", func=".*", prev=".*", text=".*", next=".*"):
    """Selector: regular expressions the fields of a record must match
    (prev: the code line before it, next: the statement after it)."""
    return {"file": file, "func": func, "prev": prev, "text": text,
            "next": next}


# A piece: (name, status, key, script, conversion, why).  script and
# conversion are lists of selectors; each selector must select at least one
# record of its side (for "hand", the script selectors must select none).
# key: the record fields compared between the two sides.  status:
#   same     every selected script record is among the conversion's,
#   equal    the two selected sets are identical,
#   differs  both sides have the piece and no script record survived,
#   hand     the script makes none, the conversion has it.
DRIVERS = [
    {
        "name": "ahci",
        "conv": "conversions/ahci",
        "source": "drivers/ata/libahci.c",
        "spatch": ["-D", "handler=ahci_multi_irqs_intr_hard",
                   "-D", "drain=ahci_handle_port_interrupt"],
        "rename": {"ahci_multi_irqs_intr_hard_poll": "ahci_port_poll"},
        "pieces": [
            ("include", "same", ("text",),
             [sel(file="libahci.c", text=r"#include <linux/irq_poll\.h>")],
             [sel(file="ahci.h", text=r"#include <linux/irq_poll\.h>")],
             "same line; the conversion puts it in ahci.h, which libahci.c "
             "includes"),
            ("struct irq_poll member", "hand", ("text",),
             [sel(text=r"struct irq_poll \w+;")],
             [sel(file="ahci.h", func="struct ahci_port_priv",
                  text=r"struct irq_poll iop;")],
             "the script aims at struct ata_port (include/linux/libata.h, "
             "not a local header) and adds nothing; the conversion adds it "
             "to struct ahci_port_priv in ahci.h"),
            ("poll function prototype", "same", ("text",),
             [sel(func="", text=r"static int ahci_port_poll\(struct irq_poll "
                                r"\*iop, int budget\)")],
             [sel(func="", text=r"static int ahci_port_poll\(.*\)")],
             "same prototype once the name is mapped"),
            ("poll function: device pointer", "differs", ("text",),
             [sel(func="ahci_port_poll", text=r".* = container_of\(.*")],
             [sel(func="ahci_port_poll", text=r".* = container_of\(.*")],
             "the script takes struct ata_port; the conversion takes "
             "struct ahci_port_priv (where its member is), then pp->ap"),
            ("poll function: locals", "same", ("text",),
             [sel(func="ahci_port_poll", text=r"u32 status;"),
              sel(func="ahci_port_poll",
                  text=r"void __iomem \*port_mmio = ahci_port_base\(ap\);"),
              sel(func="ahci_port_poll", text=r"unsigned long flags;"),
              sel(func="ahci_port_poll", text=r"int done = 0;")],
             [sel(func="ahci_port_poll")],
             "status, port_mmio, the lock flags and the done counter are "
             "declared alike"),
            ("poll function: the lock the handler held", "same", ("text",),
             [sel(func="ahci_port_poll",
                  text=r"spin_lock_irqsave\(ap->lock, flags\);"),
              sel(func="ahci_port_poll",
                  text=r"spin_unlock_irqrestore\(ap->lock, flags\);")],
             [sel(func="ahci_port_poll")],
             "ap->lock, which ahci_multi_irqs_intr_hard() takes around the "
             "drain, with interrupts off in the poll"),
            ("poll function: work and budget count", "differs", ("text",),
             [sel(func="ahci_port_poll",
                  text=r"status = readl\(port_mmio \+ PORT_IRQ_STAT\);"),
              sel(func="ahci_port_poll",
                  text=r"ahci_handle_port_interrupt\(ap, port_mmio, "
                       r"status\);"),
              sel(func="ahci_port_poll", text=r"done\+\+;")],
             [sel(func="ahci_port_poll",
                  text=r"done = max\(ahci_qc_complete\(.*")],
             "the script reads PORT_IRQ_STAT again (after the handler acked "
             "it), re-runs ahci_handle_port_interrupt() and counts 1; the "
             "conversion acks "
             "PORT_IRQ_STAT itself, completes with ahci_qc_complete() and "
             "counts the completed tags"),
            ("poll function: complete below budget", "same", ("text",),
             [sel(func="ahci_port_poll", text=r"if \(done < budget\)"),
              sel(func="ahci_port_poll",
                  text=r"irq_poll_complete_done\(iop, done\);"),
              sel(func="ahci_port_poll", text=r"return done;")],
             [sel(func="ahci_port_poll")],
             "the budget test, irq_poll_complete_done() and the return"),
            ("irq_poll_sched in the handler", "differs", ("text",),
             [sel(func="ahci_multi_irqs_intr_hard",
                  text=r"irq_poll_sched\(&ap->iop\);")],
             [sel(func="ahci_handle_port_interrupt",
                  text=r"if \(pp->has_iop && irq_poll_handoff\(&pp->iop\)\)")],
             "the script schedules &ap->iop in the multi-MSI handler only; "
             "the conversion hands off &pp->iop in "
             "ahci_handle_port_interrupt() after error and AN handling, "
             "for every handler (switchable instance)"),
            ("irq_poll_init next to IRQ registration", "differs",
             ("text",),
             [sel(func="", text=r"static int ahci_multi_irqs_intr_hard_"
                                r"irq_poll_init\(struct ata_port \*ap\)"),
              sel(func="ahci_multi_irqs_intr_hard_irq_poll_init"),
              sel(func="ahci_host_activate_multi_irqs",
                  text=r"rc = ahci_multi_irqs_intr_hard_irq_poll_init\(.*"),
              sel(func="ahci_host_activate_multi_irqs", text=r"if \(!rc\)"),
              sel(func="ahci_host_activate_multi_irqs",
                  text=r"rc = devm_add_action_or_reset\(.*"),
              sel(func="ahci_host_activate_multi_irqs",
                  text=r"rc = devm_request_irq\(.*\);")],
             [sel(func="ahci_port_init_poll",
                  text=r"rc = irq_poll_init_named\(&pp->iop, &cfg, "
                       r"ahci_port_poll\);")],
             "the script's init function names the instance "
             "<module>-<n> and runs right before devm_request_irq() of "
             "the multi-MSI path, with a devres action that destroys it; "
             "the conversion calls "
             "irq_poll_init_named() from ahci_port_start() (all IRQ modes, "
             "platform drivers too)"),
            ("irq_poll_destroy after the IRQ is freed", "differs", ("text",),
             [sel(func="", text=r"static void ahci_multi_irqs_intr_hard_"
                                r"irq_poll_destroy\(void \*iop\)"),
              sel(func="ahci_multi_irqs_intr_hard_irq_poll_destroy",
                  text=r"irq_poll_destroy\(iop\);")],
             [sel(func="ahci_port_poll_off",
                  text=r"irq_poll_disable\(&pp->iop\);"),
              sel(func="ahci_port_stop",
                  text=r"irq_poll_destroy\(&pp->iop\);")],
             "libahci has no free_irq() (devm): the script destroys in a "
             "devres action registered before devm_request_irq(), so after "
             "the IRQ is released; the conversion disables in "
             "ahci_port_poll_off() and destroys in ahci_port_stop()"),
            ("Kconfig select IRQ_POLL", "equal", ("file", "func", "text"),
             [sel(file="Kconfig", text="select IRQ_POLL")],
             [sel(file="Kconfig", text="select IRQ_POLL")],
             "irq_poll_kconfig.sh selects IRQ_POLL in the same 18 entries "
             "that link libahci.o (where in the entry may differ)"),
        ],
    },
    {
        "name": "mptsas",
        "conv": "conversions/mptsas",
        "source": "drivers/message/fusion/mptbase.c",
        "spatch": ["-D", "handler=mpt_interrupt"],
        "rename": {"mpt_interrupt_poll": "mpt_irq_poll"},
        "pieces": [
            ("include", "same", ("text",),
             [sel(file="mptbase.c", text=r"#include <linux/irq_poll\.h>")],
             [sel(file="mptbase.h", text=r"#include <linux/irq_poll\.h>")],
             "same line; the conversion puts it in mptbase.h, which "
             "mptbase.c includes"),
            ("struct irq_poll member", "same", ("file", "func", "text"),
             [sel(file="mptbase.h", func="struct _MPT_ADAPTER",
                  text=r"struct irq_poll iop;")],
             [sel(file="mptbase.h", func="struct _MPT_ADAPTER",
                  text=r"struct irq_poll iop;")],
             "same member in the same struct, in mptbase.h (the script "
             "appends it, the conversion puts it after 'active')"),
            ("poll function prototype", "same", ("text",),
             [sel(func="", text=r"static int mpt_irq_poll\(struct irq_poll "
                                r"\*iop, int budget\)")],
             [sel(func="", text=r"static int mpt_irq_poll\(.*\)")],
             "same prototype once the name is mapped (mptbase puts the "
             "type on a line of its own)"),
            ("poll function: device pointer and counter", "same",
             ("text",),
             [sel(func="mpt_irq_poll",
                  text=r"MPT_ADAPTER \*ioc = container_of\(iop, "
                       r"MPT_ADAPTER, iop\);"),
              sel(func="mpt_irq_poll", text=r"int done = 0;")],
             [sel(func="mpt_irq_poll")],
             "container_of() to MPT_ADAPTER and the done counter"),
            ("poll function: budget loop", "differs", ("text",),
             [sel(func="mpt_irq_poll", text=r"u32 pa = .*"),
              sel(func="mpt_irq_poll",
                  text=r"while \(done < budget && \(pa != 0xFFFFFFFF\)\)")],
             [sel(func="mpt_irq_poll", text=r"u32 pa;"),
              sel(func="mpt_irq_poll", text=r"while \(done < budget\)")],
             "the script reads the FIFO before the loop and tests it in "
             "the condition; the conversion reads it at the top of "
             "'while (done < budget)' and breaks when it is empty"),
            ("poll function: loop body", "same", ("text",),
             [sel(func="mpt_irq_poll", text=r"done\+\+;"),
              sel(func="mpt_irq_poll",
                  text=r"if \(pa & MPI_ADDRESS_REPLY_A_BIT\)"),
              sel(func="mpt_irq_poll", text=r"mpt_reply\(ioc, pa\);"),
              sel(func="mpt_irq_poll", text=r"else"),
              sel(func="mpt_irq_poll", text=r"mpt_turbo_reply\(ioc, pa\);"),
              sel(func="mpt_irq_poll",
                  text=r"pa = CHIPREG_READ32_dmasync\(&ioc->chip->"
                       r"ReplyFifo\);")],
             [sel(func="mpt_irq_poll")],
             "the FIFO read, the dispatch of one reply frame and the count "
             "survive"),
            ("poll function: complete below budget", "same", ("text",),
             [sel(func="mpt_irq_poll",
                  text=r"irq_poll_complete_done\(iop, done\);")],
             [sel(func="mpt_irq_poll")],
             "irq_poll_complete_done(iop, done), which can defer"),
            ("poll function: budget test and return", "same", ("text",),
             [sel(func="mpt_irq_poll", text=r"if \(done < budget\)"),
              sel(func="mpt_irq_poll", text=r"return done;")],
             [sel(func="mpt_irq_poll")],
             "the budget test and the return survive"),
            ("irq_poll_sched in the handler", "differs", ("text",),
             [sel(func="mpt_interrupt", text=r"irq_poll_sched\(&ioc->iop\);")],
             [sel(func="mpt_interrupt",
                  text=r"if \(irq_poll_handoff\(&ioc->iop\)\)")],
             "the script schedules after the handler popped a reply (which "
             "the poll then misses: a destructive read before the loop); "
             "the conversion hands off before popping and tells a shared "
             "line whether a reply is posted"),
            ("irq_poll_init next to IRQ registration", "differs",
             ("text",),
             [sel(func="", text=r"static int mpt_interrupt_irq_poll_init"
                                r"\(MPT_ADAPTER \*ioc\)"),
              sel(func="mpt_interrupt_irq_poll_init"),
              sel(func="mpt_do_ioc_recovery",
                  text=r"rc = mpt_interrupt_irq_poll_init\(ioc\);"),
              sel(func="mpt_do_ioc_recovery", text=r"if \(!?rc\)"),
              sel(func="mpt_do_ioc_recovery", text=r"rc = request_irq\(.*\);"),
              sel(func="mpt_do_ioc_recovery", prev=r"if \(rc\)",
                  text=r"irq_poll_destroy\(&ioc->iop\);")],
             [sel(func="mpt_irq_poll_init",
                  text=r"r = irq_poll_init_named\(&ioc->iop, &cfg, "
                       r"mpt_irq_poll\);")],
             "the script initialises right before request_irq() in "
             "mpt_do_ioc_recovery() (again at every recovery, destroying "
             "if the request fails); the "
             "conversion calls irq_poll_init_named() once, from "
             "mpt_attach()"),
            ("irq_poll_destroy after free_irq in dispose", "same",
             ("func", "text"),
             [sel(func="mpt_adapter_dispose", prev=r"free_irq\(.*\);",
                  text=r"irq_poll_destroy\(&ioc->iop\);")],
             [sel(func="mpt_adapter_dispose",
                  text=r"irq_poll_destroy\(&ioc->iop\);")],
             "the same call after the free_irq() of mpt_adapter_dispose()"),
            ("irq_poll_destroy after the other free_irq calls", "differs",
             ("func", "text"),
             [sel(func="mpt_suspend", prev=r"free_irq\(.*\);",
                  text=r"irq_poll_destroy\(&ioc->iop\);"),
              sel(func="mpt_do_ioc_recovery", prev=r"free_irq\(.*\);",
                  text=r"irq_poll_destroy\(&ioc->iop\);")],
             [sel(func="mpt_suspend", text=r"irq_poll_disable\(&ioc->iop\);")],
             "the script destroys after the free_irq() of suspend and of a "
             "failed recovery (and initialises again at the next request); "
             "the conversion keeps its one instance and disables it around "
             "resets, suspend and detach"),
            ("Kconfig select IRQ_POLL", "equal", ("file", "func", "text"),
             [sel(file="Kconfig", text="select IRQ_POLL")],
             [sel(file="Kconfig", text="select IRQ_POLL")],
             "irq_poll_kconfig.sh selects IRQ_POLL in FUSION_SPI, "
             "FUSION_FC and FUSION_SAS, the entries that link mptbase.o, "
             "as the conversion does"),
        ],
    },
]


# ---------------------------------------------------------------- diffs

def parse_diff(text):
    """Unified diff -> [(path, [hunk])], hunk = (old_start, [lines])."""
    files = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("--- ") and i + 1 < len(lines) and \
           lines[i + 1].startswith("+++ "):
            old = line[4:].split("\t")[0]
            new = lines[i + 1][4:].split("\t")[0]
            path = new if old == "/dev/null" else old
            if re.match(r"[ab]/", path) and new.startswith("b/"):
                path = path[2:]
            files.append((path, []))
            i += 2
            continue
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", line)
        if m and files:
            nold = int(m.group(2) or 1)
            nnew = int(m.group(4) or 1)
            body = []
            i += 1
            while i < len(lines) and (nold > 0 or nnew > 0):
                b = lines[i]
                if b.startswith("\\"):
                    i += 1
                    continue
                if b == "":
                    b = " "
                body.append(b)
                if b[0] in " -":
                    nold -= 1
                if b[0] in " +":
                    nnew -= 1
                i += 1
            files[-1][1].append((int(m.group(1)), body))
            continue
        i += 1
    return files


def apply_hunks(old, hunks, where):
    """Apply hunks to a list of lines; returns (new lines, [(hunk, [new
    index of each added line])]).  Like git apply: exact context, offset
    allowed, no fuzz."""
    new = list(old)
    delta = 0
    placed = []
    for start, body in hunks:
        before = [b[1:] for b in body if b[0] in " -"]
        after = [b[1:] for b in body if b[0] in " +"]
        # "-N,0" inserts after line N; otherwise line N is the first
        stated = start - 1 if before else start
        want = stated + delta
        pos = None
        for off in range(0, len(new) + 1):
            for p in (want - off, want + off):
                if 0 <= p <= len(new) - len(before) and \
                   new[p:p + len(before)] == before:
                    pos = p
                    break
            if pos is not None:
                break
        if pos is None:
            raise RuntimeError("%s: hunk at line %d does not apply"
                               % (where, start))
        new[pos:pos + len(before)] = after
        added, k = [], pos
        for b in body:
            if b[0] == "+":
                added.append(k)
            if b[0] in " +":
                k += 1
        placed.append(((start, body), added))
        delta = pos - stated + len(after) - len(before)
    return new, placed


# ---------------------------------------------------------- normalising

def strip_c_comments(lines):
    """Code of each line with comments and string contents blanked."""
    out, in_comment = [], False
    for line in lines:
        res, i, n = [], 0, len(line)
        while i < n:
            if in_comment:
                j = line.find("*/", i)
                if j < 0:
                    i = n
                else:
                    in_comment, i = False, j + 2
                continue
            c = line[i]
            if line.startswith("/*", i):
                in_comment, i = True, i + 2
                res.append(" ")
            elif line.startswith("//", i):
                break
            elif c in "\"'":
                j = i + 1
                while j < n and line[j] != c:
                    j += 2 if line[j] == "\\" else 1
                res.append(line[i:j + 1])
                i = j + 1
            else:
                res.append(c)
                i += 1
        out.append("".join(res).rstrip())
    return out


def strip_kconfig_comments(lines):
    return [re.sub(r"\s#.*$|^#.*$", "", line).rstrip() for line in lines]


def squash(s):
    return re.sub(r"\s+", " ", s).strip()


def layout_only(s):
    return re.fullmatch(r"[{};\s]*", s) is not None


def location_c(code, i):
    """Function, struct or "" (top level) holding line i."""
    if code[i][:1] not in ("", " ", "\t"):
        return ""
    for j in range(i - 1, -1, -1):
        line = code[j]
        if not line or line[0] in " \t{#":
            continue
        if re.match(r"\w+:\s*$", line):            # label
            continue
        if line[0] == "}":
            return ""
        m = re.search(r"(\w+)\s*\(", line)
        if m:
            return m.group(1)
        return object_name(line.split("{")[0])
    return ""


def object_name(head):
    """"typedef struct _X", "static const struct y z =" -> "struct _X",
    "struct y z"."""
    head = re.sub(r"\s*=\s*$", "", squash(head))
    return re.sub(r"^((static|const|extern|typedef)\s+)*", "", head)


def location_kconfig(code, i):
    for j in range(i, -1, -1):
        m = re.match(r"\s*(?:menu)?config\s+(\w+)", code[j])
        if m:
            return m.group(1)
        if re.match(r"\s*(menu|endmenu|choice|endchoice|if|endif|source)\b",
                    code[j]):
            return ""
    return ""


def records(path, new_lines, placed, rename):
    """Records of the added lines of one file."""
    kconfig = os.path.basename(path).startswith("Kconfig")
    code = (strip_kconfig_comments if kconfig else strip_c_comments)(
        new_lines)
    locate = location_kconfig if kconfig else location_c
    added = set(k for _, ks in placed for k in ks)
    out = []
    for (start, body), ks in placed:
        stmt, first = "", None
        for k in ks:
            text = squash(code[k])
            if first is None:
                if layout_only(text):
                    continue
                first = k
            stmt = (stmt + " " + text).strip()
            # join while parentheses are open, or after a bare
            # "static <type>" line (mptbase's function headers)
            if (stmt.count("(") > stmt.count(")") or
                    re.fullmatch(r"static [\w\s\*]+", stmt)) and \
                    k + 1 in added:
                continue
            for part in re.split(r"(?<=;)(?=else\b)", stmt):
                part = re.sub(r"\s*\{$", "", part)
                part = re.sub(r"^\}\s*", "", part).strip()
                if layout_only(part):
                    continue
                for old, new in rename.items():
                    part = re.sub(r"\b%s\b" % re.escape(old), new, part)
                prev = ""
                for j in range(first - 1, -1, -1):
                    if not layout_only(squash(code[j])):
                        prev = squash(code[j])
                        break
                nxt, j = "", k + 1
                while j < len(code):
                    t = squash(code[j])
                    j += 1
                    if not nxt and layout_only(t):
                        continue
                    nxt = (nxt + " " + t).strip()
                    if nxt.count("(") <= nxt.count(")"):
                        break
                func = locate(code, first)
                for old, new in rename.items():
                    func = re.sub(r"\b%s\b" % re.escape(old), new, func)
                out.append({"file": os.path.basename(path), "func": func,
                            "prev": prev, "text": part, "next": nxt,
                            "hunk": start, "path": path})
            stmt, first = "", None
    return out


# ------------------------------------------------------------- the sides

def copy_from(pristine, tree, rel):
    src = os.path.join(pristine, rel)
    dst = os.path.join(tree, rel)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)


def side_records(pristine, tree, diffs, rename, placed_out=None):
    """Apply diff texts (in order) to copies of the pristine files."""
    state = {}
    recs = []
    for name, text in diffs:
        for path, hunks in parse_diff(text):
            if path not in state:
                with open(os.path.join(pristine, path), errors="replace") as f:
                    state[path] = f.read().split("\n")
            state[path], placed = apply_hunks(state[path], hunks,
                                              "%s: %s" % (name, path))
            r = records(path, state[path], placed, rename)
            recs += r
            if placed_out is not None:
                placed_out.append((name, path, placed, r))
    return recs


def script_diffs(pristine, tmp, drv, spatch):
    """spatch and irq_poll_kconfig.sh on copies of the pristine files."""
    tree = os.path.join(tmp, "script-" + drv["name"])
    d = os.path.dirname(drv["source"])
    for f in sorted(os.listdir(os.path.join(pristine, d))):
        if f.endswith(".h") or f in ("Makefile", "Kconfig") or \
           f == os.path.basename(drv["source"]):
            copy_from(pristine, tree, os.path.join(d, f))
    r = subprocess.run([spatch, "--very-quiet", "--local-includes",
                        "--include-headers", "-D", "patch"] + drv["spatch"] +
                       ["--sp-file", COCCI, drv["source"]],
                       cwd=tree, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("spatch failed: " + r.stderr[-500:])
    out = [("spatch", r.stdout)]
    kc = os.path.join(tree, d, "Kconfig")
    with open(kc) as f:
        before = f.read()
    r = subprocess.run([KCONFIG_SH, "-C", tree, drv["source"]],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("irq_poll_kconfig.sh failed: " + r.stdout +
                           r.stderr)
    with open(os.path.join(tmp, "kc-before"), "w") as f:
        f.write(before)
    r = subprocess.run(["diff", "-U3", os.path.join(tmp, "kc-before"), kc],
                       capture_output=True, text=True)
    kdiff = re.sub(r"^--- .*\n\+\+\+ .*\n",
                   "--- a/%s\n+++ b/%s\n" % ((os.path.join(d, "Kconfig"),) * 2),
                   r.stdout, count=1, flags=re.M)
    out.append(("irq_poll_kconfig.sh", kdiff))
    return out


def conv_diffs(drv):
    """The conversion's diffs, in the order of its SERIES file."""
    base = os.path.join(TOP, drv["conv"])
    out = []
    with open(os.path.join(base, "SERIES")) as f:
        for line in f:
            w = line.split("#")[0].split()
            if len(w) == 2 and w[0] == "apply":
                with open(os.path.join(base, w[1])) as g:
                    out.append((w[1], g.read()))
    listed = set(n for n, _ in out)
    for f in sorted(os.listdir(os.path.join(base, "diffs"))):
        if f.endswith(".diff") and "diffs/" + f not in listed:
            print("# %s: diffs/%s is not in SERIES, not compared"
                  % (drv["conv"], f))
    return out


# ---------------------------------------------------------------- checks

def matches(rec, s):
    return all(re.fullmatch(s[k], rec[k]) for k in FIELDS)


def where(rec):
    if rec["file"].startswith("Kconfig"):
        return "config " + rec["func"]
    if not rec["func"]:
        return "<top>"
    ident = re.fullmatch(r"\w+", rec["func"]) and \
        rec["func"] not in ("enum", "struct", "union")
    return rec["func"] + ("()" if ident else "")


def show(rec):
    return "%s %s: %s" % (rec["file"], where(rec), rec["text"])


def check_driver(drv, srecs, crecs):
    """Yields (ok, name, [notes]); marks the conversion records a same or
    equal piece accounts for with rec["script"] = True."""
    name = drv["name"]
    claimed = set()
    for piece, status, key, ssels, csels, why in drv["pieces"]:
        notes = []
        s, c = [], []
        for x in ssels:
            got = [r for r in srecs if matches(r, x)]
            if not got and status != "hand":
                notes.append("the script no longer makes: " +
                             ", ".join("%s=%s" % (k, v) for k, v in x.items()
                                       if v != ".*"))
            s += [r for r in got if r not in s]
        for x in csels:
            got = [r for r in crecs if matches(r, x)]
            if not got:
                notes.append("the conversion no longer has: " +
                             ", ".join("%s=%s" % (k, v) for k, v in x.items()
                                       if v != ".*"))
            c += [r for r in got if r not in c]
        claimed.update(id(r) for r in s)
        sk = set(tuple(r[k] for k in key) for r in s)
        ck = set(tuple(r[k] for k in key) for r in c)
        if status == "hand" and s:
            notes.append("the script now makes it (update the "
                         "expectation): " + "; ".join(show(r) for r in s))
        if status == "same" and not sk <= ck:
            notes += ["not in the conversion: " + " | ".join(k)
                      for k in sorted(sk - ck)]
        if status == "equal" and sk != ck:
            notes += ["only from the script: " + " | ".join(k)
                      for k in sorted(sk - ck)]
            notes += ["only in the conversion: " + " | ".join(k)
                      for k in sorted(ck - sk)]
        if status == "differs" and sk & ck:
            notes += ["now identical (make it 'same'): " + " | ".join(k)
                      for k in sorted(sk & ck)]
        if status in ("same", "equal"):
            for r in c:
                if tuple(r[k] for k in key) in sk:
                    r["script"] = True
        slug = re.sub(r"[^a-z0-9]+", "-", piece.lower()).strip("-")
        yield not notes, "compare/%s/%s=%s" % (name, slug, status), notes
    rest = [r for r in srecs if id(r) not in claimed]
    yield (not rest, "compare/%s/every-script-line-classified" % name,
           ["unclassified: " + show(r) for r in rest])


def hunk_table(drv, placed):
    """Per hunk and function of the conversion: added statements, and how
    many of them a same/equal piece found in the script's output."""
    print("# %s: %s, per hunk and function: statements added, from the "
          "script" % (drv["name"], drv["conv"]))
    for _, path, hunks, recs in placed:
        for (start, _), _ in hunks:
            groups = {}
            for r in recs:
                if r["hunk"] != start:
                    continue
                w = where(r)
                # a function's or an initialised object's first line
                m = re.search(r"(\w+)\s*\(.*\)$", r["text"])
                if not r["func"] and m:
                    w = m.group(1) + "()"
                elif not r["func"] and r["text"].endswith("="):
                    w = object_name(r["text"])
                groups.setdefault(w, []).append(r)
            for w, rs in groups.items():
                n, k = len(rs), sum(1 for r in rs if r.get("script"))
                kind = "script" if k == n else "by hand" if k == 0 else \
                    "partly"
                print("#   %-7s %s:%d %s: %d/%d" % (
                    kind, os.path.basename(path), start, w, k, n))


def main(argv):
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    if len(args) != 1:
        print("usage: compare-conversions.py [-v] PRISTINE_TREE",
              file=sys.stderr)
        return 2
    pristine = args[0]
    spatch = os.environ.get("SPATCH", "spatch")
    if not os.path.isfile(os.path.join(pristine, "drivers/ata/libahci.c")):
        print("# pristine tree %s missing: run 'make tree', or set "
              "BUILD_DIR or PRISTINE, or pass its path" % pristine)
        print("not ok - compare/pristine-tree")
        return 1
    failed = 0
    with tempfile.TemporaryDirectory(prefix="irq-poll-compare.") as tmp:
        for drv in DRIVERS:
            try:
                sd = script_diffs(pristine, tmp, drv, spatch)
                srecs = side_records(pristine, tmp, sd, drv["rename"])
                placed = []
                crecs = side_records(pristine, tmp, conv_diffs(drv), {},
                                     placed)
            except (OSError, RuntimeError) as e:
                print("# %s" % e)
                print("not ok - compare/%s: run" % drv["name"])
                failed += 1
                continue
            if verbose:
                for r in srecs:
                    print("# script %s | prev: %s" % (show(r), r["prev"]))
                for r in crecs:
                    print("# conv   %s | prev: %s" % (show(r), r["prev"]))
            for ok, name, notes in check_driver(drv, srecs, crecs):
                for n in notes:
                    print("# " + n)
                print("%s - %s" % ("ok" if ok else "not ok", name))
                failed += not ok
            hunk_table(drv, placed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
