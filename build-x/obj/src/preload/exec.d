build-x/obj/src/preload/exec.o: src/preload/exec.c src/preload/realsym.h \
 src/preload/tracer.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h src/preload/allocmap.h src/preload/hot.h \
 src/record/collector.h src/record/clock.h src/record/ring.h \
 src/preload/config.h src/preload/streams.h src/record/shm_transport.h \
 src/record/shm_layout.h src/record/writer_thread.h
src/preload/realsym.h:
src/preload/tracer.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/preload/allocmap.h:
src/preload/hot.h:
src/record/collector.h:
src/record/clock.h:
src/record/ring.h:
src/preload/config.h:
src/preload/streams.h:
src/record/shm_transport.h:
src/record/shm_layout.h:
src/record/writer_thread.h:
