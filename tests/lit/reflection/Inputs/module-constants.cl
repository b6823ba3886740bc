typedef struct { char c; uint a; float f; } Foo;
__constant Foo ppp[3] = {{'a', 0x1234abcd, 1.0f}, {'b', 0xffffffff, 1.5f}, {0}};
kernel void foo(global uint* A, uint i) { *A = ppp[i].a; }
