// Physical pointer mode: a linked structure (a struct holding a global pointer to its own
// type). Each work-item links its node to the next one within a run of 8, then walks the
// list from its node to the end of the run. The nodes hold device addresses, so only the
// sums are compared. Runs with --pointers=physical and with the default --pointers=auto,
// which must fall back to physical mode on its own (logical mode cannot store pointers).
typedef struct node {
    global struct node *next;
    int v;
} node;

kernel void phys_list(global node *nodes, global int *out)
{
    size_t i = get_global_id(0);
    nodes[i].v = (int)(i * 3 + 1);
    nodes[i].next = (i % 8 != 7) ? &nodes[i + 1] : 0;
    barrier(CLK_GLOBAL_MEM_FENCE);
    int sum = 0, len = 0;
    // (a for loop here gets a block order from llvm-spirv 15 that spirv-val rejects
    // before k2s's repairs; the identity round trip validates as emitted)
    global node *n = &nodes[i];
    while (n) {
        sum += n->v;
        len++;
        n = n->next;
    }
    out[i] = sum * 100 + len;
}
