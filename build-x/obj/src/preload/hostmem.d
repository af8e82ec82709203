build-x/obj/src/preload/hostmem.o: src/preload/hostmem.c \
 src/preload/evidence.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h src/preload/config.h src/preload/hot.h \
 src/record/collector.h src/record/clock.h src/record/ring.h
src/preload/evidence.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/preload/config.h:
src/preload/hot.h:
src/record/collector.h:
src/record/clock.h:
src/record/ring.h:
