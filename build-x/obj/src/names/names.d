build-x/obj/src/names/names.o: src/names/names.c include/hipvis/hipvis.h \
 src/intercept/common/intercept.h src/guard/guard.h \
 include/hipvis/trace.h include/hipvis/api.h include/hipvis/api_cuda.h \
 src/preload/hot.h src/record/collector.h src/record/clock.h \
 src/record/ring.h src/names/names.h src/preload/config.h \
 src/preload/evidence.h src/preload/kernels.h src/preload/realsym.h \
 src/preload/selftime.h src/preload/tracer.h src/preload/allocmap.h \
 src/preload/streams.h src/record/shm_transport.h src/record/shm_layout.h \
 src/record/writer_thread.h src/pyframes/sites.h
include/hipvis/hipvis.h:
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
