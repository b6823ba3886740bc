#!/usr/bin/env python3
"""Generate k2s's SPIR-V tables from the SPIRV-Headers grammar JSON.

Usage: gen_tables.py GRAMMAR_DIR OUT.h OUT.c

Everything k2s knows about opcodes, operand kinds, enumerants, capabilities and
extended-instruction sets comes from here; nothing of it is typed by hand.
"""
import json
import os
import sys

EXT_SETS = [
    # (import name, grammar file, C identifier)
    ("OpenCL.std", "extinst.opencl.std.100.grammar.json", "opencl_std"),
    ("GLSL.std.450", "extinst.glsl.std.450.grammar.json", "glsl_std_450"),
    ("NonSemantic.ClspvReflection", "extinst.nonsemantic.clspvreflection.grammar.json", "clspv_reflection"),
    ("OpenCL.DebugInfo.100", "extinst.opencl.debuginfo.100.grammar.json", "opencl_debuginfo_100"),
    ("NonSemantic.Shader.DebugInfo.100", "extinst.nonsemantic.shader.debuginfo.100.grammar.json",
     "shader_debuginfo_100"),
]

QUANT = {None: "K2S_Q_ONE", "?": "K2S_Q_OPTIONAL", "*": "K2S_Q_MANY"}
# OpenCL.std operands that are pointers, by their grammar names (fract's ptr,
# frexp's exp, lgamma_r's signp, modf's iptr, remquo's quo, sincos's cosval,
# printf's format, prefetch's ptr); the vload/vstore family's p is added by name.
OPENCL_STD_POINTER_NAMES = {"ptr", "exp", "signp", "iptr", "quo", "cosval", "format"}

# Core operands that are memory operands (must be pointers), by their grammar
# names: 'Pointer' and 'Ptr' wherever they occur (loads, stores, atomics,
# pointer casts, lifetime markers, OpSizeOf, pipes, block reads); 'Base'
# (access chains), 'Target' and 'Source' (OpCopyMemory), 'Destination' and
# 'Source' (OpGroupAsyncCopy) only in the Memory and Group classes: elsewhere
# 'Base' is a bit-field operand and 'Target' a decoration's or name's target.
CORE_POINTER_NAMES = {"Pointer", "Ptr"}
CORE_MEMORY_POINTER_NAMES = {"Base", "Target", "Source", "Destination"}
CORE_MEMORY_CLASSES = {"Memory", "Group"}
# Pointer operands the grammar names generically ('Operand 1', 'Structure',
# 'Image'): the specification says they are pointers.
CORE_POINTER_OPERANDS = {
    "OpPtrEqual": (0, 1), "OpPtrNotEqual": (0, 1), "OpPtrDiff": (0, 1),
    "OpArrayLength": (0,), "OpImageTexelPointer": (0,),
}

# <id> operands that name something other than a value, by their grammar names:
# labels (branch and merge targets), a called or enqueued function ('Invoke'), a type, OpLine's file
# (an OpString) and OpExtInst's set (an OpExtInstImport). The grammar gives them
# all the kind IdRef, as it does values; every other IdRef, and every IdScope
# and IdMemorySemantics, names a value. An extended set's operands go by the
# same names. (Not 'Input Type' of the SPV_INTEL fixed-point instructions:
# spirv-val 2023.1 refuses a type there.)
NON_VALUE_NAMES = {"Target Label", "True Label", "False Label", "Default", "Merge Block",
                   "Continue Target", "Function", "Invoke", "Function Type", "Type", "Asm type",
                   "File", "Set"}
# Pairs that hold a non-value, by kind and name: which part (bit 0 the first, bit 1
# the second). OpPhi's (value, parent label); OpSwitch's (literal, target label).
NON_VALUE_PAIRS = {("PairIdRefIdRef", "Variable, Parent, ..."): 2,
                   ("PairLiteralIntegerIdRef", "Target"): 2}


def not_value(o):
    """The operand's not_value bits (see NON_VALUE_NAMES, NON_VALUE_PAIRS)."""
    n = o.get("name", "").strip("'")
    if o["kind"] == "IdRef":
        return 1 if n in NON_VALUE_NAMES else 0
    return NON_VALUE_PAIRS.get((o["kind"], n), 0)


# Operand kind classes for the fast id decoding (src/operands.c), derived here so
# that nothing is built when a process starts (building them, and sorting the
# enumerants, was 0.18 M instructions of every run: bench/RESULTS.md, session 9).
KIND_OTHER, KIND_ID, KIND_LITERAL, KIND_ENUM = range(4)
TAIL_NONE, TAIL_IDS, TAIL_LITERALS, TAIL_ENUM = range(4)
Q_ONE, Q_OPTIONAL, Q_MANY = None, "?", "*"


def kind_classes(kinds):
    """Per operand kind: KIND_ID (one word, an id), KIND_LITERAL (one word, not an id:
    a literal, or an enum none of whose values take parameters), KIND_ENUM (an enum
    some of whose values take parameters), KIND_OTHER (strings, numbers as wide as
    their type, ext-inst numbers, pairs: only the full decoding can tell)."""
    out = []
    for k in kinds:
        cat = k["category"]
        if cat == "Id":
            out.append(KIND_ID)
        elif cat in ("ValueEnum", "BitEnum"):
            out.append(KIND_ENUM if any(e.get("parameters") for e in k["enumerants"]) else KIND_LITERAL)
        elif cat == "Literal":
            out.append(KIND_LITERAL if k["kind"] == "LiteralInteger" else KIND_OTHER)
        else:
            out.append(KIND_OTHER)
    return out


def id_layout(descs, kinds, kclass, kind_index):
    """Where the ids of an instruction with operands descs ([(kind index, quantifier)])
    are when the grammar fixes that without looking at operand values: a prefix of
    one-word operands (ids, plain literals, enums without parameters; `mask` says
    which are ids), then possibly one last operand repeated or optional whose words
    are all ids or all literals. Returns (mask, n_fixed, tail, tail_optional)."""
    mask, i = 0, 0
    while i < len(descs) and i < 64:
        kind, q = descs[i]
        c = kclass[kind] if q == Q_ONE else KIND_OTHER
        if c not in (KIND_ID, KIND_LITERAL):
            break
        if c == KIND_ID:
            mask |= 1 << i
        i += 1
    if i + 1 != len(descs):
        return mask, i, TAIL_NONE, False
    kind, q = descs[i]
    k = kinds[kind]
    if kclass[kind] == KIND_ENUM and q in (Q_ONE, Q_OPTIONAL):
        # an enum whose value says whether its parameters hold ids (most take literals)
        return mask, i, TAIL_ENUM, q == Q_OPTIONAL, kind
    if q == Q_ONE:
        # a string, or a number as wide as its type: words, none an id
        lit = kind in (kind_index["LiteralString"], kind_index["LiteralContextDependentNumber"])
        return mask, i, TAIL_LITERALS if lit else TAIL_NONE, False
    if k["category"] == "Composite":
        a, b = (kclass[kind_index[x]] for x in k["bases"])
    else:
        a = b = kclass[kind]
    tail = TAIL_IDS if a == b == KIND_ID else TAIL_LITERALS if a == b == KIND_LITERAL else TAIL_NONE
    return mask, i, tail, q == Q_OPTIONAL


SHAPE_WALK, SHAPE_UNITS, SHAPE_STRING, SHAPE_NUMBER = range(4)


def operand_shape(descs, kinds, kclass, kind_index):
    """(n_fixed, tail, unit, max) when the grammar alone says which words make an
    instruction with operands descs well-formed: required one-word operands (ids,
    literals, enums none of whose values take parameters), then possibly one last
    operand: optional (max 1) or repeated (max 255) units of one-word parts (a pair:
    unit 2), a string, or a number as wide as its type. (0, SHAPE_WALK, 0, 0) otherwise."""
    n_fixed = 0
    for kind, q in descs:
        if q != Q_ONE or kclass[kind] not in (KIND_ID, KIND_LITERAL):
            break
        n_fixed += 1
    if n_fixed == len(descs):
        return n_fixed, SHAPE_UNITS, 1, 0
    if n_fixed + 1 != len(descs) or n_fixed > 250:
        return 0, SHAPE_WALK, 0, 0
    kind, q = descs[n_fixed]
    if q == Q_ONE and kind == kind_index["LiteralString"]:
        return n_fixed, SHAPE_STRING, 0, 0
    if q == Q_ONE and kind == kind_index["LiteralContextDependentNumber"]:
        return n_fixed, SHAPE_NUMBER, 0, 0
    k = kinds[kind]
    parts = [kind_index[b] for b in k["bases"]] if k["category"] == "Composite" else [kind]
    if q == Q_ONE or any(kclass[x] not in (KIND_ID, KIND_LITERAL) for x in parts):
        return 0, SHAPE_WALK, 0, 0
    return n_fixed, SHAPE_UNITS, len(parts), 1 if q == Q_OPTIONAL else 255


def may_hold_ids(kinds, kind_index, kind):
    """Whether an operand of this kind is, or may hold in its parts or parameters, an <id>."""
    k = kinds[kind]
    if k["category"] == "Id":
        return True
    if k["category"] == "Composite":
        return any(may_hold_ids(kinds, kind_index, kind_index[b]) for b in k["bases"])
    if k["category"] in ("ValueEnum", "BitEnum"):
        return any(may_hold_ids(kinds, kind_index, kind_index[p["kind"]])
                   for e in k["enumerants"] for p in e.get("parameters", []))
    return False


SYNC_KINDS = ("IdScope", "IdMemorySemantics")


def may_hold_sync(kinds, kind_index, kind):
    """Whether an operand of this kind is, or may hold in its parts or parameters, a
    scope or memory-semantics <id>, or leads the operand walk to another instruction's
    operands (OpSpecConstantOp's)."""
    k = kinds[kind]
    if k["kind"] in SYNC_KINDS or k["kind"] == "LiteralSpecConstantOpInteger":
        return True
    if k["category"] == "Composite":
        return any(may_hold_sync(kinds, kind_index, kind_index[b]) for b in k["bases"])
    if k["category"] in ("ValueEnum", "BitEnum"):
        return any(may_hold_sync(kinds, kind_index, kind_index[p["kind"]])
                   for e in k["enumerants"] for p in e.get("parameters", []))
    return False


def fast_limit(l):
    """k2s_id_layout.fast_limit: the operand word counts below it whose ids the layout
    alone places (k2s_foreach_id_operand's inline path): the prefix, then a tail of ids
    or literals (repeated: any count; optional: one more word). An enum tail's value
    decides, and words past a layout without tail are a fault the walk reports."""
    mask, n_fixed, tail, optional = l[:4]
    if tail in (TAIL_IDS, TAIL_LITERALS):
        return n_fixed + 2 if optional else 0xffff
    return n_fixed + 1


def layout_row(l):
    return "{0x%xull, %d, %d, %s, %d, %d}" % (l[0], l[1], l[2], "true" if l[3] else "false",
                                             l[4] if len(l) > 4 else 0, fast_limit(l))


def may_hold_enum(kinds, kind_index, kind):
    """Whether an operand of this kind may be, or lead the operand walk to, an enum
    value: enums, pairs holding one, and the literals after which the walk reads
    another instruction's operands (OpExtInst's, OpSpecConstantOp's)."""
    k = kinds[kind]
    if k["category"] in ("ValueEnum", "BitEnum"):
        return True
    if k["category"] == "Composite":
        return any(may_hold_enum(kinds, kind_index, kind_index[b]) for b in k["bases"])
    return k["kind"] in ("LiteralExtInstInteger", "LiteralSpecConstantOpInteger")


def sorted_enumerants(k):
    """The kind's enumerant indices sorted by value, aliases (equal values) in grammar
    order, so that the first of equal values is the one a scan would find. Bit enums
    are searched bit by bit (src/operands.c): every value must be a single bit or 0."""
    def value(e):
        v = e["value"]
        return int(v, 16) if isinstance(v, str) else int(v)
    if k["category"] == "BitEnum":
        for e in k["enumerants"]:
            if value(e) & (value(e) - 1):
                raise SystemExit("%s %s: a bit enum value of several bits" % (k["kind"], e["enumerant"]))
    return sorted(range(len(k["enumerants"])), key=lambda j: value(k["enumerants"][j]))


def operand_desc(kind_index, o, kind=None):
    return "{%d, %s, %d}" % (kind_index[kind or o["kind"]], QUANT[o.get("quantifier")], not_value(o))


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ident(s):
    out = []
    for i, ch in enumerate(s):
        if ch.isupper() and i and (s[i - 1].islower() or s[i - 1].isdigit()):
            out.append("_")
        out.append(ch.upper() if ch.isalnum() else "_")
    return "".join(out)


def enumerant_version(e):
    """0x00MMmm00 of the version that made e core; 0 when only extensions give it."""
    ver = e.get("version", "1.0")
    if ver == "None":
        return 0
    maj, mnr = (int(x) for x in ver.split(".")[:2])
    return maj << 16 | mnr << 8


def enumerant_extension(e):
    """The extension to declare for e before it became core (KHR preferred)."""
    exts = e.get("extensions", [])
    khr = [x for x in exts if x.startswith("SPV_KHR_")]
    return (khr or exts or [None])[0]


def pointer_operands(inst, ops):
    """The memory operands of a core instruction as a mask of operand words.
    Every operand before one is a single word (an id or a plain literal), so
    operand k is word k; the check keeps a grammar change from breaking that."""
    picked = set(CORE_POINTER_OPERANDS.get(inst["opname"], ()))
    for k, o in enumerate(ops):
        n = o.get("name", "").strip("'")
        if o["kind"] == "IdRef" and (n in CORE_POINTER_NAMES or (
                n in CORE_MEMORY_POINTER_NAMES and inst.get("class") in CORE_MEMORY_CLASSES)):
            picked.add(k)
    mask = 0
    for k in picked:
        if k >= 8 or any(o.get("quantifier") or o["kind"] not in ("IdRef", "IdScope", "IdMemorySemantics",
                                                                    "LiteralInteger") for o in ops[:k + 1]):
            raise SystemExit("%s: pointer operand %d is not at a fixed word" % (inst["opname"], k))
        mask |= 1 << k
    return mask


# The roles of an atomic's operands (the grammar's Atomic class), by their names.
ATOMIC_ROLES = {"Pointer": "pointer", "Memory": "scope", "Semantics": "semantics", "Equal": "semantics",
                "Unequal": "unequal", "Value": "value", "Comparator": "comparator"}
ATOMIC_FIELDS = ["pointer", "scope", "semantics", "unequal", "value", "comparator"]


def atomic_layouts(by_op, h, c):
    """k2s_atomic_layout(op): where each operand of an atomic is, by its role; a
    grammar change (a new operand name, an optional operand) stops the build."""
    h.append("""
/* The operand words of an atomic instruction by role; -1 where it has none. Every
 * operand is one word, so n_operands is the exact operand count. */
typedef struct k2s_atomic_operands {
  uint8_t n_operands;
  int8_t pointer, scope, semantics, unequal, value, comparator;
} k2s_atomic_operands;
/* The layout of an opcode of the grammar's Atomic class, NULL for any other. */
const k2s_atomic_operands *k2s_atomic_layout(uint16_t opcode);""")
    rows, cases = [], []
    for op, i in sorted(by_op.items()):
        if i["class"] != "Atomic":
            continue
        ops = [o for o in i.get("operands", []) if o["kind"] not in ("IdResultType", "IdResult")]
        where = dict.fromkeys(ATOMIC_FIELDS, -1)
        for k, o in enumerate(ops):
            role = ATOMIC_ROLES.get(o.get("name", "").strip("'"))
            if not role or o.get("quantifier") or where[role] != -1:
                raise SystemExit("%s: operand %d (%s) has no atomic role" % (i["opname"], k, o.get("name")))
            where[role] = k
        if where["pointer"] == -1 or where["scope"] == -1 or where["semantics"] == -1:
            raise SystemExit("%s: an atomic without pointer, scope or semantics" % i["opname"])
        cases.append("  case %d: return &layouts[%d]; /* %s */" % (op, len(rows), i["opname"]))
        rows.append("    {%d, %s}," % (len(ops), ", ".join(str(where[f]) for f in ATOMIC_FIELDS)))
    c.append("const k2s_atomic_operands *k2s_atomic_layout(uint16_t opcode)\n{\n"
             "  static const k2s_atomic_operands layouts[] = {\n%s\n  };\n  switch (opcode) {\n%s\n"
             "  default: return 0;\n  }\n}" % ("\n".join(rows), "\n".join(cases)))


def access_chains(by_op, h, c):
    """k2s_is_access_chain(op): the Memory-class opcodes that take a Base pointer
    and Indexes (OpAccessChain and its InBounds and Ptr variants)."""
    h.append("/* Whether opcode is an access chain: a Memory instruction with a Base and Indexes. */")
    h.append("bool k2s_is_access_chain(uint16_t opcode);")
    cases = []
    for op, i in sorted(by_op.items()):
        names = {o.get("name", "").strip("'") for o in i.get("operands", [])}
        if i["class"] == "Memory" and {"Base", "Indexes"} <= names:
            cases.append("  case %d: /* %s */" % (op, i["opname"]))
    c.append("bool k2s_is_access_chain(uint16_t opcode)\n{\n  switch (opcode) {\n%s\n    return true;\n"
             "  default: return false;\n  }\n}" % "\n".join(cases))


class Pool:
    """What the pointer-free tables index into: one blob of NUL-terminated names
    (offset 0: none), one array of uint16 lists (capabilities, operand kinds), one of
    operand descriptions."""

    def __init__(self):
        self.strings, self.string_at, self.size = [], {}, 1
        self.u16 = [0]
        self.operands = []

    def string(self, text):
        if text is None:
            return 0
        if text not in self.string_at:
            self.string_at[text] = self.size
            self.strings.append(text)
            self.size += len(text.encode()) + 1
        return self.string_at[text]

    def u16_list(self, values):
        if not values:
            return 0
        at = len(self.u16)
        self.u16 += values
        return fits(at, 16, "uint16 lists")

    def operand_list(self, descs):
        at = len(self.operands)
        self.operands += descs
        return fits(at, 16, "operand descriptions")

    def emit(self, c):
        # One literal per name, each with its NUL: offset 0 is the empty name.
        c.append("const char k2s_table_strings[%d] =\n  \"\\0\"\n%s;" % (
            self.size, "\n".join("  %s \"\\0\"" % cstr(t) for t in self.strings)))
        c.append("const uint16_t k2s_table_u16[%d] = {%s};" % (len(self.u16), ",".join(map(str, self.u16))))
        c.append("const k2s_operand_desc k2s_table_operands[%d] = {\n  %s\n};" % (
            max(1, len(self.operands)), ",\n  ".join(self.operands) or "{0, 0, 0}"))


def fits(value, bits, what):
    if value >= 1 << bits:
        raise SystemExit("gen_tables.py: %s outgrow a %d-bit index; widen the field" % (what, bits))
    return value


def main():
    gdir, out_h, out_c = sys.argv[1:4]
    out_b = sys.argv[4] if len(sys.argv) > 4 else None
    core = json.load(open(os.path.join(gdir, "spirv.core.grammar.json")))
    kinds = core["operand_kinds"]
    kind_index = {k["kind"]: i for i, k in enumerate(kinds)}
    cap_kind = next(k for k in kinds if k["kind"] == "Capability")
    cap_value = {e["enumerant"]: int(e["value"]) for e in cap_kind["enumerants"]}

    h = []
    c = []
    h.append("/* generated from the SPIR-V grammar by src/gen_tables.py — do not edit */")
    h.append("#ifndef K2S_TABLES_H\n#define K2S_TABLES_H\n#include <stdint.h>\n#include <stdbool.h>\n")
    h.append("#define K2S_GRAMMAR_VERSION 0x%02x%02x%02x" % (core["major_version"], core["minor_version"], 0))
    h.append("#define K2S_GRAMMAR_REVISION %d\n" % core["revision"])
    h.append("enum k2s_kind_category { K2S_CAT_ID, K2S_CAT_LITERAL, K2S_CAT_VALUE_ENUM, K2S_CAT_BIT_ENUM, K2S_CAT_COMPOSITE };")
    h.append("enum k2s_quantifier { K2S_Q_ONE, K2S_Q_OPTIONAL, K2S_Q_MANY };")
    h.append("/* Operand kinds, in grammar order. */")
    h.append("enum k2s_operand_kind {")
    for i, k in enumerate(kinds):
        h.append("  K2S_OK_%s = %d," % (ident(k["kind"]), i))
    h.append("  K2S_OK_COUNT = %d\n};" % len(kinds))
    h.append("""
typedef struct k2s_operand_desc {
  uint16_t kind; /* enum k2s_operand_kind */
  uint8_t quantifier; /* enum k2s_quantifier */
  /* Which <id>s of the operand name no value (a label, function, type, string or
   * set): bit 0 the operand or a pair's first part, bit 1 a pair's second. */
  uint8_t not_value;
} k2s_operand_desc;

/* The tables hold no pointers: names are offsets into k2s_table_strings (one blob,
 * offset 0 meaning none), lists indexes into one array per element type, so that
 * they are read-only data the dynamic loader never relocates (the ~4,700 pointers
 * they held cost every start of k2s 0.07 M instructions and 590 KB of copy-on-write
 * pages: bench/RESULTS.md, session 10). Read them through the accessors below. */
typedef struct k2s_enumerant {
  uint32_t name_at; /* k2s_enumerant_spelling() */
  uint32_t value;
  uint8_t n_caps, n_params;
  uint16_t caps_at;   /* k2s_enumerant_caps() */
  uint16_t params_at; /* k2s_enumerant_params(): operand kinds of its extra operands */
  bool param_ids;     /* whether a parameter is, or may hold, an <id> */
  uint32_t version;   /* SPIR-V version that made it core (0x00MMmm00), 0: never */
  uint32_t extension_at; /* k2s_enumerant_extension() */
} k2s_enumerant;

typedef struct k2s_kind_info {
  uint32_t name_at; /* k2s_kind_info_name() */
  uint8_t category; /* enum k2s_kind_category */
  uint16_t n_enumerants;
  uint16_t enumerants_at; /* k2s_kind_info_enumerants() */
  uint16_t bases[2]; /* composite kinds: the two parts */
  /* Enumerants by value: k2s_enumerants_by_value[by_value .. by_value + n_by_value)
   * index k2s_kind_info_enumerants() in increasing value, equal values (aliases) in
   * grammar order. */
  uint16_t n_by_value;
  uint32_t by_value;
} k2s_kind_info;

typedef struct k2s_opcode_info {
  uint32_t name_at; /* k2s_opcode_info_name(); 0 where the opcode is unassigned */
  bool has_type, has_result;
  uint8_t n_operands, n_caps;
  uint16_t operands_at; /* k2s_opcode_info_operands(): excluding result type and id */
  uint16_t caps_at;     /* k2s_opcode_info_caps() */
  uint32_t version; /* SPIR-V version that introduced it, 0x00MMmm00 */
  uint8_t op_class; /* enum k2s_op_class: the grammar's instruction class */
  uint8_t pointers; /* bit k set when operand word k is a memory operand (a pointer) */
} k2s_opcode_info;

typedef struct k2s_extinst_info {
  uint32_t name_at; /* k2s_extinst_info_name(); 0 where the opcode is unassigned */
  uint8_t n_operands;
  uint16_t operands_at; /* k2s_extinst_info_operands(): ext-local kinds, only the category matters */
  uint8_t pointers; /* OpenCL.std: bit k set when operand k is a pointer (by its name) */
  bool enum_operands; /* whether an operand may hold a (core) enum value */
} k2s_extinst_info;

typedef struct k2s_extinst_set {
  uint32_t import_name_at; /* k2s_extinst_set_import_name(): prefix matched against OpExtInstImport */
  uint32_t n_opcodes;
  uint32_t insts_at; /* k2s_extinst_set_inst() */
  uint32_t layouts; /* k2s_ext_id_layouts[layouts + ext opcode] */
} k2s_extinst_set;

/* What the tables point into. */
extern const char k2s_table_strings[];
extern const uint16_t k2s_table_u16[]; /* capability and operand-kind lists */
extern const k2s_operand_desc k2s_table_operands[];
extern const k2s_enumerant k2s_table_enumerants[];
extern const k2s_extinst_info k2s_table_extinsts[];

static inline const char *k2s_table_string(uint32_t at)
{
  return at ? &k2s_table_strings[at] : 0;
}
/* The enumerant's name (k2s_enumerant_name() finds one by kind and value). */
static inline const char *k2s_enumerant_spelling(const k2s_enumerant *e)
{
  return k2s_table_string(e->name_at);
}
static inline const uint16_t *k2s_enumerant_caps(const k2s_enumerant *e)
{
  return &k2s_table_u16[e->caps_at];
}
static inline const uint16_t *k2s_enumerant_params(const k2s_enumerant *e)
{
  return &k2s_table_u16[e->params_at];
}
/* An extension that enables the enumerant before it became core, or NULL. */
static inline const char *k2s_enumerant_extension(const k2s_enumerant *e)
{
  return k2s_table_string(e->extension_at);
}
static inline const char *k2s_kind_info_name(const k2s_kind_info *k)
{
  return k2s_table_string(k->name_at);
}
/* The kind's n_enumerants enumerants, in grammar order. */
static inline const k2s_enumerant *k2s_kind_info_enumerants(const k2s_kind_info *k)
{
  return &k2s_table_enumerants[k->enumerants_at];
}
static inline const char *k2s_opcode_info_name(const k2s_opcode_info *o)
{
  return k2s_table_string(o->name_at);
}
static inline const k2s_operand_desc *k2s_opcode_info_operands(const k2s_opcode_info *o)
{
  return &k2s_table_operands[o->operands_at];
}
static inline const uint16_t *k2s_opcode_info_caps(const k2s_opcode_info *o)
{
  return &k2s_table_u16[o->caps_at];
}
static inline const char *k2s_extinst_info_name(const k2s_extinst_info *x)
{
  return k2s_table_string(x->name_at);
}
static inline const k2s_operand_desc *k2s_extinst_info_operands(const k2s_extinst_info *x)
{
  return &k2s_table_operands[x->operands_at];
}
static inline const char *k2s_extinst_set_import_name(const k2s_extinst_set *s)
{
  return k2s_table_string(s->import_name_at);
}
/* The set's instruction ext_op, NULL where the set has none of that number. */
static inline const k2s_extinst_info *k2s_extinst_set_inst(const k2s_extinst_set *s, uint32_t ext_op)
{
  if (ext_op >= s->n_opcodes || !k2s_table_extinsts[s->insts_at + ext_op].name_at)
    return 0;
  return &k2s_table_extinsts[s->insts_at + ext_op];
}

/* Where an instruction's <id>s are when its grammar fixes that without looking at
 * operand values (src/operands.c, k2s_foreach_id_operand): a prefix of n_fixed one-word
 * operands (bit k of mask set where word k is an id), then, with tail, one last
 * operand repeated (or, tail_optional, optional) whose words are all ids or all
 * literals, or (K2S_TAIL_ENUM) an enum of kind enum_kind whose value's parameters hold
 * ids only where its enumerants say so (k2s_enumerant.param_ids). n_fixed 0 and no
 * tail: only the full decoding can tell. */
enum k2s_id_tail { K2S_TAIL_NONE, K2S_TAIL_IDS, K2S_TAIL_LITERALS, K2S_TAIL_ENUM };
typedef struct k2s_id_layout {
  uint64_t mask;
  uint8_t n_fixed;
  uint8_t tail; /* enum k2s_id_tail */
  bool tail_optional;
  uint16_t enum_kind;
  uint16_t fast_limit; /* n_ops below it: the layout places every id without looking at
                          operand values (0: never; OpSwitch, OpExtInst, no opcode) */
} k2s_id_layout;

/* The operand words an opcode's grammar allows, where it says so alone: n_fixed
 * required one-word operands, then by tail: K2S_SHAPE_UNITS up to max (0, 1, or 255: as
 * many as there are) units of unit words; K2S_SHAPE_STRING one string ending in the
 * last word; K2S_SHAPE_NUMBER at least one word. K2S_SHAPE_WALK: only the grammar walk
 * can tell (enums with parameters, another instruction's operands, ...). */
enum k2s_shape_tail { K2S_SHAPE_WALK, K2S_SHAPE_UNITS, K2S_SHAPE_STRING, K2S_SHAPE_NUMBER };
typedef struct k2s_operand_shape {
  uint8_t n_fixed, tail, unit, max;
} k2s_operand_shape;

/* Operand kinds by how the fast id decoding reads them. */
enum k2s_kind_class {
  K2S_KIND_OTHER,   /* strings, numbers as wide as their type, ext-inst numbers, pairs */
  K2S_KIND_ID,      /* one word, an id */
  K2S_KIND_LITERAL, /* one word, not an id (a literal, or an enum without parameters) */
  K2S_KIND_ENUM,    /* an enum some of whose values take parameters */
};
""")
    # enumerants, all kinds' in one array
    pool = Pool()
    enum_rows, enum_at = [], {}
    for i, k in enumerate(kinds):
        if k["category"] not in ("ValueEnum", "BitEnum"):
            continue
        enum_at[i] = fits(len(enum_rows), 16, "enumerants")
        for j, e in enumerate(k["enumerants"]):
            v = e["value"]
            v = int(v, 16) if isinstance(v, str) else int(v)
            caps = [cap_value[x] for x in e.get("capabilities", []) if x in cap_value]
            params = [kind_index[p["kind"]] for p in e.get("parameters", [])]
            enum_rows.append("  {%d, %du, %d, %d, %d, %d, %s, 0x%06x, %d}, /* %s */" % (
                pool.string(e["enumerant"]), v, len(caps), len(params), pool.u16_list(caps),
                pool.u16_list(params),
                "true" if any(may_hold_ids(kinds, kind_index, x) for x in params) else "false",
                enumerant_version(e), pool.string(enumerant_extension(e)), e["enumerant"]))
    c.append("const k2s_enumerant k2s_table_enumerants[%d] = {\n%s\n};" % (len(enum_rows), "\n".join(enum_rows)))
    cat = {"Id": "K2S_CAT_ID", "Literal": "K2S_CAT_LITERAL", "ValueEnum": "K2S_CAT_VALUE_ENUM",
           "BitEnum": "K2S_CAT_BIT_ENUM", "Composite": "K2S_CAT_COMPOSITE"}
    rows, by_value = [], []
    for k in kinds:
        i = kind_index[k["kind"]]
        n = len(k["enumerants"]) if i in enum_at else 0
        bases = [kind_index[b] for b in k.get("bases", [])] + [0, 0]
        order = sorted_enumerants(k) if i in enum_at else []
        rows.append("  {%d, %s, %d, %d, {%d, %d}, %d, %d}, /* %s */" % (
            pool.string(k["kind"]), cat[k["category"]], n, enum_at.get(i, 0), bases[0], bases[1],
            len(order), len(by_value), k["kind"]))
        by_value += order
    c.append("const k2s_kind_info k2s_kinds[K2S_OK_COUNT] = {\n%s\n};" % "\n".join(rows))
    h.append("extern const k2s_kind_info k2s_kinds[K2S_OK_COUNT];")
    c.append("const uint16_t k2s_enumerants_by_value[%d] = {%s};" % (max(1, len(by_value)),
                                                                   ",".join(map(str, by_value)) or "0"))
    h.append("extern const uint16_t k2s_enumerants_by_value[];")
    kclass = kind_classes(kinds)
    c.append("const uint8_t k2s_kind_class[K2S_OK_COUNT] = {%s};" % ",".join(map(str, kclass)))
    h.append("extern const uint8_t k2s_kind_class[K2S_OK_COUNT];")
    # the enum values whose parameters may hold ids (the first enumerant of a value, as
    # the by-value search finds it): a mask of bits, or a list of values
    id_rows, id_values = [], []
    for k in kinds:
        bits, vals = 0, []
        if k["category"] in ("ValueEnum", "BitEnum"):
            seen = set()
            for j in sorted_enumerants(k):
                e = k["enumerants"][j]
                v = e["value"]
                v = int(v, 16) if isinstance(v, str) else int(v)
                if v in seen:
                    continue
                seen.add(v)
                if any(may_hold_ids(kinds, kind_index, kind_index[x["kind"]]) for x in e.get("parameters", [])):
                    if k["category"] == "BitEnum":
                        bits |= v
                    else:
                        vals.append(v)
        id_rows.append("  {0x%xu, %d, %d}, /* %s */" % (bits, len(vals), len(id_values) if vals else 0, k["kind"]))
        id_values += vals
    h.append("""/* An enum's values whose parameters may hold ids (by the first enumerant of the value,
 * as k2s_enumerant_of() finds it): a bit enum's bits, a value enum's values
 * k2s_id_param_values[values_at .. values_at + n_values). */
typedef struct k2s_id_param_set {
  uint32_t bits;
  uint16_t n_values, values_at;
} k2s_id_param_set;
extern const k2s_id_param_set k2s_kind_id_params[K2S_OK_COUNT];
extern const uint32_t k2s_id_param_values[];""")
    c.append("const k2s_id_param_set k2s_kind_id_params[K2S_OK_COUNT] = {\n%s\n};" % "\n".join(id_rows))
    c.append("const uint32_t k2s_id_param_values[%d] = {%s};" % (max(1, len(id_values)),
                                                               ", ".join("%du" % v for v in id_values) or "0"))

    # opcodes
    insts = core["instructions"]
    classes = [c["tag"] for c in core["instruction_printing_class"]]
    h.append("/* The grammar's instruction classes (\"class\"), in its order. */")
    h.append("enum k2s_op_class {")
    for n, tag in enumerate(classes):
        h.append("  K2S_CLASS_%s = %d," % (ident(tag.strip("@")), n))
    h.append("};")
    max_op = max(i["opcode"] for i in insts)
    h.append("#define K2S_OPCODE_LIMIT %du" % (max_op + 1))
    h.append("extern const k2s_opcode_info k2s_opcodes[K2S_OPCODE_LIMIT];")
    by_op = {}
    for i in insts:
        # Aliases share an opcode; keep the first (the canonical name).
        by_op.setdefault(i["opcode"], i)
    rows = []
    for op, i in sorted(by_op.items()):
        kinds_of = [o["kind"] for o in i.get("operands", [])]
        ops = [o for o in i.get("operands", []) if o["kind"] not in ("IdResultType", "IdResult")]
        caps = [x for x in i.get("capabilities", []) if x in cap_value]
        ver = i.get("version", "1.0")
        if ver == "None":
            ver = "1.0"
        maj, mnr = (int(x) for x in ver.split(".")[:2])
        rows.append("  [%d] = {%d, %s, %s, %d, %d, %d, %d, 0x%02x%02x00, %d, 0x%x}, /* %s */" % (
            op, pool.string(i["opname"]), "true" if "IdResultType" in kinds_of else "false",
            "true" if "IdResult" in kinds_of else "false", len(ops), len(caps),
            pool.operand_list([operand_desc(kind_index, o) for o in ops]),
            pool.u16_list([cap_value[x] for x in caps]), maj, mnr,
            classes.index(i["class"]), pointer_operands(i, ops), i["opname"]))
    c.append("const k2s_opcode_info k2s_opcodes[K2S_OPCODE_LIMIT] = {\n%s\n};" % "\n".join(rows))
    layouts, enum_ops, shapes, sync_ops = [], [], [], []
    for op, i in sorted(by_op.items()):
        descs = [(kind_index[o["kind"]], o.get("quantifier")) for o in i.get("operands", [])
                 if o["kind"] not in ("IdResultType", "IdResult")]
        if any(may_hold_enum(kinds, kind_index, kd) for kd, _ in descs):
            enum_ops.append("[%d] = true" % op)
        if any(may_hold_sync(kinds, kind_index, kd) for kd, _ in descs):
            sync_ops.append("[%d] = true /* %s */" % (op, i["opname"]))
        if i["opname"] not in ("OpSwitch", "OpExtInst"):  # their ids need the full decoding
            layouts.append("  [%d] = %s, /* %s */" % (op, layout_row(id_layout(descs, kinds, kclass, kind_index)),
                                                     i["opname"]))
            shape = operand_shape(descs, kinds, kclass, kind_index)
            if shape[1] != SHAPE_WALK:
                shapes.append("  [%d] = {%d, %d, %d, %d}, /* %s */" % ((op,) + shape + (i["opname"],)))
    h.append("extern const k2s_id_layout k2s_id_layouts[K2S_OPCODE_LIMIT];")
    h.append("extern const k2s_operand_shape k2s_operand_shapes[K2S_OPCODE_LIMIT];")
    c.append("const k2s_operand_shape k2s_operand_shapes[K2S_OPCODE_LIMIT] = {\n%s\n};" % "\n".join(shapes))
    c.append("const k2s_id_layout k2s_id_layouts[K2S_OPCODE_LIMIT] = {\n%s\n};" % "\n".join(layouts))
    h.append("/* Whether an opcode's operands may hold an enum value (or lead the walk to one). */")
    h.append("extern const bool k2s_opcode_enum_operands[K2S_OPCODE_LIMIT];")
    c.append("const bool k2s_opcode_enum_operands[K2S_OPCODE_LIMIT] = {%s};" % ", ".join(enum_ops))
    atomic_layouts(by_op, h, c)
    access_chains(by_op, h, c)

    # extended instruction sets
    h.append("#define K2S_N_EXTINST_SETS %d" % len(EXT_SETS))
    h.append("enum k2s_extinst_set_id {")
    for _, _, cid in EXT_SETS:
        h.append("  K2S_EXT_%s," % cid.upper())
    h.append("  K2S_EXT_UNKNOWN = 255\n};")
    h.append("extern const k2s_extinst_set k2s_extinst_sets[K2S_N_EXTINST_SETS];")
    h.append("""/* The name of instruction ext_op of set (enum k2s_extinst_set_id), NULL where it has none. */
static inline const char *k2s_extinst_op_name(uint32_t set, uint32_t ext_op)
{
  const k2s_extinst_info *x = set < K2S_N_EXTINST_SETS ? k2s_extinst_set_inst(&k2s_extinst_sets[set], ext_op) : 0;
  return x ? k2s_extinst_info_name(x) : 0;
}""")
    set_rows, ext_layouts, ext_rows = [], [], []
    ext_sync = False
    for import_name, fname, cid in EXT_SETS:
        path = os.path.join(gdir, fname)
        g = json.load(open(path))
        newer = os.path.join(os.path.dirname(os.path.abspath(__file__)), "grammar",
                             fname.replace(".grammar.json", ".newer.json"))
        if os.path.exists(newer):
            have = {i["opcode"] for i in g["instructions"]}
            extra = json.load(open(newer))
            g["instructions"] += [i for i in extra["instructions"] if i["opcode"] not in have]
            # The revision stays the installed one: it names the import
            # ("NonSemantic.ClspvReflection.5"), and the installed spirv-val knows no later.
        local_kinds = {k["kind"]: k for k in g.get("operand_kinds", [])}
        maxo = max(i["opcode"] for i in g["instructions"])
        h.append("#define K2S_%s_GRAMMAR_REVISION %d" % (cid.upper(), g.get("revision", 0)))
        h.append("enum k2s_%s_op {" % cid)
        for i in g["instructions"]:
            h.append("  K2S_%s_%s = %d," % (cid.upper(), i["opname"], i["opcode"]))
        h.append("};")
        rows = [None] * (maxo + 1)
        set_layouts = ["{0, 0, 0, false, 0, 0}"] * (maxo + 1)
        for i in g["instructions"]:
            ops = i.get("operands", [])
            descs, raw = [], []
            for o in ops:
                kd = o["kind"]
                if kd in local_kinds:
                    # Ext-local enums are single-word literals for operand walking.
                    kd = "LiteralInteger"
                elif kd not in kind_index:
                    raise SystemExit("unknown operand kind %s in %s" % (kd, fname))
                descs.append(operand_desc(kind_index, o, kd))
                raw.append((kind_index[kd], o.get("quantifier")))
            set_layouts[i["opcode"]] = layout_row(id_layout(raw, kinds, kclass, kind_index))
            ptrs = 0
            if cid == "opencl_std":
                # The grammar names pointer operands; 'p' is a pointer only in the
                # vload/vstore family (length's and normalize's 'p' is a vector).
                for k, o in enumerate(ops):
                    n = o.get("name", "").strip("'")
                    if n in OPENCL_STD_POINTER_NAMES or (n == "p" and i["opname"].startswith(("vload", "vstore"))):
                        ptrs |= 1 << k
            enums = any(may_hold_enum(kinds, kind_index, kd) for kd, _ in raw)
            ext_sync = ext_sync or any(may_hold_sync(kinds, kind_index, kd) for kd, _ in raw)
            rows[i["opcode"]] = "  {%d, %d, %d, 0x%x, %s}, /* %s %s */" % (
                pool.string(i["opname"]), len(descs), pool.operand_list(descs), ptrs,
                "true" if enums else "false", import_name, i["opname"])
        set_rows.append("  {%d, %d, %d, %d}, /* %s */" % (pool.string(import_name), maxo + 1, len(ext_rows),
                                                           len(ext_layouts), import_name))
        ext_rows += [r or "  {0, 0, 0, 0, false}," for r in rows]
        ext_layouts += set_layouts
    if ext_sync:
        sync_ops.append("[%d] = true /* OpExtInst */" % next(op for op, i in by_op.items() if i["opname"] == "OpExtInst"))
    h.append("/* Whether an opcode's operands may hold an IdScope or IdMemorySemantics <id> (or lead\n"
             " * the walk to another instruction's operands): false, and the walk finds none. */")
    h.append("extern const bool k2s_opcode_sync_operands[K2S_OPCODE_LIMIT];")
    c.append("const bool k2s_opcode_sync_operands[K2S_OPCODE_LIMIT] = {%s};" % ", ".join(sync_ops))
    c.append("const k2s_extinst_info k2s_table_extinsts[%d] = {\n%s\n};" % (len(ext_rows), "\n".join(ext_rows)))
    c.append("const k2s_extinst_set k2s_extinst_sets[K2S_N_EXTINST_SETS] = {\n%s\n};" % "\n".join(set_rows))
    pool.emit(c)
    h.append("extern const k2s_id_layout k2s_ext_id_layouts[];")
    c.append("const k2s_id_layout k2s_ext_id_layouts[%d] = {\n  %s\n};" % (len(ext_layouts),
                                                                          ",\n  ".join(ext_layouts)))

    if out_b:
        write_builder(out_b, by_op, kinds)
    h.append("\n#endif")
    with open(out_h, "w") as f:
        f.write("\n".join(h) + "\n")
    with open(out_c, "w") as f:
        f.write("/* generated from the SPIR-V grammar by src/gen_tables.py — do not edit */\n")
        f.write('#include "k2s_tables.h"\n\n')
        f.write("\n".join(c) + "\n")


def write_builder(path, by_op, kinds):
    """One inline helper per opcode whose operands are all single <id>s
    (trailing optional operands are left off): k2s_b_i_add(b, type, x, y)."""
    id_kinds = {k["kind"] for k in kinds if k["category"] == "Id"}
    out = ["/* generated from the SPIR-V grammar by src/gen_tables.py — do not edit */",
           "#ifndef K2S_BUILDER_OPS_H", "#define K2S_BUILDER_OPS_H", '#include "k2s_internal.h"', ""]
    for op, i in sorted(by_op.items()):
        ops = i.get("operands", [])
        kinds_of = [o["kind"] for o in ops]
        rest = [o for o in ops if o["kind"] not in ("IdResultType", "IdResult")]
        while rest and rest[-1].get("quantifier") == "?":
            rest.pop()
        if any(o["kind"] not in id_kinds or o.get("quantifier") for o in rest):
            continue
        if i.get("class") in ("Type-Declaration", "Constant-Creation", "Function", "Annotation", "Debug",
                              "Mode-Setting", "Extension"):
            continue
        name = "k2s_b_" + ident(i["opname"][2:]).lower()
        params = ["k2s_builder *b"]
        if "IdResultType" in kinds_of:
            params.append("uint32_t type")
        args = ["x%d" % n for n in range(len(rest))]
        params += ["uint32_t " + a for a in args]
        body = "  uint32_t ops[%d] = {%s};\n" % (max(1, len(args)), ", ".join(args) or "0")
        body += "  return k2s_emit(b, %d, %s, ops, %d);\n" % (op, "type" if "IdResultType" in kinds_of else "0",
                                                         len(args))
        out.append("static inline uint32_t %s(%s)\n{\n%s}" % (name, ", ".join(params), body))
    out.append("#endif")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
