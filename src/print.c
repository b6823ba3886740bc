/* One-instruction disassembly for diagnostics ("%7 = OpIAdd %2 %5 %6"),
 * from the grammar tables; robust against operands that do not fit. */
#include <stdio.h>
#include <string.h>

#include "k2s_internal.h"

typedef struct printer {
  k2s_strbuf *sb;
  const k2s_module *m;
} printer;

static void print_string(k2s_strbuf *sb, const k2s_instr *in, const k2s_operand *op)
{
  k2s_sb_puts(sb, " \"");
  for (uint32_t w = op->word; w < op->word + op->n_words; w++)
    for (int b = 0; b < 4; b++) {
      unsigned char ch = (in->ops[w] >> (8 * b)) & 0xff;
      if (!ch)
        goto done;
      if (ch == '"' || ch == '\\')
        k2s_sb_printf(sb, "\\%c", ch);
      else if (ch < 32 || ch > 126)
        k2s_sb_printf(sb, "\\x%02x", ch);
      else
        k2s_sb_printf(sb, "%c", ch);
    }
done:
  k2s_sb_puts(sb, "\"");
}

static bool print_operand(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  printer *p = ud;
  k2s_strbuf *sb = p->sb;
  if (sb->len > 400)
    return false; /* diagnostics need the start, not a huge constant */
  switch (op->cls) {
  case K2S_OPND_ID:
    k2s_sb_printf(sb, " %%%u", in->ops[op->word]);
    break;
  case K2S_OPND_STRING:
    print_string(sb, in, op);
    break;
  case K2S_OPND_ENUM: {
    uint32_t v = in->ops[op->word];
    const char *name = k2s_enumerant_name(op->kind, v);
    if (name) {
      k2s_sb_printf(sb, " %s", name);
    } else if (k2s_kinds[op->kind].category == K2S_CAT_BIT_ENUM) {
      /* Several bits: name each. */
      k2s_sb_puts(sb, " ");
      bool first = true;
      for (uint32_t bit = 0; bit < 32; bit++)
        if (v & (1u << bit)) {
          const char *bn = k2s_enumerant_name(op->kind, 1u << bit);
          if (bn)
            k2s_sb_printf(sb, "%s%s", first ? "" : "|", bn);
          else
            k2s_sb_printf(sb, "%s0x%x", first ? "" : "|", 1u << bit);
          first = false;
        }
      if (first)
        k2s_sb_puts(sb, "None");
    } else {
      k2s_sb_printf(sb, " %u", v);
    }
    break;
  }
  default:
    if (op->n_words == 2)
      k2s_sb_printf(sb, " %llu",
                    (unsigned long long)in->ops[op->word] |
                        ((unsigned long long)in->ops[op->word + 1] << 32));
    else
      for (uint32_t w = 0; w < op->n_words && w < 8; w++)
        k2s_sb_printf(sb, " %u", in->ops[op->word + w]);
    break;
  }
  return true;
}

char *k2s_print_instr(k2s_module *m, const k2s_instr *in)
{
  k2s_strbuf sb = {.arena = &m->arena};
  if (in->result)
    k2s_sb_printf(&sb, "%%%u = ", in->result);
  k2s_sb_puts(&sb, k2s_opcode_name(in->opcode));
  if (in->type)
    k2s_sb_printf(&sb, " %%%u", in->type);
  printer p = {&sb, m};
  if (k2s_walk_operands(m, in, print_operand, &p)) {
    /* The words do not fit the grammar: show them raw. */
    k2s_sb_puts(&sb, " <words:");
    for (uint32_t w = 0; w < in->n_ops && w < 8; w++)
      k2s_sb_printf(&sb, " 0x%x", in->ops[w]);
    k2s_sb_puts(&sb, in->n_ops > 8 ? " …>" : ">");
  } else if (sb.len > 400) {
    k2s_sb_puts(&sb, " …");
  }
  return sb.data;
}
