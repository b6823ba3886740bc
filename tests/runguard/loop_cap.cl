// Kernels around lavapipe's loop cap (65,535 back edges per SIMD group): run_loop_guard.py.
kernel void count(global uint *out, uint n)
{
    uint c = 0;
    for (uint i = 0; i < n; i++)
        c += 1 + (i & out[1]);
    out[get_global_id(0) * 2] = c;
}

kernel void nested(global uint *out, uint n, uint m)
{
    uint c = 0;
    for (uint i = 0; i < n; i++)
        for (uint j = 0; j < m; j++)
            c += 1 + (j & out[1]);
    out[get_global_id(0) * 2] = c;
}

// One work-item of the group loops long, the others briefly.
kernel void divergent(global uint *out, uint n)
{
    uint id = get_global_id(0), trips = id == 5 ? n : id, c = 0;
    for (uint i = 0; i < trips; i++)
        c += 1 + (i & out[64]);
    out[id] = c;
}

// Early exits: a return and a break out of a switch in the loop.
kernel void exits(global uint *out, uint n)
{
    uint id = get_global_id(0), c = 0;
    for (uint i = 0; i < n; i++) {
        switch ((i * 7 + id) & 255) {
        case 0: c += 3; break;
        case 1: c ^= i; break;
        default:
            if (c > 4000000u + id) {
                out[id] = c;
                return;
            }
            c += i;
        }
        if (c == 77u * id + 1)
            break;
    }
    out[id] = c;
}

// No exit at all: after the cap the driver carries on after the loop.
kernel void forever(global uint *out)
{
    uint i = 0;
    for (;;)
        out[(i++) & 1] += 1;
}
