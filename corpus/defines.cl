// defines.cl — a kernel configured entirely by preprocessor macros from the spec's
// `clang:` line (the host must pass the same -D options to both compilers).
// defines_tile: element type, vector width, tile size and operation come from -D macros;
//               building without them is an error.
#if !defined(ELEM) || !defined(TILE) || !defined(SCALE)
#error "build with -DELEM=... -DTILE=... -DSCALE=..."
#endif

kernel void defines_tile(global const ELEM *in, global ELEM *out)
{
    size_t base = get_global_id(0) * TILE;
    ELEM acc = 0;
    for (int k = 0; k < TILE; ++k) {
        acc += in[base + k] * (ELEM)SCALE;
        out[base + k] = acc;
    }
}
