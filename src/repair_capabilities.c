/*
 * Input repair (called from k2s_repair_compat, before input validation): the
 * Shader capability declared in a Kernel module for instructions that do not
 * need it.
 *
 * Workaround for llvm-spirv 15: it translates llvm.bitreverse (clang emits it
 * for a loop that reverses bits, at -O2) into OpBitReverse and declares
 * `OpCapability Shader` for it, with the Matrix capability Shader implies,
 * also when SPV_KHR_bit_instructions is allowed (it then declares
 * BitInstructions too). spirv-val 2023.1 applies the Shader rules to any
 * module that declares Shader, Kernel or not: the first loop of a Kernel
 * module without merge instructions is "Back-edges ... can only be formed
 * between a block and a loop header", and the module was refused as invalid
 * input (corpus bit_ops_widths_ref at -O2).
 *
 * When the module declares Kernel and nothing in it needs Shader or Matrix
 * but OpBitReverse, OpBitFieldInsert, OpBitFieldSExtract and
 * OpBitFieldUExtract, both capabilities go; those instructions take the
 * capability SPIR-V gives Kernel modules for them, BitInstructions of
 * SPV_KHR_bit_instructions (which spirv-val 2023.1 accepts in the OpenCL
 * environments). What needs Shader or Matrix is read from the grammar's
 * tables: an instruction, an enumerant operand, or another declared
 * capability that implies them; any of these leaves the module as it is,
 * for the validator to judge.
 */
#include "k2s_internal.h"

typedef struct shader_uses {
  k2s_module *m;
  const k2s_instr *bit_op; /* first bit instruction that named Shader */
  const k2s_instr *needs;  /* first instruction that really needs Shader/Matrix */
} shader_uses;

static bool is_shader_cap(uint32_t cap)
{
  return cap == SpvCapabilityShader || cap == SpvCapabilityMatrix;
}

/* Whether cap is `wanted` or implies it through the grammar's capability
 * dependencies (Geometry -> Shader -> Matrix). */
static bool implies(uint32_t cap, uint32_t wanted, int depth)
{
  if (cap == wanted)
    return true;
  const k2s_enumerant *e = k2s_enumerant_of(K2S_OK_CAPABILITY, cap);
  for (uint32_t k = 0; e && depth < 8 && k < e->n_caps; k++)
    if (implies(k2s_enumerant_caps(e)[k], wanted, depth + 1))
      return true;
  return false;
}

/* Whether a capability other than Shader and Matrix that the module declares
 * enables cap (declares it, or implies it). */
static bool enabled_without_shader(const k2s_module *m, uint32_t cap)
{
  k2s_foreach_instr(i, &m->sec[K2S_SEC_CAPABILITY])
    if (i->n_ops == 1 && !is_shader_cap(i->ops[0]) && implies(i->ops[0], cap, 0))
      return true;
  return false;
}

/* Whether a construct the grammar enables by any of list[] needs Shader or
 * Matrix here: one of them is in the list and nothing else declared enables it. */
static bool needs_shader(const k2s_module *m, const uint16_t *list, uint32_t n)
{
  bool shader = false;
  for (uint32_t k = 0; k < n; k++) {
    if (enabled_without_shader(m, list[k]))
      return false;
    shader |= is_shader_cap(list[k]);
  }
  return shader;
}

static bool is_bit_instruction(uint16_t opcode)
{
  const k2s_opcode_info *info = k2s_opcode(opcode);
  for (uint32_t k = 0; info && k < info->n_caps; k++)
    if (k2s_opcode_info_caps(info)[k] == SpvCapabilityBitInstructions)
      return true;
  return false;
}

static bool enum_operand(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  shader_uses *u = ud;
  if (op->cls != K2S_OPND_ENUM || op->kind == K2S_OK_CAPABILITY)
    return true;
  const k2s_enumerant *en;
  for (uint32_t at = 0; (en = k2s_next_named_enumerant(in, op, &at));)
    if (needs_shader(u->m, k2s_enumerant_caps(en), en->n_caps)) {
      u->needs = in;
      return false;
    }
  return true;
}

static void scan(shader_uses *u, const k2s_instr *i)
{
  if (u->needs || i->opcode == SpvOpCapability)
    return;
  const k2s_opcode_info *info = k2s_opcode(i->opcode);
  if (info && needs_shader(u->m, k2s_opcode_info_caps(info), info->n_caps)) {
    if (!is_bit_instruction(i->opcode)) {
      u->needs = i;
      return;
    }
    if (!u->bit_op)
      u->bit_op = i;
  }
  k2s_foreach_enum_operand(u->m, i, enum_operand, u);
}

static void scan_list(shader_uses *u, const k2s_list *l)
{
  k2s_foreach_instr(i, l)
    scan(u, i);
}

static void scan_module(shader_uses *u)
{
  k2s_module *m = u->m;
  for (int s = 0; s < K2S_SEC_COUNT; s++)
    scan_list(u, &m->sec[s]);
  k2s_foreach_function(f, m) {
    if (f->def)
      scan(u, f->def);
    scan_list(u, &f->head);
    k2s_foreach_block(b, f) {
      if (b->label)
        scan(u, b->label);
      scan_list(u, &b->body);
    }
  }
  scan_list(u, &m->tail);
}

static const k2s_instr *declared(const k2s_module *m, uint32_t cap)
{
  k2s_foreach_instr(i, &m->sec[K2S_SEC_CAPABILITY])
    if (i->n_ops == 1 && i->ops[0] == cap)
      return i;
  return NULL;
}

bool k2s_repair_shader_capability(k2s_module *m);
bool k2s_repair_shader_capability(k2s_module *m)
{
  const k2s_instr *shader = declared(m, SpvCapabilityShader);
  const k2s_instr *matrix = declared(m, SpvCapabilityMatrix);
  if (!declared(m, SpvCapabilityKernel) || (!shader && !matrix))
    return false;
  /* Another declared capability that implies Shader (Geometry, ...) means the
   * module is meant to be a Shader module too: not a producer quirk. */
  k2s_foreach_instr(i, &m->sec[K2S_SEC_CAPABILITY])
    if (i->n_ops == 1 && !is_shader_cap(i->ops[0]) &&
        (implies(i->ops[0], SpvCapabilityShader, 0) || implies(i->ops[0], SpvCapabilityMatrix, 0)))
      return false;
  shader_uses u = {.m = m};
  scan_module(&u);
  if (u.needs)
    return false;
  const char *what = shader && matrix ? "Shader and Matrix capabilities"
                     : shader         ? "Shader capability"
                                      : "Matrix capability";
  if (u.bit_op) {
    k2s_warn(m, u.bit_op,
             "repaired input: the Kernel module declares the %s for %s (llvm-spirv 15 does so "
             "for llvm.bitreverse), which makes spirv-val apply Shader rules such as "
             "structured control flow to it; they became the BitInstructions capability "
             "(SPV_KHR_bit_instructions)",
             what, k2s_opcode_name(u.bit_op->opcode));
    k2s_add_capability(m, SpvCapabilityBitInstructions);
    k2s_add_extension(m, "SPV_KHR_bit_instructions");
  } else {
    k2s_warn(m, shader ? shader : matrix,
             "repaired input: the Kernel module declares the %s, which nothing in it needs "
             "(llvm-spirv 15 declares them for llvm.bitreverse even beside BitInstructions) "
             "and which makes spirv-val apply Shader rules such as "
             "structured control flow to it; removed",
             what);
  }
  k2s_remove_capability(m, SpvCapabilityShader);
  k2s_remove_capability(m, SpvCapabilityMatrix);
  return true;
}
