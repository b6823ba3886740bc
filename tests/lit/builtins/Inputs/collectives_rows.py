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
against an OpenCL C 1.2 emulation on PoCL) and `sub_groups`.

Work-group functions use a Workgroup scratch array per scalar type (X*Y*Z elements of the
work-group-size spec constants, or the largest reqd_work_group_size) and barriers; "scan"
below is a Hillis-Steele scan over the linear local id (ceil(log2 n) steps, each read,
barrier, combine, write, barrier), whose order depends on n only: float results are
deterministic and exact on exactly representable data. "tree" is a pairwise reduction in
the scratch array (ceil(log2 n) steps of one barrier each; at step k the work-items whose id
is a multiple of 2^(k+1) add the element 2^k further on), also in an order fixed by n.
"partials" means: when the
work-group size in x is a multiple of gl_SubgroupSize (a uniform run-time test), each
sub-group reduces with GroupNonUniform*, one elected work-item per sub-group writes its
result, and every work-item folds the NumSubgroups results in order; otherwise the tree.
`--no-subgroups` (device without subgroup vote/arithmetic) always takes the scan.

| function | SPIR-V in | lowering |
|---|---|---|
| `work_group_all` | `OpGroupAll` Workgroup | partials (GroupNonUniformAll, UMin of 0/1), else the tree (UMin) of 0/1 |
| `work_group_any` | `OpGroupAny` Workgroup | partials (GroupNonUniformAny, UMax of 0/1), else the tree (UMax) of 0/1 |
| `work_group_broadcast` (1-, 2-, 3-D) | `OpGroupBroadcast` Workgroup | every work-item stores at its linear id, barrier, load at x + sx*(y + sy*z), barrier |
| `work_group_reduce_add` | `OpGroupIAdd`/`OpGroupFAdd` Reduce | integers (32-bit): partials, else the tree; float, 64/16-bit: the tree |
| `work_group_reduce_min/max` | `OpGroup[SUF]Min/Max` Reduce | 32-bit: partials (float: GroupNonUniformFMin/FMax), else the tree; other widths: the tree (float: NMin/NMax) |
| `work_group_scan_inclusive_<op>` | `OpGroup*` InclusiveScan | the scan at the work-item's linear id |
| `work_group_scan_exclusive_<op>` | `OpGroup*` ExclusiveScan | the scan at linear id - 1; the identity (0, type max / +inf, type min / 0 / -inf) for id 0 |
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
