/* The input's debug information between the debug-info pass, which records it
 * and removes it from the module (so that no lowering pass meets a debug
 * instruction naming a value it rewrites), and the debug-emit pass, which
 * writes it back as NonSemantic.Shader.DebugInfo.100.
 *
 * A declaration is kept in NonSemantic.Shader.DebugInfo.100's operand layout
 * already (every operand an <id> there): an operand names another recorded
 * declaration (by its input id), an OpString (by id, with the text in case the
 * string is gone by then), a 32-bit constant (by value), or DebugInfoNone.
 * Nothing here names a type, constant or variable of the module: those are
 * rewritten by the passes in between. */
#ifndef K2S_DEBUG_RECORD_H
#define K2S_DEBUG_RECORD_H

#include <stdint.h>

enum k2s_debug_operand_kind {
  K2S_DBG_DECL,   /* value: input id of a recorded declaration */
  K2S_DBG_STRING, /* value: input id of an OpString; text: its text */
  K2S_DBG_CONST,  /* value: the number, an OpConstant of 32-bit uint */
  K2S_DBG_NONE,   /* DebugInfoNone */
  K2S_DBG_VOID,   /* OpTypeVoid (a DebugTypeFunction's return type) */
};

typedef struct k2s_debug_operand {
  uint8_t kind;
  uint32_t value;
  const char *text;
} k2s_debug_operand;

typedef struct k2s_debug_decl {
  uint32_t id;       /* the input's result id */
  uint32_t op;       /* NonSemantic.Shader.DebugInfo.100 opcode */
  uint32_t function; /* DebugFunction: the OpFunction it describes, else 0 */
  uint32_t n_ops;
  k2s_debug_operand *ops;
} k2s_debug_decl;

typedef struct k2s_debug_record {
  k2s_debug_decl *decls; /* in input order: each names only earlier ones */
  uint32_t n_decls, cap_decls;
  uint32_t n_dropped; /* input instructions with no NonSemantic counterpart */
} k2s_debug_record;

#endif
