// Arrays and qualified types in -g input that spirv-val 2023.1 rejected as llvm-spirv 15
// emits them, so the module lost all its debug information (sweep, docs/sweep.md).
typedef struct { int a[3]; float2 v[2]; uchar name[5]; } rec;

void set(int *arr, int n) { arr[1] = n; }

kernel void arrays(global int *out, global const rec *r, int n)
{
  int gone[2]; // -O2: every element becomes a value; DebugDeclare of an OpUndef pointer
  set(gone, n);
  int grid[4][2];
  float4 lanes[3];
  rec copies[2];
  volatile char2 vc = (char2)(n, 2); // volatile of a vector: a DebugTypeQualifier
  volatile uchar vu = (uchar)n;      // volatile of the typedef uchar
  const int table[3] = {4, 5, 6};    // const of an array
  for (int i = 0; i < 4; i++) {
    grid[i][0] = i;
    grid[i][1] = r[0].a[i % 3];
  }
  lanes[0] = (float4)(1.0f);
  lanes[1] = lanes[0] * 2.0f;
  lanes[2] = lanes[1];
  copies[0] = r[0];
  copies[1] = r[1];
  size_t g = get_global_id(0);
  out[g] = gone[1] + grid[g & 3][1] + (int)lanes[2].x + copies[g & 1].name[2] + vc.y + vu +
           table[g % 3] + (int)copies[1].v[1].y;
}
