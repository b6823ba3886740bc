/*
 * pointer-mode: --pointers=auto picks logical or physical mode per kernel.
 *
 * Logical mode (the pointers pass) is exact and runs everywhere, but some
 * OpenCL code has no logical form: pointers stored in memory, integers turned
 * back into pointers, addresses used as data (OpPtrDiff of two buffers), pointers into two
 * buffer arguments compared (the host may pass one buffer to both). With --pointers=auto on a target
 * with buffer device address (vulkan1.2+, 64-bit integers), a kernel whose
 * logical translation fails is lowered by physical mode instead
 * (k2s_physical_lower_function, passes/lower_physical_pointers.c); --verbose
 * says which kernel and why, and its pointer arguments show up in the
 * reflection as ArgumentPointerPushConstant/ArgumentPointerUniform.
 * How: a dry run of kernel-args + pointers (logical) on a copy of the module;
 * the function holding the first pointers error falls back, until the copy
 * translates or the error is one physical mode cannot help with. Only modules
 * with constructs logical mode may reject (pointer<->integer casts, pointers in
 * memory, run-time memcpy sizes) pay for the dry run.
 * A function whose printf prints an address (%p of a global, constant or generic
 * pointer) is lowered by physical mode too: logical mode has no addresses to print. On a
 * target without physical mode such a printf is an error here, naming the reason.
 * Runs after work-items, before physical-pointers and kernel-args.
 */
#include <string.h>

#include "k2s_internal.h"
#include "printf_format.h"

static bool is_pointer(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  return t && t->opcode == SpvOpTypePointer;
}

static bool holds_pointer(k2s_module *m, uint32_t type, int depth)
{
  k2s_instr *t = k2s_def(m, type);
  if (!t || depth > 16)
    return false;
  switch (t->opcode) {
  case SpvOpTypePointer: return true;
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray:
  case SpvOpTypeVector: return holds_pointer(m, t->ops[0], depth + 1);
  case SpvOpTypeStruct:
    for (uint32_t k = 0; k < t->n_ops; k++)
      if (holds_pointer(m, t->ops[k], depth + 1))
        return true;
    return false;
  default: return false;
  }
}

/* Does the module use something logical mode may have no translation for? */
static bool suspicious(k2s_module *m)
{
  k2s_foreach_function(f, m) k2s_foreach_instr(
      p, &f->head) if (p->opcode == SpvOpFunctionParameter && is_pointer(m, p->type) &&
                       holds_pointer(m, k2s_def(m, p->type)->ops[1],
                                     0)) return true; /* a buffer of pointers */
  k2s_foreach_function(f, m) k2s_foreach_block(b, f) k2s_foreach_instr(i, &b->body)
  {
    switch (i->opcode) {
    case SpvOpConvertUToPtr:
    case SpvOpConvertPtrToU:
    case SpvOpPtrDiff:      /* of two buffers: an address difference */
    case SpvOpPtrEqual:     /* of two buffer arguments the host may bind to one buffer */
    case SpvOpPtrNotEqual: return true;
    case SpvOpLoad:
      if (is_pointer(m, i->type))
        return true;
      break;
    case SpvOpStore:
      if (i->n_ops >= 2 && is_pointer(m, k2s_type_of(m, i->ops[1])))
        return true;
      break;
    case SpvOpBitcast:
      if (is_pointer(m, i->type) && !is_pointer(m, k2s_type_of(m, i->ops[0])))
        return true;
      break;
    case SpvOpAtomicLoad:
    case SpvOpAtomicCompareExchange: {
      /* A 64-bit atomic through a cast pointer (the compare-exchange loop of a
       * double atomic, passes/lower_atomics.c): logical mode needs a 64-bit
       * view of that memory, which a buffer re-typed as words has (an aliased
       * ulong view) only where the offset is a multiple of 8. */
      k2s_instr *src = i->n_ops >= 1 ? k2s_def(m, i->ops[0]) : NULL;
      if (src && src->opcode == SpvOpBitcast && k2s_type_width(m, i->type) == 64)
        return true;
      break;
    }
    case SpvOpCopyMemorySized: {
      uint64_t v;
      if (i->n_ops >= 3 && !k2s_const_value(m, i->ops[2], &v))
        return true;
      break;
    }
    default: break;
    }
  }
  return false;
}

static bool is_printf(const k2s_module *m, const k2s_instr *i)
{
  return i->opcode == SpvOpExtInst && i->n_ops >= 3 && i->ops[0] < m->id_cap &&
         m->ext_set[i->ops[0]] == K2S_EXT_OPENCL_STD && i->ops[1] == K2S_OPENCL_STD_printf;
}

/* The first printf in f that prints an address: a %p whose argument points to global,
 * constant or generic memory (physical mode makes those addresses; a %p of local or
 * private memory has none in either mode, and the printf pass says so). */
static k2s_instr *printf_of_address(k2s_module *m, k2s_function *f)
{
  k2s_foreach_block(b, f) k2s_foreach_instr(i, &b->body)
  {
    const char *fmt = is_printf(m, i) ? k2s_string_literal(m, i->ops[2]) : NULL;
    if (!fmt)
      continue; /* not a printf, or a format the printf pass refuses */
    size_t len = strlen(fmt), pos = 0;
    uint32_t arg = 3;
    k2s_printf_spec s;
    const char *why;
    while (arg < i->n_ops && k2s_printf_next(fmt, len, &pos, &s, &why) > 0) {
      if (s.conv == '%')
        continue;
      k2s_instr *t = k2s_def(m, k2s_type_of(m, i->ops[arg++]));
      if (s.conv == 'p' && t && t->opcode == SpvOpTypePointer &&
          (t->ops[0] == SpvStorageClassCrossWorkgroup ||
           t->ops[0] == SpvStorageClassUniformConstant || t->ops[0] == SpvStorageClassGeneric))
        return i;
    }
  }
  return NULL;
}

static k2s_module *copy_module(k2s_module *m)
{
  size_t n = 0;
  uint32_t *words = k2s_write_native(m, &n);
  k2s_parse_error err;
  return words ? k2s_parse(words, n, &err) : NULL;
}

/* The function holding the instruction at `offset` in module c. */
static k2s_function *function_at(k2s_module *c, int64_t offset)
{
  if (offset < 0)
    return NULL;
  k2s_foreach_function(f, c)
  {
    k2s_foreach_instr(i, &f->head) if ((int64_t)i->offset == offset &&
                                       i->offset != K2S_NEW_OFFSET) return f;
    k2s_foreach_block(b, f) k2s_foreach_instr(
        i, &b->body) if ((int64_t)i->offset == offset && i->offset != K2S_NEW_OFFSET) return f;
  }
  return NULL;
}

static bool is_kernel(k2s_module *m, uint32_t fid)
{
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT]) if (e->n_ops >= 2 &&
                                                         e->ops[1] == fid) return true;
  return false;
}

static const char *kernel_name(k2s_module *m, uint32_t fid)
{
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT]) if (e->n_ops >= 3 &&
                                                         e->ops[1] ==
                                                             fid) return k2s_string_operand(e, 2);
  return "?";
}

/* The first error of a dry run of kernel-args + logical pointers on a copy,
 * with the function it is in (0 when the copy translates). Kernels already
 * sent to physical mode, and `also_physical`, are physical in the copy. */
static uint32_t dry_run(k2s_module *m, const k2s_options *o, uint32_t also_physical,
                        const char **why)
{
  k2s_module *c = copy_module(m);
  if (!c)
    return 0;
  k2s_foreach_function(f, m)
  {
    if (!f->physical && f->def->result != also_physical)
      continue;
    k2s_function *g = k2s_function_of_id(c, f->def->result);
    if (g && !k2s_physical_lower_function(c, g, o))
      break;
  }
  k2s_options lo = *o;
  lo.pointers = K2S_POINTERS_LOGICAL;
  lo.verbose = false;
  uint32_t fid = 0;
  if (!c->failed) {
    c->pass = "kernel-args";
    k2s_lower_kernel_args(c, &lo);
  }
  if (!c->failed) {
    c->pass = "pointers";
    k2s_lower_pointers(c, &lo);
  }
  /* The first error, in kernel-args (a buffer of pointers) or pointers. */
  for (size_t k = 0; k < c->n_diags; k++) {
    const k2s_diagnostic *d = k2s_module_diag(c, k);
    if (d->severity != K2S_ERROR)
      continue;
    k2s_function *f = function_at(c, d->word_offset);
    if (f) {
      fid = f->def->result;
      const char *nl = strchr(d->message, '\n');
      size_t len = nl ? (size_t)(nl - d->message) : strlen(d->message);
      char *w = k2s_alloc(&m->arena, len + 1);
      memcpy(w, d->message, len);
      *why = w;
    }
    break;
  }
  k2s_module_free(c);
  return fid;
}

/* Functions whose printf prints an address go physical (or, without physical mode,
 * the printf is refused with the reason). Returns whether a function changed. */
static bool physical_for_printf(k2s_module *m, const k2s_options *o, bool no_physical)
{
  bool changed = false;
  k2s_foreach_function(f, m)
  {
    k2s_instr *p = f->physical ? NULL : printf_of_address(m, f);
    if (!p)
      continue;
    if (no_physical) {
      k2s_error(m, p,
                "printf's %%p prints an address, which needs physical pointers "
                "(PhysicalStorageBuffer64, bufferDeviceAddress): %s",
                o->target_env == K2S_ENV_VULKAN_1_1
                    ? "--target-env vulkan1.1 does not have them (use vulkan1.2 or later)"
                    : "physical addresses are 64-bit integers, which --no-int64 takes away");
      return changed;
    }
    /* Physical mode must translate the function in a dry run; if it does not, the
     * logical pipeline reports what it can (the printf pass names the %p). */
    const char *why = NULL;
    if (dry_run(m, o, f->def->result, &why) == f->def->result ||
        !k2s_physical_lower_function(m, f, o))
      continue;
    changed = true;
    if (o->verbose)
      k2s_diag(m, K2S_NOTE, f->def,
               "%s '%s' uses physical pointers (PhysicalStorageBuffer64): printf's %%p prints "
               "an address, which logical mode does not have",
               is_kernel(m, f->def->result) ? "kernel" : "function",
               is_kernel(m, f->def->result) ? kernel_name(m, f->def->result)
               : k2s_name_of(m, f->def->result) ? k2s_name_of(m, f->def->result)
                                                : "?");
  }
  return changed;
}

bool k2s_choose_pointer_mode(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  if (o->pointers != K2S_POINTERS_AUTO)
    return false;
  bool no_physical =
      o->target_env == K2S_ENV_VULKAN_1_1 || (o->missing_features & K2S_FEATURE_INT64);
  bool changed = physical_for_printf(m, o, no_physical);
  if (no_physical || m->failed)
    return changed; /* no physical mode to fall back to: logical it is */
  if (!suspicious(m))
    return changed;
  for (int round = 0; round < 64; round++) {
    const char *why = NULL, *why2 = NULL;
    uint32_t fid = dry_run(m, o, 0, &why);
    k2s_function *f = fid ? k2s_function_of_id(m, fid) : NULL;
    if (!f || f->physical || !is_kernel(m, fid))
      break; /* translates, or physical mode cannot help: the pipeline reports it */
    /* Physical mode must translate the kernel in a dry run too; if it does not,
     * the logical error (reported by the pipeline) is the useful one. */
    if (dry_run(m, o, fid, &why2) == fid || !k2s_physical_lower_function(m, f, o))
      break;
    changed = true;
    if (o->verbose)
      k2s_diag(m, K2S_NOTE, f->def,
               "kernel '%s' uses physical pointers (PhysicalStorageBuffer64): logical mode "
               "cannot express it: %s",
               kernel_name(m, fid), why ? why : "");
  }
  return changed;
}
