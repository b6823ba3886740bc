// transpose_tile.cl — 2D NDRange matrix transpose through a padded local tile.
// transpose_tile: local float tile[16][17] (2D local array, +1 column against bank
//   conflicts), 2D get_global_id/get_local_id/get_group_id, barrier between the
//   coalesced load and the transposed store. Width/height are POD ints; the local size
//   must be 16x16 and the global size the matrix size (width x height).
kernel void transpose_tile(global const float *in, global float *out, int width, int height)
{
    local float tile[16][17];
    int lx = get_local_id(0), ly = get_local_id(1);
    int x = get_global_id(0), y = get_global_id(1);
    tile[ly][lx] = in[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * 16 + lx;      // column in the output (= input row)
    int oy = get_group_id(0) * 16 + ly;      // row in the output (= input column)
    out[oy * height + ox] = tile[lx][ly];
}
