/*
 * printf: OpenCL.std printf → records in one printf storage buffer the host decodes.
 *
 * Vulkan has no output stream. Each printf reserves a record in a storage buffer of
 * uints laid out as clspv lays it out (word 0: words used; records from word 1; a
 * record is the format's printf id, then each argument in a slot of its size rounded
 * up to words; a string-literal argument is the id of its own PrintfInfo), and returns
 * 0; when the record does not fit it writes nothing, counts the record in the buffer's
 * last word and returns -1 (k2s's addition: the host reports how many were lost). The
 * reservation is a compare-exchange loop on word 0, so word 0 never passes the space
 * there is and a full buffer never corrupts a record. Formats and argument sizes go to
 * the reflection (PrintfInfo, PrintfBufferStorageBuffer, JSON, descriptor map).
 * Runs after 'pointers' (format strings are then Private variables with initialisers)
 * and before 'wide-vectors' and 'builtins'. Option: -printf-buffer-size.
 */
#include <string.h>

#include "k2s_builder_ops.h"
#include "k2s_internal.h"
#include "printf_format.h"

/* One argument's slot: the 32-bit words its value is written as. */
typedef struct slot {
  uint32_t value;    /* the SPIR-V value (0: a constant, see `constant`) */
  uint32_t constant; /* a string literal's printf id */
  uint32_t words;
} slot;

typedef struct printf_ctx {
  k2s_module *m;
  const k2s_options *o;
  uint32_t buffer;       /* the storage buffer variable, made on first use */
  uint32_t u32, ptr_u32; /* uint and StorageBuffer pointer to uint */
  uint32_t next_id;
  uint32_t *strings; /* format and %s pointers of the printfs lowered, to sweep */
  uint32_t n_strings;
} printf_ctx;

/* ---- string literals ------------------------------------------------------ */

/* ---- reflection ----------------------------------------------------------- */

static uint32_t add_info(printf_ctx *c, const char *format, const slot *slots, uint32_t n)
{
  k2s_refl_facts *r = k2s_refl(c->m);
  r->printfs = k2s_realloc_array(&c->m->arena, r->printfs, r->n_printfs, r->n_printfs + 1,
                                 sizeof(*r->printfs));
  struct k2s_refl_printf *p = &r->printfs[r->n_printfs++];
  p->id = c->next_id++;
  p->format = format;
  p->n_args = n;
  p->arg_sizes = k2s_alloc(&c->m->arena, (n ? n : 1) * sizeof(uint32_t));
  for (uint32_t k = 0; k < n; k++)
    p->arg_sizes[k] = slots[k].words * 4;
  return p->id;
}

/* ---- arguments -------------------------------------------------------------- */

static const char *type_words(k2s_module *m, uint32_t t)
{
  k2s_instr *d = k2s_def(m, t);
  return d && d->opcode == SpvOpTypeFloat ? "floating-point" : "integer";
}

/* Sizes the slot of argument `arg` for specification s; false after an error. */
static bool plan_arg(printf_ctx *c, k2s_instr *at, const char *fmt, const k2s_printf_spec *s,
                     uint32_t arg, slot *out)
{
  k2s_module *m = c->m;
  uint32_t t = k2s_type_of(m, arg);
  k2s_instr *td = k2s_def(m, t);
  int len = (int)(s->end - s->start);
  const char *spec = fmt + s->start;
  *out = (slot){arg, 0, 1};
  if (!td) {
    k2s_error(m, at, "printf argument %%%u has no type", arg);
    return false;
  }
  if (td->opcode == SpvOpTypePointer) {
    if (s->conv == 's') {
      const char *str = k2s_string_literal(m, arg);
      if (!str) {
        k2s_error(m, at,
                  "printf's %.*s needs a string literal argument (OpenCL C allows %%s only "
                  "with literal strings); %%%u is not one",
                  len, spec, arg);
        return false;
      }
      *out = (slot){0, add_info(c, str, NULL, 0), 1};
      return true;
    }
    if (s->conv == 'p' && td->ops[0] == SpvStorageClassPhysicalStorageBuffer) {
      out->words = 2;
      return true;
    }
    k2s_error(m, at,
              s->conv == 'p'
                  ? "printf's %.*s prints an address: only --pointers=physical has addresses "
                    "of global/constant memory (here a pointer to %s memory)"
                  : "printf's %.*s does not take a pointer (%s memory)",
              len, spec, k2s_enumerant_name(K2S_OK_STORAGE_CLASS, td->ops[0]));
    return false;
  }
  if (s->conv == 's' || s->conv == 'p') {
    k2s_error(m, at, "printf's %.*s needs a %s argument, not %%%u", len, spec,
              s->conv == 's' ? "string literal" : "pointer", arg);
    return false;
  }
  uint32_t n = k2s_vector_size(m, t), w = k2s_type_width(m, t);
  if (!w) {
    k2s_error(m, at, "printf's %.*s: argument %%%u is not a number or vector", len, spec, arg);
    return false;
  }
  if (!s->vec) {
    if (n > 1) {
      k2s_error(m, at,
                "printf's %.*s is a scalar conversion but its argument is a %u-lane vector "
                "(OpenCL C writes vectors as %%vN<length><conversion>, e.g. %%v4hlf)",
                len, spec, n);
      return false;
    }
    out->words = w == 64 ? 2 : 1;
    /* A half scalar (clang promotes it, but other producers may not) prints as float.
     * clang promotes float (and half) arguments to double when the device has doubles;
     * the float itself prints the same and needs no Float64 on the device. */
    k2s_instr *d = k2s_def(m, arg);
    if (w == 64 && d && d->opcode == SpvOpFConvert &&
        k2s_type_width(m, k2s_type_of(m, d->ops[0])) < 64)
      out->words = 1;
    return true;
  }
  if (n != s->vec || w / 8 != s->length) {
    k2s_error(m, at,
              "printf's %.*s expects %u lanes of %u bytes, but the argument is a %u-lane vector "
              "of %u-bit %s values",
              len, spec, s->vec, s->length, n, w, type_words(m, k2s_scalar_type(m, t)));
    return false;
  }
  out->words = (n * w + 31) / 32;
  return true;
}

/* ---- code ------------------------------------------------------------------- */

static uint32_t buffer_var(printf_ctx *c)
{
  if (c->buffer)
    return c->buffer;
  k2s_module *m = c->m;
  /* Its own descriptor set, after every set used so far (kernel arguments,
   * program-scope variables): no binding can collide with it. */
  uint32_t set = 0, binding = 0;
  k2s_foreach_instr(d, &m->sec[K2S_SEC_ANNOTATION]) {
    if (d->opcode == SpvOpDecorate && d->n_ops >= 3 && d->ops[1] == SpvDecorationDescriptorSet &&
        d->ops[2] + 1 > set)
      set = d->ops[2] + 1;
  }
  uint32_t four = 4, zero = 0;
  uint32_t arr = k2s_type_runtime_array(m, c->u32);
  if (!k2s_find_decoration(m, arr, SpvDecorationArrayStride))
    k2s_decorate(m, arr, SpvDecorationArrayStride, &four, 1);
  uint32_t st = k2s_type_struct(m, &arr, 1);
  k2s_decorate(m, st, SpvDecorationBlock, NULL, 0);
  k2s_member_decorate(m, st, 0, SpvDecorationOffset, &zero, 1);
  uint32_t sc = SpvStorageClassStorageBuffer;
  c->buffer = k2s_global_variable(m, k2s_type_pointer(m, sc, st), sc, 0);
  k2s_decorate(m, c->buffer, SpvDecorationDescriptorSet, &set, 1);
  k2s_decorate(m, c->buffer, SpvDecorationBinding, &binding, 1);
  k2s_set_name(m, c->buffer, "printf_buffer");
  k2s_refl_facts *r = k2s_refl(m);
  r->has_printf = true;
  r->printf_set = set;
  r->printf_binding = binding;
  r->printf_size = c->o->printf_buffer_size;
  return c->buffer;
}

static uint32_t word_ptr(printf_ctx *c, k2s_builder *b, uint32_t index)
{
  uint32_t ops[3] = {c->buffer, k2s_const_uint32(c->m, 0), index};
  return k2s_emit(b, SpvOpAccessChain, c->ptr_u32, ops, 3);
}

/* A scalar's bits as an unsigned integer of its width. */
static uint32_t as_uint(k2s_builder *b, uint32_t x, uint32_t w)
{
  uint32_t t = k2s_type_int(b->m, w, false);
  return k2s_type_of(b->m, x) == t ? x : k2s_b_bitcast(b, t, x);
}

/* The value's lanes as 32-bit words, packed little-endian as OpenCL lays out vectors. */
static uint32_t emit_words(printf_ctx *c, k2s_builder *b, uint32_t value, uint32_t *out)
{
  k2s_module *m = c->m;
  uint32_t t = k2s_type_of(m, value), n = k2s_vector_size(m, t), w = k2s_type_width(m, t);
  uint32_t et = k2s_scalar_type(m, t), u = c->u32;
  k2s_instr *d = k2s_def(m, value);
  if (n == 1 && w == 16 && k2s_def(m, t)->opcode == SpvOpTypeFloat) {
    out[0] = k2s_b_bitcast(b, u, k2s_b_fconvert(b, k2s_type_float(m, 32), value));
    return 1;
  }
  if (n == 1 && w == 64 && d->opcode == SpvOpFConvert &&
      k2s_type_width(m, k2s_type_of(m, d->ops[0])) < 64) {
    /* A float promoted to double: the float (half: widened exactly to float). */
    uint32_t src = d->ops[0];
    if (k2s_type_width(m, k2s_type_of(m, src)) < 32)
      src = k2s_b_fconvert(b, k2s_type_float(m, 32), src);
    out[0] = k2s_b_bitcast(b, u, src);
    return 1;
  }
  uint32_t n_words = 0, bits = 0, cur = 0;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t lane = value;
    if (n > 1) {
      uint32_t ops[2] = {value, k};
      lane = k2s_emit(b, SpvOpCompositeExtract, et, ops, 2);
    }
    if (w == 64) {
      uint32_t pair = k2s_b_bitcast(b, k2s_type_vector(m, u, 2), lane);
      for (uint32_t h = 0; h < 2; h++) {
        uint32_t ops[2] = {pair, h};
        out[n_words++] = k2s_emit(b, SpvOpCompositeExtract, u, ops, 2);
      }
      continue;
    }
    uint32_t x = as_uint(b, lane, w);
    if (w < 32)
      x = k2s_b_uconvert(b, u, x);
    if (bits)
      x = k2s_b_bitwise_or(b, u, cur, k2s_b_shift_left_logical(b, u, x, k2s_const_uint32(m, bits)));
    cur = x;
    bits += w;
    if (bits == 32) {
      out[n_words++] = cur;
      bits = 0;
    }
  }
  if (bits)
    out[n_words++] = cur;
  return n_words;
}

/* Replaces printf `i` by the reservation loop and the record's stores:
 *   pre:   cur0 = atomic load word 0; br head
 *   head:  cur = phi(cur0, seen); end = cur + n; br end <= capacity ? try : drop
 *   try:   seen = compare-exchange(word 0, end, cur); br seen == cur ? write : head
 *   write: words cur+1 .. cur+n = record; br rest
 *   drop:  atomic increment of the last word; br rest
 *   rest:  result = phi(0 write, -1 drop)
 * (unstructured: 'structurize' adds the merges). */
static void emit_record(printf_ctx *c, k2s_instr *i, uint32_t id, const slot *slots,
                        uint32_t n_slots)
{
  k2s_module *m = c->m;
  uint32_t u = c->u32, bool_t = k2s_type_bool(m);
  uint32_t words = 1;
  for (uint32_t k = 0; k < n_slots; k++)
    words += slots[k].words;
  uint32_t total = c->o->printf_buffer_size / 4, capacity = total - 2;
  uint32_t device = k2s_const_uint32(m, SpvScopeDevice), relaxed = k2s_const_uint32(m, 0);

  /* The argument words are computed before the loop, where the arguments are. */
  k2s_builder b = {m, k2s_before(i)};
  uint32_t *vals = k2s_alloc(&m->arena, (words + 1) * sizeof(uint32_t));
  uint32_t nv = 0;
  vals[nv++] = k2s_const_uint32(m, id);
  for (uint32_t k = 0; k < n_slots; k++) {
    if (!slots[k].value)
      vals[nv++] = k2s_const_uint32(m, slots[k].constant);
    else if (slots[k].words == 2 &&
             k2s_def(m, k2s_type_of(m, slots[k].value))->opcode == SpvOpTypePointer)
      nv += emit_words(
          c, &b, k2s_b_convert_ptr_to_u(&b, k2s_type_int(m, 64, false), slots[k].value), vals + nv);
    else
      nv += emit_words(c, &b, slots[k].value, vals + nv);
  }
  uint32_t counter = word_ptr(c, &b, k2s_const_uint32(m, 0));
  uint32_t cur0 = k2s_b_atomic_load(&b, u, counter, device, relaxed);

  k2s_block *pre = i->block;
  k2s_function *f = pre->func;
  k2s_block *rest = k2s_split_block(m, i, k2s_new_id(m));
  k2s_block *head = k2s_block_new(m, f, k2s_new_id(m));
  k2s_block *try = k2s_block_new(m, f, k2s_new_id(m));
  k2s_block *write = k2s_block_new(m, f, k2s_new_id(m));
  k2s_block *drop = k2s_block_new(m, f, k2s_new_id(m));
  k2s_function_insert_block_after(f, pre, head);
  k2s_function_insert_block_after(f, head, try);
  k2s_function_insert_block_after(f, try, write);
  k2s_function_insert_block_after(f, write, drop);
  uint32_t hl = head->label->result;
  b = (k2s_builder){m, k2s_block_append(pre)};
  k2s_b_branch(&b, hl);

  uint32_t cur = k2s_new_id(m), seen = k2s_new_id(m);
  uint32_t phi_ops[4] = {cur0, pre->label->result, seen, try->label->result};
  k2s_instr *phi = k2s_instr_new(m, SpvOpPhi, u, cur, phi_ops, 4);
  phi->block = head;
  k2s_list_append(&head->body, phi);
  b = (k2s_builder){m, k2s_block_append(head)};
  uint32_t end = k2s_b_iadd(&b, u, cur, k2s_const_uint32(m, words));
  uint32_t fits = k2s_b_uless_than_equal(&b, bool_t, end, k2s_const_uint32(m, capacity));
  uint32_t br[3] = {fits, try->label->result, drop->label->result};
  k2s_emit(&b, SpvOpBranchConditional, 0, br, 3);

  b = (k2s_builder){m, k2s_block_append(try)};
  uint32_t cas[6] = {counter, device, relaxed, relaxed, end, cur};
  k2s_instr *x = k2s_emit_instr(&b, SpvOpAtomicCompareExchange, u, cas, 6);
  m->def[x->result] = NULL;
  x->result = seen;
  k2s_set_def(m, seen, x);
  uint32_t won = k2s_b_iequal(&b, bool_t, seen, cur);
  uint32_t br2[3] = {won, write->label->result, hl};
  k2s_emit(&b, SpvOpBranchConditional, 0, br2, 3);

  b = (k2s_builder){m, k2s_block_append(write)};
  for (uint32_t k = 0; k < nv; k++) {
    uint32_t index = k2s_b_iadd(&b, u, cur, k2s_const_uint32(m, k + 1));
    k2s_b_store(&b, word_ptr(c, &b, index), vals[k]);
  }
  k2s_b_branch(&b, rest->label->result);

  b = (k2s_builder){m, k2s_block_append(drop)};
  uint32_t lost = word_ptr(c, &b, k2s_const_uint32(m, total - 1));
  k2s_b_atomic_iadd(&b, u, lost, device, relaxed, k2s_const_uint32(m, 1));
  k2s_b_branch(&b, rest->label->result);

  uint32_t res_ops[4] = {k2s_const_int(m, i->type, 0), write->label->result,
                         k2s_const_int(m, i->type, UINT64_MAX), drop->label->result};
  k2s_instr *res = k2s_instr_new(m, SpvOpPhi, i->type, k2s_new_id(m), res_ops, 4);
  res->block = rest;
  k2s_list_insert_before(&rest->body, rest->body.first, res);
  k2s_replace_all_uses(m, i->result, res->result);
  k2s_instr_delete(m, i);
}

/* ---- one printf ------------------------------------------------------------- */

/* The format as a C string literal for messages (newlines and quotes escaped). */
static const char *quoted(k2s_module *m, const char *s)
{
  k2s_strbuf sb = {.arena = &m->arena};
  k2s_sb_puts(&sb, "\"");
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '\n')
      k2s_sb_puts(&sb, "\\n");
    else if (ch == '"' || ch == '\\')
      k2s_sb_printf(&sb, "\\%c", ch);
    else if (ch < 32 || ch == 127)
      k2s_sb_printf(&sb, "\\x%02x", ch);
    else
      k2s_sb_printf(&sb, "%c", ch);
  }
  k2s_sb_puts(&sb, "\"");
  return sb.data;
}

static bool is_printf(const k2s_module *m, const k2s_instr *i)
{
  return i->opcode == SpvOpExtInst && i->n_ops >= 3 && i->ops[0] < m->id_cap &&
         m->ext_set[i->ops[0]] == K2S_EXT_OPENCL_STD && i->ops[1] == K2S_OPENCL_STD_printf;
}

static bool lower_one(printf_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  const char *fmt = k2s_string_literal(m, i->ops[2]);
  if (!fmt) {
    k2s_error(m, i,
              "printf's format (%%%u) is not a string literal: OpenCL C requires a "
              "constant format string, which the reflection carries to the host",
              i->ops[2]);
    return false;
  }
  size_t len = strlen(fmt), pos = 0;
  uint32_t n_args = i->n_ops - 3, n_slots = 0;
  slot *slots = k2s_alloc(&m->arena, (n_args + 1) * sizeof(slot));
  k2s_printf_spec s;
  const char *why = NULL;
  int r;
  while ((r = k2s_printf_next(fmt, len, &pos, &s, &why)) > 0) {
    if (s.conv == '%')
      continue;
    if (n_slots == n_args) {
      k2s_error(m, i, "printf's format %s has more conversions than the %u argument(s)",
                quoted(m, fmt), n_args);
      return false;
    }
    if (!plan_arg(c, i, fmt, &s, i->ops[3 + n_slots], &slots[n_slots]))
      return false;
    n_slots++;
  }
  if (r < 0) {
    k2s_error(m, i, "printf format %s, at byte %zu: %s", quoted(m, fmt), s.start, why);
    return false;
  }
  uint32_t id = add_info(c, fmt, slots, n_slots);
  buffer_var(c);
  /* The string pointers go with the printf (swept afterwards). */
  c->strings = k2s_realloc_array(&m->arena, c->strings, c->n_strings, c->n_strings + n_args + 1,
                                 sizeof(uint32_t));
  for (uint32_t k = 2; k < i->n_ops; k++)
    if (k2s_def(m, k2s_type_of(m, i->ops[k]))->opcode == SpvOpTypePointer)
      c->strings[c->n_strings++] = i->ops[k];
  /* Arguments past the conversions are evaluated (they are values already) and ignored. */
  emit_record(c, i, id, slots, n_slots);
  return true;
}

/* The pointers into string literals only the lowered printfs used go, so the literals'
 * variables (Private copies by now) are dead and 'finalize' drops them. */
static void sweep_strings(printf_ctx *c)
{
  k2s_module *m = c->m;
  for (uint32_t k = 0; k < c->n_strings; k++) {
    for (uint32_t id = c->strings[k]; id;) {
      k2s_instr *d = k2s_def(m, id);
      if (!d || !d->block || k2s_uses_of(m, id))
        break;
      switch (d->opcode) {
      case SpvOpAccessChain:
      case SpvOpInBoundsAccessChain:
      case SpvOpPtrAccessChain:
      case SpvOpInBoundsPtrAccessChain:
      case SpvOpBitcast:
      case SpvOpCopyObject: break;
      default: id = 0; continue;
      }
      uint32_t base = d->ops[0];
      k2s_instr_delete(m, d); /* its uses drop out of the chains as they are read */
      id = base;
    }
  }
}

static bool uses_printf(const k2s_module *m, k2s_function *f)
{
  k2s_foreach_block(b, f)
    k2s_foreach_instr(i, &b->body)
      if (is_printf(m, i))
        return true;
  return false;
}

bool k2s_lower_printf(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  printf_ctx c = {m, o, 0, 0, 0, 0, NULL, 0};
  bool changed = false, in_helper = false;
  k2s_foreach_function(f, m) {
    if (!uses_printf(m, f))
      continue;
    if (o->printf_buffer_size < 16 || o->printf_buffer_size % 4) {
      k2s_error(m, NULL,
                "the printf buffer size is %u bytes; printf needs a multiple of 4, at least "
                "16 (-printf-buffer-size)",
                o->printf_buffer_size);
      return false;
    }
    if (!c.u32) { /* types only for a module with printf: no change otherwise */
      c.u32 = k2s_type_int(m, 32, false);
      c.ptr_u32 = k2s_type_pointer(m, SpvStorageClassStorageBuffer, c.u32);
    }
    k2s_refl_kernel *k = k2s_refl_kernel_of(m, f->def->result);
    if (k)
      k->may_use_printf = true;
    else
      in_helper = true;
    k2s_foreach_block(b, f)
      k2s_foreach_instr_safe(i, &b->body) {
        if (!is_printf(m, i))
          continue;
        if (!lower_one(&c, i))
          return changed;
        changed = true;
        /* The rest of this block moved to a new block, which the walk reaches next. */
        break;
      }
  }
  /* A helper function's printf may run under any kernel (clspv marks them all). */
  k2s_refl_facts *r = k2s_refl(m);
  for (uint32_t k = 0; in_helper && k < r->n_kernels; k++)
    r->kernels[k].may_use_printf = true;
  if (changed && !m->failed)
    sweep_strings(&c);
  return changed;
}
