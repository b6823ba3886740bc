// ptr_padding.cl — memcpy copies a struct's padding bytes too (C copies the object
// representation; PoCL does). In logical mode a copy whose size is a padded struct's
// used to become a typed copy of the members, so padding bytes kept what they held.
// to_bytes:   struct buffer -> uchar buffer (byte 7 of each 12-byte record is padding).
// to_struct:  uchar buffer -> struct buffer (the padding written into the struct buffer).
// assign:     struct assignment between two struct buffers (clang emits a memcpy).
// via_private: through a private array of structs indexed at run time, so it stays in
//             memory (its padding must have storage too).
// via_local:  through a local array of structs, read back by a neighbour.
// tail:       a struct with inner and tail padding, {short; int; char}.
typedef struct {
    int a;
    char b[3];
    float c;
} S;

typedef struct {
    short s;
    int x;
    char c;
} T;

kernel void to_bytes(global uchar *dst, global S *src)
{
    size_t i = get_global_id(0);
    __builtin_memcpy(dst + i * 12, src + i, 12);
}

kernel void to_struct(global S *dst, global uchar *src)
{
    size_t i = get_global_id(0);
    __builtin_memcpy(dst + i, src + i * 12, 12);
}

kernel void assign(global S *dst, global S *src)
{
    size_t i = get_global_id(0);
    dst[i] = src[get_global_size(0) - 1 - i];
}

kernel void via_private(global uchar *dst, global S *src, int k)
{
    size_t i = get_global_id(0);
    S tmp[4];
    for (int j = 0; j < 4; j++)
        __builtin_memcpy(&tmp[j], src + i * 4 + j, 12);
    __builtin_memcpy(dst + i * 12, &tmp[(i + k) & 3], 12);
}

kernel void via_local(global uchar *dst, global S *src)
{
    local S tmp[16];
    size_t i = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    __builtin_memcpy(&tmp[l], src + i, 12);
    barrier(CLK_LOCAL_MEM_FENCE);
    __builtin_memcpy(dst + i * 12, &tmp[(l + 1) % n], 12);
}

kernel void tail(global uchar *dst, global T *src, global T *out)
{
    size_t i = get_global_id(0);
    __builtin_memcpy(dst + i * 12, src + i, 12);
    out[i] = src[i ^ 1];
}
