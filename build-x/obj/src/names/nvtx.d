build-x/obj/src/names/nvtx.o: src/names/nvtx.c include/hipvis/trace.h \
 include/hipvis/api.h include/hipvis/api_cuda.h src/names/names.h \
 src/preload/config.h src/preload/hot.h src/record/collector.h \
 src/record/clock.h src/record/ring.h src/preload/realsym.h
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/names/names.h:
src/preload/config.h:
src/preload/hot.h:
src/record/collector.h:
src/record/clock.h:
src/record/ring.h:
src/preload/realsym.h:
