// select_relational_special.cl — relational built-ins (the Kernel-only OpIsFinite,
// OpIsNormal, OpSignBitSet, OpOrdered, OpUnordered, OpLessOrGreater, and isnan/isinf/
// isequal...) on raw random bit patterns: NaNs, infinities, subnormals, signed zeros.
// Scalar results are 1/0, vector results -1/0.

kernel void rel_float(global const uint *a, global const uint *b, global int *o)
{
    size_t i = get_global_id(0);
    float x = as_float(a[i]), y = as_float(b[i]);
    if (i % 5u == 1)                 // subnormals and zeros
        x = as_float(a[i] & 0x807fffffu & (i % 3u ? 0xffffffffu : 0x80000000u));
    if (i % 7u == 2)                 // equal operands
        y = x;
    if (i % 11u == 3)                // infinities and NaNs
        x = as_float((a[i] & 0x807fffffu) | 0x7f800000u);
    o[i] = isnan(x) | isinf(x) << 1 | isfinite(x) << 2 | isnormal(x) << 3 | signbit(x) << 4
         | isordered(x, y) << 5 | isunordered(x, y) << 6 | islessgreater(x, y) << 7
         | isequal(x, y) << 8 | isnotequal(x, y) << 9 | isgreater(x, y) << 10
         | isgreaterequal(x, y) << 11 | isless(x, y) << 12 | islessequal(x, y) << 13;
}

kernel void rel_double(global const ulong *a, global const ulong *b, global int *o)
{
    size_t i = get_global_id(0);
    double x = as_double(a[i]), y = as_double(b[i]);
    if (i % 5u == 1)
        x = as_double(a[i] & 0x800fffffffffffffUL & (i % 3u ? ~0UL : 0x8000000000000000UL));
    if (i % 7u == 2)
        y = x;
    if (i % 11u == 3)
        x = as_double((a[i] & 0x800fffffffffffffUL) | 0x7ff0000000000000UL);
    o[i] = isnan(x) | isinf(x) << 1 | isfinite(x) << 2 | isnormal(x) << 3 | signbit(x) << 4
         | isordered(x, y) << 5 | isunordered(x, y) << 6 | islessgreater(x, y) << 7
         | isequal(x, y) << 8 | isnotequal(x, y) << 9 | isgreater(x, y) << 10
         | isgreaterequal(x, y) << 11 | isless(x, y) << 12 | islessequal(x, y) << 13;
}

kernel void rel_float4(global const uint4 *a, global const uint4 *b, global int4 *o)
{
    size_t i = get_global_id(0);
    float4 x = as_float4(a[i]), y = as_float4(b[i]);
    y.y = x.y;
    x.z = as_float(a[i].z & 0x807fffffu);
    x.w = as_float(a[i].w | 0x7f800000u);
    o[3 * i] = isnan(x) & 1 | isinf(x) & 2 | isfinite(x) & 4 | isnormal(x) & 8 | signbit(x) & 16;
    o[3 * i + 1] = isordered(x, y) & 1 | isunordered(x, y) & 2 | islessgreater(x, y) & 4
                 | isequal(x, y) & 8 | isgreater(x, y) & 16;
    o[3 * i + 2] = (int4)(any(isnan(x)), all(isfinite(y)), any(signbit(y)), all(isordered(x, y)));
}
