// Application-style hashing kernels (the shape of password-cracking / dedup code):
// one SHA-256 compression per work-item over a 64-byte message block read as big-endian
// words, and XXH32 over a per-work-item 32-byte record (uint loads, rotates, avalanche).

constant uint K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define ROTR(x, n) rotate((uint)(x), (uint)(32 - (n)))
#define CH(x, y, z) bitselect((z), (y), (x))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))

kernel void sha256_block(global const uchar *msg, global uint *digest)
{
    size_t gid = get_global_id(0);
    global const uchar *p = msg + gid * 64;
    uint w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint)p[4 * i] << 24 | (uint)p[4 * i + 1] << 16 | (uint)p[4 * i + 2] << 8 |
               (uint)p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint s0 = ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint s1 = ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    uint a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint t1 = hh + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + CH(e, f, g) + K256[i] + w[i];
        uint t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + MAJ(a, b, c);
        hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    uint out[8] = {a, b, c, d, e, f, g, hh};
    for (int i = 0; i < 8; i++)
        digest[gid * 8 + i] = h[i] + out[i];
}

#define P1 0x9E3779B1u
#define P2 0x85EBCA77u
#define P3 0xC2B2AE3Du
#define P4 0x27D4EB2Fu
#define P5 0x165667B1u

static uint xxh_round(uint acc, uint in)
{
    acc += in * P2;
    acc = rotate(acc, 13u);
    return acc * P1;
}

kernel void xxh32_records(global const uint *rec, const uint seed, global uint *out)
{
    size_t gid = get_global_id(0);
    global const uint *r = rec + gid * 8;
    uint v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
    v1 = xxh_round(v1, r[0]); v2 = xxh_round(v2, r[1]);
    v3 = xxh_round(v3, r[2]); v4 = xxh_round(v4, r[3]);
    v1 = xxh_round(v1, r[4]); v2 = xxh_round(v2, r[5]);
    v3 = xxh_round(v3, r[6]); v4 = xxh_round(v4, r[7]);
    uint h = rotate(v1, 1u) + rotate(v2, 7u) + rotate(v3, 12u) + rotate(v4, 18u);
    h += 32u;
    h ^= h >> 15; h *= P2;
    h ^= h >> 13; h *= P3;
    h ^= h >> 16;
    out[gid] = h;
}
