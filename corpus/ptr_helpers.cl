// ptr_helpers.cl — pointer arithmetic, selects, phis, comparisons and address arithmetic.
// private_helpers: private arrays passed with pointer arithmetic to helper functions that
//                  walk them with moving pointers (pointer phis) and compare pointers.
// select_buffers:  a pointer chosen at run time between two buffers (and a local array).
// align_arith:     (uintptr_t)p & 15 alignment tests, pointer differences and rounding a
//                  pointer up to a 16-byte boundary through uintptr_t.
// walk_struct:     a pointer moving over an array of structs in a loop, with member access.
static int sum_range(const int *b, const int *e)
{
    int s = 0;
    for (const int *p = b; p < e; ++p)
        s += *p;
    return s;
}

static void reverse(int *p, int n)
{
    int *q = p + n - 1;
    while (p < q) {
        int t = *p;
        *p++ = *q;
        *q-- = t;
    }
}

kernel void private_helpers(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int a[8];
    for (int k = 0; k < 8; ++k)
        a[k] = in[8 * g + k];
    reverse(a + 1, 6);
    int *mid = a + (g & 3);
    out[2 * g] = sum_range(mid, a + 8) * 3 + (int)(a + 8 - mid);
    out[2 * g + 1] = a[1] - a[6] + (mid == a + 2 ? 100 : 0);
}

kernel void select_buffers(global const float *a, global const float *b, global float *o,
                           local float *tmp)
{
    size_t i = get_global_id(0), l = get_local_id(0);
    tmp[l] = (float)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    global const float *p = (i % 3 == 0) ? a : b;
    float x = p[i];
    global const float *q = (i & 1) ? &a[i ^ 1] : &b[i];
    float y = *q;
    float z = 0.0f;
    for (int k = 0; k < 3; ++k) {
        global const float *r = (k == (int)(i % 3)) ? a + k : b + 2 * k;
        z += r[i % 5];
    }
    local float *lt = (l & 1) ? &tmp[l ^ 1] : &tmp[l];
    o[i] = x + 2.0f * y + z + *lt;
}

kernel void align_arith(global float *a, global uint *o)
{
    size_t i = get_global_id(0);
    global float *p = a + i;
    uint mis = (uint)((uintptr_t)p & 15);
    global float *up = (global float *)(((uintptr_t)p + 15) & ~(uintptr_t)15);
    o[2 * i] = mis + 100u * (uint)(up - p);
    o[2 * i + 1] = as_uint(*up);
}

typedef struct { int key; float val; char tag; } item;

kernel void walk_struct(global const item *items, global float *o, int n)
{
    size_t g = get_global_id(0);
    float acc = 0.0f;
    const global item *end = items + n;
    for (const global item *p = items + (g % 4); p < end; p += 4)
        if (p->tag == (char)(g & 1))
            acc += p->val * (float)p->key;
    o[g] = acc;
}
