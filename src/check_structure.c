/*
 * A light structural check of the input, run before the input repair and the
 * passes: the facts every pass relies on without checking them again. spirv-val
 * checks all of this and much more, but --no-validate-input skips it, and the
 * passes then met, for example, a block without a terminator (a NULL
 * dereference when a call was split), an integer of width 7 (a division by
 * zero in the data layout) or a vector of 17 lanes (a 16-entry array
 * overrun). Here each becomes a clear error naming the instruction.
 *
 * Checked: scalar widths and vector shapes; that every result type, pointee,
 * member, element and parameter names a type; arrays' lengths are integer
 * constants; functions agree with their OpTypeFunction; every block ends in
 * exactly one terminator with phis first and a merge instruction only before
 * it; branch targets are labels of the same function; calls name functions
 * with the right number of arguments; OpExtInst names an OpExtInstImport.
 * Under --no-validate-input also: value operands name values (check_values).
 * Not checked: operand value types (the passes that need them check them).
 */
#include "k2s_internal.h"

/* A type declaration: the grammar's class (OpTypeForwardPointer, in it, defines no id). */
static bool is_type_op(uint16_t op)
{
  return k2s_opcode_class(op) == K2S_CLASS_TYPE_DECLARATION;
}

static const k2s_instr *def_of(const k2s_module *m, uint32_t id)
{
  return k2s_def(m, id);
}

static bool is_type(const k2s_module *m, uint32_t id)
{
  const k2s_instr *d = def_of(m, id);
  return d && is_type_op(d->opcode);
}

static uint16_t opcode_of(const k2s_module *m, uint32_t id)
{
  const k2s_instr *d = def_of(m, id);
  return d ? d->opcode : 0;
}

/* Whether type holds a bool (through vectors, arrays and structs, not pointers). */
static bool holds_bool(const k2s_module *m, uint32_t type, int depth)
{
  const k2s_instr *d = def_of(m, type);
  if (!d || depth > 64)
    return false;
  switch (d->opcode) {
  case SpvOpTypeBool: return true;
  case SpvOpTypeVector:
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray: return d->n_ops >= 1 && holds_bool(m, d->ops[0], depth + 1);
  case SpvOpTypeStruct:
    for (uint32_t k = 0; k < d->n_ops; k++)
      if (holds_bool(m, d->ops[k], depth + 1))
        return true;
    return false;
  default: return false;
  }
}

static bool fail(k2s_module *m, const k2s_instr *at, const char *what)
{
  k2s_error(m, at, "malformed input module: %s", what);
  return false;
}

/* The types the passes build on: widths the data layout knows, vector shapes
 * the lane code handles, aggregates of types. */
static bool check_type(k2s_module *m, const k2s_instr *i)
{
  switch (i->opcode) {
  case SpvOpTypeInt:
    if (i->n_ops < 2 || (i->ops[0] != 8 && i->ops[0] != 16 && i->ops[0] != 32 && i->ops[0] != 64))
      return fail(m, i, "an integer type must be 8, 16, 32 or 64 bits wide");
    if (i->ops[1] > 1)
      return fail(m, i, "an integer type's signedness must be 0 or 1");
    return true;
  case SpvOpTypeFloat:
    if (i->n_ops < 1 || (i->ops[0] != 16 && i->ops[0] != 32 && i->ops[0] != 64))
      return fail(m, i, "a float type must be 16, 32 or 64 bits wide");
    return true;
  case SpvOpTypeVector: {
    uint16_t e = i->n_ops >= 2 ? opcode_of(m, i->ops[0]) : 0;
    if (e != SpvOpTypeInt && e != SpvOpTypeFloat && e != SpvOpTypeBool)
      return fail(m, i, "a vector's component type must be an integer, float or bool type");
    uint32_t n = i->ops[1];
    if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
      return fail(m, i, "a vector must have 2, 3, 4, 8 or 16 components");
    return true;
  }
  case SpvOpTypeArray: {
    if (i->n_ops < 2 || !is_type(m, i->ops[0]) || opcode_of(m, i->ops[0]) == SpvOpTypeVoid)
      return fail(m, i, "an array's element type must be a non-void type");
    const k2s_instr *len = def_of(m, i->ops[1]);
    if (!len ||
        (len->opcode != SpvOpConstant && len->opcode != SpvOpSpecConstant &&
         len->opcode != SpvOpSpecConstantOp) ||
        opcode_of(m, len->type) != SpvOpTypeInt)
      return fail(m, i, "an array's length must be an integer constant");
    uint64_t v;
    if (len->opcode == SpvOpConstant && k2s_const_value(m, len->result, &v) && v == 0)
      return fail(m, i, "an array's length must be at least 1");
    return true;
  }
  case SpvOpTypeRuntimeArray:
    if (i->n_ops < 1 || !is_type(m, i->ops[0]) || opcode_of(m, i->ops[0]) == SpvOpTypeVoid)
      return fail(m, i, "an array's element type must be a non-void type");
    return true;
  case SpvOpTypeStruct:
    for (uint32_t k = 0; k < i->n_ops; k++)
      if (!is_type(m, i->ops[k]) || opcode_of(m, i->ops[k]) == SpvOpTypeVoid)
        return fail(m, i, "a struct member must be a non-void type");
    return true;
  case SpvOpTypePointer:
    /* The pointee may be a forward-declared struct, defined later. */
    if (i->n_ops < 2 || (!is_type(m, i->ops[1]) && def_of(m, i->ops[1])))
      return fail(m, i, "a pointer's pointee must be a type");
    if ((i->ops[0] == SpvStorageClassCrossWorkgroup || i->ops[0] == SpvStorageClassWorkgroup ||
         i->ops[0] == SpvStorageClassUniformConstant) &&
        holds_bool(m, i->ops[1], 0)) {
      /* spirv-val accepts this, and the data layout divided by bool's size 0. */
      k2s_error(m, i,
                "a bool in %s memory has no size or layout in OpenCL (kernel arguments and "
                "shared memory hold char or int instead); k2s cannot translate it",
                i->ops[0] == SpvStorageClassWorkgroup ? "local" : "global or constant");
      return false;
    }
    return true;
  case SpvOpTypeFunction:
    for (uint32_t k = 0; k < i->n_ops; k++)
      if (!is_type(m, i->ops[k]) || (k > 0 && opcode_of(m, i->ops[k]) == SpvOpTypeVoid))
        return fail(m, i,
                    "a function type's return and parameter types must be types "
                    "(parameters not void)");
    return true;
  default: return true;
  }
}

/* A constant's type must fit it: the data layout and the constant folders
 * read its words by that type. */
static bool check_constant(k2s_module *m, const k2s_instr *i)
{
  uint16_t t = opcode_of(m, i->type);
  switch (i->opcode) {
  case SpvOpConstant:
  case SpvOpSpecConstant: {
    if (t != SpvOpTypeInt && t != SpvOpTypeFloat)
      return fail(m, i, "a scalar constant's type must be an integer or float type");
    uint32_t need = k2s_type_width(m, i->type) > 32 ? 2 : 1;
    if (i->n_ops != need)
      return fail(m, i, "a scalar constant's words do not match its type's width");
    return true;
  }
  case SpvOpConstantTrue:
  case SpvOpConstantFalse:
  case SpvOpSpecConstantTrue:
  case SpvOpSpecConstantFalse:
    if (t != SpvOpTypeBool)
      return fail(m, i, "a boolean constant's type must be OpTypeBool");
    return true;
  case SpvOpConstantComposite:
  case SpvOpSpecConstantComposite: {
    const k2s_instr *ty = def_of(m, i->type);
    uint32_t want = 0;
    if (t == SpvOpTypeVector)
      want = ty->ops[1];
    else if (t == SpvOpTypeStruct)
      want = ty->n_ops;
    else if (t == SpvOpTypeArray) {
      uint64_t v;
      want = k2s_const_value(m, ty->ops[1], &v) && v <= UINT32_MAX ? (uint32_t)v : i->n_ops;
    } else
      return fail(m, i, "a composite constant's type must be a vector, array or struct");
    if (i->n_ops != want)
      return fail(m, i, "a composite constant's number of constituents does not match its type");
    return true;
  }
  default: return true;
  }
}

typedef struct check {
  k2s_module *m;
  bool values; /* also check value operands (--no-validate-input) */
  /* label_fn[id]: 1 + the ordinal of the function whose block id labels; one
   * array for the whole check (never one per function). */
  uint32_t *label_fn;
  /* local_fn[id]: the same for every result id of a function's parameters and
   * body (only with `values`): a value of another function has no meaning
   * here, and the passes (which rewrite each function's values, pointer types
   * included) read a stale definition through it. */
  uint32_t *local_fn;
  uint32_t cur_fn; /* 1 + the ordinal of the function being checked */
} check;

static bool check_target(const check *c, const k2s_instr *at, uint32_t label)
{
  k2s_module *m = c->m;
  if (label >= m->bound || c->label_fn[label] != c->cur_fn)
    return fail(m, at, "a branch or merge target must be a label of the same function");
  return true;
}

/* Value operands, checked only when spirv-val does not run (--no-validate-input):
 * the passes ask a value's type and look at its definition, and a type, label
 * or undefined id in a value's place made that a NULL dereference (a fuzzed
 * OpAtomicFMinEXT whose Pointer named a type id, in lower_atomics). Which <id>
 * operands are values is the grammar's (k2s_operand.value: every IdRef, IdScope
 * and IdMemorySemantics operand but those naming a label, function, type, string
 * or set; src/gen_tables.py), for core opcodes and the extended sets k2s knows;
 * no <id> operand may name another function's value (labels of the same function
 * are check_target's). An opcode the grammar does not know is left alone. */
typedef struct value_scan {
  const check *c;
  const uint32_t *bad;
} value_scan;

static bool foreign_value(const check *c, uint32_t id)
{
  return c->local_fn && id < c->m->bound && c->local_fn[id] && c->local_fn[id] != c->cur_fn;
}

static bool value_operand(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  value_scan *s = ud;
  if (op->cls != K2S_OPND_ID)
    return true;
  const uint32_t *id = &in->ops[op->word];
  const k2s_instr *d = def_of(s->c->m, *id);
  if ((op->value && (!d || !d->type)) || foreign_value(s->c, *id)) {
    s->bad = id;
    return false;
  }
  return true;
}

typedef struct value_quick {
  const check *c;
  bool unsure;
} value_quick;

static void quick_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  value_quick *q = ud;
  const k2s_instr *d = def_of(q->c->m, *id);
  q->unsure |= !d || !d->type || foreign_value(q->c, *id);
}

static bool check_values(const check *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  value_scan s = {c, NULL};
  /* Only an id naming no typed value of this function can be wrong, and only then
   * does it matter whether the grammar takes a value there: the fast id decoding
   * first, the grammar walk (which knows) only for an instruction with such an id
   * (the walk of every instruction was two thirds of this check). */
  value_quick q = {c, false};
  k2s_foreach_id_operand(m, i, quick_operand, &q);
  /* A walk that fails (words that do not fit the grammar) is the parser's to report. */
  if (q.unsure)
    k2s_walk_operands(m, i, value_operand, &s);
  if (!s.bad) {
    /* Memory operands (the grammar's, k2s_pointer_operands) are pointers:
     * the passes take their pointee and storage class from the pointer type
     * (an atomic on a bool value read the operands of OpTypeBool, which has
     * none: the second fuzz finding in lower_atomics), and validating the
     * output does not catch every misuse (spirv-val 2023.1 passed an
     * OpSubgroupBlockReadINTEL whose Ptr was an integer). */
    uint8_t ptrs = k2s_pointer_operands(i->opcode);
    for (uint32_t k = 0; ptrs >> k && k < i->n_ops; k++) {
      if (!(ptrs >> k & 1))
        continue;
      const k2s_instr *v = def_of(m, i->ops[k]);
      if (!v || opcode_of(m, v->type) != SpvOpTypePointer) {
        k2s_error(m, i, "malformed input module: operand %%%u of this instruction must be a pointer",
                  i->ops[k]);
        return false;
      }
    }
    return true;
  }
  const k2s_instr *d = def_of(m, *s.bad);
  k2s_error(m, i,
            "malformed input module: operand %%%u of this instruction must be a value, but %s",
            *s.bad,
            !d                        ? "it is not defined"
            : is_type_op(d->opcode)   ? "it is a type"
            : !d->type                ? "it is not a value (a label, string or import)"
                                      : "it is defined in another function");
  return false;
}

/* OpenCL.std operands have the shapes the instruction set defines: its
 * pointer operands (named in the grammar; tables' `pointers`) are pointers,
 * every other operand a scalar or vector. spirv-val 2023.1 asks a Data
 * operand's bit width before it checks the operand's type, and crashes when
 * it has none: a fuzzed vstore_half whose data was a pointer parameter
 * (SIGSEGV in ValidateExtInst, 10 M run on the GPU machine). Checked before
 * validation, so in both modes; printf's arguments may be anything. */
static bool check_opencl_std(k2s_module *m, const k2s_instr *i)
{
  if (i->n_ops < 2 || i->ops[0] >= m->id_cap || !m->ext_set ||
      m->ext_set[i->ops[0]] != K2S_EXT_OPENCL_STD)
    return true;
  const k2s_extinst_info *x = k2s_extinst_set_inst(&k2s_extinst_sets[K2S_EXT_OPENCL_STD], i->ops[1]);
  if (!x)
    return true; /* spirv-val names an unknown instruction */
  const k2s_operand_desc *d = k2s_extinst_info_operands(x);
  for (uint32_t k = 0; k + 2 < i->n_ops && k < x->n_operands; k++) {
    if (d[k].quantifier == K2S_Q_MANY)
      break;
    if (d[k].kind != K2S_OK_ID_REF)
      continue;
    const k2s_instr *v = def_of(m, i->ops[k + 2]);
    uint16_t t = v && v->type ? opcode_of(m, v->type) : 0;
    bool want_ptr = x->pointers >> k & 1;
    bool ok = want_ptr ? t == SpvOpTypePointer
                       : t == SpvOpTypeInt || t == SpvOpTypeFloat || t == SpvOpTypeBool ||
                             t == SpvOpTypeVector;
    if (!ok) {
      k2s_error(m, i,
                "malformed input module: operand %u of OpenCL.std %s must be %s", k + 1, k2s_extinst_info_name(x),
                want_ptr ? "a pointer" : "a scalar or vector value");
      return false;
    }
  }
  return true;
}

static bool check_block(const check *c, k2s_block *b)
{
  k2s_module *m = c->m;
  k2s_instr *last = b->body.last;
  if (!last || !k2s_is_terminator(last->opcode))
    return fail(m, last ? last : b->label,
                "a block must end in a branch, return, OpKill or OpUnreachable (this block "
                "has no terminator)");
  bool past_phis = false;
  k2s_foreach_instr(i, &b->body) {
    if (i != last && k2s_is_terminator(i->opcode))
      return fail(m, i, "a terminator must be the last instruction of its block");
    /* A merge instruction anywhere else is left alone: llvm-spirv 15 puts
     * #pragma unroll's OpLoopMerge away from the terminator, and the input
     * repair drops such hints (structurize recomputes every merge). */
    if (i->opcode == SpvOpPhi) {
      if (past_phis)
        return fail(m, i, "OpPhi must come before the other instructions of its block");
      if (i->n_ops % 2)
        return fail(m, i, "OpPhi must list (value, parent block) pairs");
      for (uint32_t k = 1; k < i->n_ops; k += 2)
        if (!check_target(c, i, i->ops[k]))
          return false;
    } else if (i->opcode != SpvOpLine && i->opcode != SpvOpNoLine && !k2s_is_debug_info(m, i) &&
               i->opcode != SpvOpLoopMerge && i->opcode != SpvOpSelectionMerge) {
      /* llvm-spirv 15 puts DebugScope and #pragma unroll's merges before
       * phis: the input repair's to mend, not malformed structure. */
      past_phis = true;
    }
    if (i->type && !is_type(m, i->type))
      return fail(m, i, "the result type is not a type");
    if (c->values && !k2s_is_debug_info(m, i) && !check_values(c, i))
      return false;
    switch (i->opcode) {
    case SpvOpBranch:
      if (i->n_ops < 1 || !check_target(c, i, i->ops[0]))
        return false;
      break;
    case SpvOpBranchConditional:
      if (i->n_ops < 3 || !check_target(c, i, i->ops[1]) || !check_target(c, i, i->ops[2]))
        return false;
      break;
    case SpvOpSwitch:
      if (i->n_ops < 2 || !check_target(c, i, i->ops[1]))
        return false;
      /* (literal, label) pairs; the literal's width follows the selector's type. */
      {
        uint32_t lw = k2s_type_width(m, k2s_type_of(m, i->ops[0])) > 32 ? 2 : 1;
        if ((i->n_ops - 2) % (lw + 1))
          return fail(m, i, "OpSwitch's (literal, label) pairs do not fit its selector's width");
        for (uint32_t k = 2 + lw; k < i->n_ops; k += lw + 1)
          if (!check_target(c, i, i->ops[k]))
            return false;
      }
      break;
    case SpvOpSelectionMerge:
      if (i->n_ops < 1 || !check_target(c, i, i->ops[0]))
        return false;
      break;
    case SpvOpLoopMerge:
      if (i->n_ops < 2 || !check_target(c, i, i->ops[0]) || !check_target(c, i, i->ops[1]))
        return false;
      break;
    case SpvOpFunctionCall: {
      const k2s_function *callee = i->n_ops ? k2s_function_of_id(m, i->ops[0]) : NULL;
      if (!callee)
        return fail(m, i, "OpFunctionCall must name a function of the module");
      const k2s_instr *ft = def_of(m, callee->def->ops[1]);
      if (ft && i->n_ops - 1 != ft->n_ops - 1)
        return fail(m, i,
                    "OpFunctionCall passes a different number of arguments than the "
                    "function takes");
      break;
    }
    case SpvOpExtInst:
      if (i->n_ops < 2 || opcode_of(m, i->ops[0]) != SpvOpExtInstImport)
        return fail(m, i, "OpExtInst must name an OpExtInstImport");
      if (!check_opencl_std(m, i))
        return false;
      break;
    case SpvOpVariable:
      if (opcode_of(m, i->type) != SpvOpTypePointer)
        return fail(m, i, "a variable's type must be a pointer type");
      break;
    default: break;
    }
  }
  return true;
}

static bool check_function(const check *c, k2s_function *f)
{
  k2s_module *m = c->m;
  const k2s_instr *fd = f->def;
  const k2s_instr *ft = fd->n_ops >= 2 ? def_of(m, fd->ops[1]) : NULL;
  if (!ft || ft->opcode != SpvOpTypeFunction)
    return fail(m, fd, "OpFunction's function type must be an OpTypeFunction");
  if (ft->n_ops < 1 || ft->ops[0] != fd->type)
    return fail(m, fd, "OpFunction's result type must be its function type's return type");
  uint32_t k = 1;
  k2s_foreach_instr(p, &f->head) {
    if (p->opcode != SpvOpFunctionParameter)
      continue;
    if (k >= ft->n_ops || p->type != ft->ops[k])
      return fail(m, p, "the function's parameters do not match its function type");
    k++;
  }
  if (k != ft->n_ops)
    return fail(m, fd, "the function has fewer parameters than its function type");
  for (k2s_block *b = f->first; b; b = b->next)
    if (!check_block(c, b))
      return false;
  return true;
}

/* The part of the check that keeps spirv-val itself from crashing, for a
 * pipeline that skips the structure check (--passes=none validates the input,
 * and its output, as they are). */
bool k2s_check_validator_hazards(k2s_module *m)
{
  k2s_foreach_function(f, m) {
    for (k2s_block *b = f->first; b; b = b->next)
      k2s_foreach_instr(i, &b->body) {
        if (i->opcode == SpvOpExtInst && !check_opencl_std(m, i))
          return false;
      }
  }
  return true;
}

bool k2s_check_structure(k2s_module *m, bool values)
{
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL]) {
    if (i->type && !is_type(m, i->type))
      return fail(m, i, "the result type is not a type");
    if (!check_type(m, i) || !check_constant(m, i))
      return false;
    if (i->opcode == SpvOpVariable && opcode_of(m, i->type) != SpvOpTypePointer)
      return fail(m, i, "a variable's type must be a pointer type");
  }
  size_t map_bytes = (size_t)m->bound * sizeof(uint32_t);
  check c = {m, values, k2s_alloc(&m->arena, map_bytes),
             values ? k2s_alloc(&m->arena, map_bytes) : NULL, 0};
  uint32_t ord = 0;
  k2s_foreach_function(f, m) {
    ord++;
    for (k2s_block *b = f->first; b; b = b->next)
      if (b->label && b->label->result < m->bound)
        c.label_fn[b->label->result] = ord;
    if (!values)
      continue;
    k2s_foreach_instr(p, &f->head)
      if (p->result && p->result < m->bound)
        c.local_fn[p->result] = ord;
    for (k2s_block *b = f->first; b; b = b->next)
      k2s_foreach_instr(i, &b->body)
        if (i->result && i->result < m->bound) /* 0: no result */
          c.local_fn[i->result] = ord;
  }
  k2s_foreach_function(f, m) {
    c.cur_fn++;
    if (!check_function(&c, f))
      return false;
  }
  return true;
}
