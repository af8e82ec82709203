// decode_kernels.hip - TEST-ONLY device code of tests/apps/decode_loop.c.
//
// The decode loop runs on the HIP runtime test double, where the kernels are
// host functions (decode_loop.c: convert_kernel, sample_kernel). What a real
// HIP program also has is this: the kernels compiled for the GPU, embedded in
// the executable as an offload bundle and registered at start-up with
// __hipRegisterFatBinary / __hipRegisterFunction. The tracer decodes that
// bundle (src/codeobj) into argument layouts, which is how a launch's or a
// graph node's `void **params` becomes exact pointer arguments.
//
// Built by clang-22 for gfx950 (MI355X, the seed report's chip), device code
// only, without the HIP headers (tests/apps/module.mk). Names and argument
// lists must match the host-side kernels decode_loop.c registers with the
// double; the code mirrors what they compute.
#define __global__ __attribute__((global))

// ATOM's _convert_req_index_to_global_index_kernel reads qo_indptr, which is
// cu_seqlens_q: request b's tokens are [qo_indptr[b], qo_indptr[b+1]). One
// workgroup per request, so b is uniform and both bounds are scalar loads
// (s_load_dword): the seed's wave dump shows qo_end in s3.
// seed: 0 for a decode step, the prefill step's seed otherwise (the host
// version checks the values against it; the device code only needs the
// argument to exist with the same layout).
extern "C" __global__ void _convert_req_index_to_global_index_kernel(
    const int *__restrict__ qo_indptr, int *__restrict__ tokens_per_req, int bs, int seed)
{
    int b = (int)__builtin_amdgcn_workgroup_id_x();
    if (b >= bs || __builtin_amdgcn_workitem_id_x() != 0)
        return;
    int qo_start = qo_indptr[b], qo_end = qo_indptr[b + 1];
    int n = 0;
    for (int token_id = qo_start; token_id < qo_end; token_id++)
        n++;
    tokens_per_req[b] = n + (seed & 0);
}

// _sample_kernel(const int *tokens_per_req, int *tokens, int bs): one
// workgroup, one thread per request.
extern "C" __global__ void _sample_kernel(const int *__restrict__ tokens_per_req,
                                          int *__restrict__ tokens, int bs)
{
    int b = (int)__builtin_amdgcn_workitem_id_x();
    if (b < bs)
        tokens[b] = tokens_per_req[b];
}
