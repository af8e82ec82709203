build-x/obj/src/preload/allocmap.o: src/preload/allocmap.c \
 src/preload/allocmap.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h src/preload/hot.h src/record/collector.h \
 src/record/clock.h src/record/ring.h
src/preload/allocmap.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/preload/hot.h:
src/record/collector.h:
src/record/clock.h:
src/record/ring.h:
