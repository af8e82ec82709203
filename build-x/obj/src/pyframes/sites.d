build-x/obj/src/pyframes/sites.o: src/pyframes/sites.c \
 src/preload/tracer.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h src/preload/allocmap.h src/preload/hot.h \
 src/record/collector.h src/record/clock.h src/record/ring.h \
 src/preload/config.h src/preload/streams.h src/record/shm_transport.h \
 src/record/shm_layout.h src/record/writer_thread.h \
 src/pyframes/pyframes.h src/pyframes/sites.h src/preload/selftime.h
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
src/pyframes/pyframes.h:
src/pyframes/sites.h:
src/preload/selftime.h:
