// printf's %p under the default --pointers=auto: a kernel that prints an address is
// lowered with physical pointers (vulkan1.2+), since logical mode has no addresses.
// Addresses differ between implementations; the spec's `printf: addresses` compares
// each by its offset modulo 16 (both place buffers on 16-byte boundaries), and the
// kernels print the byte distances between the addresses they print as integers too.

typedef struct { char tag; int value; short pair[2]; } rec;

kernel void printf_pointers(global int *out, global const float *f, constant char *c,
                            global rec *r)
{
  int i = get_global_id(0);
  global int *p = out + i;
  printf("item %d: %p %p %p\n", i, p, f + 2 * i + 1, c + i);
  printf("rec %p %p %p\n", &r[i], &r[i].value, &r[i].pair[1]);
  printf("distance %ld %ld\n", (long)((ulong)&r[i].pair[1] - (ulong)&r[i]),
         (long)((ulong)(f + 2 * i + 1) - (ulong)f));
  *p = (int)f[2 * i + 1] + c[i] + r[i].value;
}

// A kernel of the same module without %p keeps its logical pointers.
kernel void printf_no_pointers(global int *out)
{
  int i = get_global_id(0);
  printf("plain %d\n", i);
  out[i] = i * 3;
}
