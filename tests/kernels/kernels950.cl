// gfx950 kernels for the module tests, built by clang-22 (linked by lld-22)
// straight to a bare code object: what Triton hands hipModuleLoadData.
// restrict lets the optimiser prove .actual_access: read_only for `in`,
// `x`, `a`, `b`; write_only for `out`; nothing for `acc`, which the
// metadata then leaves read_write (not const).
static inline size_t gid(void)
{
    return __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
           __builtin_amdgcn_workitem_id_x();
}

__kernel void producer(__global const float *restrict in, __global float *restrict out, int n)
{
    size_t i = gid();
    if (i < n)
        out[i] = 2.0f * in[i];
}

__kernel void accum(__global float *restrict acc, __global const float *restrict x, int n)
{
    size_t i = gid();
    if (i < n)
        acc[i] += x[i];
}

__kernel void consume(__global const float *restrict a, __global const float *restrict b,
                      __global float *restrict out, int n)
{
    size_t i = gid();
    if (i < n)
        out[i] = a[i] + b[i];
}
