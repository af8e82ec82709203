build-x/obj/src/preload/stacks.o: src/preload/stacks.c \
 src/preload/evidence.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h src/preload/config.h src/preload/hot.h \
 src/record/collector.h src/record/clock.h src/record/ring.h \
 src/preload/tracer.h src/preload/allocmap.h src/preload/streams.h \
 src/record/shm_transport.h src/record/shm_layout.h \
 src/record/writer_thread.h
src/preload/evidence.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/preload/config.h:
src/preload/hot.h:
src/record/collector.h:
src/record/clock.h:
src/record/ring.h:
src/preload/tracer.h:
src/preload/allocmap.h:
src/preload/streams.h:
src/record/shm_transport.h:
src/record/shm_layout.h:
src/record/writer_thread.h:
