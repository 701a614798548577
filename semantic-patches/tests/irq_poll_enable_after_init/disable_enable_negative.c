void f(struct x *a)
{
	irq_poll_disable(&a->iop);
	irq_poll_enable(&a->iop);
}
