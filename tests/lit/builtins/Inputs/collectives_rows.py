"""The work-group and sub-group functions section of docs/builtins.md (core SPIR-V Groups
instructions and builtin variables, not OpenCL.std), appended by builtins_table.py."""

SECTION = """
## Work-group and sub-group functions

Not OpenCL.std: llvm-spirv emits core `OpGroup*` instructions (Kernel capability Groups)
with Workgroup scope for the OpenCL C 2.0 work-group functions and Subgroup scope for the
cl_khr_subgroups / OpenCL 3.0 sub-group functions, and BuiltIn variables for the sub-group
work-item functions. Pass `lower_group_ops.c` (group-ops) lowers the instructions,
`lower_work_items.c` (work-items) the variables; `inline_calls.c` inlines a function
holding a work-group function into its kernel. Types: int, uint, long, ulong, float,
double, half (every gentype OpenCL allows). Host contract: docs/runtime-abi.md, "Sub-groups".
Verified by running: corpus `wg_funcs` (every form x type; 1-D, 2-D, 3-D,
non-power-of-two, non-uniform, reqd_work_group_size, with and without --no-subgroups,
against an OpenCL C 1.2 emulation on PoCL), `wg_fresh` (application-style kernels:
compaction with atomics, collectives in loops and helpers, 2-D/3-D non-uniform groups,
sub-group results folded into work-group ones) and `sub_groups`.

Work-group functions use a Workgroup scratch array per scalar type (two halves of X*Y*Z
elements of the work-group-size spec constants, or of the largest reqd_work_group_size)
and barriers. Consecutive work-group functions alternate between the halves (a Private
parity, the same in every work-item): a function writes only its half before its first
barrier and reads only its half after its last one, so none needs a barrier after its
result (the next one uses the other half; the one after it writes this half only after
every work-item has passed the next one's barrier).
"sub-groups" below means: when the work-group size in x is a multiple of gl_SubgroupSize (a
uniform run-time test) and the type is 32-bit, GroupNonUniform* operations do the work:
- reduce: each sub-group reduces, an elected work-item stores the result at
  scratch[SubgroupId], ONE barrier, then every sub-group loads the NumSubgroups partials
  lane-wise (lane l folds entries l, l + size, ...) and reduces them again;
- scan: every work-item stores its value at its linear id, barrier; sub-group s scans the
  entries s * size + lane (the linear order, whatever work-items the device puts into a
  sub-group: Vulkan ties sub-groups to no local ids), its last lane stores the sub-group's
  total in the other half, barrier; each sub-group folds the totals of those before it,
  stores its results back at the same entries, barrier; each work-item loads its own —
  three barriers; only where every sub-group is full (NumSubgroups * SubgroupSize equals
  the group's size: Vulkan allows partial sub-groups without REQUIRE_FULL_SUBGROUPS).
Otherwise (other widths, other shapes, `--no-subgroups`): "tree" is a pairwise reduction in
the scratch array (ceil(log2 n) steps of one barrier each; at step k the work-items whose id
is a multiple of 2^(k+1) add the element 2^k further on); "scan" a Hillis-Steele scan over
the linear local id (ceil(log2 n) steps, each read, barrier, combine, write, barrier). Float
results are exact on exactly representable data (partials are padded with -0.0 for sums);
otherwise float sums and scans round in an order that depends on the device's sub-group
size and operations, which OpenCL C allows ("the order of floating-point operations is not
guaranteed"); in the scratch-memory forms it depends on n only.

| function | SPIR-V in | lowering |
|---|---|---|
| `work_group_all` | `OpGroupAll` Workgroup | sub-groups (GroupNonUniformAll of v != 0, then of the partials), else the tree (UMin) of 0/1 |
| `work_group_any` | `OpGroupAny` Workgroup | sub-groups (GroupNonUniformAny), else the tree (UMax) of 0/1 |
| `work_group_broadcast` (1-, 2-, 3-D) | `OpGroupBroadcast` Workgroup | the work-item at x + sx*(y + sy*z) stores (the id is the same in every work-item), one barrier, every work-item loads |
| `work_group_reduce_add` | `OpGroupIAdd`/`OpGroupFAdd` Reduce | 32-bit (float too): sub-groups, else the tree; 64/16-bit: the tree |
| `work_group_reduce_min/max` | `OpGroup[SUF]Min/Max` Reduce | 32-bit: sub-groups (float: GroupNonUniformFMin/FMax), else the tree; other widths: the tree (float: NMin/NMax) |
| `work_group_scan_inclusive_<op>` | `OpGroup*` InclusiveScan | 32-bit: sub-groups (InclusiveScan), else the scan at the work-item's linear id |
| `work_group_scan_exclusive_<op>` | `OpGroup*` ExclusiveScan | 32-bit: sub-groups (ExclusiveScan), else the scan at linear id - 1; the identity (0, type max / +inf, type min / 0 / -inf) for id 0 |
| `sub_group_all/any` | `OpGroupAll/Any` Subgroup | `OpGroupNonUniformAll/Any` |
| `sub_group_broadcast` | `OpGroupBroadcast` Subgroup | `OpGroupNonUniformBroadcast` (constant id), else `OpGroupNonUniformShuffle` |
| `sub_group_reduce/scan_inclusive/scan_exclusive_<op>` | `OpGroup*` Subgroup | the `OpGroupNonUniform*` twin with the same GroupOperation (same order and identities) |
| `sub_group_barrier` | `OpControlBarrier` Subgroup | kept; memory semantics mapped by the barriers pass |
| `get_sub_group_local_id` | BuiltIn SubgroupLocalInvocationId | gl_SubgroupInvocationID |
| `get_sub_group_id` | BuiltIn SubgroupId | gl_SubgroupID |
| `get_num_sub_groups` | BuiltIn NumSubgroups | ceil(local linear size / gl_SubgroupSize) (lavapipe's gl_NumSubgroups is wrong for a partial sub-group) |
| `get_max_sub_group_size` | BuiltIn SubgroupMaxSize | gl_SubgroupSize |
| `get_sub_group_size` | BuiltIn SubgroupSize | min(gl_SubgroupSize, local linear size - gl_SubgroupID * gl_SubgroupSize) |
| `get_enqueued_num_sub_groups` | BuiltIn NumEnqueuedSubgroups | ceil(enqueued local linear size (push constant) / gl_SubgroupSize) |

With `--no-subgroups` the sub-group builtins still work (Vulkan 1.1 guarantees basic
subgroup support in compute shaders); the sub-group collective functions are an error
naming the switch.
"""
