// interface_mix.cl — one kernel using every kind of kernel argument at once, run under
// each translator interface option: global buffers (const and read-write), a constant
// pointer, a local pointer, a scalar POD, a vector POD and a struct POD, interleaved so
// that descriptor order differs from argument order.
// iface_mix: out[g] = in[g] * params.scale + table[g & 15] + off.x, plus a per-group
//            neighbour exchange through the local argument and a count into `stats`.
#pragma OPENCL FP_CONTRACT OFF

typedef struct { float scale; int shift; char tag; } Params;   // 12 bytes, 3 padding

kernel void iface_mix(float bias, global const float *in, local float *tmp,
                      Params params, constant float *table, int2 off,
                      global float *out, global int *stats)
{
    size_t g = get_global_id(0);
    uint l = get_local_id(0);
    float v = in[g] * params.scale;
    tmp[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    float nb = tmp[(l + 1) % get_local_size(0)];
    float t = table[g & 15];
    float r = v + t;
    out[g] = r + nb + bias + (float)off.x;
    stats[g] = ((int)g << params.shift) + off.y + params.tag;
}
