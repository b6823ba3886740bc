// The reference for printf.cl's printf_helper: PoCL 3.1 crashes on printf in a noinline
// function, so here the helper is inlined (the printed lines are the same).
kernel void printf_helper(global int *ret)
{
  int i = (int)get_global_id(0);
  printf("helper %d: %d\n", i, i * i);
  ret[i] = i;
}
