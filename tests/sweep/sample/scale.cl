// sweep sample: a plain kernel every configuration translates (ok class), and at -O0
// spills its pointer arguments (the promote-locals pass).
kernel void scale(global float *out, global const float *in, float k, uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        out[i] = in[i] * k;
}
