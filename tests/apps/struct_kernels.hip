// struct_kernels.hip - TEST-ONLY device code of tests/apps/struct_loop.c.
//
// The decode loop's reader with its pointer inside a by-value struct, as
// Composable Kernel and many C++ launchers pass theirs: the code object's
// metadata says "16 bytes by value", not "a pointer". What says it is a
// pointer is the kernel's own code: it loads the struct's first word from
// the kernarg segment and reads global memory through it. The analyzer
// confirms an inferred pointer from exactly that (src/codeobj/scalar.h,
// hv_co_scalar_words).
//
// Built by clang-22 for gfx950, device code only, without the HIP headers
// (tests/apps/module.mk), like decode_kernels.hip. The argument list must
// match what struct_loop.c registers with the test double.
#define __global__ __attribute__((global))

// struct span: where one batch's cumulative lengths live. `p` is read;
// `n` is the batch size.
struct span {
    const int *p;
    int n;
    int seed;
};

// One workgroup per request: tokens_per_req[b] = p[b + 1] - p[b].
extern "C" __global__ void _span_lengths_kernel(struct span s, int *__restrict__ tokens_per_req)
{
    int b = (int)__builtin_amdgcn_workgroup_id_x();
    if (b >= s.n || __builtin_amdgcn_workitem_id_x() != 0)
        return;
    tokens_per_req[b] = s.p[b + 1] - s.p[b] + (s.seed & 0);
}
