build-x/obj/src/preload/costore.o: src/preload/costore.c \
 src/preload/costore.h src/preload/kernels.h include/hipvis/trace.h \
 include/hipvis/api.h include/hipvis/api_cuda.h src/preload/hot.h \
 src/preload/tracer.h src/preload/allocmap.h src/record/collector.h \
 src/record/clock.h src/record/ring.h src/preload/config.h \
 src/preload/streams.h src/record/shm_transport.h src/record/shm_layout.h \
 src/record/writer_thread.h
src/preload/costore.h:
src/preload/kernels.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/preload/hot.h:
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
