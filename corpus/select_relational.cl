// select_relational.cl — relational and selection built-ins on scalars and vectors.
// select_vec: select() with scalar (0/1... any nonzero = true) and vector (MSB) conditions,
//             the ?: operator on vectors, any()/all(), isgreater/isless/isequal (vector
//             results are -1/0, scalar 1/0), bitselect, signbit.
#pragma OPENCL FP_CONTRACT OFF

kernel void select_vec(global const float4 *a, global const float4 *b, global const int4 *m,
                       global float4 *of, global int4 *oi)
{
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    int4 k = m[i];
    of[2 * i] = select(x, y, k);                      // MSB of each k lane
    of[2 * i + 1] = (x > y) ? x - y : y * 2.0f;       // vector ?: picks per lane
    int4 g = isgreater(x, y);
    oi[3 * i] = g + isless(x, (float4)0.0f) * 2 + isequal(x, x) * 4;
    oi[3 * i + 1] = (int4)(any(k), all(k | 0x7fffffff), any(g), all(k != 0))
                    + (int4)(isgreater(x.x, y.x), signbit(x.y), signbit(x).z, select(3, 7, k.w));
    oi[3 * i + 2] = bitselect(k, k.wzyx, (int4)(0x0ff0ff00));
}
