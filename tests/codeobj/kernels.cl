// OpenCL C kernels built by clang-22 straight to a gfx950 code object (a
// bare ELF, what hipModuleLoadData is handed). -cl-kernel-arg-info adds
// argument names; restrict lets the optimiser prove .actual_access; the
// __local, __constant and struct arguments cover the other kinds. No device
// library: work-item ids come from the amdgcn builtins.
struct S { int a; float b; long c; };

static inline size_t gid(void)
{
    return __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
           __builtin_amdgcn_workitem_id_x();
}

__kernel void copy_acc(__global const float *restrict src, __global float *restrict dst,
                       __global float *restrict acc, int n)
{
    size_t i = gid();
    if (i < n) {
        dst[i] = src[i];
        acc[i] += src[i];
    }
}

__kernel void mixed(__global float *restrict io, __constant float *c, __local float *tmp,
                    struct S s, __global const volatile int *vol)
{
    uint i = __builtin_amdgcn_workitem_id_x();
    tmp[i] = io[i];
    __builtin_amdgcn_s_barrier();
    io[i] = tmp[0] * c[s.a] + s.b + s.c + vol[0];
}

__kernel void empty(void) {}
