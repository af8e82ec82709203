build-x/obj/src/intercept/hip/cotable.o: src/intercept/hip/cotable.c \
 src/intercept/hip/cotable.h src/codeobj/codeobj.h src/preload/kernels.h \
 include/hipvis/trace.h include/hipvis/api.h include/hipvis/api_cuda.h \
 src/preload/hot.h src/intercept/hip/gpu_procs.h src/preload/costore.h \
 src/preload/tracer.h src/preload/allocmap.h src/record/collector.h \
 src/record/clock.h src/record/ring.h src/preload/config.h \
 src/preload/streams.h src/record/shm_transport.h src/record/shm_layout.h \
 src/record/writer_thread.h
src/intercept/hip/cotable.h:
src/codeobj/codeobj.h:
src/preload/kernels.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/preload/hot.h:
src/intercept/hip/gpu_procs.h:
src/preload/costore.h:
src/preload/tracer.h:
src/preload/allocmap.h:
src/record/collector.h:
src/record/clock.h:
src/record/ring.h:
src/preload/config.h:
src/preload/streams.h:
src/record/shm_transport.h:
src/record/shm_layout.h:
src/record/writer_thread.h:
