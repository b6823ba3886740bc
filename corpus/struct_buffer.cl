// struct_buffer.cl — global buffers of structs (an array of structs in a storage buffer,
// laid out per OpenCL C rules) and a struct with a vec3 member.
// particles:    struct Particle {float4 pos; float4 vel; int id; float mass;} (48 bytes,
//               16-aligned): read-modify-write of whole structs and single members.
// aos_to_soa:   struct Rec {char tag; short s; int i; float3 v;} (32 bytes: padding after
//               tag, v at offset 16) scattered into separate arrays; the float3 lanes
//               are random bit patterns and are written back as ints.
#pragma OPENCL FP_CONTRACT OFF

typedef struct {
    float4 pos;
    float4 vel;
    int id;
    float mass;
} Particle;

typedef struct {
    char tag;
    short s;
    int i;
    float3 v;
} Rec;

kernel void particles(global Particle *p, float dt)
{
    size_t i = get_global_id(0);
    Particle q = p[i];
    float4 step = q.vel * dt;
    q.pos = q.pos + step;
    q.vel.y = q.vel.y - 9.75f * dt;
    q.id = q.id * 2 + 1;
    q.mass = q.mass * 0.5f;
    p[i] = q;
}

kernel void aos_to_soa(global const Rec *r, global int *tags, global int *ints,
                       global int *vs)
{
    size_t i = get_global_id(0);
    tags[i] = r[i].tag * 65536 + r[i].s;
    ints[i] = r[i].i;
    float3 v = r[i].v;                        // random bit patterns: only moved, never
    vs[3 * i + 0] = as_int(v.x);              // used in float arithmetic
    vs[3 * i + 1] = as_int(v.y) ^ as_int(v.z);
    vs[3 * i + 2] = as_int(v.z);
}
