// References for atomics_private.cl and atomics_private_local.cl, which PoCL 3.1
// cannot build (it has no atomics on private memory, nor through generic pointers
// to local memory): the values the kernels must give, computed with plain integer
// arithmetic, each atomic written out as the read-modify-write it is.

static int flag_round(int x)
{
  int f = 0, r = 0;
  r |= f << 0; f = 1;
  r |= f << 1; f = 1;
  if (x & 1)
    f = 0;
  r |= f << 2;
  return r;
}

kernel void private_atomics(global const int *in, global int *out)
{
  int gid = get_global_id(0);
  int x = in[gid];
  global int *o = out + gid * 17 + 1;
  out[gid * 17] = flag_round(x);
  int a = x;
  o[0] = a; a += 7;
  o[1] = a; a -= 3;
  o[2] = a; a = min(a, 20);
  o[3] = a; a = max(a, 10);
  o[4] = a; a &= 0x3c;
  o[5] = a; a |= 0x101;
  o[6] = a; a ^= 0x55;
  o[7] = a; a = -x;
  o[8] = 1; o[9] = -x; a = 2 * x;   // compare-exchange with the value held: succeeds
  o[10] = a == 12345; o[11] = a;    // with another value: fails, reports the value held
  a = x + 1;
  o[12] = a;
  uint u = (uint)x;
  o[13] = (int)u; u = min(u, 40u);
  o[14] = (int)u; u = max(u, 0xfffffff0u);
  o[15] = (int)u;
}

// Odd work-items add 1 to their own private counter (old value: the local id), even
// ones to the group's counter, which every work-item also adds its local id to.
kernel void local_and_private_atomics(global int *out)
{
  int lid = get_local_id(0), n = get_local_size(0);
  out[get_global_id(0) * 2] = (lid & 1) ? lid : 0;
  out[get_global_id(0) * 2 + 1] = n / 2 + n * (n - 1) / 2;
}
