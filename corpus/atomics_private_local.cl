// A private and a local atomic_int behind one generic pointer (odd work-items pick
// their private one): the private atomic becomes load / add / store (pass
// private-atomics), the local one must stay an atomic (every work-item of the
// group adds to it). PoCL 3.1 cannot build atomics through generic pointers to
// local memory: atomics_private_ref.cl computes the values instead.

kernel void local_and_private_atomics(global int *out)
{
  local atomic_int sum;
  atomic_int mine;
  int lid = get_local_id(0);
  if (lid == 0)
    atomic_init(&sum, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_init(&mine, lid);
  atomic_int *p = lid & 1 ? &mine : (atomic_int *)&sum;
  int old = atomic_fetch_add(p, 1);
  atomic_fetch_add(&sum, lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0) * 2] = (lid & 1) ? old : 0;
  out[get_global_id(0) * 2 + 1] = atomic_load(&sum);
}
