/*
 * images: OpenCL image and sampler operations → Vulkan's.
 *
 * A Kernel image type has a void Sampled Type and an access qualifier; Vulkan
 * needs a 32-bit Sampled Type matching the format's numeric kind, Sampled 1
 * (read_only: a sampled image or uniform texel buffer) or 2 (write_only and
 * read_write: a storage image or storage texel buffer, format Unknown), and no
 * qualifier. Each image argument's variable (made by kernel-args) gets the type
 * its reads and writes ask for: float for read_imagef/h and write_imagef/h,
 * int where the producer marks SignExtend (read_imagei/write_imagei), uint
 * otherwise (without the SPIR-V 1.4 marks read_imagei and read_imageui give the
 * same bits). Reads of read_only images become OpImageFetch; samples take
 * float coordinates (OpenCL's integer ones, legal only with unnormalized
 * nearest samplers, address the same texel); results and texels are vec4 of
 * that type (half and depth values converted); size queries become Vulkan's
 * form and widths; get_image_channel_order/data_type read push constants the
 * host fills (clspv's ImageArgumentInfoChannel*PushConstant). Literal samplers
 * (OpConstantSampler) become one sampler binding per distinct value in a
 * descriptor set after every set of the kernels' arguments (LiteralSampler).
 * Vulkan has no unnormalized samplers for 3-D and array images: such samples
 * normalize their coordinates themselves (normalize_literal, normalize_by_mask).
 * Runs after kernel-args and inline (no image crosses a call); no options.
 */
#include <stdio.h>
#include <string.h>

#include "image_formats.h"
#include "k2s_internal.h"

#define IMG_SIGN_EXTEND 0x1000u
#define IMG_ZERO_EXTEND 0x2000u
#define CL_CHANNEL_ORDER_BASE 0x10B0u /* CL_R: the producer adds it to OpImageQueryOrder */
#define CL_CHANNEL_TYPE_BASE 0x10D0u  /* CL_SNORM_INT8: likewise for OpImageQueryFormat */

typedef struct img_ctx {
  k2s_module *m;
  k2s_refl_kernel *k;
  k2s_refl_arg *a;
  uint32_t image_type; /* the new Vulkan image type */
  uint32_t scalar;     /* its Sampled Type */
  uint32_t dim, arrayed;
  bool sampled; /* Sampled 1 */
} img_ctx;

static bool is_float(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, k2s_scalar_type(m, type));
  return t && t->opcode == SpvOpTypeFloat;
}

/* Index of the Image Operands word of an image instruction, or UINT32_MAX. */
static uint32_t mask_word(const k2s_instr *i)
{
  uint32_t w = i->opcode == SpvOpImageWrite ? 3 : 2;
  return i->n_ops > w ? w : UINT32_MAX;
}

static bool has_sign_extend(const k2s_instr *i)
{
  uint32_t w = mask_word(i);
  return w != UINT32_MAX && (i->ops[w] & IMG_SIGN_EXTEND);
}

/* SignExtend/ZeroExtend (SPIR-V 1.4, no extra operands) are dropped: the Sampled
 * Type now says what they said. */
/* Also records i's operands again in def-use (callers may have changed its
 * opcode, which changes which words are ids). */
static void strip_extend(k2s_module *m, k2s_instr *i)
{
  uint32_t w = mask_word(i), n = i->n_ops;
  if (w != UINT32_MAX) {
    i->ops[w] &= ~(IMG_SIGN_EXTEND | IMG_ZERO_EXTEND);
    if (!i->ops[w] && w + 1 == n)
      n = w;
  }
  k2s_instr_set_ops(m, i, i->ops, n);
}

static uint32_t emit1(k2s_builder *b, uint16_t op, uint32_t type, uint32_t a)
{
  return k2s_emit(b, op, type, &a, 1);
}

/* Converts v (scalar or vector of `from` scalars) to type `to` with the same shape. */
static uint32_t convert(k2s_module *m, k2s_builder *b, uint32_t v, uint32_t to)
{
  uint32_t from = k2s_type_of(m, v);
  if (from == to)
    return v;
  bool ff = is_float(m, from), tf = is_float(m, to);
  uint32_t fw = k2s_type_width(m, from), tw = k2s_type_width(m, to);
  if (ff && tf)
    return emit1(b, SpvOpFConvert, to, v);
  if (!ff && !tf && fw != tw) {
    uint32_t mid = k2s_type_int(m, tw, false);
    if (k2s_vector_size(m, to) > 1)
      mid = k2s_type_vector(m, mid, k2s_vector_size(m, to));
    uint32_t r = emit1(b, SpvOpUConvert, mid, v);
    return mid == to ? r : emit1(b, SpvOpBitcast, to, r);
  }
  return emit1(b, SpvOpBitcast, to, v);
}

static uint32_t channel_info(img_ctx *c, k2s_builder *b, bool data_type);

/* OpenCL's border colour is (0,0,0,1) for R, RG, RGB and LUMINANCE, else (0,0,0,0);
 * a Vulkan sampler has one border colour whatever the image. The host's sampler uses
 * transparent black, and a sample that may hit the border gets alpha 1 when the
 * image's channel order (a push constant) has no alpha: inside the image Vulkan
 * already gives such formats alpha 1, so this changes only border texels. */
static uint32_t border_alpha(img_ctx *c, k2s_builder *b, uint32_t v)
{
  k2s_module *m = c->m;
  /* OpenCL C 1.2, 8.3: these orders have border alpha 1 (Rx, RGx, RGBx have 0). */
  static const uint32_t no_alpha[] = {0x10B0 /* R */, 0x10B2 /* RG */, 0x10B4 /* RGB */,
                                      0x10B9 /* LUMINANCE */, 0x10BF /* sRGB */};
  uint32_t bt = k2s_type_bool(m);
  uint32_t order = channel_info(c, b, false), cond = 0;
  for (size_t k = 0; k < sizeof no_alpha / sizeof *no_alpha; k++) {
    uint32_t eq =
        k2s_emit(b, SpvOpIEqual, bt, (uint32_t[]){order, k2s_const_uint32(m, no_alpha[k])}, 2);
    cond = cond ? k2s_emit(b, SpvOpLogicalOr, bt, (uint32_t[]){cond, eq}, 2) : eq;
  }
  uint32_t one =
      is_float(m, c->scalar) ? k2s_const_float(m, c->scalar, 1.0) : k2s_const_int(m, c->scalar, 1);
  uint32_t s = k2s_scalar_type(m, k2s_type_of(m, v));
  uint32_t a = k2s_emit(b, SpvOpCompositeExtract, s, (uint32_t[]){v, 3}, 2);
  a = k2s_emit(b, SpvOpSelect, s, (uint32_t[]){cond, one, a}, 3);
  return k2s_emit(b, SpvOpCompositeInsert, k2s_type_of(m, v), (uint32_t[]){a, v, 3}, 3);
}

/* Gives instruction i (already of Vulkan type `vk_type`) a fresh result and makes
 * its old result the value converted back to `old_type` (after the border fix-up
 * when `alpha`). */
static void retype_result(img_ctx *c, k2s_instr *i, uint32_t old_type, bool alpha)
{
  k2s_module *m = c->m;
  if (i->type == old_type && !alpha)
    return;
  uint32_t old = i->result, fresh = k2s_new_id(m);
  i->result = fresh;
  k2s_set_def(m, fresh, i);
  k2s_builder b = {m, k2s_after(i)};
  uint32_t v = alpha ? border_alpha(c, &b, fresh) : fresh;
  uint32_t n_old = k2s_vector_size(m, old_type), n_new = k2s_vector_size(m, i->type);
  uint32_t s_new = k2s_scalar_type(m, i->type);
  if (n_old != n_new) {
    uint32_t parts[4];
    for (uint32_t k = 0; k < n_old && k < 4; k++) {
      uint32_t idx = k;
      parts[k] = k < n_new ? k2s_emit(&b, SpvOpCompositeExtract, s_new, (uint32_t[]){v, idx}, 2)
                           : k2s_const_int(m, s_new, 0);
    }
    v = n_old == 1
            ? parts[0]
            : k2s_emit(&b, SpvOpCompositeConstruct, k2s_type_vector(m, s_new, n_old), parts, n_old);
  }
  v = convert(m, &b, v, old_type);
  /* v is the converted value: the old id's users read it. */
  k2s_replace_all_uses(m, old, v);
}

static uint32_t vec4_of_scalar(img_ctx *c)
{
  return k2s_type_vector(c->m, c->scalar, 4);
}

static bool fix_texel_result(img_ctx *c, k2s_instr *i, bool alpha)
{
  uint32_t old = i->type;
  k2s_instr_set_type(c->m, i, vec4_of_scalar(c));
  strip_extend(c->m, i);
  retype_result(c, i, old, alpha);
  return true;
}

static bool fix_read(img_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  if (c->sampled) {
    /* Vulkan reads a sampled image without a sampler through OpImageFetch. */
    i->opcode = SpvOpImageFetch;
    strip_extend(c->m, i);
    if (c->dim != SpvDimBuffer) {
      uint32_t w = mask_word(i);
      if (w == UINT32_MAX) {
        k2s_instr_push_op(m, i, SpvImageOperandsLodMask);
        k2s_instr_push_op(m, i, k2s_const_uint32(m, 0));
      } else if (i->ops[w] == SpvImageOperandsNontemporalMask) {
        /* A hint without operands (SPIR-V 1.6): Lod's operand goes after the mask. */
        uint32_t *ops = k2s_alloc(&m->arena, (i->n_ops + 1) * sizeof(uint32_t));
        memcpy(ops, i->ops, (w + 1) * sizeof(uint32_t));
        ops[w] |= SpvImageOperandsLodMask;
        ops[w + 1] = k2s_const_uint32(m, 0);
        memcpy(ops + w + 2, i->ops + w + 1, (i->n_ops - w - 1) * sizeof(uint32_t));
        k2s_instr_set_ops(m, i, ops, i->n_ops + 1);
      } else {
        k2s_error(m, i, "image read with image operands 0x%x is not supported", i->ops[w]);
        return false;
      }
    }
  }
  return fix_texel_result(c, i, false);
}

static bool fix_write(img_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  if (c->sampled) {
    k2s_error(m, i, "write to a read_only image");
    return false;
  }
  strip_extend(c->m, i);
  k2s_builder b = {m, k2s_before(i)};
  uint32_t texel = i->ops[2];
  uint32_t t = k2s_type_of(m, texel);
  if (k2s_vector_size(m, t) == 1) {
    /* A depth image's texel (image2d_depth_t): the value goes to the first channel. */
    uint32_t zero = k2s_const_null(m, t);
    texel = k2s_emit(&b, SpvOpCompositeConstruct, k2s_type_vector(m, t, 4),
                     (uint32_t[]){texel, zero, zero, zero}, 4);
    t = k2s_type_of(m, texel);
  }
  if (k2s_vector_size(m, t) != 4) {
    k2s_error(m, i, "image write of a %u-component texel (OpenCL writes 4)", k2s_vector_size(m, t));
    return false;
  }
  k2s_instr_set_op(m, i, 2, convert(m, &b, texel, vec4_of_scalar(c)));
  return true;
}

/* The sampler variable a sample's OpSampledImage loads, or 0. */
static uint32_t sampler_var(k2s_module *m, k2s_instr *i)
{
  k2s_instr *si = k2s_def(m, i->ops[0]);
  k2s_instr *load = si && si->n_ops >= 2 ? k2s_def(m, si->ops[1]) : NULL;
  return load && load->opcode == SpvOpLoad ? load->ops[0] : 0;
}

/* Can this sample meet CLK_ADDRESS_CLAMP? Not through a literal sampler of another
 * addressing mode; through a sampler argument, maybe. */
static bool may_hit_border(img_ctx *c, k2s_instr *i)
{
  uint32_t var = sampler_var(c->m, i);
  k2s_refl_facts *r = k2s_refl(c->m);
  for (uint32_t k = 0; var && k < r->n_samplers; k++)
    if (r->samplers[k].var == var)
      return ((r->samplers[k].mask >> 1) & 7) == 2;
  return true;
}

static uint32_t literal_sampler_var(k2s_module *m, uint32_t set, uint32_t mask, uint32_t type);
static uint32_t load_info(k2s_module *m, k2s_refl_kernel *k, k2s_builder *b, uint32_t ordinal,
                          uint32_t what);

/* Unnormalized coordinates `coord` of a sample of `image` made normalized: the
 * spatial components divided by the image size, with nearest filtering the texel's
 * centre (floor(u) + 0.5) / size, so that no rounding can move the texel. The array
 * layer, which OpenCL and Vulkan both leave unnormalized, stays as it is. */
static uint32_t normalized_coord(img_ctx *c, k2s_builder *b, uint32_t image, uint32_t coord,
                                 bool linear)
{
  k2s_module *m = c->m;
  uint32_t f = k2s_type_float(m, 32), u = k2s_type_int(m, 32, false);
  uint32_t ct = k2s_type_of(m, coord), n = k2s_vector_size(m, ct);
  uint32_t sp = c->dim == SpvDim3D ? 3 : c->dim == SpvDim2D ? 2 : 1, nq = sp + c->arrayed;
  uint32_t size = k2s_emit(b, SpvOpImageQuerySizeLod, nq > 1 ? k2s_type_vector(m, u, nq) : u,
                           (uint32_t[]){image, k2s_const_uint32(m, 0)}, 2);
  uint32_t parts[4], one = k2s_const_float(m, f, 1.0);
  for (uint32_t k = 0; k < n && k < 4; k++) {
    if (k >= sp) {
      parts[k] = one;
      continue;
    }
    uint32_t dk = nq > 1 ? k2s_emit(b, SpvOpCompositeExtract, u, (uint32_t[]){size, k}, 2) : size;
    parts[k] = emit1(b, SpvOpConvertUToF, f, dk);
  }
  uint32_t div = n > 1 ? k2s_emit(b, SpvOpCompositeConstruct, ct, parts, n) : parts[0];
  if (!linear) {
    /* floor(u) + 0.5 on the spatial components; the layer stays as it is. */
    uint32_t half[4], zero = k2s_const_float(m, f, 0.0), h = k2s_const_float(m, f, 0.5);
    for (uint32_t k = 0; k < n && k < 4; k++)
      half[k] = k < sp ? h : zero;
    uint32_t fl =
        k2s_emit(b, SpvOpExtInst, ct,
                 (uint32_t[]){k2s_ext_import(m, "GLSL.std.450"), 8 /* Floor */, coord}, 3);
    /* Floor of the layer would change nothing Vulkan does not do (it rounds it). */
    uint32_t sel[4];
    for (uint32_t k = 0; k < n && k < 4; k++)
      sel[k] = k < sp ? k : n + k;
    uint32_t mixed = n > 1
                         ? k2s_emit(b, SpvOpVectorShuffle, ct,
                                    (uint32_t[]){fl, coord, sel[0], sel[1], sel[2], sel[3]}, 2 + n)
                         : fl;
    uint32_t hv = n > 1 ? k2s_const_composite(m, ct, half, n) : h;
    coord = k2s_emit(b, SpvOpFAdd, ct, (uint32_t[]){mixed, hv}, 2);
  }
  return k2s_emit(b, SpvOpFDiv, ct, (uint32_t[]){coord, div}, 2);
}

/* Vulkan allows unnormalized samplers only with 1-D and 2-D non-array images. A literal
 * unnormalized sampler on a 3-D or array image is therefore replaced by its normalized
 * twin (another LiteralSampler) and the coordinates normalized here. */
static void normalize_literal(img_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  if (c->dim != SpvDim3D && !c->arrayed)
    return;
  uint32_t var = sampler_var(m, i);
  k2s_refl_facts *r = k2s_refl(m);
  const k2s_refl_sampler *ls = NULL;
  for (uint32_t k = 0; var && k < r->n_samplers; k++)
    if (r->samplers[k].var == var)
      ls = &r->samplers[k];
  if (!ls || (ls->mask & 1))
    return;
  k2s_instr *si = k2s_def(m, i->ops[0]);
  k2s_instr *load = k2s_def(m, si->ops[1]);
  uint32_t twin = literal_sampler_var(m, ls->set, ls->mask | 1, load->type);
  k2s_builder b = {m, k2s_before(si)};
  k2s_instr_set_op(m, si, 1, emit1(&b, SpvOpLoad, load->type, twin));
  b = (k2s_builder){m, k2s_before(i)};
  k2s_instr_set_op(m, i, 1,
                   normalized_coord(c, &b, si->ops[0], i->ops[1], (ls->mask & 0x30) == 0x20));
}

/* The push-constant entry `what` of argument `ordinal`, or NULL. */
static k2s_refl_image_info *find_info(k2s_refl_kernel *k, uint32_t ordinal, uint32_t what)
{
  for (uint32_t q = 0; q < k->n_image_info; q++)
    if (k->image_info[q].ordinal == ordinal && k->image_info[q].what == what)
      return &k->image_info[q];
  return NULL;
}

/* The push-constant entry `what` of argument `ordinal`, made on first use. */
static k2s_refl_image_info *add_info(k2s_module *m, k2s_refl_kernel *k, uint32_t ordinal,
                                     uint32_t what)
{
  k2s_refl_image_info *ii = find_info(k, ordinal, what);
  if (ii)
    return ii;
  uint32_t off, member = k2s_kernel_push_constant(m, k, k2s_type_int(m, 32, false), &off);
  k->image_info = k2s_realloc_array(&m->arena, k->image_info, k->n_image_info, k->n_image_info + 1,
                                    sizeof(*k->image_info));
  k->image_info[k->n_image_info] = (k2s_refl_image_info){ordinal, off, what, member};
  return &k->image_info[k->n_image_info++];
}

static uint32_t select_vec(k2s_module *m, k2s_builder *b, uint32_t cond, uint32_t t, uint32_t f)
{
  uint32_t ty = k2s_type_of(m, t), n = k2s_vector_size(m, ty);
  if (n > 1) {
    uint32_t c4[4] = {cond, cond, cond, cond};
    cond = k2s_emit(b, SpvOpCompositeConstruct, k2s_type_vector(m, k2s_type_bool(m), n), c4, n);
  }
  return k2s_emit(b, SpvOpSelect, ty, (uint32_t[]){cond, t, f}, 3);
}

/* A sampler argument that meets a 3-D or array image: its normalized bit is known only
 * at run time, so the host binds it normalized and writes its sampler_t bits into a
 * push constant (clspv's NormalizedSamplerMaskPushConstant); where they say
 * unnormalized, the coordinates are normalized here, nearest or linear as they say.
 * Every sample through such a sampler does this, whatever its image. */
static void normalize_by_mask(img_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  uint32_t var = sampler_var(m, i), ordinal = UINT32_MAX;
  for (uint32_t a = 0; var && a < c->k->n_args; a++)
    if (c->k->args[a].kind == K2S_ARG_SAMPLER && c->k->args[a].var == var)
      ordinal = c->k->args[a].ordinal;
  if (ordinal == UINT32_MAX || !find_info(c->k, ordinal, K2S_INFO_SAMPLER_MASK))
    return;
  k2s_builder b = {m, k2s_before(i)};
  uint32_t u = k2s_type_int(m, 32, false), bt = k2s_type_bool(m);
  uint32_t image = k2s_def(m, i->ops[0])->ops[0], coord = i->ops[1];
  uint32_t nearest = normalized_coord(c, &b, image, coord, false);
  uint32_t linear = normalized_coord(c, &b, image, coord, true);
  uint32_t mask = load_info(m, c->k, &b, ordinal, K2S_INFO_SAMPLER_MASK);
  uint32_t filter =
      k2s_emit(&b, SpvOpBitwiseAnd, u, (uint32_t[]){mask, k2s_const_uint32(m, 0x30)}, 2);
  uint32_t is_nearest =
      k2s_emit(&b, SpvOpIEqual, bt, (uint32_t[]){filter, k2s_const_uint32(m, 0x10)}, 2);
  uint32_t norm = k2s_emit(&b, SpvOpBitwiseAnd, u, (uint32_t[]){mask, k2s_const_uint32(m, 1)}, 2);
  uint32_t unnorm = k2s_emit(&b, SpvOpIEqual, bt, (uint32_t[]){norm, k2s_const_uint32(m, 0)}, 2);
  uint32_t scaled = select_vec(m, &b, is_nearest, nearest, linear);
  k2s_instr_set_op(m, i, 1, select_vec(m, &b, unnorm, scaled, coord));
}

/* Marks (with a push-constant entry) each sampler argument that some sample uses
 * with a 3-D or array image; done before any image is lowered. */
/* Needs def-use built (the caller builds it once for all kernels: a rebuild per kernel
 * made modules of many kernels quadratic). */
static void mark_mask_samplers(k2s_module *m, k2s_refl_kernel *k)
{
  for (uint32_t a = 0; a < k->n_args; a++) {
    k2s_refl_arg *g = &k->args[a];
    bool needs = false;
    if (g->kind != K2S_ARG_SAMPLER)
      continue;
    k2s_foreach_use(u, m, g->var) {
      if (!u->user->block || u->user->opcode != SpvOpLoad)
        continue;
      k2s_foreach_use(s, m, u->user->result) {
        if (!s->user->block || s->user->opcode != SpvOpSampledImage)
          continue;
        k2s_instr *t = k2s_def(m, k2s_type_of(m, s->user->ops[0]));
        if (t && t->opcode == SpvOpTypeImage && (t->ops[1] == SpvDim3D || t->ops[3]))
          needs = true;
      }
    }
    if (needs)
      add_info(m, k, g->ordinal, K2S_INFO_SAMPLER_MASK);
  }
}

static bool fix_sample(img_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  if (i->opcode != SpvOpImageSampleExplicitLod) {
    k2s_error(m, i, "sampled image used by %s, which k2s does not translate",
              k2s_opcode_name(i->opcode));
    return false;
  }
  uint32_t coord = i->ops[1], ct = k2s_type_of(m, coord);
  if (!is_float(m, ct)) {
    /* OpenCL allows integer coordinates only with unnormalized nearest samplers:
     * texel x is the one float x addresses (floor(x) = x). */
    uint32_t n = k2s_vector_size(m, ct), f = k2s_type_float(m, 32);
    k2s_builder b = {m, k2s_before(i)};
    k2s_instr_set_op(m, i, 1,
                     emit1(&b, SpvOpConvertSToF, n > 1 ? k2s_type_vector(m, f, n) : f, coord));
  }
  normalize_literal(c, i);
  normalize_by_mask(c, i);
  return fix_texel_result(c, i, may_hit_border(c, i));
}

static uint32_t size_components(img_ctx *c)
{
  uint32_t n = c->dim == SpvDim3D ? 3 : c->dim == SpvDim2D ? 2 : 1;
  return n + (c->arrayed ? 1 : 0);
}

static bool fix_query_size(img_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  uint32_t old = i->type, n = size_components(c), u = k2s_type_int(m, 32, false);
  i->type = n > 1 ? k2s_type_vector(m, u, n) : u;
  if (c->sampled && c->dim != SpvDimBuffer) {
    i->opcode = SpvOpImageQuerySizeLod;
    if (i->n_ops < 2)
      k2s_instr_push_op(m, i, k2s_const_uint32(m, 0));
  } else {
    i->opcode = SpvOpImageQuerySize;
    i->n_ops = 1;
  }
  k2s_instr_set_ops(m, i, i->ops, i->n_ops); /* new type, opcode, operands: recorded */
  retype_result(c, i, old, false);
  return true;
}

/* The CL_* channel order or data type of the image, from the push constants. */
/* Loads the 32-bit push constant `what` of argument `ordinal`, made on first use. */
static uint32_t load_info(k2s_module *m, k2s_refl_kernel *k, k2s_builder *b, uint32_t ordinal,
                          uint32_t what)
{
  uint32_t u = k2s_type_int(m, 32, false);
  uint32_t member = add_info(m, k, ordinal, what)->member;
  uint32_t ptr = k2s_emit(b, SpvOpAccessChain, k2s_type_pointer(m, SpvStorageClassPushConstant, u),
                          (uint32_t[]){k->pc_var, k2s_const_uint32(m, member)}, 2);
  return emit1(b, SpvOpLoad, u, ptr);
}

static uint32_t channel_info(img_ctx *c, k2s_builder *b, bool data_type)
{
  return load_info(c->m, c->k, b, c->a->ordinal,
                   data_type ? K2S_INFO_CHANNEL_DATA_TYPE : K2S_INFO_CHANNEL_ORDER);
}

static bool fix_query_info(img_ctx *c, k2s_instr *i, bool data_type)
{
  k2s_module *m = c->m;
  uint32_t u = k2s_type_int(m, 32, false);
  k2s_builder b = {m, k2s_before(i)};
  uint32_t v = channel_info(c, &b, data_type);
  /* The host writes the CL_* value; the producer expects the SPIR-V enumerant. */
  uint32_t base = k2s_const_uint32(m, data_type ? CL_CHANNEL_TYPE_BASE : CL_CHANNEL_ORDER_BASE);
  v = k2s_emit(&b, SpvOpISub, u, (uint32_t[]){v, base}, 2);
  v = convert(m, &b, v, i->type);
  k2s_replace_all_uses(m, i->result, v);
  k2s_instr_delete(m, i);
  return true;
}

/* Collects the instructions that use an image value (the variable's loads). */
typedef struct uses_list {
  k2s_instr **v;
  uint32_t n, cap;
} uses_list;

static void push(k2s_module *m, uses_list *l, k2s_instr *i)
{
  if (l->n == l->cap) {
    uint32_t cap = l->cap ? l->cap * 2 : 16;
    l->v = k2s_realloc_array(&m->arena, l->v, l->cap, cap, sizeof(*l->v));
    l->cap = cap;
  }
  l->v[l->n++] = i;
}

/* --image-format entries: KERNEL:ARG=ORDER:TYPE. */
typedef struct fmt_entry {
  const char *kernel, *arg, *order, *type; /* into a copy of the option */
  bool used;
} fmt_entry;

typedef struct fmt_list {
  fmt_entry *v;
  uint32_t n;
  uint32_t missing_features; /* the options' */
} fmt_list;

static bool parse_formats(k2s_module *m, const char *opt, fmt_list *out)
{
  *out = (fmt_list){0};
  if (!opt)
    return true;
  char *copy = k2s_sprintf(&m->arena, "%s", opt);
  for (char *e = copy, *next; e; e = next) {
    next = strchr(e, ',');
    if (next)
      *next++ = 0;
    char *colon = strchr(e, ':'), *eq = strchr(e, '=');
    char *colon2 = eq ? strchr(eq, ':') : NULL;
    if (!colon || !eq || colon > eq || !colon2) {
      k2s_error(m, NULL, "--image-format takes KERNEL:ARG=ORDER:TYPE, not '%s'", e);
      return false;
    }
    *colon = *eq = *colon2 = 0;
    out->v = k2s_realloc_array(&m->arena, out->v, out->n, out->n + 1, sizeof(*out->v));
    out->v[out->n++] = (fmt_entry){e, colon + 1, eq + 1, colon2 + 1, false};
  }
  return true;
}

/* The --image-format entry for argument a of kernel k (by name or ordinal), or NULL. */
static fmt_entry *format_for(fmt_list *f, k2s_refl_kernel *k, k2s_refl_arg *a)
{
  char ord[16];
  snprintf(ord, sizeof ord, "%u", a->ordinal);
  for (uint32_t i = 0; i < f->n; i++)
    if (strcmp(f->v[i].kernel, k->name) == 0 &&
        ((a->name && strcmp(f->v[i].arg, a->name) == 0) || strcmp(f->v[i].arg, ord) == 0))
      return &f->v[i];
  return NULL;
}

/* The storage image format of argument a: --image-format's, else Unknown (refused
 * for a read image when the device cannot read without a format). */
static bool storage_format(img_ctx *c, fmt_list *f, bool read, uint32_t *format)
{
  k2s_module *m = c->m;
  fmt_entry *e = format_for(f, c->k, c->a);
  *format = SpvImageFormatUnknown;
  if (!e) {
    if (read && !c->sampled &&
        (f->missing_features & K2S_FEATURE_STORAGE_IMAGE_READ_WITHOUT_FORMAT)) {
      k2s_error(m, k2s_def(m, c->a->var),
                "kernel '%s' reads read_write image argument '%s', and the device lacks "
                "shaderStorageImageReadWithoutFormat (--no-storage-image-read-without-format): "
                "give its format with --image-format=%s:%s=ORDER:TYPE",
                c->k->name, c->a->name, c->k->name, c->a->name);
      return false;
    }
    return true;
  }
  e->used = true;
  if (c->sampled) {
    k2s_error(m, k2s_def(m, c->a->var),
              "--image-format names read_only image argument '%s' of kernel '%s' (only "
              "write_only and read_write images take a format)",
              c->a->name, c->k->name);
    return false;
  }
  enum k2s_texel_kind kind;
  *format = k2s_storage_image_format(e->order, e->type, &kind);
  if (!*format) {
    k2s_error(m, NULL,
              "--image-format=%s:%s=%s:%s: not a storage image format (ORDER r, rg or rgba; "
              "TYPE float half unorm8 snorm8 unorm16 snorm16 int8 int16 int32 uint8 uint16 "
              "uint32)",
              e->kernel, e->arg, e->order, e->type);
    return false;
  }
  if ((kind == K2S_TEXEL_FLOAT) != is_float(m, c->scalar)) {
    k2s_error(m, k2s_def(m, c->a->var),
              "--image-format %s:%s for image argument '%s' of kernel '%s', which the kernel "
              "accesses as %s data",
              e->order, e->type, c->a->name, c->k->name, kind != K2S_TEXEL_FLOAT ? "float" : "integer");
    return false;
  }
  if (kind)
    c->scalar = k2s_type_int(m, 32, kind == 1); /* the format's signedness */
  c->a->image_format = k2s_sprintf(&m->arena, "%s:%s", e->order, e->type);
  return true;
}

static bool lower_image_arg(k2s_module *m, k2s_refl_kernel *k, k2s_refl_arg *a, fmt_list *fmts)
{
  k2s_instr *var = k2s_def(m, a->var);
  k2s_instr *t = k2s_def(m, k2s_def(m, var->type)->ops[1]);
  img_ctx c = {.m = m,
               .k = k,
               .a = a,
               .dim = t->ops[1],
               .arrayed = t->ops[3],
               .sampled = t->ops[7] == SpvAccessQualifierReadOnly};
  k2s_build_uses(m);
  uses_list loads = {0}, users = {0}, samples = {0};
  k2s_foreach_use(u, m, a->var) {
    if (!u->user->block)
      continue; /* names, decorations, entry-point interfaces */
    if (u->user->opcode != SpvOpLoad) {
      k2s_error(m, u->user, "image argument '%s' is used by %s, which k2s does not translate",
                a->name, k2s_opcode_name(u->user->opcode));
      return false;
    }
    push(m, &loads, u->user);
  }
  bool want_float = false, want_int = false, want_signed = false, read = false;
  for (uint32_t l = 0; l < loads.n; l++)
    k2s_foreach_use(u, m, loads.v[l]->result) {
      k2s_instr *i = u->user;
      if (!i->block)
        continue; /* names, decorations */
      switch (i->opcode) {
      case SpvOpSampledImage:
        if (u->word != 0) {
          k2s_error(m, i, "image used as a sampler");
          return false;
        }
        push(m, &users, i);
        k2s_foreach_use(s, m, i->result) {
          if (!s->user->block)
            continue;
          push(m, &samples, s->user);
          *(is_float(m, s->user->type) ? &want_float : &want_int) = true;
          want_signed |= has_sign_extend(s->user);
        }
        break;
      case SpvOpImageRead:
        read = true;
        *(is_float(m, i->type) ? &want_float : &want_int) = true;
        want_signed |= has_sign_extend(i);
        push(m, &users, i);
        break;
      case SpvOpImageWrite:
        if (u->word != 0)
          goto bad;
        *(is_float(m, k2s_type_of(m, i->ops[2])) ? &want_float : &want_int) = true;
        want_signed |= has_sign_extend(i);
        push(m, &users, i);
        break;
      case SpvOpImageQuerySizeLod:
      case SpvOpImageQuerySize:
      case SpvOpImageQueryOrder:
      case SpvOpImageQueryFormat: push(m, &users, i); break;
      default:
      bad:
        k2s_error(m, i,
                  "image argument '%s' flows into %s, which k2s does not translate (images "
                  "may only be read, written, sampled and queried)",
                  a->name, k2s_opcode_name(i->opcode));
        return false;
      }
    }
  if (want_float && want_int) {
    k2s_error(m, var,
              "image argument '%s' is accessed both as float and as integer data; OpenCL "
              "leaves that undefined and Vulkan needs one Sampled Type",
              a->name);
    return false;
  }
  c.scalar = want_int ? k2s_type_int(m, 32, want_signed) : k2s_type_float(m, 32);
  uint32_t format;
  if (!storage_format(&c, fmts, read, &format))
    return false;
  uint32_t ops[7] = {c.scalar, c.dim, 0, c.arrayed, 0, c.sampled ? 1u : 2u, format};
  c.image_type = k2s_intern(m, SpvOpTypeImage, 0, ops, 7);
  k2s_instr_set_type(m, var, k2s_type_pointer(m, SpvStorageClassUniformConstant, c.image_type));
  k2s_list_remove(&m->sec[K2S_SEC_GLOBAL], var);
  k2s_list_append(&m->sec[K2S_SEC_GLOBAL], var);
  for (uint32_t l = 0; l < loads.n; l++)
    k2s_instr_set_type(m, loads.v[l], c.image_type);
  uint32_t sampled_image = k2s_intern(m, SpvOpTypeSampledImage, 0, &c.image_type, 1);
  bool ok = true;
  for (uint32_t s = 0; s < samples.n && ok; s++)
    ok = fix_sample(&c, samples.v[s]);
  for (uint32_t u = 0; u < users.n && ok; u++) {
    k2s_instr *i = users.v[u];
    switch (i->opcode) {
    case SpvOpSampledImage: k2s_instr_set_type(m, i, sampled_image); break;
    case SpvOpImageRead: ok = fix_read(&c, i); break;
    case SpvOpImageWrite: ok = fix_write(&c, i); break;
    case SpvOpImageQueryOrder: ok = fix_query_info(&c, i, false); break;
    case SpvOpImageQueryFormat: ok = fix_query_info(&c, i, true); break;
    default: ok = fix_query_size(&c, i); break;
    }
  }
  return ok;
}

/* OpenCL's sampler_t bits for an OpConstantSampler (clspv's LiteralSampler mask). */
static uint32_t sampler_mask(const k2s_instr *s)
{
  /* SPIR-V addressing None..RepeatMirrored = 0..4; CLK_ADDRESS_* = 0, 2, 4, 6, 8. */
  uint32_t mask = (s->ops[0] & 7) * 2 | (s->ops[1] ? 1 : 0);
  /* llvm-spirv 15 writes filter mode 0xFFFFFFFF when the literal names no filter;
   * OpenCL's default is nearest. */
  mask |= s->ops[2] == SpvSamplerFilterModeLinear ? 0x20 : 0x10;
  return mask;
}

/* The variable of the literal sampler with these bits, made on first use. */
static uint32_t literal_sampler_var(k2s_module *m, uint32_t set, uint32_t mask, uint32_t type)
{
  k2s_refl_facts *r = k2s_refl(m);
  for (uint32_t k = 0; k < r->n_samplers; k++)
    if (r->samplers[k].mask == mask)
      return r->samplers[k].var;
  uint32_t sc = SpvStorageClassUniformConstant;
  uint32_t var = k2s_global_variable(m, k2s_type_pointer(m, sc, type), sc, 0);
  uint32_t binding = r->n_samplers;
  k2s_decorate(m, var, SpvDecorationDescriptorSet, &set, 1);
  k2s_decorate(m, var, SpvDecorationBinding, &binding, 1);
  k2s_set_name(m, var, k2s_sprintf(&m->arena, "literal_sampler_%u", binding));
  r->samplers = k2s_realloc_array(&m->arena, r->samplers, r->n_samplers, r->n_samplers + 1,
                                  sizeof(*r->samplers));
  r->samplers[r->n_samplers++] = (k2s_refl_sampler){set, binding, mask, var};
  return var;
}

static bool lower_literal_samplers(k2s_module *m)
{
  uint32_t set = UINT32_MAX;
  bool changed = false;
  k2s_foreach_instr_safe(s, &m->sec[K2S_SEC_GLOBAL]) {
    if (s->opcode != SpvOpConstantSampler)
      continue;
    if (s->n_ops < 3 || s->ops[0] > SpvSamplerAddressingModeRepeatMirrored) {
      k2s_error(m, s, "literal sampler with an unknown addressing mode");
      return changed;
    }
    if (set == UINT32_MAX) {
      /* Its own descriptor set after every set the kernels' arguments use. */
      set = 0;
      k2s_foreach_instr(d, &m->sec[K2S_SEC_ANNOTATION])
        if (d->opcode == SpvOpDecorate && d->n_ops >= 3 &&
            d->ops[1] == SpvDecorationDescriptorSet && d->ops[2] + 1 > set)
          set = d->ops[2] + 1;
    }
    uint32_t var = literal_sampler_var(m, set, sampler_mask(s), s->type);
    k2s_build_uses(m);
    for (k2s_use *u = k2s_uses_of(m, s->result); u; u = u->next) {
      k2s_instr *user = u->user;
      if (!user->block || u->word == UINT32_MAX) {
        k2s_error(m, user, "literal sampler used outside a function body");
        return changed;
      }
      k2s_builder b = {m, k2s_before(user)};
      if (user->opcode == SpvOpPhi) {
        k2s_error(m, user, "literal sampler chosen by a phi, which Vulkan cannot express");
        return changed;
      }
      k2s_instr_set_op(m, user, u->word, emit1(&b, SpvOpLoad, s->type, var));
    }
    k2s_remove_decorations(m, s->result);
    k2s_instr_delete(m, s);
    changed = true;
  }
  return changed;
}

bool k2s_lower_images(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  bool changed = lower_literal_samplers(m);
  if (m->failed)
    return changed;
  k2s_refl_facts *r = k2s_refl(m);
  fmt_list fmts;
  if (!parse_formats(m, o->image_formats, &fmts))
    return changed;
  fmts.missing_features = o->missing_features;
  bool any_sampler = false;
  for (uint32_t i = 0; i < r->n_kernels; i++)
    for (uint32_t a = 0; a < r->kernels[i].n_args; a++)
      any_sampler |= r->kernels[i].args[a].kind == K2S_ARG_SAMPLER;
  if (any_sampler) {
    k2s_build_uses(m);
    for (uint32_t i = 0; i < r->n_kernels; i++)
      mark_mask_samplers(m, &r->kernels[i]);
    k2s_invalidate_uses(m);
  }
  for (uint32_t i = 0; i < r->n_kernels; i++) {
    k2s_refl_kernel *k = &r->kernels[i];
    for (uint32_t a = 0; a < k->n_args; a++) {
      uint32_t kind = k->args[a].kind;
      if (kind != K2S_ARG_SAMPLED_IMAGE && kind != K2S_ARG_STORAGE_IMAGE &&
          kind != K2S_ARG_UNIFORM_TEXEL_BUFFER && kind != K2S_ARG_STORAGE_TEXEL_BUFFER)
        continue;
      changed = true;
      if (!lower_image_arg(m, k, &k->args[a], &fmts))
        return changed;
    }
  }
  for (uint32_t i = 0; i < fmts.n; i++)
    if (!fmts.v[i].used) {
      k2s_error(m, NULL,
                "--image-format=%s:%s=...: kernel '%s' has no image argument '%s' (a name or "
                "ordinal)",
                fmts.v[i].kernel, fmts.v[i].arg, fmts.v[i].kernel, fmts.v[i].arg);
      return changed;
    }
  return changed;
}
