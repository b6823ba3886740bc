// private_memory.cl — private (Function storage) arrays with dynamic indexing.
// private_sort:  each work-item loads 8 values into a private array, insertion-sorts it
//                (data-dependent indices, nested loops) and writes it back.
// private_hist:  a 16-bin private histogram per work-item with indices computed from data,
//                then a prefix sum over the bins.
kernel void private_sort(global const int *in, global int *out)
{
    size_t base = get_global_id(0) * 8;
    int v[8];
    for (int k = 0; k < 8; ++k)
        v[k] = in[base + k];
    for (int k = 1; k < 8; ++k) {
        int key = v[k];
        int j = k - 1;
        while (j >= 0 && v[j] > key) {
            v[j + 1] = v[j];
            --j;
        }
        v[j + 1] = key;
    }
    for (int k = 0; k < 8; ++k)
        out[base + k] = v[k];
}

kernel void private_hist(global const uint *in, global uint *out)
{
    size_t g = get_global_id(0);
    uint bins[16];
    for (int b = 0; b < 16; ++b)
        bins[b] = 0;
    uint x = in[g];
    for (int k = 0; k < 8; ++k)
        bins[(x >> (4 * k)) & 15u] += (uint)k + 1;
    uint run = 0;
    for (int b = 0; b < 16; ++b) {
        run += bins[b];
        out[16 * g + b] = run;
    }
}
