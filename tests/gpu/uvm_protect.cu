// uvm_protect.cu - TEST-ONLY: what the CUDA runtime and driver do when host
// pages are protected with mprotect(2) while the device uses them, for the
// host-access check's table of what each runtime tolerates (docs/hostcheck.md).
// Run by tests/gpu/hostcheck.sh, one case per process:
//   uvm_protect CASE
//     attrs               concurrentManagedAccess, pageableMemoryAccess and
//                         the driver version
//     managed-none        cudaMallocManaged, PROT_NONE before a kernel that
//                         writes it
//     managed-read        PROT_READ before a kernel that only reads it
//     managed-resident    the kernel writes it once (pages on the device),
//                         then PROT_NONE and a second kernel writes it
//     managed-host-fault  pages on the device, PROT_NONE, the host reads:
//                         the SIGSEGV handler gives the pages back and the
//                         read sees the kernel's value
//     managed-pkey        the pages tagged with a protection key no thread
//                         may access (pkey_mprotect: the VMA keeps its
//                         read/write permission), a kernel writes them, the
//                         host reads before the sync: the handler gives the
//                         pages back (key 0) and the read goes on
//     managed-pkey-gpu    the same without the host read: does the device
//                         mind the key?
//     pinned-none         cudaHostAlloc, PROT_NONE before a D2H copy into it
//     pinned-read         PROT_READ before an H2D copy from it
// Prints one line: CASE, the CUDA error of the synchronize after the
// device work, whether the host fault handler ran, and the value read back.
// Exit status 0 when every CUDA call returned success, 1 otherwise.
#include <cuda_runtime.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define N (64 * 1024)   // 256 KiB: whole pages

static char *prot_lo;
static size_t prot_len;
static int prot_key = -1;   // >= 0: the pages carry this protection key
static volatile sig_atomic_t faults;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    char *a = (char *)si->si_addr;
    if (prot_lo && a >= prot_lo && a < prot_lo + prot_len) {
        faults++;
        if (prot_key >= 0)
            pkey_mprotect(prot_lo, prot_len, PROT_READ | PROT_WRITE, 0);
        else
            mprotect(prot_lo, prot_len, PROT_READ | PROT_WRITE);
        return;
    }
    signal(SIGSEGV, SIG_DFL);
}

__global__ void fill(int *p, int n, int base)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = base + i;
}

__global__ void sum(const int *p, int n, int *out)
{
    int s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += p[i];
    atomicAdd(out, s);
}

static int protect(void *p, int prot)
{
    prot_lo = (char *)p;
    prot_len = N * sizeof(int);
    return mprotect(p, prot_len, prot);
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "attrs";
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    cudaStream_t s;
    if (cudaStreamCreate(&s) != cudaSuccess) {
        printf("%s: no device\n", c);
        return 1;
    }
    cudaError_t e = cudaSuccess, e0 = cudaSuccess;
    int value = -1, *out = NULL;
    int dev = 0;
    cudaGetDevice(&dev);
    if (!strcmp(c, "attrs")) {
        int cma = -1, pma = -1, drv = 0;
        cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, dev);
        cudaDeviceGetAttribute(&pma, cudaDevAttrPageableMemoryAccess, dev);
        cudaDriverGetVersion(&drv);
        int k = pkey_alloc(0, PKEY_DISABLE_ACCESS);
        printf("attrs: concurrentManagedAccess %d pageableMemoryAccess %d driver %d pkey_alloc %d%s%s\n", cma, pma,
               drv, k, k < 0 ? " " : "", k < 0 ? strerror(errno) : "");
        return 0;
    }
    if (!strncmp(c, "managed", 7)) {
        int *m;
        e0 = cudaMallocManaged(&m, N * sizeof(int));
        cudaMallocManaged(&out, sizeof(int));
        memset(m, 0, N * sizeof(int));
        *out = 0;
        if (!strcmp(c, "managed-none")) {
            int r = protect(m, PROT_NONE);
            fill<<<64, 256, 0, s>>>(m, N, 7);
            e = cudaStreamSynchronize(s);
            printf("%s: mprotect %d, sync %s, ", c, r, cudaGetErrorName(e));
        } else if (!strcmp(c, "managed-read")) {
            for (int i = 0; i < N; i++)
                m[i] = 1;
            int r = protect(m, PROT_READ);
            sum<<<1, 256, 0, s>>>(m, N, out);
            e = cudaStreamSynchronize(s);
            printf("%s: mprotect %d, sync %s, sum %d, ", c, r, cudaGetErrorName(e), e == cudaSuccess ? *out : -1);
        } else if (!strncmp(c, "managed-pkey", 12)) {
            prot_key = pkey_alloc(0, PKEY_DISABLE_ACCESS);
            if (prot_key < 0) {
                printf("%s: pkey_alloc: %s\n", c, strerror(errno));
                return 1;
            }
            prot_lo = (char *)m;
            prot_len = N * sizeof(int);
            int r = pkey_mprotect(m, prot_len, PROT_READ | PROT_WRITE, prot_key);
            fill<<<64, 256, 0, s>>>(m, N, 7);
            if (!strcmp(c, "managed-pkey"))
                value = ((volatile int *)m)[5];   // racy: faults, pages given back
            e = cudaStreamSynchronize(s);
            printf("%s: pkey %d, pkey_mprotect %d, sync %s, racy read %d, ", c, prot_key, r, cudaGetErrorName(e),
                   value);
        } else if (!strcmp(c, "managed-resident") || !strcmp(c, "managed-host-fault")) {
            fill<<<64, 256, 0, s>>>(m, N, 7);
            e0 = cudaStreamSynchronize(s);
            int r = protect(m, PROT_NONE);
            if (!strcmp(c, "managed-resident")) {
                fill<<<64, 256, 0, s>>>(m, N, 9);
                e = cudaStreamSynchronize(s);
            }
            printf("%s: mprotect %d, sync %s, ", c, r, cudaGetErrorName(e));
        }
        value = ((volatile int *)m)[5];   // faults while still protected
        if (prot_key >= 0)
            pkey_mprotect(m, N * sizeof(int), PROT_READ | PROT_WRITE, 0);
        else
            mprotect(m, N * sizeof(int), PROT_READ | PROT_WRITE);
        printf("host faults %d, m[5] %d\n", (int)faults, value);
    } else if (!strncmp(c, "pinned", 6)) {
        int *h, *d;
        e0 = cudaHostAlloc(&h, N * sizeof(int), cudaHostAllocDefault);
        cudaMalloc(&d, N * sizeof(int));
        fill<<<64, 256, 0, s>>>(d, N, 11);
        cudaStreamSynchronize(s);
        for (int i = 0; i < N; i++)
            h[i] = 3;
        if (!strcmp(c, "pinned-none")) {
            int r = protect(h, PROT_NONE);
            cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
            e = cudaStreamSynchronize(s);
            mprotect(h, N * sizeof(int), PROT_READ | PROT_WRITE);
            value = h[5];
            printf("%s: mprotect %d, sync %s, host faults %d, h[5] %d (16 expected)\n", c, r, cudaGetErrorName(e),
                   (int)faults, value);
        } else {
            int r = protect(h, PROT_READ);
            cudaMemcpyAsync(d, h, N * sizeof(int), cudaMemcpyHostToDevice, s);
            e = cudaStreamSynchronize(s);
            mprotect(h, N * sizeof(int), PROT_READ | PROT_WRITE);
            cudaMemcpy(&value, d + 5, sizeof value, cudaMemcpyDeviceToHost);
            printf("%s: mprotect %d, sync %s, host faults %d, d[5] %d (3 expected)\n", c, r, cudaGetErrorName(e),
                   (int)faults, value);
        }
    } else {
        printf("%s: unknown case\n", c);
        return 2;
    }
    return e == cudaSuccess && e0 == cudaSuccess ? 0 : 1;
}
