/*
 * CPU harness for the structurize tests: runs a kernel that llvm-spirv -r
 * turned back into LLVM IR (retargeted to the host) over an NDRange, one
 * work-group at a time, each work-item on its own fiber so that barriers
 * work. Compares nothing itself: prints the output buffer, so the same
 * kernel before and after the pass can be diffed.
 *
 * The kernel interface is the one tests/cfg/gen_cfg_kernels.py generates:
 *   kernel void rk(global const uint *in, global uint *out)
 * Usage: harness GLOBAL LOCAL SEED   (in[] holds 4*GLOBAL SplitMix64 values)
 * Exit status 3 when work-items of a group disagree about a barrier.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

#define AS1 __attribute__((address_space(1)))
void rk(const AS1 uint32_t *in, AS1 uint32_t *out);

static size_t g_global, g_local, g_group;
static size_t cur; /* work-item running now, within its group */
static ucontext_t sched, *fib;
static int *state; /* 0 runnable, 1 at a barrier, 2 finished */
static uint32_t *g_in, *g_out;

size_t _Z13get_global_idj(unsigned d) { return d ? 0 : g_group * g_local + cur; }
size_t _Z12get_local_idj(unsigned d) { return d ? 0 : cur; }
size_t _Z12get_group_idj(unsigned d) { return d ? 0 : g_group; }
size_t _Z14get_local_sizej(unsigned d) { return d ? 1 : g_local; }
size_t _Z15get_global_sizej(unsigned d) { return d ? 1 : g_global; }
size_t _Z14get_num_groupsj(unsigned d) { return d ? 1 : g_global / g_local; }
unsigned _Z12get_work_dimv(void) { return 1; }

static void barrier_wait(void)
{
  state[cur] = 1;
  swapcontext(&fib[cur], &sched);
}
void _Z7barrierj(unsigned flags) { (void)flags; barrier_wait(); }
void _Z18work_group_barrierj(unsigned flags) { (void)flags; barrier_wait(); }
void _Z18work_group_barrierj12memory_scope(unsigned f, int s) { (void)f; (void)s; barrier_wait(); }
void __spirv_ControlBarrier(int a, int b, int c) { (void)a; (void)b; (void)c; barrier_wait(); }
void _Z22__spirv_ControlBarrieriii(int a, int b, int c) { (void)a; (void)b; (void)c; barrier_wait(); }

static void item(void)
{
  rk((const AS1 uint32_t *)g_in, (AS1 uint32_t *)g_out);
  state[cur] = 2;
}

static uint64_t splitmix(uint64_t *s)
{
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
  if (argc != 4)
    return 2;
  g_global = strtoul(argv[1], NULL, 0);
  g_local = strtoul(argv[2], NULL, 0);
  uint64_t seed = strtoull(argv[3], NULL, 0);
  g_in = calloc(4 * g_global, 4);
  g_out = calloc(g_global, 4);
  for (size_t i = 0; i < 4 * g_global; i++)
    g_in[i] = (uint32_t)splitmix(&seed);
  fib = calloc(g_local, sizeof(*fib));
  state = calloc(g_local, sizeof(*state));
  size_t stack_size = 256 * 1024;
  char *stacks = malloc(g_local * stack_size);
  for (g_group = 0; g_group < g_global / g_local; g_group++) {
    for (size_t i = 0; i < g_local; i++) {
      getcontext(&fib[i]);
      fib[i].uc_stack.ss_sp = stacks + i * stack_size;
      fib[i].uc_stack.ss_size = stack_size;
      fib[i].uc_link = &sched;
      makecontext(&fib[i], item, 0);
      state[i] = 0;
    }
    for (;;) {
      for (cur = 0; cur < g_local; cur++)
        if (state[cur] == 0)
          swapcontext(&sched, &fib[cur]);
      size_t at_barrier = 0, done = 0;
      for (size_t i = 0; i < g_local; i++) {
        at_barrier += state[i] == 1;
        done += state[i] == 2;
      }
      if (done == g_local)
        break;
      if (done) {
        fprintf(stderr, "barrier divergence in group %zu\n", g_group);
        return 3;
      }
      for (size_t i = 0; i < g_local; i++)
        state[i] = 0;
    }
  }
  for (size_t i = 0; i < g_global; i++)
    printf("%u%c", g_out[i], i + 1 == g_global ? '\n' : ' ');
  return 0;
}
