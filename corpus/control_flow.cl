// control_flow.cl — structured control flow the translator must turn into Vulkan-legal
// structured SPIR-V (merge blocks, continue targets). Integer-only, exact.
// loop_nested_for: nested for loops with continue in the outer and break in the inner
//                  loop, trip counts from a POD and from data.
// loop_while:      Collatz step count: data-dependent while loop with a break (cap).
// loop_do_while:   Euclid's gcd in a do-while loop.
// early_return:    bounds-check return, a return from the middle of the kernel, and a
//                  return from inside a loop.
// switch_fall:     switch with fallthrough, a shared case body, default in the middle,
//                  and a switch inside a loop whose `break` leaves only the switch while
//                  `continue` goes to the next loop iteration.
kernel void loop_nested_for(global const int *in, global uint *out, int n)
{
    size_t gid = get_global_id(0);
    int v = in[gid];
    uint acc = 0;                            // unsigned: wrap-around is defined
    for (int i = 0; i < n; ++i) {
        if (i % 3 == 2)
            continue;
        int lim = (v >> (i & 15)) & 15;
        for (int j = 0; j < 16; ++j) {
            if (j > lim)
                break;
            acc += (uint)(i + 1) * (uint)(j ^ v);
        }
        acc ^= i << 4;
    }
    out[gid] = acc;
}

kernel void loop_while(global const uint *in, global uint *out)
{
    size_t gid = get_global_id(0);
    ulong x = (in[gid] & 0xfffffu) + 1;
    uint steps = 0;
    while (x != 1) {
        if (steps >= 500)
            break;
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        ++steps;
    }
    out[gid] = steps;
}

kernel void loop_do_while(global const uint *a, global const uint *b, global uint *out)
{
    size_t gid = get_global_id(0);
    uint x = a[gid] | 1u, y = (b[gid] & 0xffffffu) | 1u;
    uint iters = 0;
    do {
        uint t = x % y;
        x = y;
        y = t;
        ++iters;
    } while (y != 0);
    out[2 * gid] = x;
    out[2 * gid + 1] = iters;
}

kernel void early_return(global const int *in, global int *out, int n)
{
    int gid = get_global_id(0);
    if (gid >= n)
        return;                              // items past n leave out[] untouched
    int v = in[gid];
    if (v < -1000000000) {
        out[gid] = -1;
        return;
    }
    for (int bit = 0; bit < 32; ++bit) {
        if ((v >> bit) & 1) {
            out[gid] = bit * 100 + (v & 0xff);
            return;                          // return from inside the loop
        }
    }
    out[gid] = 9999;                         // v == 0
}

kernel void switch_fall(global const int *in, global int *out, int mask)
{
    size_t gid = get_global_id(0);
    int v = in[gid];
    int r = 0;
    switch (v & mask) {                      // mask is a POD (7): with a literal 7 the
                                             // optimizer narrows the selector to i3, which
                                             // llvm-spirv-15 rejects (InvalidBitWidth)
    case 0:
        r += 1;                              // fallthrough
    case 1:
        r += 10;
        break;
    case 2:
    case 3:
        r = 100 + (v & 0xff);
        break;
    default:
        r = -5;                              // fallthrough into case 4
    case 4:
        r *= 3;
        break;
    case 6:
        r = v >> 28;
    }
    int acc = 0;
    for (int k = 0; k < 6; ++k) {
        switch ((v >> (3 * k)) & (mask >> 1)) {
        case 0:
            acc += k;
            break;                           // leaves the switch, not the loop
        case 1:
            continue;                        // next loop iteration
        case 2:
            acc *= 2;                        // fallthrough
        default:
            acc -= 1;
        }
        acc += 100;
    }
    out[2 * gid] = r;
    out[2 * gid + 1] = acc;
}
