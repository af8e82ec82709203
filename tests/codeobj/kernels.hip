// Fat-binary test kernels, built by Debian's hipcc (HIP 5.2) for gfx90a and
// gfx940. Each kernel exercises a different argument shape: const and
// written pointers, by-value scalars, a struct, a template (long mangled
// name), extern "C", dynamic shared memory and no arguments at all.
#include <hip/hip_runtime.h>

struct params {
    float scale;
    int n;
    double bias;
};

__global__ void saxpy(float a, const float *__restrict__ x, float *__restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__global__ void fill(int *out, struct params p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n)
        out[i] = (int)(p.scale * i + p.bias);
}

__global__ void reduce_shared(double *dst, const double *src, unsigned long long n)
{
    extern __shared__ double tmp[];
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    tmp[threadIdx.x] = i < n ? src[i] : 0.0;
    __syncthreads();
    if (threadIdx.x == 0)
        dst[blockIdx.x] = tmp[0] + tmp[blockDim.x - 1];
}

template <typename T, int K>
__global__ void scale_k(T *__restrict__ out, const T *__restrict__ in, T f)
{
    out[threadIdx.x] = in[threadIdx.x * K] * f;
}
template __global__ void scale_k<float, 4>(float *, const float *, float);
template __global__ void scale_k<short, 2>(short *, const short *, short);

extern "C" __global__ void c_linkage(const int *flag, int *counter)
{
    if (*flag)
        atomicAdd(counter, 1);
}

__global__ void no_args() {}
