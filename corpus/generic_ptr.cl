// generic_ptr.cl — OpenCL C 2.0 generic address space.
// generic_helpers: helpers taking generic pointers called on global, local and private
//                  memory (the address spaces are inferred after inlining).
// generic_select:  a generic pointer that points to global or local memory depending on the
//                  work-item (a tag decides at run time), to_global/to_local on it, get_fence.
// PoCL has no generic address space, so the reference (K2S_REF, see the spec's cl-build) is
// the same computation written with explicit address spaces.
#define DOT3_BODY { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
#define SCALE_BODY { for (int k = 0; k < n; ++k) p[k] *= s; }
#ifndef K2S_REF
static float dot3(const float *a, const float *b) DOT3_BODY
static void scale(float *p, int n, float s) SCALE_BODY
#define dot3_gp dot3
#define dot3_lg dot3
#else
static float dot3_gp(global const float *a, private const float *b) DOT3_BODY
static float dot3_lg(local const float *a, global const float *b) DOT3_BODY
static void scale(private float *p, int n, float s) SCALE_BODY
#endif

kernel void generic_helpers(global float *g, global float *o, local float *l)
{
    size_t i = get_global_id(0), li = get_local_id(0);
    float pr[3] = {1.0f, (float)li, 2.0f};
    l[li] = g[i] + 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    scale(pr, 3, 0.5f);
    float a = dot3_gp(g + (i & ~3u), pr);
    float b = dot3_lg(l + (li & ~3u), g + i % 8);
    o[i] = a + b;
}

kernel void generic_select(global float *g, global float *o, local float *l)
{
    size_t i = get_global_id(0), li = get_local_id(0);
    l[li] = (float)li * 0.25f;
    barrier(CLK_LOCAL_MEM_FENCE);
#ifndef K2S_REF
    float *p = (i & 1) ? (float *)&g[i] : (float *)&l[li];
    float v = *p;
    global float *pg = to_global(p);
    local float *pl = to_local(p);
    int which = (pg != NULL ? 1 : 0) + (pl != NULL ? 2 : 0);
    *p = v + 1.0f;
    float fence = get_fence(p) == CLK_LOCAL_MEM_FENCE ? 1000.0f : 0.0f;
#else
    float v = (i & 1) ? g[i] : l[li];
    int which = (i & 1) ? 1 : 2;
    if (i & 1)
        g[i] = v + 1.0f;
    else
        l[li] = v + 1.0f;
    float fence = (i & 1) ? 0.0f : 1000.0f;
#endif
    o[i] = v + (float)which * 100.0f + fence;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!(i & 1))
        o[i] += l[li];
}

// generic_atomic: atomic_add through a generic pointer to a global or a local counter,
//                 chosen per work-item (the atomic runs in the tag's switch arm).
kernel void generic_atomic(global int *counts, global int *out, local int *lc)
{
    size_t i = get_global_id(0), li = get_local_id(0);
    if (li == 0)
        lc[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
#ifndef K2S_REF
    volatile atomic_int *c = (i % 3 == 0) ? (volatile atomic_int *)&counts[i % 4]
                                          : (volatile atomic_int *)lc;
    atomic_fetch_add_explicit(c, (int)(i & 7) + 1, memory_order_relaxed);
#else
    if (i % 3 == 0)
        atomic_add(&counts[i % 4], (int)(i & 7) + 1);
    else
        atomic_add(lc, (int)(i & 7) + 1);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    if (li == 0)
        out[get_group_id(0)] = lc[0];
}
