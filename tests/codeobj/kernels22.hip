// HIP kernels built by clang-22 without HIP headers (-nogpuinc), for gfx950
// and gfx942, plain and with --offload-compress (a real CCOB). The host side
// only needs hipLaunchKernel to exist as a declaration.
#define __global__ __attribute__((global))
typedef struct { unsigned x, y, z; } dim3;
typedef struct ihipStream_t *hipStream_t;
extern "C" int hipLaunchKernel(const void *, dim3, dim3, void **, unsigned long, hipStream_t);

static __attribute__((device)) unsigned gid()
{
    // Reads the group size from the implicit kernarg block: brings the
    // hidden_* arguments of code object v5+ into the metadata.
    return __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
           __builtin_amdgcn_workitem_id_x();
}

__global__ void scale(float *p, float s, int n)
{
    unsigned i = gid();
    if (i < (unsigned)n)
        p[i] *= s;
}

__global__ void first_of_group(const int *__restrict__ in, int *__restrict__ out)
{
    out[__builtin_amdgcn_workgroup_id_x()] = in[__builtin_amdgcn_workgroup_id_x()];
}

struct pair { long a; int b; };
__global__ void take_struct(pair p, long *out) { out[gid()] = p.a + p.b; }

// Pointers inside a by-value struct, as Composable Kernel passes its
// arguments: the metadata says 24 bytes by value. The code loads `src`
// from the kernarg segment and reads through it; `tag` is loaded and only
// compared, never dereferenced; `n` is a count.
struct view { const int *src; const int *tag; int n; };
__global__ void read_view(view v, int *out)
{
    unsigned i = gid();
    if (i < (unsigned)v.n)
        out[i] = v.src[i] + (v.tag == nullptr);
}
