// Timing kernel for tools/device/physical.sh: 64 data-dependent lookups per work-item in a
// 16 KiB constant table, translated as a storage buffer, a uniform buffer stored as words
// (-constant-args-ubo), a scalar-layout uniform buffer and a physical pointer.
kernel void lutb(constant float *lut, global float *out)
{
    size_t i = get_global_id(0);
    float acc = 0.0f;
    uint k = (uint)i;
    for (int j = 0; j < 64; ++j) {
        k = k * 1664525u + 1013904223u;
        acc += lut[k & 4095u];
    }
    out[i] = acc;
}
