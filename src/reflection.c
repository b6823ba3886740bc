/* The reflection model shared by the interface passes and the emitters. */
#include "k2s_internal.h"

k2s_refl_facts *k2s_refl(k2s_module *m)
{
  if (!m->refl) {
    m->refl = k2s_alloc(&m->arena, sizeof(*m->refl));
    m->refl->next_spec_id = 3;
  }
  return m->refl;
}

k2s_refl_kernel *k2s_refl_kernel_of(k2s_module *m, uint32_t func)
{
  k2s_refl_facts *r = k2s_refl(m);
  if (func >= r->cap_kernel_index || !r->kernel_index[func])
    return NULL;
  return &r->kernels[r->kernel_index[func] - 1];
}

/* A kernel's push-constant block grows member by member: the work-item
 * pass adds the NDRange values it needs, kernel-args adds PODs under
 * -pod-pushconstant. Returns the member index; *offset gets its byte offset. */
uint32_t k2s_kernel_push_constant(k2s_module *m, k2s_refl_kernel *k, uint32_t type,
                                  uint32_t *offset)
{
  uint64_t size = 0, align = 1;
  k2s_cl_layout(m, type, &size, &align);
  k2s_decorate_layout(m, type, NULL);
  uint32_t member, off = 0;
  if (!k->pc_struct) {
    k->pc_struct = k2s_type_struct(m, &type, 1);
    k2s_decorate(m, k->pc_struct, SpvDecorationBlock, NULL, 0);
    uint32_t ptr = k2s_type_pointer(m, SpvStorageClassPushConstant, k->pc_struct);
    k->pc_var = k2s_global_variable(m, ptr, SpvStorageClassPushConstant, 0);
    k2s_set_name(m, k->pc_var, k2s_sprintf(&m->arena, "%s.push_constants", k->name));
    member = 0;
  } else {
    /* Members only ever grow at the end, so the block's end is kept in
     * k->pc_end instead of being re-read from the decorations. */
    k2s_instr *st = k2s_def(m, k->pc_struct);
    member = st->n_ops;
    off = (uint32_t)((k->pc_end + align - 1) / align * align);
    k2s_instr_push_id(m, st, type);
    /* The new member's type may be newer than the block (a 64-bit address added
     * after the work-item values): keep definitions before uses by moving the
     * block, its pointer type and the variable to the end of the globals. */
    k2s_list *g = &m->sec[K2S_SEC_GLOBAL];
    k2s_instr *move[3] = {st, k2s_def(m, k2s_def(m, k->pc_var)->type), k2s_def(m, k->pc_var)};
    for (int i = 0; i < 3; i++) {
      k2s_list_remove(g, move[i]);
      k2s_list_append(g, move[i]);
    }
  }
  k2s_member_decorate(m, k->pc_struct, member, SpvDecorationOffset, &off, 1);
  *offset = off;
  if (off + size > k->pc_end)
    k->pc_end = (uint32_t)(off + size);
  return member;
}

uint32_t k2s_kernel_push_constant_size(k2s_module *m, const k2s_refl_kernel *k)
{
  (void)m;
  return k->pc_struct ? k->pc_end : 0;
}

k2s_refl_kernel *k2s_refl_add_kernel(k2s_module *m, uint32_t func, const char *name)
{
  k2s_refl_facts *r = k2s_refl(m);
  k2s_refl_kernel *k = k2s_refl_kernel_of(m, func);
  if (k)
    return k;
  if (r->n_kernels == r->cap_kernels) { /* geometric: the arena never frees the old array */
    uint32_t cap = r->cap_kernels ? r->cap_kernels * 2 : 8;
    r->kernels = k2s_realloc_array(&m->arena, r->kernels, r->n_kernels, cap, sizeof(*r->kernels));
    r->cap_kernels = cap;
  }
  if (func >= r->cap_kernel_index) {
    uint32_t cap = r->cap_kernel_index ? r->cap_kernel_index : 64;
    while (cap <= func)
      cap *= 2;
    r->kernel_index = k2s_realloc_array(&m->arena, r->kernel_index, r->cap_kernel_index, cap,
                                        sizeof(uint32_t));
    r->cap_kernel_index = cap;
  }
  r->kernel_index[func] = r->n_kernels + 1;
  k = &r->kernels[r->n_kernels++];
  k->func = func;
  k->name = k2s_strdup(&m->arena, name);
  for (int i = 0; i < K2S_PC_COUNT; i++)
    k->pc_offset[i] = UINT32_MAX;
  return k;
}
