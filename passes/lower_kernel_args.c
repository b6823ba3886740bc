/*
 * kernel-args: kernel parameters → Vulkan resources (clspv's descriptor map).
 *
 * Vulkan entry points have no parameters. global/constant pointers become
 * StorageBuffer Block structs holding a runtime array (set 0, bindings in
 * argument order), or uniform buffers for constant pointers with
 * -constant-args-ubo; local pointers become Workgroup arrays sized by a spec
 * constant (SpecId ≥ 3); POD arguments are clustered into one Block (storage
 * buffer by default, -pod-ubo, -pod-pushconstant) laid out as OpenCL C lays
 * them out, or each bound alone with -cluster-pod-kernel-args=0. A pointer
 * parameter is replaced by an access chain to element 0 of its resource; the
 * pointers pass folds the kernel's pointer arithmetic into it. Runs after
 * entry-points and inlining (no pointer may still cross a call).
 */
#include <string.h>

#include "k2s_internal.h"

typedef struct arg_ctx {
  k2s_module *m;
  const k2s_options *o;
  uint32_t kernel_index;
  uint32_t set, next_binding;
  k2s_pod_mode pod_mode; /* this kernel's: physical pointers move the default to push constants */
  k2s_builder b;
  /* function id -> its last LocalSize execution mode, gathered once: a scan of
   * the section per kernel was quadratic in the number of kernels */
  k2s_instr **local_size;
  uint32_t n_local_size;
  /* array type id -> the Block struct wrapping it: buffer arguments of one element
   * type and array length share one struct, as clspv's do */
  uint32_t *block_of;
  uint32_t n_block_of;
  /* this kernel's storage-buffer arguments never written through, by ordinal:
   * NonWritable unless another argument may alias them (mark_aliased_buffers) */
  bool *read_only;
} arg_ctx;

static void bind(arg_ctx *c, uint32_t var, uint32_t *set, uint32_t *binding)
{
  *set = c->set;
  *binding = c->next_binding++;
  k2s_decorate(c->m, var, SpvDecorationDescriptorSet, set, 1);
  k2s_decorate(c->m, var, SpvDecorationBinding, binding, 1);
}

/* struct { elem data[]; } (or a sized array for uniform buffers), Block: one per
 * array type, shared by every buffer argument of the module that holds that array.
 * The struct carries only layout (Block, Offset 0, the array's ArrayStride); what
 * differs between arguments (NonWritable, Restrict, bindings) decorates the
 * variables, and later passes that redeclare a buffer (pointers' retyping,
 * uniform-layout) give its variable a new struct instead of editing this one. A
 * struct per argument made the type section grow with the argument count. */
static uint32_t block_of_array(arg_ctx *c, uint32_t elem, uint32_t length, const k2s_instr *why)
{
  k2s_module *m = c->m;
  uint32_t arr = length ? k2s_type_array(m, elem, k2s_const_uint32(m, length))
                        : k2s_type_runtime_array(m, elem);
  if (arr < c->n_block_of && c->block_of[arr])
    return c->block_of[arr];
  if (!k2s_decorate_layout(m, arr, why))
    return 0;
  uint32_t st = k2s_type_struct(m, &arr, 1);
  uint32_t zero = 0;
  k2s_decorate(m, st, SpvDecorationBlock, NULL, 0);
  k2s_member_decorate(m, st, 0, SpvDecorationOffset, &zero, 1);
  if (arr >= c->n_block_of) {
    uint32_t n = m->bound > 2 * arr ? m->bound : 2 * arr + 1;
    c->block_of = k2s_realloc_array(&m->arena, c->block_of, c->n_block_of, n, sizeof(uint32_t));
    c->n_block_of = n;
  }
  c->block_of[arr] = st;
  return st;
}

static uint32_t elem_pointer(arg_ctx *c, uint32_t var, uint32_t sc, uint32_t elem, bool in_struct)
{
  k2s_module *m = c->m;
  uint32_t zero = k2s_const_uint32(m, 0);
  uint32_t ops[3] = {var, zero, zero};
  uint32_t ptr = k2s_type_pointer(m, sc, elem);
  return k2s_emit(&c->b, SpvOpAccessChain, ptr, ops, in_struct ? 3 : 2);
}

/* Whether the producer gave parameter `param` FuncParamAttr `attr` (llvm-spirv writes
 * LLVM's readonly as NoWrite, noalias (restrict) as NoAlias, nocapture as NoCapture). */
static bool has_param_attr(k2s_module *m, uint32_t param, uint32_t attr)
{
  return k2s_find_decoration_value(m, param, SpvDecorationFuncParamAttr, &attr) != NULL;
}

/* Memory hints for a storage buffer from its parameter's attributes. Read-only when the
 * kernel never writes through the pointer or a copy of it (NoWrite with NoCapture: a
 * captured pointer could be written through after being loaded back, which the pointers
 * pass would turn into a store through this variable); mark_aliased_buffers decides
 * whether that becomes NonWritable. Restrict for restrict (NoAlias): OpenCL's restrict
 * promises that no other argument reaches the object during the kernel, which is what
 * Vulkan's Restrict on a variable asks. */
static void memory_hints(arg_ctx *c, const k2s_instr *p, const k2s_refl_arg *a, uint32_t var)
{
  k2s_module *m = c->m;
  c->read_only[a->ordinal] = has_param_attr(m, p->result, SpvFunctionParameterAttributeNoWrite) &&
                             has_param_attr(m, p->result, SpvFunctionParameterAttributeNoCapture);
  if (has_param_attr(m, p->result, SpvFunctionParameterAttributeNoAlias))
    k2s_decorate(m, var, SpvDecorationRestrict, NULL, 0);
}

/* A storage-buffer argument without Restrict (kinds of PODs not lowered yet read as 0,
 * K2S_ARG_BUFFER, with no variable). */
static bool may_alias(k2s_module *m, const k2s_refl_arg *a)
{
  return a->kind == K2S_ARG_BUFFER && a->var &&
         !k2s_find_decoration(m, a->var, SpvDecorationRestrict);
}

/* OpenCL lets the host pass one buffer to several arguments that are not restrict
 * (in-place kernels, memmove-style copies), while SPIR-V lets a compiler assume that
 * memory object declarations without Aliased do not alias (Mesa's spirv_to_nir marks
 * such storage buffers restrict). So when a kernel has two or more storage-buffer
 * arguments without Restrict and one of them is written, each of those is Aliased, and
 * none of them is NonWritable: NVIDIA's Vulkan driver reads a NonWritable buffer through
 * a cache that does not see this invocation's stores through another binding, Aliased or
 * not (docs/gpu-runs.md; OpenCL's const without restrict promises no such thing).
 * Read-only arguments among themselves, or a single non-restrict argument beside
 * restrict ones, cannot observe aliasing: they keep NonWritable and get no Aliased. */
static void mark_aliased_buffers(arg_ctx *c, k2s_refl_kernel *k)
{
  k2s_module *m = c->m;
  uint32_t n = 0;
  bool written = false;
  for (uint32_t i = 0; i < k->n_args; i++) {
    if (!may_alias(m, &k->args[i]))
      continue;
    n++;
    written |= !c->read_only[i];
  }
  bool aliased = n >= 2 && written;
  for (uint32_t i = 0; i < k->n_args; i++) {
    const k2s_refl_arg *a = &k->args[i];
    if (aliased && may_alias(m, a))
      k2s_decorate(m, a->var, SpvDecorationAliased, NULL, 0);
    else if (a->kind == K2S_ARG_BUFFER && a->var && c->read_only[i])
      k2s_decorate(m, a->var, SpvDecorationNonWritable, NULL, 0);
  }
}

static bool lower_buffer(arg_ctx *c, k2s_instr *p, k2s_refl_arg *a, uint32_t elem, bool constant)
{
  k2s_module *m = c->m;
  uint64_t es = 0, ea = 1;
  if (!k2s_cl_layout(m, elem, &es, &ea)) {
    k2s_error(m, p, "argument '%s' points to a type without an OpenCL data layout", a->name);
    return false;
  }
  bool ubo = constant && c->o->constant_args_ubo;
  uint32_t sc = ubo ? SpvStorageClassUniform : SpvStorageClassStorageBuffer;
  uint32_t length = 0;
  if (ubo) {
    /* A uniform buffer holds a sized array: as many elements as fit in 64 KiB (the
     * largest maxUniformBufferRange that common devices offer; the host checks its
     * device's limit). The OpenCL stride is kept; uniform-layout rewrites the block
     * into 16-byte words when Vulkan's uniform layout cannot express it. */
    if (es == 0 || es > 65536) {
      k2s_error(m, p,
                "constant argument '%s' has %llu-byte elements, which do not fit a "
                "64 KiB uniform buffer (drop -constant-args-ubo)",
                a->name, (unsigned long long)es);
      return false;
    }
    length = (uint32_t)(65536 / es);
  }
  uint32_t st = block_of_array(c, elem, length, p);
  if (!st)
    return false;
  uint32_t var = k2s_global_variable(m, k2s_type_pointer(m, sc, st), sc, 0);
  k2s_set_name(m, var, a->name);
  bind(c, var, &a->set, &a->binding);
  if (!ubo)
    memory_hints(c, p, a, var);
  a->kind = ubo ? K2S_ARG_BUFFER_UBO : K2S_ARG_BUFFER;
  a->var = var;
  a->elem_size = (uint32_t)es;
  k2s_replace_all_uses(m, p->result, elem_pointer(c, var, sc, elem, true));
  return true;
}

static bool lower_local(arg_ctx *c, k2s_instr *p, k2s_refl_arg *a, uint32_t elem)
{
  k2s_module *m = c->m;
  uint64_t es = 0, ea = 1;
  if (!k2s_cl_layout(m, elem, &es, &ea)) {
    k2s_error(m, p, "local argument '%s' points to a type without a data layout", a->name);
    return false;
  }
  k2s_refl_facts *r = k2s_refl(m);
  a->kind = K2S_ARG_LOCAL;
  a->spec_id = r->next_spec_id++;
  a->elem_size = (uint32_t)es;
  /* The spec constant is the array length; the host sets it to BYTES/elem size. */
  k2s_instr *len = k2s_instr_new(m, SpvOpSpecConstant, k2s_type_int(m, 32, false), k2s_new_id(m),
                                 (uint32_t[]){1}, 1);
  k2s_list_append(&m->sec[K2S_SEC_GLOBAL], len);
  k2s_decorate(m, len->result, SpvDecorationSpecId, &a->spec_id, 1);
  uint32_t arr = k2s_type_array(m, elem, len->result);
  uint32_t var = k2s_global_variable(m, k2s_type_pointer(m, SpvStorageClassWorkgroup, arr),
                                     SpvStorageClassWorkgroup, 0);
  k2s_set_name(m, var, a->name);
  k2s_replace_all_uses(m, p->result, elem_pointer(c, var, SpvStorageClassWorkgroup, elem, false));
  return true;
}

/* An image or sampler argument: a UniformConstant variable of its type, loaded
 * at the kernel's start (images passes gives image types their Vulkan form). */
static bool lower_opaque(arg_ctx *c, k2s_instr *p, k2s_refl_arg *a, k2s_instr *t)
{
  k2s_module *m = c->m;
  if (t->opcode == SpvOpTypeSampler)
    a->kind = K2S_ARG_SAMPLER;
  else {
    /* OpTypeImage: Sampled Type, Dim, Depth, Arrayed, MS, Sampled, Format[, Access]. */
    bool ro = t->n_ops >= 8 && t->ops[7] == SpvAccessQualifierReadOnly;
    if (t->n_ops < 8) {
      k2s_error(m, p, "image argument '%s' has no access qualifier (not a Kernel image type)",
                a->name);
      return false;
    }
    if (t->ops[4]) {
      k2s_error(m, p,
                "image argument '%s' is multisampled (cl_khr_gl_msaa_sharing), which "
                "k2s does not translate",
                a->name);
      return false;
    }
    a->read_write = t->ops[7] == SpvAccessQualifierReadWrite;
    if (t->ops[1] == SpvDimBuffer)
      a->kind = ro ? K2S_ARG_UNIFORM_TEXEL_BUFFER : K2S_ARG_STORAGE_TEXEL_BUFFER;
    else
      a->kind = ro ? K2S_ARG_SAMPLED_IMAGE : K2S_ARG_STORAGE_IMAGE;
  }
  uint32_t sc = SpvStorageClassUniformConstant;
  uint32_t var = k2s_global_variable(m, k2s_type_pointer(m, sc, p->type), sc, 0);
  k2s_set_name(m, var, a->name);
  bind(c, var, &a->set, &a->binding);
  a->var = var;
  k2s_replace_all_uses(m, p->result, k2s_emit(&c->b, SpvOpLoad, p->type, &var, 1));
  return true;
}

static bool contains_bool_or_pointer(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  if (!t)
    return true;
  switch (t->opcode) {
  case SpvOpTypeBool:
  case SpvOpTypePointer: return true;
  case SpvOpTypeVector:
  case SpvOpTypeArray: return contains_bool_or_pointer(m, t->ops[0]);
  case SpvOpTypeStruct:
    for (uint32_t k = 0; k < t->n_ops; k++)
      if (contains_bool_or_pointer(m, t->ops[k]))
        return true;
    return false;
  default: return false;
  }
}

typedef struct pod {
  k2s_instr *param;
  k2s_refl_arg *arg;
  uint32_t type;
  bool byval;   /* a struct passed as a Function pointer (llvm's byval) */
  bool address; /* a physical pointer passed as a 64-bit address (type is ulong) */
} pod;

/* Replace the parameter by the POD value, or for a byval struct by a
 * private copy of it, since the kernel reads it through a pointer. */
static void replace_pod(arg_ctx *c, pod *p, uint32_t value)
{
  k2s_module *m = c->m;
  if (p->address) {
    k2s_replace_all_uses(m, p->param->result,
                         k2s_emit(&c->b, SpvOpConvertUToPtr, p->param->type, &value, 1));
    return;
  }
  if (!p->byval) {
    k2s_replace_all_uses(m, p->param->result, value);
    return;
  }
  k2s_function *f = c->b.cursor.block->func;
  uint32_t sc = SpvStorageClassFunction;
  k2s_instr *var =
      k2s_instr_new(m, SpvOpVariable, k2s_type_pointer(m, sc, p->type), k2s_new_id(m), &sc, 1);
  var->block = f->first;
  k2s_list_insert_after(&f->first->body, NULL, var);
  uint32_t ops[2] = {var->result, value};
  k2s_emit(&c->b, SpvOpStore, 0, ops, 2);
  k2s_replace_all_uses(m, p->param->result, var->result);
}

static uint32_t load_member(arg_ctx *c, uint32_t var, uint32_t sc, uint32_t member, uint32_t type)
{
  k2s_module *m = c->m;
  uint32_t ops[2] = {var, k2s_const_uint32(m, member)};
  uint32_t ptr = k2s_emit(&c->b, SpvOpAccessChain, k2s_type_pointer(m, sc, type), ops, 2);
  return k2s_emit(&c->b, SpvOpLoad, type, &ptr, 1);
}

static bool lower_pods(arg_ctx *c, k2s_refl_kernel *k, pod *pods, uint32_t n)
{
  k2s_module *m = c->m;
  const k2s_options *o = c->o;
  if (!n)
    return true;
  if (c->pod_mode == K2S_POD_PUSH_CONSTANT) {
    for (uint32_t i = 0; i < n; i++) {
      uint32_t off;
      uint32_t member = k2s_kernel_push_constant(m, k, pods[i].type, &off);
      pods[i].arg->kind =
          pods[i].address ? K2S_ARG_POINTER_PUSH_CONSTANT : K2S_ARG_POD_PUSH_CONSTANT;
      pods[i].arg->offset = off;
      uint32_t v = load_member(c, k->pc_var, SpvStorageClassPushConstant, member, pods[i].type);
      replace_pod(c, &pods[i], v);
    }
    uint32_t size = k2s_kernel_push_constant_size(m, k);
    if (size > o->max_push_constant_size) {
      k2s_error(m, pods[0].param,
                "kernel '%s' needs %u bytes of push constants, more than "
                "-max-pushconstant-size=%u",
                k->name, size, o->max_push_constant_size);
      return false;
    }
    return true;
  }
  bool ubo = c->pod_mode == K2S_POD_UBO;
  uint32_t sc = ubo ? SpvStorageClassUniform : SpvStorageClassStorageBuffer;
  uint32_t kind = ubo ? K2S_ARG_POD_UBO : K2S_ARG_POD;
  uint32_t groups = o->cluster_pod_args ? 1 : n;
  for (uint32_t g = 0; g < groups; g++) {
    uint32_t first = o->cluster_pod_args ? 0 : g, last = o->cluster_pod_args ? n : g + 1;
    uint32_t types[256], cnt = 0;
    for (uint32_t i = first; i < last && cnt < 256; i++)
      types[cnt++] = pods[i].type;
    uint32_t st = k2s_type_struct(m, types, cnt);
    k2s_decorate(m, st, SpvDecorationBlock, NULL, 0);
    uint64_t off = 0;
    for (uint32_t i = first, mem = 0; i < last; i++, mem++) {
      uint64_t s = 0, a = 1;
      k2s_cl_layout(m, types[mem], &s, &a);
      /* The OpenCL layout in every block kind (uniform-layout makes a UBO whose
       * layout breaks Vulkan's uniform rules legal without moving any byte). */
      off = (off + a - 1) / a * a;
      uint32_t o32 = (uint32_t)off;
      k2s_member_decorate(m, st, mem, SpvDecorationOffset, &o32, 1);
      if (!k2s_decorate_layout(m, types[mem], pods[i].param))
        return false;
      pods[i].arg->offset = o32;
      pods[i].arg->kind = pods[i].address ? K2S_ARG_POINTER_UBO : kind;
      off += s;
    }
    uint32_t var = k2s_global_variable(m, k2s_type_pointer(m, sc, st), sc, 0);
    k2s_set_name(m, var, k2s_sprintf(&m->arena, "%s.pod_args", k->name));
    uint32_t set, binding;
    bind(c, var, &set, &binding);
    for (uint32_t i = first, mem = 0; i < last; i++, mem++) {
      pods[i].arg->set = set;
      pods[i].arg->binding = binding;
      uint32_t v = load_member(c, var, sc, mem, types[mem]);
      replace_pod(c, &pods[i], v);
    }
  }
  return true;
}

/* clspv's reflection has no storage-buffer kind for pointer arguments: a kernel with
 * physical pointers keeps its PODs and addresses in push constants when they fit
 * (-max-pushconstant-size, after the work-item values), else in a uniform buffer;
 * -pod-ubo and -pod-pushconstant are honoured as given. */
static k2s_pod_mode pod_mode_of(arg_ctx *c, k2s_refl_kernel *k, k2s_function *f)
{
  k2s_module *m = c->m;
  if (!f->physical || c->o->pod_mode != K2S_POD_SSBO)
    return c->o->pod_mode;
  uint64_t end = k2s_kernel_push_constant_size(m, k);
  k2s_foreach_instr(p, &f->head)
  {
    if (p->opcode != SpvOpFunctionParameter)
      continue;
    k2s_instr *t = k2s_def(m, p->type);
    uint32_t type = p->type;
    if (t->opcode == SpvOpTypePointer) {
      if (t->ops[0] == SpvStorageClassPhysicalStorageBuffer)
        type = k2s_type_int(m, 64, false);
      else if (t->ops[0] == SpvStorageClassFunction)
        type = t->ops[1];
      else
        continue;
    }
    uint64_t s = 0, a = 1;
    k2s_cl_layout(m, type, &s, &a);
    end = (end + a - 1) / a * a + s;
  }
  return end <= c->o->max_push_constant_size ? K2S_POD_PUSH_CONSTANT : K2S_POD_UBO;
}

static const char *arg_name(k2s_module *m, k2s_instr *p, uint32_t ordinal)
{
  const char *n = k2s_name_of(m, p->result);
  return n ? n : k2s_sprintf(&m->arena, "arg%u", ordinal);
}

static bool lower_kernel(arg_ctx *c, k2s_instr *entry, k2s_function *f)
{
  k2s_module *m = c->m;
  const char *name = k2s_string_operand(entry, 2);
  k2s_refl_kernel *k = k2s_refl_add_kernel(m, f->def->result, name ? name : "kernel");
  uint32_t n_params = 0;
  k2s_foreach_instr(p, &f->head) if (p->opcode == SpvOpFunctionParameter) n_params++;
  k->args = k2s_alloc(&m->arena, (n_params + 1) * sizeof(*k->args));
  k->n_args = n_params;
  c->read_only = k2s_alloc(&m->arena, (n_params + 1) * sizeof(bool));
  pod *pods = k2s_alloc(&m->arena, (n_params + 1) * sizeof(*pods));
  uint32_t n_pods = 0, ordinal = 0;
  c->b = (k2s_builder){m, k2s_block_start(f->first)};
  c->set = c->o->distinct_kernel_sets ? c->kernel_index : 0;
  c->next_binding = 0;
  c->pod_mode = pod_mode_of(c, k, f);
  bool ok = true;
  k2s_foreach_instr(p, &f->head)
  {
    if (p->opcode != SpvOpFunctionParameter)
      continue;
    k2s_refl_arg *a = &k->args[ordinal];
    a->ordinal = ordinal++;
    a->name = arg_name(m, p, a->ordinal);
    a->type_name = "";
    k2s_instr *t = k2s_def(m, p->type);
    if (t->opcode == SpvOpTypePointer) {
      uint32_t sc = t->ops[0], elem = t->ops[1];
      if (sc == SpvStorageClassCrossWorkgroup)
        ok &= lower_buffer(c, p, a, elem, false);
      else if (sc == SpvStorageClassUniformConstant)
        ok &= lower_buffer(c, p, a, elem, true);
      else if (sc == SpvStorageClassWorkgroup)
        ok &= lower_local(c, p, a, elem);
      else if (sc == SpvStorageClassPhysicalStorageBuffer) {
        /* physical-pointers made it a 64-bit address, passed like a POD. */
        a->size = 8;
        pods[n_pods++] = (pod){p, a, k2s_type_int(m, 64, false), false, true};
        if (!c->o->cluster_pod_args && c->pod_mode != K2S_POD_PUSH_CONSTANT) {
          if (!lower_pods(c, k, &pods[n_pods - 1], 1))
            return false;
          n_pods--;
        }
      } else if (sc == SpvStorageClassFunction && !contains_bool_or_pointer(m, elem)) {
        uint64_t s = 0, al = 1;
        k2s_cl_layout(m, elem, &s, &al);
        a->size = (uint32_t)s;
        pods[n_pods++] = (pod){p, a, elem, true, false};
        if (!c->o->cluster_pod_args && c->pod_mode != K2S_POD_PUSH_CONSTANT) {
          if (!lower_pods(c, k, &pods[n_pods - 1], 1))
            return false;
          n_pods--;
        }
      } else {
        k2s_error(m, p,
                  "kernel '%s' argument '%s' is a pointer in storage class %s, which a "
                  "kernel argument cannot be translated from",
                  k->name, a->name, k2s_enumerant_name(K2S_OK_STORAGE_CLASS, sc));
        ok = false;
      }
    } else if (t->opcode == SpvOpTypeImage || t->opcode == SpvOpTypeSampler) {
      ok &= lower_opaque(c, p, a, t);
    } else if (t->opcode == SpvOpTypeSampledImage || t->opcode == SpvOpTypePipe ||
               t->opcode == SpvOpTypeEvent || t->opcode == SpvOpTypeQueue) {
      k2s_error(m, p, "kernel '%s' argument '%s': %s arguments are not supported yet", k->name,
                a->name, k2s_opcode_name(t->opcode) + 6);
      ok = false;
    } else if (contains_bool_or_pointer(m, p->type)) {
      k2s_error(m, p,
                "kernel '%s' argument '%s' holds a bool or a pointer, which OpenCL does "
                "not allow in kernel arguments",
                k->name, a->name);
      ok = false;
    } else {
      uint64_t s = 0, al = 1;
      k2s_cl_layout(m, p->type, &s, &al);
      a->size = (uint32_t)s;
      pods[n_pods++] = (pod){p, a, p->type, false, false};
      /* Unclustered PODs take their binding in argument order. */
      if (!c->o->cluster_pod_args && c->pod_mode != K2S_POD_PUSH_CONSTANT) {
        if (!lower_pods(c, k, &pods[n_pods - 1], 1))
          return false;
        n_pods--;
      }
    }
    if (!ok)
      return false;
  }
  mark_aliased_buffers(c, k);
  if (!lower_pods(c, k, pods, n_pods))
    return false;
  /* The kernel is now void(void). */
  k2s_foreach_instr_safe(param, &f->head)
    k2s_list_remove(&f->head, param);
  k2s_instr_set_op(m, f->def, 1, k2s_type_function(m, k2s_type_void(m), NULL, 0));
  uint32_t fid = f->def->result;
  k2s_instr *ls = fid < c->n_local_size ? c->local_size[fid] : NULL;
  k = k2s_refl_kernel_of(m, f->def->result);
  if (ls) {
    k->has_reqd = true;
    memcpy(k->reqd, &ls->ops[2], sizeof(k->reqd));
  }
  return true;
}

bool k2s_lower_kernel_args(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  arg_ctx c = {.m = m, .o = o};
  bool changed = false;
  c.n_local_size = m->bound;
  c.local_size = k2s_alloc(&m->arena, (c.n_local_size + 1) * sizeof(*c.local_size));
  k2s_foreach_instr(x, &m->sec[K2S_SEC_EXECUTION_MODE])
    if (x->n_ops >= 5 && x->ops[1] == SpvExecutionModeLocalSize && x->ops[0] < c.n_local_size)
      c.local_size[x->ops[0]] = x;
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT])
  {
    k2s_function *f = e->n_ops >= 2 ? k2s_function_of_id(m, e->ops[1]) : NULL;
    if (!f || !f->first)
      continue;
    if (!lower_kernel(&c, e, f))
      return true;
    c.kernel_index++;
    changed = true;
  }
  return changed;
}
