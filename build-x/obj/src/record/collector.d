build-x/obj/src/record/collector.o: src/record/collector.c \
 src/record/collector.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h src/record/clock.h src/record/ring.h
src/record/collector.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/record/clock.h:
src/record/ring.h:
