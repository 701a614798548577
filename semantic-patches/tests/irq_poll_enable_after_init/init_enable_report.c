void f(struct x *a)
{
	irq_poll_init(&a->iop, 32, p);
	irq_poll_enable(&a->iop);
}
