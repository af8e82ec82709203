build-x/obj/src/intercept/cuda/cu_graph.o: src/intercept/cuda/cu_graph.c \
 src/intercept/cuda/cuda_common.h /usr/local/cuda/include/cuda.h \
 /usr/local/cuda/include/cuda_runtime_api.h \
 /usr/local/cuda/include/crt/host_defines.h \
 /usr/local/cuda/include/builtin_types.h \
 /usr/local/cuda/include/device_types.h \
 /usr/local/cuda/include/driver_types.h \
 /usr/local/cuda/include/vector_types.h \
 /usr/local/cuda/include/surface_types.h \
 /usr/local/cuda/include/texture_types.h \
 /usr/local/cuda/include/cuda_device_runtime_api.h \
 src/intercept/common/intercept.h src/guard/guard.h \
 include/hipvis/trace.h include/hipvis/api.h include/hipvis/api_cuda.h \
 src/preload/hot.h src/record/collector.h src/record/clock.h \
 src/record/ring.h src/names/names.h src/preload/config.h \
 src/preload/evidence.h src/preload/kernels.h src/preload/realsym.h \
 src/preload/selftime.h src/preload/tracer.h src/preload/allocmap.h \
 src/preload/streams.h src/record/shm_transport.h src/record/shm_layout.h \
 src/record/writer_thread.h src/pyframes/sites.h
src/intercept/cuda/cuda_common.h:
/usr/local/cuda/include/cuda.h:
/usr/local/cuda/include/cuda_runtime_api.h:
/usr/local/cuda/include/crt/host_defines.h:
/usr/local/cuda/include/builtin_types.h:
/usr/local/cuda/include/device_types.h:
/usr/local/cuda/include/driver_types.h:
/usr/local/cuda/include/vector_types.h:
/usr/local/cuda/include/surface_types.h:
/usr/local/cuda/include/texture_types.h:
/usr/local/cuda/include/cuda_device_runtime_api.h:
src/intercept/common/intercept.h:
src/guard/guard.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/preload/hot.h:
src/record/collector.h:
src/record/clock.h:
src/record/ring.h:
src/names/names.h:
src/preload/config.h:
src/preload/evidence.h:
src/preload/kernels.h:
src/preload/realsym.h:
src/preload/selftime.h:
src/preload/tracer.h:
src/preload/allocmap.h:
src/preload/streams.h:
src/record/shm_transport.h:
src/record/shm_layout.h:
src/record/writer_thread.h:
src/pyframes/sites.h:
