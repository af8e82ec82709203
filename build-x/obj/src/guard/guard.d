build-x/obj/src/guard/guard.o: src/guard/guard.c src/guard/guard.h \
 include/hipvis/trace.h include/hipvis/api.h include/hipvis/api_cuda.h \
 src/preload/hot.h src/record/collector.h src/record/clock.h \
 src/record/ring.h src/preload/evidence.h src/preload/config.h \
 src/preload/realsym.h src/preload/streams.h src/preload/tracer.h \
 src/preload/allocmap.h src/record/shm_transport.h \
 src/record/shm_layout.h src/record/writer_thread.h src/util/grow.h
src/guard/guard.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/preload/hot.h:
src/record/collector.h:
src/record/clock.h:
src/record/ring.h:
src/preload/evidence.h:
src/preload/config.h:
src/preload/realsym.h:
src/preload/streams.h:
src/preload/tracer.h:
src/preload/allocmap.h:
src/record/shm_transport.h:
src/record/shm_layout.h:
src/record/writer_thread.h:
src/util/grow.h:
