// int_buffers.cl — 32-bit integer buffers, signed and unsigned.
// int_arith:  signed int arithmetic and bit ops; arithmetic (sign-propagating) right shift,
//             wrap-around add/sub/mul, comparison results stored as ints.
// uint_arith: the same on uint; logical right shift, unsigned compare, shift counts taken
//             modulo 32 as OpenCL C defines (b & 31).
// Division is avoided on random data (divide by zero / INT_MIN/-1); a guarded
// division/modulo by a small positive divisor is included.
kernel void int_arith(global const int *a, global const int *b, global int *out)
{
    int i = get_global_id(0);
    int x = a[i], y = b[i];
    int d = (y & 15) + 1;                       // 1..16, never zero
    out[8 * i + 0] = x + y;
    out[8 * i + 1] = x - y;
    out[8 * i + 2] = x * y;
    out[8 * i + 3] = (x & y) ^ (x | ~y);
    out[8 * i + 4] = x >> (y & 31);             // arithmetic shift
    out[8 * i + 5] = x << (y & 7);
    out[8 * i + 6] = x / d;                     // signed division truncates toward zero
    out[8 * i + 7] = (x < y) + 2 * (x == y) + 4 * (x > 0) + 8 * (y % 7);
}

kernel void uint_arith(global const uint *a, global const uint *b, global uint *out)
{
    uint i = get_global_id(0);
    uint x = a[i], y = b[i];
    uint d = (y & 255u) + 1u;                   // 1..256, never zero
    out[8 * i + 0] = x + y;
    out[8 * i + 1] = x - y;
    out[8 * i + 2] = x * y;
    out[8 * i + 3] = x >> (y & 31u);            // logical shift
    out[8 * i + 4] = x << y;                    // OpenCL: shift count taken modulo 32
    out[8 * i + 5] = x / d;
    out[8 * i + 6] = x % (d + 2u);
    out[8 * i + 7] = (x < y) ? x : ~y;          // unsigned comparison
}
