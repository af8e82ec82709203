build-x/obj/src/intercept/common/sync.o: src/intercept/common/sync.c \
 src/names/names.h src/preload/config.h src/preload/hot.h \
 src/record/collector.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h src/record/clock.h src/record/ring.h \
 src/pyframes/sites.h src/preload/selftime.h \
 src/intercept/common/intercept.h src/guard/guard.h \
 src/preload/evidence.h src/preload/kernels.h src/preload/realsym.h \
 src/preload/tracer.h src/preload/allocmap.h src/preload/streams.h \
 src/record/shm_transport.h src/record/shm_layout.h \
 src/record/writer_thread.h
src/names/names.h:
src/preload/config.h:
src/preload/hot.h:
src/record/collector.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/record/clock.h:
src/record/ring.h:
src/pyframes/sites.h:
src/preload/selftime.h:
src/intercept/common/intercept.h:
src/guard/guard.h:
src/preload/evidence.h:
src/preload/kernels.h:
src/preload/realsym.h:
src/preload/tracer.h:
src/preload/allocmap.h:
src/preload/streams.h:
src/record/shm_transport.h:
src/record/shm_layout.h:
src/record/writer_thread.h:
