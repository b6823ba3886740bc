// Atomics on private memory: an atomic_flag and an atomic_int declared in the
// kernel, reached through generic pointers (OpenCL C 2.0). Only the work-item sees
// them, so each atomic is a plain read-modify-write; Vulkan forbids atomics on
// Function memory, and k2s's private-atomics pass rewrites them. Every atomic
// function is used once, each result (the old value) is stored.

static int flag_round(atomic_flag *f, int x)
{
  int r = 0;
  atomic_flag_clear(f);
  r |= atomic_flag_test_and_set(f) << 0;                    // 0: was clear
  r |= atomic_flag_test_and_set_explicit(f, memory_order_relaxed) << 1; // 1: was set
  if (x & 1)
    atomic_flag_clear_explicit(f, memory_order_seq_cst, memory_scope_work_group);
  r |= atomic_flag_test_and_set(f) << 2;                    // (x & 1) ? 0 : 1
  return r;
}

static void int_round(atomic_int *a, global int *out, int x)
{
  atomic_init(a, x);
  out[0] = atomic_fetch_add(a, 7);
  out[1] = atomic_fetch_sub(a, 3);
  out[2] = atomic_fetch_min(a, 20);
  out[3] = atomic_fetch_max(a, 10);
  out[4] = atomic_fetch_and(a, 0x3c);
  out[5] = atomic_fetch_or(a, 0x101);
  out[6] = atomic_fetch_xor(a, 0x55);
  out[7] = atomic_exchange(a, -x);
  int expected = -x;
  out[8] = atomic_compare_exchange_strong(a, &expected, 2 * x);  // succeeds
  out[9] = expected;
  expected = 12345;
  out[10] = atomic_compare_exchange_weak(a, &expected, 99);      // fails
  out[11] = expected;
  atomic_store(a, x + 1);
  out[12] = atomic_load(a);
}

static void uint_round(atomic_uint *a, global int *out, uint x)
{
  atomic_init(a, x);
  out[0] = (int)atomic_fetch_min(a, 40u);
  out[1] = (int)atomic_fetch_max(a, 0xfffffff0u);
  out[2] = (int)atomic_load_explicit(a, memory_order_relaxed);
}

kernel void private_atomics(global const int *in, global int *out)
{
  int gid = get_global_id(0);
  int x = in[gid];
  atomic_flag f;
  atomic_int a;
  atomic_uint u;
  out[gid * 17] = flag_round(&f, x);
  int_round(&a, out + gid * 17 + 1, x);
  uint_round(&u, out + gid * 17 + 14, (uint)x);
}
