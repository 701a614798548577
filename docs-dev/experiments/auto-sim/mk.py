#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Extract IRQ_POLL_MODE_AUTO's controller from lib-irqpoll/ into ctl.h, with the
kernel shims of shim.h, so that cl.c can drive it in user space (see README)."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(HERE, '..', '..', '..', 'lib-irqpoll', 'lib')
cpath = sys.argv[1] if len(sys.argv) > 1 else os.path.join(LIB, 'irq_poll.c')
c = open(cpath).read()
# The header next to the source if there is one (a patched copy), else the committed one.
hpath = os.path.join(os.path.dirname(os.path.abspath(cpath)), 'irq_poll_internal.h')
h = open(hpath if os.path.exists(hpath) else os.path.join(LIB, 'irq_poll_internal.h')).read()
out = open(os.path.join(HERE, 'shim.h')).read()
out += re.search(r'struct irq_poll_auto \{.*?\n\};\n', h, re.S).group(0)
out += re.search(r'enum irq_poll_auto_verdict \{.*?\n\};\n', h, re.S).group(0)
out += ''.join(l + '\n' for l in c.split('\n') if re.match(r'#define IRQ_POLL_AUTO_', l))
out += re.search(r'/\* Where IRQ_POLL_MODE_AUTO stands.*?\n\};\n', c, re.S).group(0)
# In the order they call each other; decide and block only where a library has them
# (interleaved trial pairs, ../interleaved-pairs.diff).
for fn in ['irq_poll_auto_drop_pair', 'irq_poll_auto_tick', 'irq_poll_auto_relearn',
           'irq_poll_auto_reset', 'irq_poll_auto_trial', 'irq_poll_auto_decide',
           'irq_poll_auto_block', 'irq_poll_auto_epoch', 'irq_poll_auto_step']:
    m = re.search(r'\n((?:static|VISIBLE_IF_KUNIT)[^\n]*\n?[^\n]*\b' + fn + r'\(.*?\n\}\n)', c, re.S)
    if m is None and fn in ('irq_poll_auto_decide', 'irq_poll_auto_block'):
        continue
    if m is None and fn == 'irq_poll_auto_trial':
        # Before patch 14, irq_poll_sched_irqoff() did this itself.
        out += ('static void irq_poll_auto_trial(struct irq_poll_auto *a)\n{\n'
                '\ta->irqs = 0;\n\tirq_poll_auto_relearn(a);\n\tirq_poll_auto_tick(a);\n}\n')
        continue
    out += m.group(1)
open(sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, 'ctl.h'), 'w').write(out)
