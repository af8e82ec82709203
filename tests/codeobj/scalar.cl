// The two access patterns the scalar/vector classifier must tell apart
// (clang-22, gfx950, -O2). Indexing by the work-group id is uniform across
// the wave, so the compiler reads the buffer with s_load (scalar cache);
// indexing by the work-item id needs one address per lane: global_load.
__kernel void by_group(__global const int *in, __global int *out)
{
    uint g = __builtin_amdgcn_workgroup_id_x();
    if (__builtin_amdgcn_workitem_id_x() == 0)
        out[g] = in[g] * 2;
}

__kernel void by_item(__global const int *in, __global int *out, int k)
{
    uint i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
    out[i] = in[i] + k;
}

// A pointer loaded from another buffer (one level of indirection) and a
// by-value pointer-sized integer must not be confused with the arguments.
__kernel void gather(__global const int *idx, __global const float *tab, __global float *out,
                     long unused)
{
    uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    out[i] = tab[idx[i]] + (float)unused;
}
