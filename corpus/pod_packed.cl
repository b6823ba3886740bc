// A packed struct POD: its int, short, float and long sit at offsets 1, 5, 7 and 11, which
// no Vulkan block layout allows (std430 and even the scalar layout want them aligned), so
// k2s stores the POD block as 32-bit words and puts each value together byte by byte.
typedef struct __attribute__((packed)) {
    char c;
    int i;
    short s;
    float f;
    long l;
} Packed; // 19 bytes

kernel void pod_packed(global long *out, uchar tag, Packed p, short k)
{
    size_t g = get_global_id(0);
    global long *o = out + g * 6;
    o[0] = p.c + (long)g;
    o[1] = p.i;
    o[2] = p.s * (long)k;
    o[3] = (long)(p.f * 1024.0f);
    o[4] = p.l ^ (long)g;
    o[5] = tag;
}
